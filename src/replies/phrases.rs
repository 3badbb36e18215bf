//! The compiled vocabulary of the FastPath: every keyword phrase with its role (an intent's
//! keyword, a confirm / reject / undo word, a negator, a multi-intent or multi-task signal),
//! indexed by its first word, and reading a reply into the phrases it contains.
//!
//! Invariants: a reply is read from its one reading (`crate::sentence`), never tokenized
//! again, and scanned once, whatever the vocabulary size; one text can be several phrases ("don't" is a reject keyword and a
//! negator), each its own occurrence; a longer phrase of the same family covering a shorter one
//! wins ("not now" over "now").

use std::collections::HashMap;

use crate::sentence::lexicon::Words;
use crate::sentence::tokens::Token;
use crate::sentence::View;

/// The phrases, and how far back a negator reaches.
#[derive(Debug)]
pub(super) struct Phrases {
    phrases: Vec<Phrase>,
    /// Phrase indexes by first word, so a reply is scanned once whatever the vocabulary size.
    by_first_word: HashMap<Box<str>, Vec<usize>, Words>,
    negation_window: usize,
}

/// One keyword phrase of the vocabulary.
#[derive(Debug)]
struct Phrase {
    words: Box<[Box<str>]>,
    /// As written in the config, for the intent match's `keyword`.
    keyword: Box<str>,
    role: Role,
}

/// What a phrase means. One text can be several phrases ("don't" is a reject keyword and a
/// negator), each found as its own occurrence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Intent { index: usize, also_confirm: bool },
    Confirm,
    Reject,
    Undo,
    Negator,
    MultiIntentSignal,
    MultiTaskSignal,
}

impl Role {
    pub(super) fn is_intent(self) -> bool {
        matches!(self, Role::Intent { .. })
    }

    pub(super) fn is_confirm(self) -> bool {
        self == Role::Confirm
    }

    pub(super) fn is_plan_answer(self) -> bool {
        matches!(self, Role::Confirm | Role::Reject)
    }

    pub(super) fn is_undo(self) -> bool {
        self == Role::Undo
    }

    /// Words the user says to mean something, as opposed to grammar (negators, signals).
    pub(super) fn is_keyword(self) -> bool {
        !matches!(
            self,
            Role::Negator | Role::MultiIntentSignal | Role::MultiTaskSignal
        )
    }
}

/// A phrase found in a reply, over tokens `start..end` (all words).
#[derive(Debug, Clone, Copy)]
pub(super) struct Occurrence {
    pub(super) start: usize,
    pub(super) end: usize,
    phrase: usize,
}

impl Occurrence {
    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }

    fn covers(&self, token: usize) -> bool {
        self.start <= token && token < self.end
    }
}

/// A reply (a run of a sentence's tokens) and every phrase occurrence in it.
pub(super) struct Reply<'a> {
    text: &'a str,
    pub(super) tokens: &'a [Token],
    pub(super) occurrences: Vec<Occurrence>,
}

impl<'a> Reply<'a> {
    /// The normalized text the tokens index into.
    pub(super) fn text(&self) -> &'a str {
        self.text
    }

    pub(super) fn word(&self, token: usize) -> Option<&str> {
        self.tokens.get(token)?.word_in(self.text)
    }

    pub(super) fn ends_with_question_mark(&self) -> bool {
        matches!(
            self.tokens.last(),
            Some(Token::Break {
                question_mark: true,
                ..
            })
        )
    }

    /// Comma-separated clauses that hold at least one word; other breaks do not split clauses.
    pub(super) fn clause_count(&self) -> usize {
        let mut clauses = 0;
        let mut clause_has_word = false;
        for token in self.tokens {
            match token {
                Token::Word { .. } => clause_has_word = true,
                Token::Break { comma: true, .. } if clause_has_word => {
                    clauses += 1;
                    clause_has_word = false;
                }
                Token::Break { .. } => {}
            }
        }
        clauses + usize::from(clause_has_word)
    }
}

impl Phrases {
    pub(super) fn new(negation_window: usize) -> Self {
        Self {
            phrases: Vec::new(),
            by_first_word: HashMap::default(),
            negation_window,
        }
    }

    /// Adds a phrase (its words already normalized) with its role.
    pub(super) fn add(&mut self, keyword: &str, words: Vec<String>, role: Role) {
        let Some(first_word) = words.first() else {
            return;
        };
        let index = self.phrases.len();
        self.by_first_word
            .entry(first_word.as_str().into())
            .or_default()
            .push(index);
        self.phrases.push(Phrase {
            words: words.into_iter().map(String::into_boxed_str).collect(),
            keyword: keyword.into(),
            role,
        });
    }

    /// Finds every phrase in a reply, read from its sentence.
    pub(super) fn read<'a>(&self, view: View<'a>) -> Reply<'a> {
        let (text, tokens) = (view.normalized(), view.tokens);
        let mut occurrences = Vec::new();
        for start in 0..tokens.len() {
            let Some(first_word) = tokens[start].word_in(text) else {
                continue;
            };
            let Some(candidates) = self.by_first_word.get(first_word) else {
                continue;
            };
            for &phrase in candidates {
                let words = &self.phrases[phrase].words;
                let end = start + words.len();
                let rest_matches = words.iter().enumerate().skip(1).all(|(offset, word)| {
                    tokens
                        .get(start + offset)
                        .and_then(|token| token.word_in(text))
                        == Some(&**word)
                });
                if rest_matches {
                    occurrences.push(Occurrence { start, end, phrase });
                }
            }
        }
        Reply {
            text,
            tokens,
            occurrences,
        }
    }

    pub(super) fn role(&self, occurrence: Occurrence) -> Role {
        self.phrases[occurrence.phrase].role
    }

    /// The keyword of an occurrence, as written in the config.
    pub(super) fn keyword(&self, occurrence: Occurrence) -> &str {
        &self.phrases[occurrence.phrase].keyword
    }

    /// A longer phrase of the same family covering this one wins ("not now" over "now").
    pub(super) fn is_shadowed(
        &self,
        reply: &Reply<'_>,
        occurrence: Occurrence,
        family: fn(Role) -> bool,
    ) -> bool {
        reply.occurrences.iter().any(|other| {
            family(self.role(*other))
                && other.start <= occurrence.start
                && occurrence.end <= other.end
                && other.len() > occurrence.len()
        })
    }

    /// Whether a negator (or a word ending in "n't") sits within `negation_window` words before
    /// the occurrence in the same clause. Words inside a phrase of the `consumers` family are
    /// part of that phrase, not negators: the "not" of "not now" negates neither "not now" nor
    /// the "busy" in "not now I'm busy".
    pub(super) fn is_negated(
        &self,
        reply: &Reply<'_>,
        occurrence: Occurrence,
        consumers: fn(Role) -> bool,
    ) -> bool {
        self.negated_before(reply, occurrence.start, consumers)
    }

    /// Whether a negator stands within `negation_window` words before token `start` in its
    /// clause (see [`Phrases::is_negated`]).
    pub(super) fn negated_before(
        &self,
        reply: &Reply<'_>,
        start: usize,
        consumers: fn(Role) -> bool,
    ) -> bool {
        let mut token = start;
        let mut words_seen = 0;
        while token > 0 && words_seen < self.negation_window {
            token -= 1;
            let Some(word) = reply.word(token) else {
                break;
            };
            words_seen += 1;
            let consumed = reply
                .occurrences
                .iter()
                .any(|other| other.covers(token) && consumers(self.role(*other)));
            if consumed {
                continue;
            }
            let negator_here = reply.occurrences.iter().any(|other| {
                other.start == token && other.end <= start && self.role(*other) == Role::Negator
            });
            if negator_here || word.ends_with("n't") {
                return true;
            }
        }
        false
    }

    pub(super) fn has_negation(&self, reply: &Reply<'_>) -> bool {
        reply
            .occurrences
            .iter()
            .any(|occurrence| self.role(*occurrence) == Role::Negator)
            || (0..reply.tokens.len())
                .filter_map(|token| reply.word(token))
                .any(|word| word.ends_with("n't"))
    }
}
