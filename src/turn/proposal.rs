//! A proposal: the plan a turn saves when it needs a yes (a likely duplicate, an automation, the
//! model's actions), worded from the validated actions themselves.
//!
//! Invariants: one pending plan per thread (saving one cancels the previous); a plan remembers
//! the last inbox `seq` at its commit (only later messages may answer it) and the person it was
//! made for (only they may answer it).

use rusqlite::Connection;

use crate::actions::{describe, ActionEnv, BoundAction};
use crate::conversation::inbox;
use crate::conversation::plans::{self, Plan, PlanStatus};
use crate::store::StoreError;

use super::texts;
/// Where a plan is proposed, for whom, and for how long.
pub struct Proposal<'a> {
    pub thread_id: &'a str,
    /// The author of the message that led to it: only they may answer it.
    pub requester_id: &'a str,
    pub expiry: chrono::Duration,
}

/// Saves a plan of `bound` (cancelling the thread's previous one) and words its proposal from
/// the validated actions themselves.
pub fn propose(
    conn: &Connection,
    proposal: &Proposal<'_>,
    bound: Vec<BoundAction>,
    env: &ActionEnv,
) -> Result<Plan, StoreError> {
    let (now, expiry) = (env.now, proposal.expiry);
    let steps = bound
        .iter()
        .map(|action| describe::describe(conn, action, env))
        .collect::<Result<Vec<_>, _>>()?;
    let plan = Plan {
        id: crate::ids::new_id("pln"),
        thread_id: proposal.thread_id.to_string(),
        reply_text: texts::proposal(&steps, expiry.num_minutes()),
        actions: bound,
        status: PlanStatus::Pending,
        created_at: now,
        expires_at: crate::clock::add(now, expiry),
        resolved_at: None,
        proposed_after_seq: inbox::last_seq(conn)?,
        requester_id: Some(proposal.requester_id.to_string()),
    };
    plans::save(conn, &plan)?;
    Ok(plan)
}
