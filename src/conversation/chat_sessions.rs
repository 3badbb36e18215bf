//! Chat sessions: one conversation at a time per chat (a free thread, a DM, the
//! console), opened by its first chat turn, kept alive by each chat turn (a sliding
//! `chat.session_ttl`), closed by the sweeper with its summary.
//!
//! A session's messages are the thread's memory rows from `started_at` on (up to `last_at` once
//! closed). Sessions of one thread never overlap in time (a new one opens only after the last
//! one's TTL has passed), so the span names them without a column on every memory row, and
//! every writer of memory (captures, nudges, the planner) stays as it is.
//! Invariants: written only in a turn's transaction (open, touch) or by the session closer
//! (close: the sweeper's, or a returning person's turn before it opens the next session);
//! closed sessions are deleted with `memory.retention`, like the messages they summarise.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension, Row};

use super::memory::{self, MemoryEntry};
use crate::store::time::{from_db, opt_from_db, to_db};
use crate::store::StoreError;

#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    pub id: i64,
    pub thread_id: String,
    pub started_at: DateTime<Utc>,
    pub last_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    pub summary: Option<String>,
}

impl Session {
    /// Whether a message at `now` still belongs to this session.
    pub fn is_live(&self, now: DateTime<Utc>, ttl: chrono::Duration) -> bool {
        self.closed_at.is_none() && now.signed_duration_since(self.last_at) <= ttl
    }
}

const COLUMNS: &str = "id, thread_id, started_at, last_at, closed_at, summary";

fn from_row(row: &Row<'_>) -> Result<Session, StoreError> {
    Ok(Session {
        id: row.get(0)?,
        thread_id: row.get(1)?,
        started_at: from_db(&row.get::<_, String>(2)?)?,
        last_at: from_db(&row.get::<_, String>(3)?)?,
        closed_at: opt_from_db(row.get(4)?)?,
        summary: row.get(5)?,
    })
}

/// The thread's newest session, open or closed.
pub fn latest(conn: &Connection, thread_id: &str) -> Result<Option<Session>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM chat_session WHERE thread_id = ?1 ORDER BY id DESC LIMIT 1"
    ))?;
    let mut rows = statement.query([thread_id])?;
    rows.next()?.map(from_row).transpose()
}

/// Session `id`, open or closed.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Session>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM chat_session WHERE id = ?1"))?;
    let mut rows = statement.query([id])?;
    rows.next()?.map(from_row).transpose()
}

/// A chat turn committed at `now`: it slides `live` (the session the turn read as live), or,
/// when there was none or the sweeper closed it meanwhile, opens a new session. Returns the
/// session's id.
pub fn record_turn(
    conn: &Connection,
    thread_id: &str,
    live: Option<i64>,
    now: DateTime<Utc>,
) -> Result<i64, StoreError> {
    if let Some(id) = live {
        let touched = conn
            .prepare_cached(
                "UPDATE chat_session SET last_at = ?2 WHERE id = ?1 AND closed_at IS NULL",
            )?
            .execute(params![id, to_db(now)])?;
        if touched == 1 {
            return Ok(id);
        }
    }
    conn.prepare_cached(
        "INSERT INTO chat_session (thread_id, started_at, last_at) VALUES (?1, ?2, ?2)",
    )?
    .execute(params![thread_id, to_db(now)])?;
    Ok(conn.last_insert_rowid())
}

/// Open sessions whose last chat turn is older than `cutoff`, oldest first, at most `limit`.
pub fn idle(
    conn: &Connection,
    cutoff: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<Session>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM chat_session WHERE closed_at IS NULL AND last_at < ?1 \
         ORDER BY last_at LIMIT ?2"
    ))?;
    let mut rows = statement.query(params![to_db(cutoff), limit])?;
    let mut sessions = Vec::new();
    while let Some(row) = rows.next()? {
        sessions.push(from_row(row)?);
    }
    Ok(sessions)
}

/// Closes session `id` with its summary (None: none was made), unless it was closed already
/// or a chat turn slid it past `cutoff` meanwhile. Returns whether it closed.
pub fn close(
    conn: &Connection,
    id: i64,
    summary: Option<&str>,
    cutoff: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    let closed = conn
        .prepare_cached(
            "UPDATE chat_session SET closed_at = ?2, summary = ?3 \
             WHERE id = ?1 AND closed_at IS NULL AND last_at < ?4",
        )?
        .execute(params![id, to_db(now), summary, to_db(cutoff)])?;
    Ok(closed == 1)
}

/// The summaries of the thread's last `limit` closed sessions before session `before` (all
/// sessions when None), oldest first.
pub fn summaries(
    conn: &Connection,
    thread_id: &str,
    before: Option<i64>,
    limit: usize,
) -> Result<Vec<String>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut statement = conn.prepare_cached(
        "SELECT summary FROM (SELECT id, summary FROM chat_session \
         WHERE thread_id = ?1 AND closed_at IS NOT NULL AND summary IS NOT NULL AND id < ?2 \
         ORDER BY id DESC LIMIT ?3) ORDER BY id ASC",
    )?;
    let before = before.unwrap_or(i64::MAX);
    let found = statement
        .query_map(params![thread_id, before, limit], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(found)
}

/// The newest messages of a thread from `from` on (up to `to` when given), stopping once their
/// text passes `max_chars` (the one that passes it is kept: the caller trims to its budget);
/// oldest first.
pub fn messages(
    conn: &Connection,
    thread_id: &str,
    from: DateTime<Utc>,
    to: Option<DateTime<Utc>>,
    max_chars: usize,
) -> Result<Vec<MemoryEntry>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT role, kind, author_id, content, created_at FROM memory \
         WHERE thread_id = ?1 AND created_at >= ?2 AND created_at <= ?3 ORDER BY id DESC",
    )?;
    // The text form compares as the time does (store::time), and no stored time is past 9999.
    let to = to.map_or_else(|| "9999-12-31T23:59:59.999999Z".to_string(), to_db);
    let mut rows = statement.query(params![thread_id, to_db(from), to])?;
    let (mut entries, mut chars) = (Vec::new(), 0usize);
    while let Some(row) = rows.next()? {
        let entry = memory::entry_from_row(row)?;
        chars = chars.saturating_add(entry.content.chars().count());
        entries.push(entry);
        if chars > max_chars {
            break;
        }
    }
    entries.reverse();
    Ok(entries)
}

/// Deletes sessions closed before `cutoff` (their summaries with them); returns how many.
pub fn prune(conn: &Connection, cutoff: DateTime<Utc>) -> Result<usize, StoreError> {
    Ok(conn
        .prepare_cached("DELETE FROM chat_session WHERE closed_at IS NOT NULL AND closed_at < ?1")?
        .execute([to_db(cutoff)])?)
}

/// How many sessions the thread has had (open or closed).
pub fn count(conn: &Connection, thread_id: &str) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached("SELECT COUNT(*) FROM chat_session WHERE thread_id = ?1")?
        .query_row([thread_id], |row| row.get(0))
        .optional()?
        .unwrap_or(0))
}
