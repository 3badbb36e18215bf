//! Evidence: whether a reply contains any of the words that can justify an action ("paid",
//! "finished" for marking a task done; "drop", "don't need" for cancelling it). The model layer
//! drops every proposed action the reply gives no ground for; this file only answers "is one of
//! these phrases in this reply, meant positively?".
//!
//! Invariants:
//! - A reply and a phrase are read by the one tokenizer ([`super::words`]), so matching is by
//!   whole words ("paid" is not in "unpaid"), case- and quote-insensitive, never across a
//!   clause break.
//! - A phrase preceded in its clause, within [`NEGATION_WINDOW`] words, by a negator or a
//!   qualifier that says "not (quite)" ("not", "never", any word ending in "n't", "almost",
//!   "half", ...) is no ground: "I haven't paid it" does not justify marking it paid. A phrase
//!   that itself starts with such a word ("don't need", "not today") is read as written.

use super::words::{keyword_words, normalize, tokenize, KeywordProblem, Token};

/// How many words before a phrase a negator still cancels it ("not really quite done").
pub const NEGATION_WINDOW: usize = 3;

/// Words that make what follows not (yet) so. Words ending in "n't" are negators too.
const NEGATORS: &[&str] = &[
    "not",
    "no",
    "never",
    "without",
    "almost",
    "nearly",
    "half",
    "partly",
    "partially",
    "barely",
];

/// A compiled list of phrases that can ground an action.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Grounds {
    phrases: Vec<Vec<String>>,
}

/// Why a phrase can never be found in a reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GroundsError {
    #[error("{0:?} has no words")]
    NoWords(String),
    #[error("{0:?} spans a clause break (, . ; : ! ?), which no reply can match")]
    SpansClauses(String),
}

impl Grounds {
    /// Compiles `phrases` (as written in the actions file).
    pub fn new(phrases: &[String]) -> Result<Self, GroundsError> {
        let phrases = phrases
            .iter()
            .map(|phrase| {
                keyword_words(phrase).map_err(|problem| match problem {
                    KeywordProblem::NoWords => GroundsError::NoWords(phrase.clone()),
                    KeywordProblem::SpansClauses => GroundsError::SpansClauses(phrase.clone()),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self { phrases })
    }

    /// The compiled phrases, each as its words.
    pub fn phrases(&self) -> &[Vec<String>] {
        &self.phrases
    }

    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    /// Whether one of the phrases occurs in `reply`, not negated.
    pub fn found_in(&self, reply: &str) -> bool {
        if self.phrases.is_empty() {
            return false;
        }
        let text = normalize(reply);
        let mut tokens = Vec::new();
        tokenize(&text, &mut tokens);
        // Words of each clause, in order; a phrase never spans two clauses.
        let mut clause: Vec<&str> = Vec::new();
        for token in tokens.iter().chain(std::iter::once(&Token::Break {
            comma: false,
            question_mark: false,
        })) {
            match token.word_in(&text) {
                Some(word) => clause.push(word),
                None => {
                    if self.found_in_clause(&clause) {
                        return true;
                    }
                    clause.clear();
                }
            }
        }
        false
    }

    fn found_in_clause(&self, words: &[&str]) -> bool {
        self.phrases.iter().any(|phrase| {
            let Some(first) = phrase.first() else {
                return false;
            };
            let reads_as_written = is_negator(first);
            (0..words.len()).any(|start| {
                let end = start + phrase.len();
                end <= words.len()
                    && words[start..end].iter().zip(phrase).all(|(w, p)| w == p)
                    && (reads_as_written || !negated(&words[..start]))
            })
        })
    }
}

/// Whether one of the last `NEGATION_WINDOW` words before a phrase negates it.
fn negated(before: &[&str]) -> bool {
    before
        .iter()
        .rev()
        .take(NEGATION_WINDOW)
        .any(|w| is_negator(w))
}

fn is_negator(word: &str) -> bool {
    word.ends_with("n't") || NEGATORS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grounds(phrases: &[&str]) -> Grounds {
        let phrases: Vec<String> = phrases.iter().map(|p| p.to_string()).collect();
        Grounds::new(&phrases).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn phrases_are_whole_words_and_negation_cancels_them() {
        let done = grounds(&["paid", "finished", "took care of"]);
        let cancel = grounds(&["drop", "don't need", "no longer need"]);
        let table: &[(&Grounds, &str, bool)] = &[
            (&done, "I paid it this morning", true),
            (&done, "Paid!", true),
            (&done, "finished it yesterday, all sorted", true),
            (&done, "I took care of it", true),
            (&done, "it's still unpaid", false),
            (&done, "I haven't paid it yet", false),
            (&done, "not finished, need another hour", false),
            (&done, "almost finished", false),
            (&done, "I never really paid it", false),
            (&done, "no, but I paid the other one", true),
            (&done, "can't do it today", false),
            (&cancel, "I don't need this anymore", true),
            (&cancel, "I no longer need it", true),
            (&cancel, "please drop it", true),
            (&cancel, "don't drop it", false),
            (&cancel, "I need it", false),
            (&cancel, "dropping by the shop later", false),
        ];
        for (grounds, reply, expected) in table {
            assert_eq!(grounds.found_in(reply), *expected, "{reply:?}");
        }
    }

    #[test]
    fn a_phrase_across_a_clause_break_is_refused() {
        let phrases = vec!["took, care".to_string()];
        assert!(matches!(
            Grounds::new(&phrases),
            Err(GroundsError::SpansClauses(_))
        ));
    }
}
