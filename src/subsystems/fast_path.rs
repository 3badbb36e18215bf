//! The FastPath actor: the keyword layer (config/reply_intents.yaml).
//!
//! Owns: the compiled matcher. Takes: `Analyze` (one message's reading, `crate::sentence`, and
//! the title of the task it answers about) and answers with everything the turn needs from it at
//! once: the intent outcome, the plan answer, undo, confirm word, a closing.
//! A message whose core no keyword matched that says nothing but a time ("friday 3pm", "in 2
//! hours") is read here as the reschedule intent, "give me an hour" as the snooze intent
//! ([`analyze_reply`]), and one that says how long its task takes ("it takes about an hour",
//! `tasks::estimate_said`) as the estimate intent (`actions::estimate`): the time reader sits
//! above the keyword layer, so the two meet in this actor.
//! Invariant: pure; no I/O, and the message is never read again here (its reading comes
//! with it), so it answers in microseconds.

use std::sync::Arc;

use crate::actions::estimate;
use crate::live::Live;
use actors::{Behaviour, CellCtx, Handled, Reply};

use crate::replies::analysis::{analyze, Analysis};
use crate::replies::matcher::{FallThroughReason, FastPath, FastPathOutcome};
use crate::sentence::lexicon::{self, commands::ASK_AGAIN_AT};
use crate::sentence::Sentence;
use crate::tasks::estimate_said::estimate_said;
use crate::tasks::when::names_only_a_time;

pub enum FastPathMsg {
    Analyze {
        sentence: Arc<Sentence>,
        /// The title of the task the message answers about (a nudge thread's, a nudged one's).
        task_title: Option<String>,
        reply: Reply<Analysis>,
    },
}

pub struct FastPathActor {
    /// The compiled intents in force (replaced by a hot reload of the intents file).
    matcher: Live<FastPath>,
}

impl FastPathActor {
    pub fn new(matcher: Live<FastPath>) -> Self {
        Self { matcher }
    }
}

/// The actions of config/reply_actions.yaml that a reply asks for without a keyword.
const RESCHEDULE_ACTION: &str = "reschedule";
const SNOOZE_ACTION: &str = "snooze";

/// Everything the turn decides from: the keyword analysis of the message's core, where a core
/// no keyword matched (`NoKeyword`) that says nothing but a time ("friday 3pm") reads as the
/// reschedule intent, and "give me" with nothing but a time after it ("give me an hour") as the
/// snooze intent ([`FastPath::answer_for_action`]). A negated, questioned or too complex reply
/// stays what it was, and so does one with any other word ("can you give me a few hours").
///
/// The core is the message without its wrapper: "yeah, sent it" reads as "sent it" (the plan
/// answer and the confirm word stay those of the whole message), and a request to be asked
/// again at a time ("remind me friday", "I'll do it at 6", "let's say tomorrow") is the
/// reschedule intent when nothing but a time follows.
#[must_use]
pub fn analyze_reply(
    matcher: &FastPath,
    sentence: &Sentence,
    task_title: Option<&str>,
) -> Analysis {
    let mut analysis = analyze(matcher, sentence, task_title);
    if analysis.closing {
        // "cool, see you tomorrow" says goodbye: no time in it is an answer.
        return analysis;
    }
    let core = sentence.core_words();
    let core_text = sentence.core_text();
    // Whatever the keyword layer fell through on ("should take 20 minutes" opens like a
    // question, "an hour or so" holds "or", "half an hour" a "not quite"), the estimate's reader
    // asks the clause's own mood and negation, reads the core alone and takes no word it does
    // not know; a reply too long for the keyword layer stays the model's.
    let fell_through = matches!(analysis.outcome, FastPathOutcome::FallThrough(reason) if reason != FallThroughReason::TooLong);
    if let Some(minutes) = estimate_said(sentence).filter(|_| fell_through) {
        analysis.outcome = FastPathOutcome::Match(estimate::intent(minutes, core_text));
        return analysis;
    }
    if let FastPathOutcome::FallThrough(
        FallThroughReason::NoKeyword | FallThroughReason::MultiIntent,
    ) = analysis.outcome
    {
        if let Some(time) = time_after_request(sentence, &core) {
            if names_only_a_time(time) {
                if let Some(intent) = matcher.answer_for_action(RESCHEDULE_ACTION, core_text) {
                    analysis.outcome = FastPathOutcome::Match(intent);
                    return analysis;
                }
            }
        }
    }
    // A qualifier that negates a keyword ("half done") can be part of a time ("in half an
    // hour", "in an hour and a half"): a reply that is nothing but a time is still a time.
    let only_a_time_negated = analysis.outcome
        == FastPathOutcome::FallThrough(FallThroughReason::Negated)
        && names_only_a_time(core_text);
    if analysis.outcome != FastPathOutcome::FallThrough(FallThroughReason::NoKeyword)
        && !only_a_time_negated
    {
        return analysis;
    }
    let action = if names_only_a_time(core_text) {
        Some(RESCHEDULE_ACTION)
    } else {
        asks_for_time(sentence, &core).then_some(SNOOZE_ACTION)
    };
    if let Some(intent) = action.and_then(|action| matcher.answer_for_action(action, core_text)) {
        analysis.outcome = FastPathOutcome::Match(intent);
    }
    analysis
}

/// The words after an [`ASK_AGAIN_AT`] opening of the core, as written; None without one.
fn time_after_request<'s>(sentence: &'s Sentence, core: &[&str]) -> Option<&'s str> {
    let opening = ASK_AGAIN_AT
        .iter()
        .filter(|opening| lexicon::starts_with(core, opening))
        .map(|opening| opening.len())
        .max()?;
    if opening >= core.len() {
        return None;
    }
    Some(sentence.core_text_from(sentence.core().start + opening))
}

/// "give me" and then nothing but a time; "a"/"an" before the unit counts as one ("give me an
/// hour": the time reader reads "an hour" only after a moving verb).
fn asks_for_time(sentence: &Sentence, core: &[&str]) -> bool {
    if !lexicon::starts_with(core, &["give", "me"]) || core.len() < 3 {
        return false;
    }
    let from = sentence.core().start + 2;
    let counted = if matches!(core[2], "a" | "an") && core.len() > 3 {
        format!("1 {}", sentence.core_text_from(from + 1))
    } else {
        sentence.core_text_from(from).to_string()
    };
    names_only_a_time(&counted)
}

impl Behaviour for FastPathActor {
    type Msg = FastPathMsg;

    fn handle(&mut self, message: FastPathMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            FastPathMsg::Analyze {
                sentence,
                task_title,
                reply,
            } => {
                let matcher = self.matcher.get();
                reply.send(analyze_reply(&matcher, &sentence, task_title.as_deref()));
            }
        }
        Handled::Done
    }
}
