//! A proposal: the actions saved as one plan for the sender to confirm (`turn::proposal`);
//! Donna's answer is the model's preamble, if any, then the plan in her words.

use crate::actions::BoundAction;
use crate::store::StoreError;

use super::super::proposal::{propose, Proposal};
use super::super::result::{PlannerStep, TurnPath};
use super::answered::{Answered, At};

pub fn commit(
    at: &At<'_>,
    actions: Vec<BoundAction>,
    preamble: Option<String>,
    path: TurnPath,
    steps: Vec<PlannerStep>,
) -> Result<Answered, StoreError> {
    let proposal = Proposal {
        thread_id: at.thread_id(),
        requester_id: &at.inbound.user_id,
        expiry: at.plan_expiry,
    };
    let plan = propose(at.conn, &proposal, actions, at.env)?;
    let text = match preamble.filter(|text| !text.trim().is_empty()) {
        Some(preamble) => format!("{}\n\n{}", preamble.trim(), plan.reply_text),
        None => plan.reply_text.clone(),
    };
    Ok(Answered::new(path, text)
        .ran(&plan.actions, Vec::new())
        .after(steps)
        .proposing(plan.id))
}
