//! Answering a plan: a yes runs it (all its steps or none, checked again here: a plan that
//! expired or was cancelled since the turn read it is gone), a no drops it, a yes or no meant
//! for an older plan points at the one waiting now, and a yes with nothing to confirm says so.

use crate::actions;
use crate::conversation::plans::{self, Plan, PlanStatus};
use crate::store::StoreError;

use super::super::finish::summarize;
use super::super::result::TurnPath;
use super::super::texts;
use super::answered::{Answered, At};

pub fn confirm(at: &At<'_>, plan: Plan) -> Result<Answered, StoreError> {
    if !plans::resolve(at.conn, &plan.id, PlanStatus::Confirmed, at.now)? {
        // Expired or cancelled between the read and this commit.
        return Ok(Answered::new(TurnPath::PlanExpired, texts::plan_gone(true)));
    }
    let outcome = actions::execute_plan(at.conn, at.thread_id(), at.env, &plan.actions, &plan.id)?;
    let text = if outcome.applied {
        summarize(&outcome.results)
    } else {
        texts::plan_not_applied(&outcome.results)
    };
    Ok(Answered::new(TurnPath::PlanConfirmed, text).ran(&plan.actions, outcome.results))
}

pub fn reject(at: &At<'_>, plan: Plan) -> Result<Answered, StoreError> {
    plans::resolve(at.conn, &plan.id, PlanStatus::Rejected, at.now)?;
    Ok(Answered::new(TurnPath::PlanRejected, texts::PLAN_REJECTED))
}

/// A yes or no sent before this (live) plan was proposed: say which plan waits now.
pub fn replaced(plan: Plan) -> Answered {
    Answered::new(
        TurnPath::PlanExpired,
        texts::plan_replaced(&plan.reply_text),
    )
    .proposing(plan.id)
}

pub fn gone(expired: bool) -> Answered {
    Answered::new(TurnPath::PlanExpired, texts::plan_gone(expired))
}

pub fn nothing_to_confirm() -> Answered {
    Answered::new(TurnPath::Unhandled, texts::NOTHING_TO_CONFIRM)
}
