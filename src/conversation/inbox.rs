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
//! - A message whose turn failed [`MAX_TRIES`] times is `parked` with the reason of its last
//!   failure (migration 0015): never run again, never listed as unfinished, and a repeat of it
//!   is told so.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

use super::threads::Channel;
use crate::actions::Intent;
use crate::store::time::to_db;
use crate::store::StoreError;

/// How many failed tries park a message: a turn that fails the same way at every start is
/// tried at most this often.
pub const MAX_TRIES: u32 = 3;

/// What `accept` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepted {
    /// Stored now, as the `seq`-th message received; the turn must run.
    New { seq: i64 },
    /// Seen before and not finished yet (its turn is queued or running).
    Pending { seq: i64 },
    /// Seen before and finished: the stored result (JSON).
    Done(String),
    /// Seen before, failed [`MAX_TRIES`] times and set aside: it is not run again.
    Parked,
}

/// What recording a failed try did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failed {
    /// Counted; the message stays for the next start (this many failed tries so far).
    Counted(u32),
    /// This was the last try: the message is parked now.
    Parked,
    /// No pending row for it (never written, or finished meanwhile): nothing to count.
    NotPending,
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
    /// The task this message is about, when its channel knows (the web page's Done button
    /// beside a task): in a chat bound to no task it acts on that task, and only while the task
    /// is open (migration 0018).
    pub about_task: Option<String>,
    /// What the message's button stands for, when it is a click (migration 0021): the turn
    /// acts on it without reading `text`, which holds the answer it stands for.
    pub intent: Option<Intent>,
}

/// The columns an [`Inbound`] is read from, in the order [`inbound_from`] reads them.
pub(super) const INBOUND_COLUMNS: &str =
    "channel, message_id, thread_id, user_id, text, answers_plan, answers_nudge, about_task, intent";

/// Why a stored message cannot be read back as itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Unreadable {
    /// A channel this version does not know.
    Channel(String),
    /// An intent this version does not know (or a damaged one).
    Intent(String),
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::Channel(channel) => write!(f, "an unknown channel {channel:?}"),
            Unreadable::Intent(reason) => {
                write!(f, "an intent this version cannot read ({reason})")
            }
        }
    }
}

/// A message read from [`INBOUND_COLUMNS`] starting at column `first`.
pub(super) fn inbound_from(
    row: &rusqlite::Row<'_>,
    first: usize,
) -> rusqlite::Result<Result<Inbound, Unreadable>> {
    let channel: String = row.get(first)?;
    let Ok(channel) = Channel::parse(&channel) else {
        return Ok(Err(Unreadable::Channel(channel)));
    };
    let intent = match row.get::<_, Option<String>>(first + 8)? {
        Some(json) => match Intent::from_json(&json) {
            Ok(intent) => Some(intent),
            Err(error) => return Ok(Err(Unreadable::Intent(error.to_string()))),
        },
        None => None,
    };
    Ok(Ok(Inbound {
        channel,
        message_id: row.get(first + 1)?,
        thread_id: row.get(first + 2)?,
        user_id: row.get(first + 3)?,
        text: row.get(first + 4)?,
        answers_plan: row.get(first + 5)?,
        answers_nudge: row.get(first + 6)?,
        about_task: row.get(first + 7)?,
        intent,
    }))
}

pub fn accept(
    conn: &Connection,
    row: &Inbound,
    now: DateTime<Utc>,
) -> Result<Accepted, StoreError> {
    let inserted = conn
        .prepare_cached(
            "INSERT INTO inbox (channel, message_id, thread_id, user_id, text, received_at, answers_plan, answers_nudge, about_task, intent) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT(channel, thread_id, message_id) DO NOTHING",
        )?
        .execute(params![
            row.channel.as_str(),
            row.message_id,
            row.thread_id,
            row.user_id,
            row.text,
            to_db(now),
            row.answers_plan,
            row.answers_nudge,
            row.about_task,
            row.intent.as_ref().map(Intent::to_json)
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
            ("parked", _) => Accepted::Parked,
            _ => Accepted::Pending { seq },
        }),
    )
}

/// Counts a failed try of a pending message, with its reason; parks it at the
/// [`MAX_TRIES`]-th.
pub fn record_failure(
    conn: &Connection,
    message: &Inbound,
    reason: &str,
) -> Result<Failed, StoreError> {
    let failures: Option<u32> = conn
        .prepare_cached(
            "UPDATE inbox SET failures = failures + 1, failure = ?4, \
             status = CASE WHEN failures + 1 >= ?5 THEN 'parked' ELSE status END \
             WHERE channel = ?1 AND thread_id = ?2 AND message_id = ?3 AND status = 'pending' \
             RETURNING failures",
        )?
        .query_row(
            params![
                message.channel.as_str(),
                message.thread_id,
                message.message_id,
                reason,
                MAX_TRIES
            ],
            |row| row.get(0),
        )
        .optional()?;
    Ok(match failures {
        None => Failed::NotPending,
        Some(count) if count >= MAX_TRIES => Failed::Parked,
        Some(count) => Failed::Counted(count),
    })
}

/// How many messages are parked.
pub fn parked_count(conn: &Connection) -> Result<u64, StoreError> {
    let count: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM inbox WHERE status = 'parked'")?
        .query_row([], |row| row.get(0))?;
    Ok(u64::try_from(count).unwrap_or(0))
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

/// Accepted but unfinished messages, in arrival order (for recovery at startup). A row this
/// version cannot read back (an unknown channel or intent) is left where it is and skipped.
pub fn unfinished(conn: &Connection) -> Result<Vec<Inbound>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {INBOUND_COLUMNS} FROM inbox WHERE status = 'pending' ORDER BY seq"
    ))?;
    let mut rows = statement.query([])?;
    let mut found = Vec::new();
    while let Some(row) = rows.next()? {
        match inbound_from(row, 0)? {
            Ok(inbound) => found.push(inbound),
            Err(unreadable) => {
                tracing::warn!(%unreadable, "an unfinished message cannot be read back; skipped");
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::store::migrations::migrated_in_memory;

    /// A message of the page's chat: a click of `intent` about task `tsk_1`, or typed words.
    pub(in crate::conversation) fn message(id: &str, intent: Option<Intent>) -> Inbound {
        Inbound {
            channel: Channel::Local,
            message_id: id.into(),
            thread_id: "web".into(),
            user_id: "web".into(),
            text: intent.as_ref().map_or("hello".into(), Intent::words),
            answers_plan: None,
            answers_nudge: None,
            about_task: intent.as_ref().map(|_| "tsk_1".into()),
            intent,
        }
    }

    #[test]
    fn a_clicks_intent_is_kept_with_it_and_recovery_reads_it_back() {
        let conn = migrated_in_memory();
        let now = DateTime::<Utc>::UNIX_EPOCH;
        let click = message("m1", Some(Intent::Snooze));
        let typed = message("m2", None);
        for row in [&click, &typed] {
            assert!(matches!(accept(&conn, row, now), Ok(Accepted::New { .. })));
        }
        assert_eq!(unfinished(&conn).ok(), Some(vec![click, typed.clone()]));
        // An intent this version cannot read is never guessed: recovery leaves it where it is.
        conn.execute(
            "UPDATE inbox SET intent = '{\"intent\":\"launch\"}' WHERE message_id = 'm1'",
            [],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(unfinished(&conn).ok(), Some(vec![typed]));
    }
}
