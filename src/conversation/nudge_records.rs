//! Nudge records: every nudge Donna sends, in the order sent, with the task it is about and
//! the thread it went to. A nudge's id goes into the custom ids of the buttons under it (a
//! channel with buttons), so a click names exactly one nudge.
//!
//! Invariants: a row is written in the transaction that records the nudge (memory, outbox, the
//! task's counters); `seq` orders the nudges of a task, so "a newer nudge replaced this one" is
//! a comparison of `seq`; a nudge is answered by a click at most once (the first inbox message
//! naming it: `inbox.answers_nudge`).

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

/// A nudge Donna sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NudgeRecord {
    pub seq: i64,
    pub id: String,
    pub task_id: String,
    pub thread_id: String,
    pub created_at: DateTime<Utc>,
}

/// Records nudge `id` about `task_id`, sent to `thread_id`, and marks outbox entry `outbox_id`
/// as that nudge.
pub fn record(
    conn: &Connection,
    id: &str,
    task_id: &str,
    thread_id: &str,
    outbox_id: i64,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO nudge (id, task_id, thread_id, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![id, task_id, thread_id, to_db(now)])?;
    conn.prepare_cached("UPDATE outbox SET nudge_id = ?2 WHERE id = ?1")?
        .execute(params![outbox_id, id])?;
    Ok(())
}

/// Records nudge `id` about `task_id` listed in a message that names several tasks (a grouped
/// nudge): no buttons name it, so no outbox entry is marked; it still replaces the task's
/// earlier nudges.
pub fn record_listed(
    conn: &Connection,
    id: &str,
    task_id: &str,
    thread_id: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO nudge (id, task_id, thread_id, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![id, task_id, thread_id, to_db(now)])?;
    Ok(())
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<NudgeRecord>, StoreError> {
    let row = conn
        .prepare_cached("SELECT seq, id, task_id, thread_id, created_at FROM nudge WHERE id = ?1")?
        .query_row([id], |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, String>(4)?,
            ))
        })
        .optional()?;
    let Some((seq, id, task_id, thread_id, created_at)) = row else {
        return Ok(None);
    };
    Ok(Some(NudgeRecord {
        seq,
        id,
        task_id,
        thread_id,
        created_at: from_db(&created_at)?,
    }))
}

/// Whether a nudge about the same task was sent after `nudge`.
pub fn replaced(conn: &Connection, nudge: &NudgeRecord) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT EXISTS(SELECT 1 FROM nudge WHERE task_id = ?1 AND seq > ?2)")?
        .query_row(params![nudge.task_id, nudge.seq], |row| row.get(0))?)
}

/// Whether a click answered nudge `id` already: a message naming it is in the inbox (received
/// before the message `before_seq`, when given: that message's own row does not count).
pub fn answered(conn: &Connection, id: &str, before_seq: Option<i64>) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached("SELECT EXISTS(SELECT 1 FROM inbox WHERE answers_nudge = ?1 AND seq < ?2)")?
        .query_row(params![id, before_seq.unwrap_or(i64::MAX)], |row| {
            row.get(0)
        })?)
}
