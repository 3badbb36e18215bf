//! The turn's decision: given what the thread knows and what the FastPath made of the message,
//! which room handles it. Pure: no I/O, so every rule of docs/contract.md's "A turn" (and steps 4-5 of
//! its "Free text") is tested directly, as a table of sentences (`tests/it/decide_table.rs`).
//!
//! Rules, in order, for every thread (a nudge thread bound to a task, or a free one):
//! 1. A live plan: confirm -> run it; reject -> cancel it; anything else -> cancel it, go on
//!    (except "what are you waiting on?" and a task's own button: `keep_the_live_plan`).
//!    A plan committed after the message was received (Donna proposed it while the message was
//!    on its way) is not that message's to answer: a confirm or reject word is told about the
//!    newer plan and changes nothing; anything else leaves it alone and goes on.
//!    A plan made for someone else (in a group, another member's proposal) is not this
//!    message's to answer either: a confirm or reject word is told so and changes nothing;
//!    anything else leaves the plan alone and goes on.
//! 2. A confirm word with no live plan never falls through to an action: if a plan expired or
//!    was cancelled since Donna last spoke, say so; a bare "yes" counts as "done" only as the
//!    direct answer to a nudge about the thread's task; otherwise a bare confirmation (at most
//!    [`BARE_CONFIRMATION_WORDS`] words) is told there is nothing to confirm.
//! 3. "undo" reverts the thread's last action.
//! 4. A thread bound to no task: while Donna's last word there is a nudge about task T (a nudge
//!    delivered into the chat T was captured in), a FastPath intent answers it and acts on T as
//!    in T's own thread (a bare "yes" too, by rule 2), unless the message opens with a capture
//!    command; anything else goes to the free-text room.
//! 5. A FastPath intent runs its action (or proposes it, for `confirm: true` intents and
//!    hedged ones: sarcasm, someone else's report).
//! 6. A closing ("thanks, that's all", "cool, see you tomorrow", "you're the best") gets a
//!    short friendly answer, as in a free chat.
//! 7. Anything else goes to the next layer (the model).

use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::actions::Intent;
use crate::conversation::memory::Kind;
use crate::conversation::plans::{Plan, PlanStatus};
use crate::replies::analysis::Analysis;
use crate::replies::matcher::{FastPathOutcome, IntentMatch, PlanAnswer};
use crate::sentence::Sentence;

use super::context::TurnContext;
use super::readings::Readings;
use super::Inbound;

/// Longest reply (in words) read as a bare confirmation when no plan is waiting.
pub const BARE_CONFIRMATION_WORDS: usize = 4;

/// What happens to the thread's live plan, if there is one.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanStep {
    Keep,
    Cancel(Plan),
}

/// Which room handles the message.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    ConfirmPlan(Plan),
    RejectPlan(Plan),
    /// A yes or no sent before this (live) plan was proposed: it was meant for an older one.
    PlanReplaced(Plan),
    /// A confirmation for a plan that is gone; `expired` tells which way it went.
    PlanGone {
        expired: bool,
    },
    NothingToConfirm,
    /// A yes or no from someone other than the person the live plan was made for.
    NotYours(Plan),
    Undo,
    /// A message in a thread bound to no task: the free-text room.
    FreeText,
    Intent(IntentMatch),
    /// In a thread bound to no task: the answer to the nudge about `TurnContext::nudged_task`
    /// delivered here; the intent acts on that task as in its own thread.
    AnswerNudge(IntentMatch),
    /// Only a closing ("thanks, that's all", "see you tomorrow"): a friendly answer.
    Closing,
    /// No rule above applies: the next layer's turn.
    NextLayer,
    /// A button's change to one task (`turn::decide_click`): the thread's task, or in a free
    /// thread the task the click names (`TurnContext::nudged_task`).
    Clicked(Intent),
}

/// What the turn made of its message.
pub struct Decided {
    pub context: TurnContext,
    /// The words, read: None for a click, whose words are not read.
    pub words: Option<Words>,
    pub plan_step: PlanStep,
    pub next: Next,
    pub now: DateTime<Utc>,
}

/// A message's words as the turn read them, once.
pub struct Words {
    /// The message's one reading, its core without a grouped nudge's number ("2 done").
    pub said: Arc<Sentence>,
    /// What the FastPath made of it.
    pub analysis: Analysis,
    /// The free-text rules' readings, made once for the gate, the live plan and the room
    /// (`Next::FreeText` only).
    pub readings: Option<Readings>,
}

/// What rule 1 makes of a message's answer to the thread's live plan.
pub(super) enum LivePlan {
    /// The answer decides the turn (a confirm, a reject, not this message's to answer).
    Answered(Next),
    /// A live plan this message does not answer: what happens to it.
    Left(PlanStep),
    /// No live plan is this message's to answer.
    None,
}

/// Rule 1: the thread's live plan, given what the message says to it (`answer`).
pub(super) fn live_plan(context: &TurnContext, answer: PlanAnswer, now: DateTime<Utc>) -> LivePlan {
    let live_plan = context
        .latest_plan
        .as_ref()
        .filter(|plan| plan.is_live(now));
    if let Some(plan) = live_plan.filter(|plan| !plan.answerable_by(&context.author_id)) {
        if answer != PlanAnswer::Neither {
            return LivePlan::Answered(Next::NotYours(plan.clone()));
        }
    }
    // Someone else's plan stays as it is: for this message there is none.
    let live_plan = live_plan.filter(|plan| plan.answerable_by(&context.author_id));
    let sent_before_it = |plan: &&Plan| {
        context
            .received_seq()
            .is_some_and(|seq| !plan.proposed_before(seq))
    };
    if let Some(plan) = live_plan.filter(sent_before_it) {
        if answer != PlanAnswer::Neither {
            return LivePlan::Answered(Next::PlanReplaced(plan.clone()));
        }
        return LivePlan::Left(PlanStep::Keep);
    }
    match (live_plan, answer) {
        (Some(plan), PlanAnswer::Confirm) => LivePlan::Answered(Next::ConfirmPlan(plan.clone())),
        (Some(plan), PlanAnswer::Reject) => LivePlan::Answered(Next::RejectPlan(plan.clone())),
        (Some(plan), PlanAnswer::Neither) => LivePlan::Left(PlanStep::Cancel(plan.clone())),
        (None, _) => LivePlan::None,
    }
}

pub fn decide(context: &TurnContext, analysis: &Analysis, now: DateTime<Utc>) -> (PlanStep, Next) {
    let mut plan_step = PlanStep::Keep;
    match live_plan(context, analysis.plan_answer, now) {
        LivePlan::Answered(next) => return (PlanStep::Keep, next),
        LivePlan::Left(step) => plan_step = step,
        LivePlan::None => {
            if let Some(next) = confirm_without_a_plan(context, analysis, now) {
                return (PlanStep::Keep, next);
            }
        }
    }
    if analysis.undo {
        return (plan_step, Next::Undo);
    }
    if let FastPathOutcome::Match(intent) = &analysis.outcome {
        // A confirm word is never an action on its own (unless it answers the nudge, above).
        if intent.only_confirm_word && analysis.only_agreement {
            return (plan_step, Next::NothingToConfirm);
        }
    }
    if context.thread.task_id.is_none() {
        if context.nudged_task.is_some() && !analysis.capture_command {
            // The nudge delivered here is still Donna's last word: a keyword answers it. A
            // capture command ("add milk tomorrow") asks for a new task whatever its keywords.
            if let FastPathOutcome::Match(intent) = &analysis.outcome {
                if !intent.only_confirm_word {
                    return (plan_step, Next::AnswerNudge(intent.clone()));
                }
            }
        }
        return (plan_step, Next::FreeText);
    }
    match &analysis.outcome {
        FastPathOutcome::Match(intent) if intent.only_confirm_word => (plan_step, Next::NextLayer),
        FastPathOutcome::Match(intent) => (plan_step, Next::Intent(intent.clone())),
        FastPathOutcome::FallThrough(_) if analysis.closing => (plan_step, Next::Closing),
        FastPathOutcome::FallThrough(_) => (plan_step, Next::NextLayer),
    }
}

/// Rule 2: a confirm word with no live plan to answer. Some: what the turn does instead of
/// falling through to an action.
fn confirm_without_a_plan(
    context: &TurnContext,
    analysis: &Analysis,
    now: DateTime<Utc>,
) -> Option<Next> {
    if analysis.plan_answer != PlanAnswer::Confirm && !analysis.confirm_word {
        return None;
    }
    if let Some(expired) = plan_gone_since_donna_spoke(context, now) {
        return Some(Next::PlanGone { expired });
    }
    let answers_nudge =
        context.thread.task_id.is_some() && matches!(context.last_donna, Some((_, Kind::Nudge)));
    let answers_nudge_here = context.thread.task_id.is_none() && context.nudged_task.is_some();
    // "yes", "ok, go ahead"; not "yeah, sent it", whose content is what it says.
    let bare = analysis.only_agreement && analysis.words <= BARE_CONFIRMATION_WORDS;
    match &analysis.outcome {
        FastPathOutcome::Match(intent) if !intent.only_confirm_word => None,
        FastPathOutcome::Match(intent) if answers_nudge => Some(Next::Intent(intent.clone())),
        FastPathOutcome::Match(intent) if answers_nudge_here => {
            Some(Next::AnswerNudge(intent.clone()))
        }
        // "yes" / "ok, go ahead" with nothing to confirm: say so, do nothing. A longer reply
        // that merely contains "do it" ("I'll do it after the gym") goes on to the next layer.
        _ if analysis.plan_answer == PlanAnswer::Confirm && bare => Some(Next::NothingToConfirm),
        _ => None,
    }
}

/// Some(expired?) when the thread's latest plan ended without a yes or no after Donna last
/// spoke (so a "yes" now was meant for it).
fn plan_gone_since_donna_spoke(context: &TurnContext, now: DateTime<Utc>) -> Option<bool> {
    let plan = context.latest_plan.as_ref()?;
    let (ended_at, expired) = match plan.status {
        PlanStatus::Pending if now >= plan.expires_at => (plan.expires_at, true),
        PlanStatus::Expired => (plan.resolved_at.unwrap_or(plan.expires_at), true),
        PlanStatus::Cancelled => (plan.resolved_at?, false),
        _ => return None,
    };
    match context.last_donna {
        // Donna's last word was the proposal itself, or she has not spoken since it ended.
        Some((_, Kind::Plan)) => Some(expired),
        Some((spoke_at, _)) if spoke_at < ended_at => Some(expired),
        None => Some(expired),
        _ => None,
    }
}

/// What happens to the chat's live proposal beyond `decide`'s rules: "what are you waiting
/// on?" lists it instead of dropping it (every other message that is not its answer drops it:
/// docs/contract.md "Free text" step 4), and a task's own button (the web page's Done) leaves it too:
/// the click acts on its task, it is no new turn of the conversation.
pub fn keep_the_live_plan(
    plan_step: PlanStep,
    next: &Next,
    inbound: &Inbound,
    readings: Option<&Readings>,
) -> PlanStep {
    use crate::capture::rules::{Question, Reading};
    let waiting_on =
        readings.is_some_and(|readings| readings.rules == Reading::Question(Question::WaitingOn));
    match (&plan_step, next) {
        (PlanStep::Cancel(_), _) if inbound.about_task.is_some() => PlanStep::Keep,
        (PlanStep::Cancel(_), Next::FreeText) if waiting_on => PlanStep::Keep,
        _ => plan_step,
    }
}
