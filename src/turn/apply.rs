//! Committing a turn: everything the turn changes, in one unit of work on the store writer
//! (one transaction). The steps every turn shares are here: the inbox row (one-write path), the
//! turn's journal (its model and tool calls), the person's message in memory, a cancelled plan,
//! then the work's own commit (`Work::commit`: one file per kind in `turn::work` says what it
//! writes and answers), the draft, the nudge backoff, the changed tasks, and Donna's answer in
//! memory and the outbox with the inbox row marked done (`finish`).
//!
//! Invariant: nothing here awaits; it runs on the writer's thread inside its transaction, so a
//! turn's effects are all there or none are.

use rusqlite::Connection;

use crate::actions::journal;
use crate::conversation::memory::{self, Kind, Role};
use crate::conversation::plans::{self, PlanStatus};
use crate::conversation::turn_journal;
use crate::events::Payload;
use crate::store::StoreError;
use crate::tasks::repo;

use super::changes;
use super::draft_step;
use super::finish::finish;
pub use super::proposal::{propose, Proposal};
use super::result::{TurnPath, TurnResult};
use super::work::At;
pub use super::work::{TurnWork, Work};

/// A committed turn: its result and the `task` events its changes make (published by the
/// caller once the transaction is durable).
#[derive(Debug, Clone)]
pub struct Committed {
    pub result: TurnResult,
    pub tasks: Vec<Payload>,
}

pub fn commit(conn: &Connection, turn: TurnWork) -> Result<Committed, StoreError> {
    let TurnWork {
        inbound,
        task_id,
        cancel_plan,
        work,
        draft,
        env,
        undo_window,
        plan_expiry,
        journal: calls,
        write_inbox_row,
    } = turn;
    let now = env.now;
    let thread_id = inbound.thread_id.as_str();
    if let Some(received_at) = write_inbox_row {
        crate::conversation::inbox::accept(conn, &inbound, received_at)?;
    }
    turn_journal::insert(conn, thread_id, &inbound.message_id, &calls, now)?;
    memory::append(
        conn,
        thread_id,
        Role::User,
        Kind::Message,
        Some(&inbound.user_id),
        &inbound.text,
        now,
    )?;
    if let Some(plan) = &cancel_plan {
        plans::resolve(conn, &plan.id, PlanStatus::Cancelled, now)?;
    }
    let journal_mark = journal::mark(conn)?;
    let undone_from = match (&work, &task_id) {
        (Work::Undo, Some(id)) => repo::get(conn, id)?,
        _ => None,
    };
    let at = At {
        conn,
        inbound: &inbound,
        env: &env,
        now,
        undo_window,
        plan_expiry,
    };
    let answered = work.commit(&at)?;
    let reply_kind = if answered.pending_plan_id.is_some() {
        Kind::Plan
    } else {
        Kind::Reply
    };
    let mut result = TurnResult {
        thread_id: inbound.thread_id.clone(),
        message_id: inbound.message_id.clone(),
        path: answered.path,
        reply: None,
        actions: answered.actions,
        pending_plan_id: answered.pending_plan_id,
        results: answered.results,
        steps: answered.steps,
    };
    let reply = answered.text;
    draft_step::apply(conn, thread_id, &inbound.user_id, draft, now, plan_expiry)?;
    if let Some(task_id) = &task_id {
        // The person answered: the nudge backoff starts over.
        repo::reset_unanswered_nudges(conn, task_id)?;
    }
    let undone = undone_from.filter(|_| result.path == TurnPath::Undone);
    let tasks =
        changes::changed_tasks(conn, journal::journaled_after(conn, journal_mark)?, undone)?;
    finish(conn, &inbound, &mut result, Some(reply), reply_kind, now)?;
    Ok(Committed { result, tasks })
}
