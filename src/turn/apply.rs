//! Committing a turn: everything the turn changes, in one unit of work on the store writer
//! (one transaction): the person's message and Donna's answer in memory, plan changes, task
//! changes, the outbox entry, the turn's journal (its model and tool calls) and the inbox row
//! marked done with the result.
//!
//! Invariant: nothing here awaits; it runs on the writer's thread inside its transaction, so a
//! turn's effects are all there or none are.

use rusqlite::Connection;

use crate::actions::{self, journal, UndoOutcome};
use crate::conversation::chat_sessions;
use crate::conversation::escalation_ledger;
use crate::conversation::memory::{self, Kind, Role};
use crate::conversation::plans::{self, PlanStatus};
use crate::conversation::turn_journal;
use crate::events::Payload;
use crate::store::StoreError;
use crate::tasks::repo;

use super::changes;
use super::draft_step;
use super::finish::{finish, summarize};
use super::list_step;
pub use super::proposal::{propose, Proposal};
use super::result::{ShownAction, TurnPath, TurnResult};
use super::texts;
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
    let mut result = TurnResult {
        thread_id: inbound.thread_id.clone(),
        message_id: inbound.message_id.clone(),
        path: TurnPath::Unhandled,
        reply: None,
        actions: Vec::new(),
        pending_plan_id: None,
        results: Vec::new(),
        steps: Vec::new(),
    };
    let mut reply_kind = Kind::Reply;
    let journal_mark = journal::mark(conn)?;
    let undone_from = match (&work, &task_id) {
        (Work::Undo, Some(id)) => repo::get(conn, id)?,
        _ => None,
    };
    let reply = match work {
        Work::ConfirmPlan(plan) => {
            if plans::resolve(conn, &plan.id, PlanStatus::Confirmed, now)? {
                let outcome =
                    actions::execute_plan(conn, thread_id, &env, &plan.actions, &plan.id)?;
                result.path = TurnPath::PlanConfirmed;
                result.actions = plan.actions.iter().map(ShownAction::from).collect();
                let text = if outcome.applied {
                    summarize(&outcome.results)
                } else {
                    texts::plan_not_applied(&outcome.results)
                };
                result.results = outcome.results;
                text
            } else {
                // Expired or cancelled between the read and this commit.
                result.path = TurnPath::PlanExpired;
                texts::plan_gone(true)
            }
        }
        Work::RejectPlan(plan) => {
            plans::resolve(conn, &plan.id, PlanStatus::Rejected, now)?;
            result.path = TurnPath::PlanRejected;
            texts::PLAN_REJECTED.to_string()
        }
        Work::PlanReplaced(plan) => {
            result.path = TurnPath::PlanExpired;
            result.pending_plan_id = Some(plan.id.clone());
            reply_kind = Kind::Plan;
            texts::plan_replaced(&plan.reply_text)
        }
        Work::PlanGone { expired } => {
            result.path = TurnPath::PlanExpired;
            texts::plan_gone(expired)
        }
        Work::NothingToConfirm => texts::NOTHING_TO_CONFIRM.to_string(),
        Work::Undo => {
            match actions::undo_last(conn, thread_id, &inbound.user_id, now, undo_window)? {
                UndoOutcome::Undone(text) => {
                    result.path = TurnPath::Undone;
                    text
                }
                UndoOutcome::Nothing => texts::NOTHING_TO_UNDO.to_string(),
                UndoOutcome::NotYours => texts::NOT_YOURS_TO_UNDO.to_string(),
                UndoOutcome::TooLate(summary) => texts::too_late_to_undo(&summary),
                UndoOutcome::Changed(reason) => reason,
            }
        }
        Work::Execute(bound) => {
            let results = actions::execute_all(conn, thread_id, &env, &bound, None)?;
            result.path = TurnPath::Fast;
            result.actions = bound.iter().map(ShownAction::from).collect();
            let text = summarize(&results);
            result.results = results;
            text
        }
        Work::Capture(action) => {
            let results =
                actions::execute_all(conn, thread_id, &env, std::slice::from_ref(&*action), None)?;
            result.path = if results.iter().all(|result| result.ok) {
                TurnPath::TaskCreated
            } else {
                // Refused by the handler (a field it would not take): nothing was created.
                TurnPath::Clarify
            };
            result.actions = vec![ShownAction::from(&*action)];
            let text = summarize(&results);
            result.results = results;
            text
        }
        Work::Propose {
            actions: bound,
            preamble,
            path,
            steps,
        } => {
            result.steps = steps;
            let proposal = Proposal {
                thread_id,
                requester_id: &inbound.user_id,
                expiry: plan_expiry,
            };
            let plan = propose(conn, &proposal, bound, &env)?;
            result.path = path;
            result.actions = plan.actions.iter().map(ShownAction::from).collect();
            result.pending_plan_id = Some(plan.id.clone());
            reply_kind = Kind::Plan;
            match preamble.filter(|text| !text.trim().is_empty()) {
                Some(preamble) => format!("{}\n\n{}", preamble.trim(), plan.reply_text),
                None => plan.reply_text,
            }
        }
        Work::Say { path, text } => {
            result.path = path;
            text
        }
        Work::List { path, text, step } => {
            list_step::apply(conn, thread_id, step, now)?;
            result.path = path;
            text
        }
        Work::ChatActions {
            run,
            said,
            path,
            session,
            steps,
        } => {
            chat_sessions::record_turn(conn, thread_id, session, now)?;
            let results = actions::execute_all(conn, thread_id, &env, &run, None)?;
            (result.path, result.steps) = (path, steps);
            result.actions = run.iter().map(ShownAction::from).collect();
            let done = summarize(&results);
            result.results = results;
            [said, done]
                .into_iter()
                .filter(|text| !text.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n\n")
        }
        Work::Escalation {
            settle,
            interrupted,
            text,
            path,
            session,
        } => {
            if let Some(settle) = settle {
                escalation_ledger::settle(conn, &settle, now)?;
            }
            if let Some(offer_id) = interrupted {
                escalation_ledger::interrupted(conn, &offer_id, now)?;
            }
            if path == TurnPath::Escalated {
                chat_sessions::record_turn(conn, thread_id, session, now)?;
            }
            result.path = path;
            text
        }
        Work::Chat { text, session } => {
            chat_sessions::record_turn(conn, thread_id, session, now)?;
            result.path = TurnPath::Chat;
            text
        }
        Work::Answer(text, steps) => {
            (result.path, result.steps) = (TurnPath::Answer, steps);
            text
        }
        Work::SetTimezone(timezone) => {
            crate::people::repo::set(conn, &inbound.user_id, timezone, now)?;
            result.path = TurnPath::Chat;
            crate::people::now_set(timezone, now)
        }
        Work::Silent { path } => {
            result.path = path;
            String::new()
        }
    };
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
