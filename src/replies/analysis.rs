//! Everything the keyword layer can say about one reply, in one value: the intent outcome, how
//! it answers a pending plan, whether it asks to undo, whether it holds a confirm word, whether
//! it opens with a capture command, and how many words it has. The turn decides from this without reading the text again.
//!
//! Invariant: pure; computing an analysis reads nothing but the compiled [`FastPath`].

use super::agreement;
use super::matcher::{FastPath, FastPathOutcome, PlanAnswer};
use super::words::{normalize, tokenize, Token};

/// The first words of a capture command (docs/contract.md "Free text", step 7: "add X", "todo: X",
/// "new task: X", "remind me ...", "don't forget to X", "every monday ..."). A message that opens
/// with one asks for a new task, so it never answers a nudge delivered into a free chat, even
/// when a keyword in it ("add milk tomorrow") would read as one.
const CAPTURE_OPENERS: &[&[&str]] = &[
    &["add"],
    &["todo"],
    &["to", "do"],
    &["new", "task"],
    &["new", "todo"],
    &["remind"],
    &["don't", "forget"],
    &["dont", "forget"],
    &["every"],
    &["create"],
];

/// What the FastPath made of a reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub outcome: FastPathOutcome,
    pub plan_answer: PlanAnswer,
    pub undo: bool,
    pub confirm_word: bool,
    /// The reply opens with a capture command ([`CAPTURE_OPENERS`]).
    pub capture_command: bool,
    /// Words in the reply.
    pub words: usize,
    /// The reply is nothing but agreement ("yes", "ok, go ahead", "sure thing, thanks"): a
    /// bare confirmation. "yeah, sent it" is not: it says something ([`super::agreement`]).
    pub only_agreement: bool,
}

/// Everything the FastPath can say about a reply.
#[must_use]
pub fn analyze(matcher: &FastPath, text: &str) -> Analysis {
    Analysis {
        outcome: matcher.classify(text),
        plan_answer: matcher.plan_answer(text),
        undo: matcher.is_undo(text),
        confirm_word: matcher.is_confirm_word(text),
        capture_command: opens_with_capture_command(text),
        words: text.split_whitespace().count(),
        only_agreement: agreement::only_agreement(matcher, text),
    }
}

/// Whether the first words of `text` are one of [`CAPTURE_OPENERS`].
fn opens_with_capture_command(text: &str) -> bool {
    let normalized = normalize(text);
    let mut tokens = Vec::new();
    tokenize(&normalized, &mut tokens);
    let first: Vec<&str> = tokens
        .iter()
        .take_while(|token| token.is_word())
        .take(2)
        .filter_map(|token: &Token| token.word_in(&normalized))
        .collect();
    CAPTURE_OPENERS
        .iter()
        .any(|opener| first.len() >= opener.len() && first[..opener.len()] == **opener)
}
