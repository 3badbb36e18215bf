//! "undo" (docs/contract.md "Undo"): reverts the thread's most recent action not yet undone, within
//! `undo.window`; a second "undo" reverts the one before. A confirmed plan counts as ONE action:
//! all its applied steps are reverted together, newest first, or none is.
//!
//! What is reverted: the fields a change changed (the task as it was before, from the journal),
//! a created task (deleted, unless a thread now refers to it), a confirmed automation
//! (removed), a stopped automation (running again).
//!
//! Refused, with the reason, when a task is no longer as the action left it (changed by hand,
//! through the API or by a later turn; Donna's own bookkeeping such as nudge counts does not
//! count) or no longer exists.
//!
//! In a shared thread "undo" reverts only the sender's own last action (`action_log.author_id`,
//! migration 0013); another member's "undo" changes nothing and says so.
//!
//! Invariant: runs inside the turn's transaction; an undo that cannot revert every step of its
//! action changes nothing (a savepoint) and says why. Undo never crosses threads.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::store::time::{from_db, to_db};
use crate::store::StoreError;
use crate::tasks::{repo, Task};

/// What `undo_last` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoOutcome {
    Undone(String),
    Nothing,
    /// The thread's actions left to undo are another member's: only they can undo them.
    NotYours,
    TooLate(String),
    /// A task changed since the action (or is gone): the sentence saying so.
    Changed(String),
}

/// One journaled action.
struct Logged {
    id: i64,
    plan_id: Option<String>,
    before_json: Option<String>,
    created_task_id: Option<String>,
    summary: String,
    created_at: String,
    created_automation: Option<String>,
    stopped_automation: Option<String>,
    after_json: Option<String>,
}

const COLUMNS: &str = "id, plan_id, before_json, created_task_id, summary, created_at, \
    created_automation_id, stopped_automation_id, after_json";

fn logged(row: &Row<'_>) -> rusqlite::Result<Logged> {
    Ok(Logged {
        id: row.get(0)?,
        plan_id: row.get(1)?,
        before_json: row.get(2)?,
        created_task_id: row.get(3)?,
        summary: row.get(4)?,
        created_at: row.get(5)?,
        created_automation: row.get(6)?,
        stopped_automation: row.get(7)?,
        after_json: row.get(8)?,
    })
}

/// Reverts `author`'s last applied action in the thread (a whole confirmed plan) if it happened
/// within `window`. Actions journaled without an author (before authors were kept) are
/// anyone's. Another member's action is never reverted: when the thread's only actions left
/// are theirs, the outcome says so.
pub fn undo_last(
    conn: &Connection,
    thread_id: &str,
    author: &str,
    now: DateTime<Utc>,
    window: chrono::Duration,
) -> Result<UndoOutcome, StoreError> {
    let last = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM action_log \
             WHERE thread_id = ?1 AND undone_at IS NULL \
               AND (author_id IS NULL OR author_id = ?2) ORDER BY id DESC LIMIT 1"
        ))?
        .query_row(params![thread_id, author], logged)
        .optional()?;
    let Some(last) = last else {
        let someone_elses: bool = conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM action_log WHERE thread_id = ?1 AND undone_at IS NULL)",
            )?
            .query_row([thread_id], |row| row.get(0))?;
        return Ok(if someone_elses {
            UndoOutcome::NotYours
        } else {
            UndoOutcome::Nothing
        });
    };
    if now - from_db(&last.created_at)? > window {
        return Ok(UndoOutcome::TooLate(last.summary));
    }
    let steps = match &last.plan_id {
        Some(plan_id) => {
            let mut statement = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM action_log \
                 WHERE thread_id = ?1 AND plan_id = ?2 AND undone_at IS NULL ORDER BY id DESC"
            ))?;
            let rows = statement.query_map(params![thread_id, plan_id], logged)?;
            rows.collect::<Result<Vec<_>, _>>()?
        }
        None => vec![last],
    };
    for step in &steps {
        if let Some(reason) = changed_since(conn, step)? {
            return Ok(UndoOutcome::Changed(reason));
        }
    }
    conn.execute_batch("SAVEPOINT donna_undo")?;
    let mut said = Vec::new();
    for step in &steps {
        match revert(conn, step, now) {
            Ok(Some(text)) if text.is_empty() => {}
            Ok(Some(text)) => said.push(text),
            Ok(None) => {
                conn.execute_batch("ROLLBACK TO donna_undo; RELEASE donna_undo")?;
                return Ok(UndoOutcome::TooLate(step.summary.clone()));
            }
            Err(error) => {
                conn.execute_batch("ROLLBACK TO donna_undo; RELEASE donna_undo")?;
                return Err(error);
            }
        }
    }
    conn.execute_batch("RELEASE donna_undo")?;
    if said.is_empty() {
        return Ok(UndoOutcome::Nothing);
    }
    // Oldest step first, as the plan said them.
    said.reverse();
    Ok(UndoOutcome::Undone(said.join(" ")))
}

/// Reverts one step; None when it cannot be (a created task a thread now refers to).
fn revert(
    conn: &Connection,
    step: &Logged,
    now: DateTime<Utc>,
) -> Result<Option<String>, StoreError> {
    let restored = if let Some(stopped) = &step.stopped_automation {
        // A stopped automation: running again (occurrences missed meanwhile: only the latest).
        crate::automations::repo::resume(conn, stopped)?;
        let title = crate::automations::repo::get(conn, stopped)?
            .map(|a| a.title)
            .unwrap_or_default();
        format!("Undone: I'll remind you to '{title}' again.")
    } else if let Some(automation) = &step.created_automation {
        // A confirmed automation: removed again (the tasks it already made stay, like any task).
        let title = crate::automations::repo::get(conn, automation)?
            .map(|a| a.title)
            .unwrap_or_default();
        crate::automations::repo::delete(conn, automation)?;
        format!("Undone: I won't remind you to '{title}' any more.")
    } else if let Some(created) = &step.created_task_id {
        let title = repo::get(conn, created)?
            .map(|t| t.title)
            .unwrap_or_default();
        // A created task that a thread now refers to is kept: deleting it would orphan it.
        let referenced: bool = conn
            .prepare_cached("SELECT EXISTS(SELECT 1 FROM thread WHERE task_id = ?1)")?
            .query_row([created], |row| row.get(0))?;
        if referenced {
            return Ok(None);
        }
        repo::delete(conn, created)?;
        format!("Undone: '{title}' is deleted again.")
    } else if let Some(before) = &step.before_json {
        let task: Task =
            serde_json::from_str(before).map_err(|e| StoreError::json("action_log.before", e))?;
        repo::save(conn, &task, now).map_err(|error| match error {
            repo::TaskChangeError::Store(error) => error,
            other => StoreError::Corrupt(other.to_string()),
        })?;
        restored_words(&task, step.after_json.as_deref())
    } else {
        // Nothing journaled to revert (kept as before: says there is nothing to undo).
        return Ok(Some(String::new()));
    };
    conn.execute(
        "UPDATE action_log SET undone_at = ?2 WHERE id = ?1",
        params![step.id, to_db(now)],
    )?;
    Ok(Some(restored))
}

/// What undo says it put back: the estimate when that is what the step changed ("it takes
/// about an hour"), else the task's status.
fn restored_words(task: &Task, after: Option<&str>) -> String {
    let after: Option<Task> = after.and_then(|after| serde_json::from_str(after).ok());
    if after
        .is_some_and(|after| after.estimated_duration_minutes != task.estimated_duration_minutes)
    {
        let estimate = task
            .estimated_duration_minutes
            .map_or_else(|| "none".to_string(), super::snooze_length::say_minutes);
        return format!(
            "Undone: '{}' has its estimate back ({estimate}).",
            task.title
        );
    }
    format!(
        "Undone: '{}' is back to {}.",
        task.title,
        task.status.as_str().replace('_', " ")
    )
}

/// Why a step's task is no longer as the step left it, if it is not.
fn changed_since(conn: &Connection, step: &Logged) -> Result<Option<String>, StoreError> {
    let Some(after) = &step.after_json else {
        return Ok(None);
    };
    let after: Task =
        serde_json::from_str(after).map_err(|e| StoreError::json("action_log.after", e))?;
    Ok(match repo::get(conn, &after.id)? {
        None => Some(format!(
            "'{}' no longer exists, so there is nothing to undo.",
            after.title
        )),
        Some(now) if !now.looks_the_same_as(&after) => Some(format!(
            "'{}' has changed since, so I left it as it is.",
            after.title
        )),
        Some(_) => None,
    })
}
