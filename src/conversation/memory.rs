//! Thread memory rows: who said what in a thread, and when.
//!
//! Invariants: rows are appended in the turn's transaction (the user's message first, then
//! Donna's answer), read oldest-first, and deleted only by the retention prune.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Donna,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Donna => "donna",
        }
    }
}

/// What a message was, so later turns know what the person is answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The person's message.
    Message,
    /// Donna's nudge: a question about the task ("done?").
    Nudge,
    /// Donna's proposal of a plan awaiting a yes.
    Plan,
    /// Any other answer of Donna's.
    Reply,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Message => "message",
            Kind::Nudge => "nudge",
            Kind::Plan => "plan",
            Kind::Reply => "reply",
        }
    }

    pub fn parse(text: &str) -> Kind {
        match text {
            "message" => Kind::Message,
            "nudge" => Kind::Nudge,
            "plan" => Kind::Plan,
            _ => Kind::Reply,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryEntry {
    pub role: Role,
    pub kind: Kind,
    pub author_id: Option<String>,
    pub content: String,
    pub created_at: DateTime<Utc>,
}

pub fn append(
    conn: &Connection,
    thread_id: &str,
    role: Role,
    kind: Kind,
    author_id: Option<&str>,
    content: &str,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO memory (thread_id, role, kind, author_id, content, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![thread_id, role.as_str(), kind.as_str(), author_id, content, to_db(at)])?;
    Ok(())
}

/// Donna's nudge about `task_id` in a thread: like `append`, and remembers the task, so that
/// an answer in a free thread (where the thread itself names no task) acts on it.
pub fn append_nudge(
    conn: &Connection,
    thread_id: &str,
    task_id: &str,
    content: &str,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO memory (thread_id, role, kind, author_id, content, created_at, task_id) VALUES (?1, 'donna', 'nudge', NULL, ?2, ?3, ?4)",
    )?
    .execute(params![thread_id, content, to_db(at), task_id])?;
    Ok(())
}

/// The last `limit` messages of a thread (all when `None`), oldest first.
pub fn recent(
    conn: &Connection,
    thread_id: &str,
    limit: Option<usize>,
) -> Result<Vec<MemoryEntry>, StoreError> {
    let limit = limit.map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX));
    let mut statement = conn.prepare_cached(
        "SELECT role, kind, author_id, content, created_at FROM \
         (SELECT id, role, kind, author_id, content, created_at FROM memory WHERE thread_id = ?1 ORDER BY id DESC LIMIT ?2) \
         ORDER BY id ASC",
    )?;
    let mut rows = statement.query(params![thread_id, limit])?;
    let mut entries = Vec::new();
    while let Some(row) = rows.next()? {
        entries.push(entry_from_row(row)?);
    }
    Ok(entries)
}

/// A memory row selected as `role, kind, author_id, content, created_at`.
pub fn entry_from_row(row: &rusqlite::Row<'_>) -> Result<MemoryEntry, StoreError> {
    let role: String = row.get(0)?;
    Ok(MemoryEntry {
        role: if role == "donna" {
            Role::Donna
        } else {
            Role::User
        },
        kind: Kind::parse(&row.get::<_, String>(1)?),
        author_id: row.get(2)?,
        content: row.get(3)?,
        created_at: from_db(&row.get::<_, String>(4)?)?,
    })
}

/// When Donna last spoke in the thread, and what kind of message it was.
pub fn last_donna(
    conn: &Connection,
    thread_id: &str,
) -> Result<Option<(DateTime<Utc>, Kind)>, StoreError> {
    let found: Option<(String, String)> = conn
        .prepare_cached(
            "SELECT created_at, kind FROM memory WHERE thread_id = ?1 AND role = 'donna' ORDER BY id DESC LIMIT 1",
        )?
        .query_row([thread_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    found
        .map(|(at, kind)| Ok((from_db(&at)?, Kind::parse(&kind))))
        .transpose()
}

/// The task of the nudge that is Donna's last message in the thread, if her last message is a
/// nudge that names one (a nudge still waiting for its answer).
pub fn unanswered_nudge_task(
    conn: &Connection,
    thread_id: &str,
) -> Result<Option<String>, StoreError> {
    let found: Option<(String, Option<String>)> = conn
        .prepare_cached(
            "SELECT kind, task_id FROM memory WHERE thread_id = ?1 AND role = 'donna' ORDER BY id DESC LIMIT 1",
        )?
        .query_row([thread_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    Ok(found
        .filter(|(kind, _)| Kind::parse(kind) == Kind::Nudge)
        .and_then(|(_, task_id)| task_id))
}

/// Deletes messages older than `cutoff`; returns how many.
pub fn prune(conn: &Connection, cutoff: DateTime<Utc>) -> Result<usize, StoreError> {
    Ok(conn.execute("DELETE FROM memory WHERE created_at < ?1", [to_db(cutoff)])?)
}
