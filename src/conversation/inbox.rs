//! The durable inbox: every accepted message is stored before its turn runs, keyed by
//! (channel, message id), and holds the turn's result once done.
//!
//! Owns: the inbox rows and the one shape a message has on its way through a turn
//! ([`Inbound`]), so a message is written and read back without any conversion.
//! Invariants: a (channel, message id) is accepted once; a repeat gets the first result (or
//! waits behind the first in its thread's queue); a row is `done` only in the same transaction
//! that commits the turn's effects; a row is withdrawn only while still pending.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

use super::threads::Channel;
use crate::store::time::to_db;
use crate::store::StoreError;

/// What `accept` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepted {
    /// Stored now; the turn must run.
    New,
    /// Seen before and not finished yet (its turn is queued or running).
    Pending,
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
}

pub fn accept(
    conn: &Connection,
    row: &Inbound,
    now: DateTime<Utc>,
) -> Result<Accepted, StoreError> {
    let inserted = conn
        .prepare_cached(
            "INSERT INTO inbox (channel, message_id, thread_id, user_id, text, received_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(channel, message_id) DO NOTHING",
        )?
        .execute(params![
            row.channel.as_str(),
            row.message_id,
            row.thread_id,
            row.user_id,
            row.text,
            to_db(now)
        ])?;
    if inserted == 1 {
        return Ok(Accepted::New);
    }
    state(conn, row.channel.as_str(), &row.message_id)
        .map(|state| state.unwrap_or(Accepted::Pending))
}

/// The state of a message already accepted, if it was.
pub fn state(
    conn: &Connection,
    channel: &str,
    message_id: &str,
) -> Result<Option<Accepted>, StoreError> {
    let found: Option<(String, Option<String>)> = conn
        .prepare_cached(
            "SELECT status, result_json FROM inbox WHERE channel = ?1 AND message_id = ?2",
        )?
        .query_row(params![channel, message_id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?;
    Ok(
        found.map(|(status, result)| match (status.as_str(), result) {
            ("done", Some(result)) => Accepted::Done(result),
            _ => Accepted::Pending,
        }),
    )
}

/// Marks a message done with its result.
pub fn complete(
    conn: &Connection,
    channel: &str,
    message_id: &str,
    result_json: &str,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "UPDATE inbox SET status = 'done', result_json = ?3 WHERE channel = ?1 AND message_id = ?2",
    )?
    .execute(params![channel, message_id, result_json])?;
    Ok(())
}

/// Takes a message that is still pending out of the inbox again (its turn was refused before
/// it started, so the sender's retry is the only copy).
pub fn withdraw(conn: &Connection, channel: Channel, message_id: &str) -> Result<(), StoreError> {
    conn.prepare_cached(
        "DELETE FROM inbox WHERE channel = ?1 AND message_id = ?2 AND status = 'pending'",
    )?
    .execute(params![channel.as_str(), message_id])?;
    Ok(())
}

/// Accepted but unfinished messages, in arrival order (for recovery at startup). A row whose
/// channel this version does not know is left where it is and skipped.
pub fn unfinished(conn: &Connection) -> Result<Vec<Inbound>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT channel, message_id, thread_id, user_id, text FROM inbox WHERE status = 'pending' ORDER BY seq",
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
        });
    }
    Ok(found)
}
