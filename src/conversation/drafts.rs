//! Drafts: a question Donna asked in a thread and what she has so far,
//! at most one per thread, in SQLite so an answer after a restart still finds it.
//!
//! Kinds: `what` ("What should I add?"), `time` (a capture whose time could not be read: which
//! time?), `clarify` (the model's clarifying question; the answer is merged with the message
//! and read again), `which_task` (a chat action named a task Donna could not settle on). A draft expires like a plan (`plans.expiry`) and holds at most
//! [`MAX_QUESTIONS`] questions; then Donna gives up. A draft is answered only by the person it
//! was asked of (`requester_id`, migration 0013): in a group, another member's message leaves it
//! alone.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;

use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

/// Most questions asked for one draft.
pub const MAX_QUESTIONS: i64 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DraftKind {
    What,
    Time,
    Clarify,
    /// A chat answer's actions name a task (or reminder) Donna could not settle on: "which
    /// one?"; `data` keeps the actions, the candidates and what was picked so far.
    WhichTask,
}

impl DraftKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DraftKind::What => "what",
            DraftKind::Time => "time",
            DraftKind::Clarify => "clarify",
            DraftKind::WhichTask => "which_task",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text {
            "what" => Some(DraftKind::What),
            "time" => Some(DraftKind::Time),
            "clarify" => Some(DraftKind::Clarify),
            "which_task" => Some(DraftKind::WhichTask),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub thread_id: String,
    pub kind: DraftKind,
    /// What the person said towards it so far.
    pub text: String,
    /// What else the question needs (the capture read so far, for `time`).
    pub data: Value,
    /// Questions asked so far (the first one included).
    pub questions: i64,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// Who the question was asked of; only they answer it. None for drafts saved before
    /// requesters were kept (anyone in the thread, as then).
    pub requester_id: Option<String>,
}

/// The thread's draft, if one is still live at `now`.
pub fn live(
    conn: &Connection,
    thread_id: &str,
    now: DateTime<Utc>,
) -> Result<Option<Draft>, StoreError> {
    Ok(get(conn, thread_id)?.filter(|draft| draft.is_live(now)))
}

impl Draft {
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        now < self.expires_at
    }

    /// Whether `author` may answer it: the person it was asked of.
    pub fn answerable_by(&self, author: &str) -> bool {
        self.requester_id
            .as_deref()
            .is_none_or(|requester| requester == author)
    }
}

/// The thread's draft, live or expired.
pub fn get(conn: &Connection, thread_id: &str) -> Result<Option<Draft>, StoreError> {
    let row = conn
        .prepare_cached(
            "SELECT kind, text, data_json, questions, created_at, expires_at, requester_id \
             FROM draft WHERE thread_id = ?1",
        )?
        .query_row([thread_id], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, i64>(3)?,
                row.get::<_, String>(4)?,
                row.get::<_, String>(5)?,
                row.get::<_, Option<String>>(6)?,
            ))
        })
        .optional()?;
    let Some((kind, text, data, questions, created_at, expires_at, requester_id)) = row else {
        return Ok(None);
    };
    let kind = DraftKind::parse(&kind)
        .ok_or_else(|| StoreError::Corrupt(format!("unknown draft kind {kind:?}")))?;
    let draft = Draft {
        thread_id: thread_id.to_string(),
        kind,
        text,
        data: serde_json::from_str(&data).map_err(|e| StoreError::Corrupt(e.to_string()))?,
        questions,
        created_at: from_db(&created_at)?,
        expires_at: from_db(&expires_at)?,
        requester_id,
    };
    Ok(Some(draft))
}

/// Saves the thread's draft, replacing the one before.
pub fn save(conn: &Connection, draft: &Draft) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO draft (thread_id, kind, text, data_json, questions, created_at, \
         expires_at, requester_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        draft.thread_id,
        draft.kind.as_str(),
        draft.text,
        draft.data.to_string(),
        draft.questions,
        to_db(draft.created_at),
        to_db(draft.expires_at),
        draft.requester_id,
    ])?;
    Ok(())
}

pub fn remove(conn: &Connection, thread_id: &str) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM draft WHERE thread_id = ?1")?
        .execute([thread_id])?;
    Ok(())
}

/// Live drafts in every thread, the soonest to expire first (for "what are you waiting on?").
pub fn all_live(conn: &Connection, now: DateTime<Utc>) -> Result<Vec<Draft>, StoreError> {
    let threads: Vec<String> = conn
        .prepare_cached("SELECT thread_id FROM draft WHERE expires_at > ?1 ORDER BY expires_at")?
        .query_map([to_db(now)], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    let mut live = Vec::with_capacity(threads.len());
    for thread_id in threads {
        live.extend(get(conn, &thread_id)?);
    }
    Ok(live)
}
