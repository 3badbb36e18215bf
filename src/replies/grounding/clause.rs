//! A message as grounding reads it: clauses of words (split at `, . ; : ! ?` and line breaks by
//! the one tokenizer), each knowing whether it asks something, and which of its words are
//! negated or only intended ("I'll pay it").
//!
//! Invariants (pure):
//! - A clause that ends in "?" asks something, unless it is a polite request ("can you move
//!   it?", "could you please...", "would you mind...") or a suggestion ("how about friday?").
//!   "can we do friday instead?" suggests, so it is a request too. A clause that opens with a question word followed by a verb ("what's left", "when is it
//!   due") or with a verb before its subject ("is it done", "did you move it") asks something
//!   too; "did it (this morning)" is a report and "do it" an order, without a question mark.
//! - A word is negated when a negator stands within [`NEGATION_WINDOW`] words before it in its
//!   clause, or when the clause opens with one ("don't mark the passport thing as done").

use super::super::words::{normalize, tokenize, Token};

/// How many words before a word a negator still cancels it ("not really quite done").
pub const NEGATION_WINDOW: usize = 3;

/// One clause of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// Normalised words, in order.
    pub words: Vec<String>,
    /// Whether the clause asks something (a question, not a request).
    pub asks: bool,
}

/// A message split into clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub clauses: Vec<Clause>,
}

impl Message {
    pub fn read(text: &str) -> Self {
        let text = normalize(text);
        let mut tokens = Vec::new();
        tokenize(&text, &mut tokens);
        let mut clauses = Vec::new();
        let mut words: Vec<String> = Vec::new();
        for token in tokens {
            match token {
                Token::Word { .. } => {
                    if let Some(word) = token.word_in(&text) {
                        words.push(word.to_string());
                    }
                }
                Token::Break { question_mark, .. } => {
                    if !words.is_empty() {
                        let asks = asks(&words, question_mark);
                        clauses.push(Clause {
                            words: std::mem::take(&mut words),
                            asks,
                        });
                    }
                }
            }
        }
        if !words.is_empty() {
            let asks = asks(&words, false);
            clauses.push(Clause { words, asks });
        }
        Self { clauses }
    }

    /// Whether every clause asks something (the whole message is a question).
    pub fn only_asks(&self) -> bool {
        !self.clauses.is_empty() && self.clauses.iter().all(|clause| clause.asks)
    }

    /// Every word of the message, in order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.clauses
            .iter()
            .flat_map(|clause| clause.words.iter().map(String::as_str))
    }
}

const QUESTION_WORDS: &[&str] = &[
    "what", "when", "where", "who", "whom", "whose", "why", "how", "which", "what's", "whats",
    "when's", "where's", "who's", "how's", "hows", "whens", "wheres",
];

/// Verbs that open a question when they come before their subject ("is it done").
const AUXILIARIES: &[&str] = &[
    "is",
    "are",
    "am",
    "was",
    "were",
    "do",
    "does",
    "did",
    "have",
    "has",
    "had",
    "can",
    "could",
    "should",
    "will",
    "would",
    "shall",
    "may",
    "might",
    "isn't",
    "aren't",
    "didn't",
    "doesn't",
    "don't",
    "haven't",
    "hasn't",
    "wasn't",
    "weren't",
    "won't",
    "can't",
    "shouldn't",
];

const SUBJECTS: &[&str] = &[
    "i",
    "you",
    "u",
    "we",
    "they",
    "he",
    "she",
    "it",
    "that",
    "this",
    "there",
    "my",
    "the",
    "mum",
    "anyone",
    "someone",
    "everything",
    "anything",
];

/// Whether a clause asks something (see the module header).
fn asks(words: &[String], question_mark: bool) -> bool {
    let first = words.first().map(String::as_str).unwrap_or_default();
    let second = words.get(1).map(String::as_str).unwrap_or_default();
    if is_request(words) {
        return false;
    }
    if question_mark {
        return true;
    }
    if QUESTION_WORDS.contains(&first) {
        // "what's left", "when is it due"; not "when I'm back I'll do it".
        let contracted =
            first.contains('\'') || matches!(first, "whats" | "hows" | "whens" | "wheres");
        return contracted || AUXILIARIES.contains(&second);
    }
    if AUXILIARIES.contains(&first) && SUBJECTS.contains(&second) {
        // "did it" (a report) and "do it" (an order) ask nothing.
        return !(matches!(first, "did" | "do") && second == "it");
    }
    false
}

/// A polite request or a suggestion, which a question mark does not make a question: "can you
/// move it?", "could you please add milk?", "would you mind...", "how about friday?", "why
/// not friday?", "please ...?".
fn is_request(words: &[String]) -> bool {
    let word = |index: usize| words.get(index).map(String::as_str).unwrap_or_default();
    if words
        .iter()
        .any(|word| word == "please" || word == "pls" || word == "plz")
    {
        return true;
    }
    let modal = matches!(
        word(0),
        "can" | "could" | "would" | "will" | "can't" | "cant"
    );
    if modal && matches!(word(1), "you" | "u" | "ya" | "we") {
        return true;
    }
    matches!(
        (word(0), word(1)),
        ("how", "about") | ("what", "about") | ("why", "not") | ("mind", _)
    )
}

/// Words that make what follows not so. Words ending in "n't" are negators too.
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
    "dont",
    "didnt",
    "havent",
    "hasnt",
    "wont",
    "cant",
    "isnt",
    "nor",
    "neither",
    "hardly",
];

pub fn is_negator(word: &str) -> bool {
    word.ends_with("n't") || NEGATORS.contains(&word)
}

impl Clause {
    /// Whether the word at `index` is negated (see the module header).
    pub fn negated_at(&self, index: usize) -> bool {
        let word = |at: usize| self.words.get(at).map(String::as_str).unwrap_or_default();
        // "don't mark it done", "never mind the rent", "please don't move it", "do not ...";
        // a clause opening with "no" is an answer ("no, I paid it"), not a negated order.
        let opens_negated = (is_negator(word(0)) && word(0) != "no")
            || (matches!(word(0), "do" | "please" | "pls") && is_negator(word(1)));
        if opens_negated && index > 0 {
            return true;
        }
        self.words[..index.min(self.words.len())]
            .iter()
            .rev()
            .take(NEGATION_WINDOW)
            .any(|word| is_negator(word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clause_asks_when_it_is_a_question_and_not_when_it_is_a_request() {
        let table = [
            ("how is the passport thing going?", true),
            ("is the passport done", true),
            ("did I pay the rent", true),
            ("what's left", true),
            ("when is it due", true),
            ("done?", true),
            ("did it", false),
            ("did it this morning", false),
            ("do it", false),
            ("can you move it to friday?", false),
            ("could you please mark it done?", false),
            ("how about friday?", false),
            ("when I'm back I'll do it", false),
            ("I paid it", false),
        ];
        for (text, expected) in table {
            assert_eq!(Message::read(text).only_asks(), expected, "{text:?}");
        }
    }

    #[test]
    fn negators_cancel_what_follows_in_their_clause() {
        let negated = |text: &str, word: &str| {
            let message = Message::read(text);
            message.clauses.iter().any(|clause| {
                clause
                    .words
                    .iter()
                    .position(|w| w == word)
                    .is_some_and(|index| clause.negated_at(index))
            })
        };
        assert!(negated("don't mark the passport thing as done", "done"));
        assert!(negated("I haven't paid it", "paid"));
        assert!(negated("not done yet", "done"));
        assert!(!negated("no, but I paid the other one", "paid"));
        assert!(!negated("done, not the other one", "done"));
    }
}
