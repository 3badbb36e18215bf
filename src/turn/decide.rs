//! The turn's decision: given what the thread knows and what the FastPath made of the reply,
//! what happens. Pure: no I/O, so every rule of DESIGN.md's "A turn" is tested directly.
//!
//! Rules, in order:
//! 1. A thread bound to no task: say what Donna can do here (free text comes later).
//! 2. A live plan: confirm -> run it; reject -> cancel it; anything else -> cancel it, go on.
//! 3. A confirm word with no live plan never falls through to an action: if a plan expired or
//!    was cancelled since Donna last spoke, say so; a bare "yes" counts as "done" only as the
//!    direct answer to a nudge; otherwise say there is nothing to confirm.
//! 4. "undo" reverts the thread's last action.
//! 5. A FastPath intent runs its action (or proposes it, for `confirm: true` intents).
//! 6. Anything else goes to the next layer (the LLM).

use chrono::{DateTime, Utc};

use crate::conversation::memory::Kind;
use crate::conversation::plans::{Plan, PlanStatus};
use crate::replies::matcher::{FastPathOutcome, IntentMatch, PlanAnswer};

use super::context::TurnContext;

/// What the FastPath actor made of a reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub outcome: FastPathOutcome,
    pub plan_answer: PlanAnswer,
    pub undo: bool,
    pub confirm_word: bool,
    /// Words in the reply: a confirmation on its own is short ("yes", "ok, go ahead").
    pub words: usize,
}

/// Longest reply (in words) read as a bare confirmation when no plan is waiting.
pub const BARE_CONFIRMATION_WORDS: usize = 4;

/// What happens to the thread's live plan, if there is one.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanStep {
    Keep,
    Cancel(Plan),
}

/// The main decision.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    FreeThread,
    ConfirmPlan(Plan),
    RejectPlan(Plan),
    /// A confirmation for a plan that is gone; `expired` tells which way it went.
    PlanGone {
        expired: bool,
    },
    NothingToConfirm,
    Undo,
    Intent(IntentMatch),
    /// No rule above applies: the next layer's turn.
    NextLayer,
}

pub fn decide(context: &TurnContext, analysis: &Analysis, now: DateTime<Utc>) -> (PlanStep, Next) {
    if context.thread.task_id.is_none() {
        return (PlanStep::Keep, Next::FreeThread);
    }
    let live_plan = context
        .latest_plan
        .as_ref()
        .filter(|plan| plan.is_live(now));
    let mut plan_step = PlanStep::Keep;
    if let Some(plan) = live_plan {
        match analysis.plan_answer {
            PlanAnswer::Confirm => return (PlanStep::Keep, Next::ConfirmPlan(plan.clone())),
            PlanAnswer::Reject => return (PlanStep::Keep, Next::RejectPlan(plan.clone())),
            PlanAnswer::Neither => plan_step = PlanStep::Cancel(plan.clone()),
        }
    } else if analysis.plan_answer == PlanAnswer::Confirm || analysis.confirm_word {
        if let Some(expired) = plan_gone_since_donna_spoke(context, now) {
            return (plan_step, Next::PlanGone { expired });
        }
        let answers_nudge = matches!(context.last_donna, Some((_, Kind::Nudge)));
        let bare = analysis.words <= BARE_CONFIRMATION_WORDS;
        match &analysis.outcome {
            FastPathOutcome::Match(intent) if !intent.only_confirm_word => {}
            FastPathOutcome::Match(intent) if answers_nudge => {
                return (plan_step, Next::Intent(intent.clone()));
            }
            // "yes" / "ok, go ahead" with nothing to confirm: say so, do nothing. A longer reply
            // that merely contains "do it" ("I'll do it after the gym") goes on to the next layer.
            _ if analysis.plan_answer == PlanAnswer::Confirm && bare => {
                return (plan_step, Next::NothingToConfirm);
            }
            _ => {}
        }
    }
    if analysis.undo {
        return (plan_step, Next::Undo);
    }
    match &analysis.outcome {
        FastPathOutcome::Match(intent) if intent.only_confirm_word => {
            // A confirm word is never an action on its own (unless it answers the nudge, above).
            if analysis.words <= BARE_CONFIRMATION_WORDS {
                (plan_step, Next::NothingToConfirm)
            } else {
                (plan_step, Next::NextLayer)
            }
        }
        FastPathOutcome::Match(intent) => (plan_step, Next::Intent(intent.clone())),
        FastPathOutcome::FallThrough(_) => (plan_step, Next::NextLayer),
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
