//! A nudge that lists several tasks in one message (`nudge_group`): nudges due at once in the
//! same chat, e.g. those held by quiet hours, are sent as one message, and a reply picks a task
//! by its number in it ("1 done", "2 tomorrow").
//!
//! Invariants: only a thread's latest grouped nudge is kept (a new one replaces its rows in the
//! same transaction that records it); a grouped nudge is Donna's memory row of kind `nudge`
//! with no task, so `memory::unanswered_nudge_task` never reads it as one task's nudge.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

use crate::store::time::to_db;
use crate::store::StoreError;

/// Records `task_ids` (in their order in the message, numbered from 1) as the thread's grouped
/// nudge, replacing the previous one.
pub fn replace(
    conn: &Connection,
    thread_id: &str,
    task_ids: &[String],
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM nudge_group WHERE thread_id = ?1")?
        .execute([thread_id])?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO nudge_group (thread_id, position, task_id, sent_at) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (index, task_id) in task_ids.iter().enumerate() {
        let position = i64::try_from(index + 1).unwrap_or(i64::MAX);
        insert.execute(params![thread_id, position, task_id, to_db(now)])?;
    }
    Ok(())
}

/// The thread's grouped nudge, when it is the latest nudge there: its tasks by number, and
/// whether it is still Donna's last word (nobody answered it yet).
pub fn latest(conn: &Connection, thread_id: &str) -> Result<Option<LatestGroup>, StoreError> {
    let latest_nudge: Option<Option<String>> = conn
        .prepare_cached(
            "SELECT task_id FROM memory WHERE thread_id = ?1 AND role = 'donna' AND kind = 'nudge' \
             ORDER BY id DESC LIMIT 1",
        )?
        .query_row([thread_id], |row| row.get(0))
        .optional()?;
    // Only a nudge that names no task is a grouped one.
    if !matches!(latest_nudge, Some(None)) {
        return Ok(None);
    }
    let tasks = conn
        .prepare_cached(
            "SELECT position, task_id FROM nudge_group WHERE thread_id = ?1 ORDER BY position",
        )?
        .query_map([thread_id], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<Vec<(i64, String)>, _>>()?;
    if tasks.is_empty() {
        return Ok(None);
    }
    let last_kind: Option<(String, Option<String>)> = conn
        .prepare_cached(
            "SELECT kind, task_id FROM memory WHERE thread_id = ?1 AND role = 'donna' \
             ORDER BY id DESC LIMIT 1",
        )?
        .query_row([thread_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let unanswered = matches!(&last_kind, Some((kind, None)) if kind == "nudge");
    Ok(Some(LatestGroup { tasks, unanswered }))
}

/// A thread's latest grouped nudge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatestGroup {
    /// (number in the message, task id).
    pub tasks: Vec<(i64, String)>,
    /// Donna's last word in the thread is this nudge.
    pub unanswered: bool,
}
