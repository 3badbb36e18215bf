//! Reply slots: the replies Donna sent (or is about to send) per (channel, chat), the rows
//! behind the RateCap's sliding window, so the cap survives restarts.
//!
//! Invariants: a slot is written before the reply it stands for can be sent; slots older than
//! the window are deleted when a new one is claimed; a slot given back (the gate said SKIP) is
//! deleted.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection};

use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

/// The slots of a chat younger than `cutoff`, oldest first: (slot id, when).
pub fn live(
    conn: &Connection,
    channel: &str,
    chat_id: &str,
    cutoff: DateTime<Utc>,
) -> Result<Vec<(i64, DateTime<Utc>)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT id, at FROM reply_slot WHERE channel = ?1 AND chat_id = ?2 AND at > ?3 ORDER BY at, id",
    )?;
    let mut rows = statement.query(params![channel, chat_id, to_db(cutoff)])?;
    let mut slots = Vec::new();
    while let Some(row) = rows.next()? {
        slots.push((row.get(0)?, from_db(&row.get::<_, String>(1)?)?));
    }
    Ok(slots)
}

/// Claims a slot at `now`, deleting the chat's slots at or before `cutoff`; returns its id.
pub fn claim(
    conn: &Connection,
    channel: &str,
    chat_id: &str,
    now: DateTime<Utc>,
    cutoff: DateTime<Utc>,
) -> Result<i64, StoreError> {
    conn.prepare_cached("DELETE FROM reply_slot WHERE channel = ?1 AND chat_id = ?2 AND at <= ?3")?
        .execute(params![channel, chat_id, to_db(cutoff)])?;
    conn.prepare_cached("INSERT INTO reply_slot (channel, chat_id, at) VALUES (?1, ?2, ?3)")?
        .execute(params![channel, chat_id, to_db(now)])?;
    Ok(conn.last_insert_rowid())
}

/// Gives a slot back.
pub fn release(conn: &Connection, slot_id: i64) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM reply_slot WHERE id = ?1")?
        .execute([slot_id])?;
    Ok(())
}
