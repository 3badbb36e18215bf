//! A click's decision: which room a button's intent goes to, without reading any words. The
//! rooms and the checks are those of the words the button stands for (`decide`'s rules):
//! - Yes / No answer exactly the proposal the click names, only while it is live, only from the
//!   person it was made for, and only if it was proposed before the click was received (rule 1);
//!   a click on a proposal that is over is told so and changes nothing.
//! - A task's button (Done, Snooze, Tomorrow, a chosen time, rename, cancel) goes to the room a
//!   keyword reply would reach, on the thread's task or the task its click names (`Next::Clicked`;
//!   the turn's context already refused a click whose nudge or task can no longer be answered).
//!   A live proposal of the person's is dropped as any other message drops it, unless the click
//!   names a task of the web page (`decide::keep_the_live_plan`).
//! - Undo is "undo".
//!
//! Pure: no I/O, like `decide`.

use chrono::{DateTime, Utc};

use crate::actions::Intent;
use crate::conversation::plans::PlanStatus;
use crate::replies::matcher::PlanAnswer;

use super::context::TurnContext;
use super::decide::{live_plan, LivePlan, Next, PlanStep};

/// The room for a click of `intent`, naming the proposal `answers_plan` when it answers one.
pub fn decide_click(
    context: &TurnContext,
    intent: &Intent,
    answers_plan: Option<&str>,
    now: DateTime<Utc>,
) -> (PlanStep, Next) {
    if let Some(yes) = intent.answers_proposal() {
        let answer = if yes {
            PlanAnswer::Confirm
        } else {
            PlanAnswer::Reject
        };
        let next = match live_plan(context, answer, now) {
            LivePlan::Answered(next) => pin_to_plan(next, answers_plan),
            LivePlan::Left(_) | LivePlan::None => proposal_over(context, answers_plan),
        };
        return (PlanStep::Keep, next);
    }
    let plan_step = match live_plan(context, PlanAnswer::Neither, now) {
        LivePlan::Left(step) => step,
        LivePlan::Answered(_) | LivePlan::None => PlanStep::Keep,
    };
    let next = match intent {
        Intent::Undo => Next::Undo,
        _ => Next::Clicked(intent.clone()),
    };
    (plan_step, next)
}

/// What a yes or no is told when the proposal it names is no longer live.
fn proposal_over(context: &TurnContext, named: Option<&str>) -> Next {
    match &context.latest_plan {
        Some(plan) if Some(plan.id.as_str()) == named => match plan.status {
            PlanStatus::Pending | PlanStatus::Expired => Next::PlanGone { expired: true },
            PlanStatus::Cancelled => Next::PlanGone { expired: false },
            PlanStatus::Confirmed | PlanStatus::Rejected => Next::NothingToConfirm,
        },
        // A newer proposal replaced it (and is over too): the named one was cancelled.
        _ => Next::PlanGone { expired: false },
    }
}

/// A click that names the plan it answers confirms or rejects that plan
/// only: a yes or no that would land on another (newer) plan is told about that plan instead,
/// and changes nothing.
pub fn pin_to_plan(next: Next, answers_plan: Option<&str>) -> Next {
    match (next, answers_plan) {
        (Next::ConfirmPlan(plan) | Next::RejectPlan(plan), Some(named)) if plan.id != named => {
            Next::PlanReplaced(plan)
        }
        (next, _) => next,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversation::plans::Plan;

    fn plan(id: &str) -> Plan {
        Plan {
            id: id.into(),
            thread_id: "t".into(),
            actions: Vec::new(),
            reply_text: "Shall I?".into(),
            status: PlanStatus::Pending,
            created_at: DateTime::<Utc>::UNIX_EPOCH,
            expires_at: DateTime::<Utc>::UNIX_EPOCH,
            resolved_at: None,
            proposed_after_seq: 0,
            requester_id: None,
        }
    }

    #[test]
    fn a_message_naming_its_plan_answers_that_plan_only() {
        let newer = plan("pln_new");
        // (what the rules decided, the plan the message names, what happens)
        let table = [
            (
                Next::ConfirmPlan(newer.clone()),
                Some("pln_new"),
                Next::ConfirmPlan(newer.clone()),
            ),
            (
                Next::RejectPlan(newer.clone()),
                Some("pln_new"),
                Next::RejectPlan(newer.clone()),
            ),
            (
                Next::ConfirmPlan(newer.clone()),
                None,
                Next::ConfirmPlan(newer.clone()),
            ),
            // A click on an older plan never confirms or rejects the newer one.
            (
                Next::ConfirmPlan(newer.clone()),
                Some("pln_old"),
                Next::PlanReplaced(newer.clone()),
            ),
            (
                Next::RejectPlan(newer.clone()),
                Some("pln_old"),
                Next::PlanReplaced(newer.clone()),
            ),
            // Anything else is left as decided.
            (
                Next::NothingToConfirm,
                Some("pln_old"),
                Next::NothingToConfirm,
            ),
            (
                Next::PlanGone { expired: true },
                Some("pln_old"),
                Next::PlanGone { expired: true },
            ),
        ];
        for (next, named, expected) in table {
            assert_eq!(
                pin_to_plan(next.clone(), named),
                expected,
                "{next:?} {named:?}"
            );
        }
    }
}
