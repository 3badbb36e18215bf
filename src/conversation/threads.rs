//! Thread records: a conversation bound to one task (a nudge thread) or to none (a free
//! conversation), on a channel (local or Discord), and which Discord threads are caught up after
//! downtime. A free thread is opened here for every door (`open_free`; `ensure_free` for a chat
//! seen the first time: a Discord DM or channel, the console).
//!
//! Invariants: a task has at most one open thread (a unique index); the record outlives memory
//! pruning, so a thread keeps its task even when its messages are gone.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::{Deserialize, Serialize};

use crate::store::page::{self, Ask, Page, Rows};
use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Local,
    Discord,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Local => "local",
            Channel::Discord => "discord",
        }
    }

    pub fn parse(text: &str) -> Result<Self, StoreError> {
        match text {
            "local" => Ok(Channel::Local),
            "discord" => Ok(Channel::Discord),
            other => Err(StoreError::Corrupt(format!("unknown channel {other:?}"))),
        }
    }
}

/// Why Donna opened a nudge thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContextType {
    Overdue,
    CheckIn,
    Completion,
}

impl ContextType {
    pub fn as_str(self) -> &'static str {
        match self {
            ContextType::Overdue => "overdue",
            ContextType::CheckIn => "check_in",
            ContextType::Completion => "completion",
        }
    }

    pub fn parse(text: &str) -> Result<Self, UnknownContextType> {
        match text {
            "overdue" => Ok(ContextType::Overdue),
            "check_in" => Ok(ContextType::CheckIn),
            "completion" => Ok(ContextType::Completion),
            other => Err(UnknownContextType(other.to_string())),
        }
    }
}

/// A context type that is not one of the three.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown context_type {0:?}; one of overdue, check_in, completion")]
pub struct UnknownContextType(pub String);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Thread {
    pub id: String,
    pub task_id: Option<String>,
    pub channel: Channel,
    pub chat_id: String,
    pub is_group: bool,
    pub context_type: Option<ContextType>,
    pub open: bool,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, task_id, channel, chat_id, is_group, context_type, open, created_at";

fn from_row(row: &Row<'_>) -> Result<Thread, StoreError> {
    let channel: String = row.get(2)?;
    let context: Option<String> = row.get(5)?;
    Ok(Thread {
        id: row.get(0)?,
        task_id: row.get(1)?,
        channel: Channel::parse(&channel)?,
        chat_id: row.get(3)?,
        is_group: row.get(4)?,
        context_type: context
            .as_deref()
            .map(ContextType::parse)
            .transpose()
            .map_err(|e| StoreError::Corrupt(e.to_string()))?,
        open: row.get(6)?,
        created_at: from_db(&row.get::<_, String>(7)?)?,
    })
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<Thread>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM thread WHERE id = ?1"))?;
    let mut rows = statement.query([id])?;
    rows.next()?.map(from_row).transpose()
}

pub fn list(conn: &Connection) -> Result<Vec<Thread>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM thread ORDER BY created_at, id"
    ))?;
    let mut rows = statement.query([])?;
    let mut threads = Vec::new();
    while let Some(row) = rows.next()? {
        threads.push(from_row(row)?);
    }
    Ok(threads)
}

/// A page of every thread, newest first (`store::page`).
pub fn page(conn: &Connection, ask: &Ask) -> Result<Page<Thread>, StoreError> {
    let rows = Rows {
        table: "thread",
        columns: COLUMNS,
        filter: "1",
        params: Vec::new(),
    };
    page::read(conn, &rows, ask, from_row)
}

pub fn insert(conn: &Connection, thread: &Thread) -> Result<(), StoreError> {
    conn.execute(
        &format!("INSERT INTO thread ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
        params![
            thread.id,
            thread.task_id,
            thread.channel.as_str(),
            thread.chat_id,
            thread.is_group,
            thread.context_type.map(ContextType::as_str),
            thread.open,
            to_db(thread.created_at),
        ],
    )?;
    Ok(())
}

/// Creates a free thread bound to no task (its chat id `chat_id`, else its own id).
pub fn open_free(
    conn: &Connection,
    thread_id: String,
    chat_id: Option<String>,
    is_group: bool,
    channel: Channel,
    now: DateTime<Utc>,
) -> Result<Thread, StoreError> {
    let thread = Thread {
        chat_id: chat_id.unwrap_or_else(|| thread_id.clone()),
        id: thread_id,
        task_id: None,
        channel,
        is_group,
        context_type: None,
        open: true,
        created_at: now,
    };
    insert(conn, &thread)?;
    Ok(thread)
}

/// A chat Donna does not know yet becomes a free thread, its id the chat's (as a first DM
/// does); a known one is left as it is.
pub fn ensure_free(
    conn: &Connection,
    chat_id: &str,
    is_group: bool,
    channel: Channel,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    if get(conn, chat_id)?.is_none() {
        let id = chat_id.to_string();
        open_free(conn, id.clone(), Some(id), is_group, channel, now)?;
    }
    Ok(())
}

/// The open thread of a task, if any.
pub fn open_for_task(conn: &Connection, task_id: &str) -> Result<Option<Thread>, StoreError> {
    let id: Option<String> = conn
        .prepare_cached("SELECT id FROM thread WHERE task_id = ?1 AND open = 1")?
        .query_row([task_id], |row| row.get(0))
        .optional()?;
    match id {
        Some(id) => get(conn, &id),
        None => Ok(None),
    }
}

pub fn close(conn: &Connection, id: &str) -> Result<(), StoreError> {
    conn.execute("UPDATE thread SET open = 0 WHERE id = ?1", [id])?;
    Ok(())
}

pub fn set_context(conn: &Connection, id: &str, context: ContextType) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE thread SET context_type = ?2 WHERE id = ?1",
        params![id, context.as_str()],
    )?;
    Ok(())
}

/// A Discord thread worth catching up after downtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscordThreadToCatchUp {
    pub thread_id: String,
    /// The newest Discord message id the inbox holds for the thread (Discord ids are numbers
    /// that grow with time), if it holds any.
    pub newest_message_id: Option<u64>,
}

/// Discord threads created since `cutoff`, with a message received since `cutoff`, or with a
/// pending plan: the ones whose missed messages are fetched after downtime.
pub fn discord_threads_to_catch_up(
    conn: &Connection,
    cutoff: DateTime<Utc>,
) -> Result<Vec<DiscordThreadToCatchUp>, StoreError> {
    let mut statement = conn.prepare(
        "SELECT t.id, (SELECT MAX(CAST(i.message_id AS INTEGER)) FROM inbox i \
                       WHERE i.channel = 'discord' AND i.thread_id = t.id) \
         FROM thread t WHERE t.channel = 'discord' AND ( \
             t.created_at >= ?1 \
             OR EXISTS (SELECT 1 FROM inbox i WHERE i.thread_id = t.id AND i.received_at >= ?1) \
             OR EXISTS (SELECT 1 FROM plan p WHERE p.thread_id = t.id AND p.status = 'pending'))",
    )?;
    let rows = statement
        .query_map([to_db(cutoff)], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, Option<i64>>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows
        .into_iter()
        .map(|(thread_id, newest)| DiscordThreadToCatchUp {
            thread_id,
            // A negative id is no Discord id: treated like none (the thread id is used).
            newest_message_id: newest.and_then(|id| u64::try_from(id).ok()),
        })
        .collect())
}
