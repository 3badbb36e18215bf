//! Everything the keyword layer can say about one reply, in one value: the intent outcome, how
//! it answers a pending plan, whether it asks to undo, whether it holds a confirm word, and how
//! many words it has. The turn decides from this without reading the text again.
//!
//! Invariant: pure; computing an analysis reads nothing but the compiled [`FastPath`].

use super::matcher::{FastPath, FastPathOutcome, PlanAnswer};

/// What the FastPath made of a reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub outcome: FastPathOutcome,
    pub plan_answer: PlanAnswer,
    pub undo: bool,
    pub confirm_word: bool,
    /// Words in the reply: a confirmation on its own is short ("yes", "ok, go ahead").
    pub words: usize,
}

/// Everything the FastPath can say about a reply.
#[must_use]
pub fn analyze(matcher: &FastPath, text: &str) -> Analysis {
    Analysis {
        outcome: matcher.classify(text),
        plan_answer: matcher.plan_answer(text),
        undo: matcher.is_undo(text),
        confirm_word: matcher.is_confirm_word(text),
        words: text.split_whitespace().count(),
    }
}
