//! What the Nudger remembers about a task beyond the task row (`task_nudge_mark`): the time the
//! person gave explicitly, and the scheduled start the completion check-in was sent for.
//!
//! Invariants: a mark names an instant, never a yes/no, so a task whose time changed since (a
//! reschedule, an edit, an undo) no longer matches it and nothing needs clearing; the row goes
//! with its task (ON DELETE CASCADE). Functions take a `&Connection`, so the marks are written
//! in the same transaction as the change they belong to.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

use super::model::Task;
use crate::store::time::{opt_from_db, to_db};
use crate::store::StoreError;

/// A task's marks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NudgeMarks {
    /// The time the person gave explicitly (`tasks::explicit`).
    pub explicit_at: Option<DateTime<Utc>>,
    /// The scheduled start the completion check-in was sent for.
    pub completion_for: Option<DateTime<Utc>>,
}

impl NudgeMarks {
    /// Whether `at` (the task's start or deadline) is the time the person gave explicitly.
    pub fn is_explicit(&self, at: Option<DateTime<Utc>>) -> bool {
        at.is_some() && self.explicit_at == at
    }
}

/// The marks of `task_id` (none: all empty).
pub fn get(conn: &Connection, task_id: &str) -> Result<NudgeMarks, StoreError> {
    let found: Option<(Option<String>, Option<String>)> = conn
        .prepare_cached(
            "SELECT explicit_at, completion_for FROM task_nudge_mark WHERE task_id = ?1",
        )?
        .query_row([task_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let Some((explicit_at, completion_for)) = found else {
        return Ok(NudgeMarks::default());
    };
    Ok(NudgeMarks {
        explicit_at: opt_from_db(explicit_at)?,
        completion_for: opt_from_db(completion_for)?,
    })
}

/// Records `at` as the time the person gave explicitly for `task_id`, or forgets it (None: the
/// new time was Donna's choice).
pub fn set_explicit(
    conn: &Connection,
    task_id: &str,
    at: Option<DateTime<Utc>>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO task_nudge_mark (task_id, explicit_at) VALUES (?1, ?2) \
         ON CONFLICT(task_id) DO UPDATE SET explicit_at = excluded.explicit_at",
    )?
    .execute(params![task_id, at.map(to_db)])?;
    Ok(())
}

/// The completion check-in was sent for the task's current scheduled start.
pub fn completion_asked(conn: &Connection, task: &Task) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO task_nudge_mark (task_id, completion_for) VALUES (?1, ?2) \
         ON CONFLICT(task_id) DO UPDATE SET completion_for = excluded.completion_for",
    )?
    .execute(params![task.id, task.scheduled_start.map(to_db)])?;
    Ok(())
}
