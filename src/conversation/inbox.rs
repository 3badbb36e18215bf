//! The durable inbox: every accepted message is stored before its turn runs, keyed by
//! (channel, thread, message id), and holds the turn's result once done.
//!
//! Owns: the inbox rows and the one shape a message has on its way through a turn
//! ([`Inbound`]), so a message is written and read back without any conversion.
//! Invariants:
//! - A message id is unique within its thread (local API) or its Discord channel (the thread
//!   there): the same id in another thread is another message, never another thread's result.
//! - A message is accepted once; a repeat gets the first result (or waits behind the first in
//!   its thread's queue); a row is `done` only in the same transaction that commits the turn's
//!   effects; a row is withdrawn only while still pending.
//! - `seq` orders every accepted message: what a message may confirm is decided by it (a plan
//!   committed after a message was received is not that message's to confirm).

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

use super::threads::Channel;
use crate::store::time::to_db;
use crate::store::StoreError;

/// What `accept` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepted {
    /// Stored now, as the `seq`-th message received; the turn must run.
    New { seq: i64 },
    /// Seen before and not finished yet (its turn is queued or running).
    Pending { seq: i64 },
    /// Seen before and finished: the stored result (JSON).
    Done(String),
}

/// A message accepted into the inbox, on its way through a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inbound {
    pub channel: Channel,
    pub message_id: String,
    pub thread_id: String,
    pub user_id: String,
    pub text: String,
    /// The plan this message answers, when its channel knows (a button click names its plan):
    /// it may confirm or reject that plan only.
    pub answers_plan: Option<String>,
    /// The nudge this message answers, when its channel knows (a click on a nudge's button):
    /// it acts on that nudge's task, and only while the nudge can still be answered.
    pub answers_nudge: Option<String>,
}

pub fn accept(
    conn: &Connection,
    row: &Inbound,
    now: DateTime<Utc>,
) -> Result<Accepted, StoreError> {
    let inserted = conn
        .prepare_cached(
            "INSERT INTO inbox (channel, message_id, thread_id, user_id, text, received_at, answers_plan, answers_nudge) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT(channel, thread_id, message_id) DO NOTHING",
        )?
        .execute(params![
            row.channel.as_str(),
            row.message_id,
            row.thread_id,
            row.user_id,
            row.text,
            to_db(now),
            row.answers_plan,
            row.answers_nudge
        ])?;
    if inserted == 1 {
        return Ok(Accepted::New {
            seq: conn.last_insert_rowid(),
        });
    }
    state(conn, row)?.ok_or_else(|| {
        StoreError::Corrupt(format!(
            "inbox message {} of thread {} neither inserted nor found",
            row.message_id, row.thread_id
        ))
    })
}

/// The state of a message already accepted, if it was.
pub fn state(conn: &Connection, message: &Inbound) -> Result<Option<Accepted>, StoreError> {
    let found: Option<(i64, String, Option<String>)> = conn
        .prepare_cached(
            "SELECT seq, status, result_json FROM inbox \
             WHERE channel = ?1 AND thread_id = ?2 AND message_id = ?3",
        )?
        .query_row(
            params![
                message.channel.as_str(),
                message.thread_id,
                message.message_id
            ],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .optional()?;
    Ok(
        found.map(|(seq, status, result)| match (status.as_str(), result) {
            ("done", Some(result)) => Accepted::Done(result),
            _ => Accepted::Pending { seq },
        }),
    )
}

/// Marks a message done with its result.
pub fn complete(conn: &Connection, message: &Inbound, result_json: &str) -> Result<(), StoreError> {
    conn.prepare_cached(
        "UPDATE inbox SET status = 'done', result_json = ?4 \
         WHERE channel = ?1 AND thread_id = ?2 AND message_id = ?3",
    )?
    .execute(params![
        message.channel.as_str(),
        message.thread_id,
        message.message_id,
        result_json
    ])?;
    Ok(())
}

/// Takes a message that is still pending out of the inbox again (its turn was refused before
/// it started, so the sender's retry is the only copy).
pub fn withdraw(conn: &Connection, message: &Inbound) -> Result<(), StoreError> {
    conn.prepare_cached(
        "DELETE FROM inbox WHERE channel = ?1 AND thread_id = ?2 AND message_id = ?3 \
         AND status = 'pending'",
    )?
    .execute(params![
        message.channel.as_str(),
        message.thread_id,
        message.message_id
    ])?;
    Ok(())
}

/// The highest `seq` given so far: every message received up to now has a `seq` at most this.
pub fn last_seq(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached("SELECT COALESCE(MAX(seq), 0) FROM inbox")?
        .query_row([], |row| row.get(0))?)
}

/// Accepted but unfinished messages, in arrival order (for recovery at startup). A row whose
/// channel this version does not know is left where it is and skipped.
pub fn unfinished(conn: &Connection) -> Result<Vec<Inbound>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT channel, message_id, thread_id, user_id, text, answers_plan, answers_nudge FROM inbox WHERE status = 'pending' ORDER BY seq",
    )?;
    let mut rows = statement.query([])?;
    let mut found = Vec::new();
    while let Some(row) = rows.next()? {
        let channel: String = row.get(0)?;
        let Ok(channel) = Channel::parse(&channel) else {
            tracing::warn!(%channel, "an unfinished message has an unknown channel; skipped");
            continue;
        };
        found.push(Inbound {
            channel,
            message_id: row.get(1)?,
            thread_id: row.get(2)?,
            user_id: row.get(3)?,
            text: row.get(4)?,
            answers_plan: row.get(5)?,
            answers_nudge: row.get(6)?,
        });
    }
    Ok(found)
}
