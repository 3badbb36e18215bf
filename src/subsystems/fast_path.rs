//! The FastPath actor: the keyword layer (config/reply_intents.yaml).
//!
//! Owns: the compiled matcher. Takes: `Analyze` (one reply) and answers with everything the
//! turn needs from it at once: the intent outcome, the plan answer, undo, confirm word.
//! A reply no keyword matched that says nothing but a time ("friday 3pm", "in 2 hours") is read
//! here as the reschedule intent, "give me an hour" as the snooze intent ([`analyze_reply`]):
//! the time reader sits above the keyword layer, so the two meet in this actor.
//! Invariant: pure; no I/O, so it answers in microseconds.

use crate::live::Live;
use actors::{Behaviour, CellCtx, Handled, Reply};

use crate::replies::analysis::{analyze, Analysis};
use crate::replies::matcher::{FallThroughReason, FastPath, FastPathOutcome};
use crate::tasks::when::names_only_a_time;

pub enum FastPathMsg {
    Analyze {
        text: String,
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
/// Asks for time, when nothing but an amount follows ("give me an hour").
const ASKING_FOR_TIME: &str = "give me ";

/// Everything the turn decides from: the keyword analysis, where a reply no keyword matched
/// (`NoKeyword`) that says nothing but a time ("friday 3pm") reads as the reschedule intent,
/// and "give me" with nothing but a time after it ("give me an hour") as the snooze intent
/// ([`FastPath::answer_for_action`]). A negated, questioned or too complex reply stays what it
/// was, and so does one with any other word ("can you give me a few hours").
#[must_use]
pub fn analyze_reply(matcher: &FastPath, text: &str) -> Analysis {
    let mut analysis = analyze(matcher, text);
    if analysis.outcome != FastPathOutcome::FallThrough(FallThroughReason::NoKeyword) {
        return analysis;
    }
    let action = if names_only_a_time(text) {
        Some(RESCHEDULE_ACTION)
    } else {
        asks_for_time(text).then_some(SNOOZE_ACTION)
    };
    if let Some(intent) = action.and_then(|action| matcher.answer_for_action(action, text)) {
        analysis.outcome = FastPathOutcome::Match(intent);
    }
    analysis
}

/// "give me" (any case) and then nothing but a time; "a"/"an" before the unit counts as one
/// ("give me an hour": the time reader reads "an hour" only after a moving verb).
fn asks_for_time(text: &str) -> bool {
    let trimmed = text.trim_start();
    let opens = trimmed
        .get(..ASKING_FOR_TIME.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(ASKING_FOR_TIME));
    let Some(rest) = trimmed.get(ASKING_FOR_TIME.len()..).filter(|_| opens) else {
        return false;
    };
    let rest = rest.trim_start();
    let lower = rest.to_lowercase();
    let counted = ["an ", "a "]
        .iter()
        .find_map(|article| lower.strip_prefix(article))
        .map_or_else(|| lower.clone(), |unit| format!("1 {unit}"));
    names_only_a_time(&counted)
}

impl Behaviour for FastPathActor {
    type Msg = FastPathMsg;

    fn handle(&mut self, message: FastPathMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            FastPathMsg::Analyze { text, reply } => {
                reply.send(analyze_reply(&self.matcher.get(), &text));
            }
        }
        Handled::Done
    }
}
