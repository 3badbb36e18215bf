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

use crate::replies::agreement::content_after_agreement;
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
///
/// Two more readings: agreement followed by content is the content ("yeah, sent it" reads as
/// "sent it"; the plan answer and the confirm word stay those of the whole reply), and a request
/// to be asked again at a time ("remind me friday", "I'll do it at 6", "let's say tomorrow") is
/// the reschedule intent when nothing but a time follows.
#[must_use]
pub fn analyze_reply(matcher: &FastPath, text: &str) -> Analysis {
    let mut analysis = analyze(matcher, text);
    if let Some(content) = content_after_agreement(matcher, text) {
        let inner = analyze_reply(matcher, &content);
        if let FastPathOutcome::Match(intent) = &inner.outcome {
            if !intent.only_confirm_word {
                analysis.outcome = inner.outcome;
                return analysis;
            }
        }
        if matches!(analysis.outcome, FastPathOutcome::Match(ref intent) if intent.only_confirm_word)
        {
            // "yep that's sorted now": not a bare "yes", and no keyword says what it is.
            analysis.outcome = inner.outcome;
        }
    }
    if let FastPathOutcome::FallThrough(
        FallThroughReason::NoKeyword | FallThroughReason::MultiIntent,
    ) = analysis.outcome
    {
        if let Some(time) = time_after_request(text) {
            if names_only_a_time(&time) {
                if let Some(intent) = matcher.answer_for_action(RESCHEDULE_ACTION, text) {
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
        && names_only_a_time(text);
    if analysis.outcome != FastPathOutcome::FallThrough(FallThroughReason::NoKeyword)
        && !only_a_time_negated
    {
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

/// Openings that ask to be asked again, or say when it will be done: what follows is the time.
const ASK_AGAIN_AT: &[&str] = &[
    "remind me again",
    "remind me",
    "ask me again",
    "ask me",
    "ping me",
    "nudge me",
    "bug me",
    "check with me",
    "check back",
    "try me again",
    "try me",
    "i'll do it",
    "ill do it",
    "i will do it",
    "i'll do that",
    "i'll get to it",
    "i'll get it done",
    "i can do it",
    "let's do it",
    "lets do it",
    "let's do",
    "lets do",
    "do it",
    "make it",
    "let's say",
    "lets say",
    "how about",
    "what about",
    "maybe",
];

/// The words after an [`ASK_AGAIN_AT`] opening, lower-cased; None without one.
fn time_after_request(text: &str) -> Option<String> {
    let lower = text.trim().to_lowercase().replace('\u{2019}', "'");
    ASK_AGAIN_AT
        .iter()
        .find_map(|opening| {
            let rest = lower.strip_prefix(opening)?;
            // A whole word: "remind me" is not "remind meat".
            (rest.is_empty() || rest.starts_with([' ', ',']))
                .then(|| rest.trim_matches([' ', ',']).to_string())
        })
        .filter(|rest| !rest.is_empty())
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
