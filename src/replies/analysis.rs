//! Everything the keyword layer can say about one message, in one value: the intent outcome
//! of its core (the wrapper of phatic words set aside: "ok, done thanks" reads as "done"), a
//! report in the task's own verb ("sent" for "Send the invoice"), how the whole message answers
//! a pending plan, whether it asks to undo, whether it holds a confirm word, whether it opens
//! with a capture command, whether it only closes the conversation, and how many words it has.
//! The turn decides from this without reading the text again.
//!
//! Invariant: pure; computing an analysis reads nothing but the message's one reading
//! (`crate::sentence`) and the compiled [`FastPath`].

use super::agreement;
use super::matcher::{FallThroughReason, FastPath, FastPathOutcome, PlanAnswer, MARK_DONE};
use crate::sentence::lexicon::{self, commands::CAPTURE_COMMANDS};
use crate::sentence::Sentence;

/// First words that open a capture besides the capture commands
/// (`sentence::lexicon::commands::CAPTURE_COMMANDS`): a schedule ("every monday ..."), and a
/// command's first word said alone ("remind", "create", "to do").
const OTHER_OPENERS: &[&[&str]] = &[&["every"], &["remind"], &["create"], &["to", "do"]];

/// Whether the core opens with a capture command (docs/contract.md "Free text", step 7: "add
/// X", "todo: X", "new task: X", "remind me ...", "don't forget to X", "every monday ..."). A
/// message that opens with one asks for a new task, so it never answers a nudge delivered into
/// a free chat, even when a keyword in it ("add milk tomorrow") would read as one.
fn opens_a_capture(core: &[&str]) -> bool {
    lexicon::longest_opening(core, &CAPTURE_COMMANDS).is_some()
        || lexicon::longest_opening(core, OTHER_OPENERS).is_some()
}

/// What the FastPath made of a message.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub outcome: FastPathOutcome,
    pub plan_answer: PlanAnswer,
    pub undo: bool,
    pub confirm_word: bool,
    /// The core opens with a capture command ([`opens_a_capture`]).
    pub capture_command: bool,
    /// Words in the message.
    pub words: usize,
    /// The message is nothing but agreement ("yes", "ok, go ahead", "sure thing, thanks"): a
    /// bare confirmation. "yeah, sent it" is not: it says something ([`super::agreement`]).
    pub only_agreement: bool,
    /// Every clause closes the conversation ("thanks, see you tomorrow", "you're the best").
    pub closing: bool,
}

/// Everything the FastPath can say about a message. `task_title`: the title of the task the
/// message answers about, if any (its verb's past form reports it done).
#[must_use]
pub fn analyze(matcher: &FastPath, sentence: &Sentence, task_title: Option<&str>) -> Analysis {
    let (whole, core) = (sentence.whole(), sentence.core_view());
    let mut outcome = matcher.classify(core);
    if let FastPathOutcome::FallThrough(_) = outcome {
        if let Some(report) =
            task_title.and_then(|title| super::title_report::title_report(matcher, core, title))
        {
            outcome = FastPathOutcome::Match(report);
        } else if sentence.has_wrapper() {
            // Both fall through: say why the message as written did (a question stays one).
            if let FastPathOutcome::FallThrough(reason) = matcher.classify(whole) {
                outcome = FastPathOutcome::FallThrough(reason);
            }
        }
    }
    // "cool, see you tomorrow", "talk to you later": a goodbye, whatever time word it holds.
    let only_closes = sentence.only_closes();
    let goodbye = only_closes && sentence.says_goodbye();
    if goodbye {
        if let FastPathOutcome::Match(intent) = &outcome {
            if intent.action != MARK_DONE {
                outcome = FastPathOutcome::FallThrough(FallThroughReason::NoKeyword);
            }
        }
    }
    let closing = only_closes && !matches!(outcome, FastPathOutcome::Match(_));
    let confirm_word = matcher.is_confirm_word(whole);
    Analysis {
        outcome,
        plan_answer: matcher.plan_answer(whole),
        undo: matcher.is_undo(core) || (sentence.has_wrapper() && matcher.is_undo(whole)),
        confirm_word,
        capture_command: opens_a_capture(&sentence.core_words()),
        words: sentence.len(),
        only_agreement: agreement::only_agreement(matcher, sentence, confirm_word),
        closing,
    }
}
