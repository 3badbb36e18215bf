//! The outbox: Donna's replies waiting to be delivered (at least once).
//!
//! Invariants: a reply enters the outbox in the transaction of the turn that wrote it; it leaves
//! only when its channel confirms delivery. Local-channel replies are delivered by the HTTP
//! answer itself and are stored already delivered.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection};

use crate::store::time::to_db;
use crate::store::StoreError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    pub id: i64,
    pub thread_id: String,
    pub channel: String,
    pub text: String,
    pub attempts: i64,
    /// The plan this reply proposes (a channel with buttons binds them to it).
    pub plan_id: Option<String>,
    /// The nudge this entry is (a channel with buttons puts the nudge's under it).
    pub nudge: Option<OutboxNudge>,
}

/// The nudge an outbox entry is: its id and its task (the buttons' custom ids name both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxNudge {
    pub nudge_id: String,
    pub task_id: String,
}

pub fn enqueue(
    conn: &Connection,
    thread_id: &str,
    channel: &str,
    text: &str,
    now: DateTime<Utc>,
    delivered: bool,
) -> Result<i64, StoreError> {
    let delivered_at = delivered.then(|| to_db(now));
    conn.prepare_cached(
        "INSERT INTO outbox (thread_id, channel, text, created_at, delivered_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![thread_id, channel, text, to_db(now), delivered_at])?;
    Ok(conn.last_insert_rowid())
}

/// Undelivered replies of a channel, oldest first.
pub fn undelivered(
    conn: &Connection,
    channel: &str,
    limit: usize,
) -> Result<Vec<OutboxEntry>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT o.id, o.thread_id, o.channel, o.text, o.attempts, o.plan_id, n.id, n.task_id \
         FROM outbox o LEFT JOIN nudge n ON n.id = o.nudge_id \
         WHERE o.delivered_at IS NULL AND o.channel = ?1 ORDER BY o.id LIMIT ?2",
    )?;
    let mut rows = statement.query(params![channel, i64::try_from(limit).unwrap_or(i64::MAX)])?;
    let mut entries = Vec::new();
    while let Some(row) = rows.next()? {
        entries.push(OutboxEntry {
            id: row.get(0)?,
            thread_id: row.get(1)?,
            channel: row.get(2)?,
            text: row.get(3)?,
            attempts: row.get(4)?,
            plan_id: row.get(5)?,
            nudge: match (
                row.get::<_, Option<String>>(6)?,
                row.get::<_, Option<String>>(7)?,
            ) {
                (Some(nudge_id), Some(task_id)) => Some(OutboxNudge { nudge_id, task_id }),
                _ => None,
            },
        });
    }
    Ok(entries)
}

/// Marks reply `id` as the proposal of plan `plan_id` (in the transaction that wrote both).
pub fn set_plan(conn: &Connection, id: i64, plan_id: &str) -> Result<(), StoreError> {
    conn.prepare_cached("UPDATE outbox SET plan_id = ?2 WHERE id = ?1")?
        .execute(params![id, plan_id])?;
    Ok(())
}

pub fn mark_delivered(conn: &Connection, id: i64, at: DateTime<Utc>) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE outbox SET delivered_at = ?2, attempts = attempts + 1 WHERE id = ?1",
        params![id, to_db(at)],
    )?;
    Ok(())
}

pub fn record_failure(conn: &Connection, id: i64, error: &str) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?2 WHERE id = ?1",
        params![id, error],
    )?;
    Ok(())
}

/// How many replies wait for delivery, on every channel (the outbox backlog in /metrics). The
/// `outbox_undelivered` index makes this a range count, cheap enough for every scrape.
pub fn backlog(conn: &Connection) -> Result<u64, StoreError> {
    let count: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")?
        .query_row([], |row| row.get(0))?;
    Ok(u64::try_from(count).unwrap_or(0))
}
