//! The plain answers every room gives: `say` (a reply that changes nothing itself) and `ask`
//! (a question that keeps a draft for the answer, given up after `MAX_QUESTIONS`).
//!
//! Invariant: asking never loops: after `MAX_QUESTIONS` questions on one draft Donna gives up
//! (`unhandled`) and drops the draft.

use crate::conversation::drafts::{DraftKind, MAX_QUESTIONS};

use super::apply::Work;
use super::draft_step::DraftStep;
use super::result::TurnPath;
use super::texts;

/// A reply on `path`; the room's work changes nothing else.
pub(super) fn say(path: TurnPath, text: &str) -> Work {
    Work::Say {
        path,
        text: text.to_string(),
    }
}

/// Asks `question` and keeps a draft of `kind` holding `text`; after [`MAX_QUESTIONS`]
/// questions Donna gives up instead (`unhandled`, the draft dropped).
pub(super) fn ask(
    kind: DraftKind,
    text: &str,
    questions: i64,
    question: &str,
) -> (Work, DraftStep) {
    ask_with(kind, text, serde_json::Value::Null, questions, question)
}

pub(super) fn ask_with(
    kind: DraftKind,
    text: &str,
    data: serde_json::Value,
    questions: i64,
    question: &str,
) -> (Work, DraftStep) {
    if questions > MAX_QUESTIONS {
        return (
            say(TurnPath::Unhandled, texts::DRAFT_GIVEN_UP),
            DraftStep::Remove,
        );
    }
    (
        say(TurnPath::Clarify, question),
        DraftStep::Save {
            kind,
            text: text.to_string(),
            data,
            questions,
        },
    )
}
