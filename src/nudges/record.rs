//! Recording a nudge: the one place a nudge is written, whether it opens a thread, goes into a
//! chat the task was captured in, or is one line of a message listing several tasks.
//!
//! Writes, in the caller's unit of work: the message in memory (kind `nudge`, naming its task
//! when it is about one, so a bare "yes" right after it counts as "done" even in a free thread
//! that names no task) and in the outbox; for each task nudged, a nudge record with its own id
//! (`conversation::nudge_records`: the buttons under it name it), the task's nudge counters
//! (the backoff) and, for a completion check-in, the scheduled start it was asked for
//! (`tasks::nudge_marks`).
//! Invariant: every task of a grouped nudge is counted as nudged exactly as a nudge of its own
//! would be.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::due::DueNudge;
use super::NudgeOpened;
use crate::conversation::memory::{self, Kind, Role};
use crate::conversation::{nudge_groups, nudge_records, outbox, Channel, ContextType, Thread};
use crate::store::StoreError;
use crate::tasks::{nudge_marks, repo, Task};

/// Where a nudge message goes: a thread on a channel, and whether the channel shows it
/// already (a local chat is read back through the API; a Discord thread started on the nudge
/// carries it; any other Discord chat gets it from the delivery rounds).
#[derive(Debug, Clone, Copy)]
pub struct Destination<'a> {
    pub thread_id: &'a str,
    pub channel: Channel,
    pub delivered: bool,
}

impl<'a> Destination<'a> {
    /// An existing chat: delivered at once when it is local.
    pub fn chat(thread: &'a Thread) -> Self {
        Self {
            thread_id: &thread.id,
            channel: thread.channel,
            delivered: thread.channel == Channel::Local,
        }
    }
}

/// A new nudge's id.
pub fn new_nudge_id() -> String {
    crate::ids::new_id("ndg")
}

/// Records the nudge `nudge_id` about `task` (its question `text`) sent to `to`.
/// `created`: whether its thread was opened for it.
pub fn one(
    conn: &Connection,
    (task, context): (&Task, ContextType),
    to: Destination,
    (text, nudge_id): (String, String),
    (created, now): (bool, DateTime<Utc>),
) -> Result<NudgeOpened, StoreError> {
    let entry = message(conn, to, Some(&task.id), &text, now)?;
    task_nudged(
        conn,
        (task, context),
        &nudge_id,
        to.thread_id,
        Some(entry),
        now,
    )?;
    Ok(NudgeOpened {
        task_id: task.id.clone(),
        nudge_id,
        thread_id: to.thread_id.to_string(),
        channel: to.channel,
        text,
        created,
    })
}

/// Records ONE message in `thread` listing every task of `list` (answered by number: it
/// carries no buttons), and each task's nudge.
pub fn group(
    conn: &Connection,
    thread: &Thread,
    list: &[DueNudge],
    text: String,
    now: DateTime<Utc>,
) -> Result<Vec<NudgeOpened>, StoreError> {
    message(conn, Destination::chat(thread), None, &text, now)?;
    let ids: Vec<String> = list.iter().map(|nudge| nudge.task.id.clone()).collect();
    nudge_groups::replace(conn, &thread.id, &ids, now)?;
    let mut opened = Vec::with_capacity(list.len());
    for nudge in list {
        // A record per task (a newer nudge replaces the task's older ones).
        let nudge_id = new_nudge_id();
        let task = (&nudge.task, nudge.context);
        task_nudged(conn, task, &nudge_id, &thread.id, None, now)?;
        opened.push(NudgeOpened {
            task_id: nudge.task.id.clone(),
            nudge_id,
            thread_id: thread.id.clone(),
            channel: thread.channel,
            text: text.clone(),
            created: false,
        });
    }
    Ok(opened)
}

/// The nudge message in memory (naming `task_id` when it is about one task) and the outbox;
/// returns its outbox entry.
fn message(
    conn: &Connection,
    to: Destination,
    task_id: Option<&str>,
    text: &str,
    now: DateTime<Utc>,
) -> Result<i64, StoreError> {
    match task_id {
        Some(task_id) => memory::append_nudge(conn, to.thread_id, task_id, text, now)?,
        None => memory::append(
            conn,
            to.thread_id,
            Role::Donna,
            Kind::Nudge,
            None,
            text,
            now,
        )?,
    }
    let channel = to.channel.as_str();
    outbox::enqueue(conn, to.thread_id, channel, text, now, to.delivered)
}

/// `task` was nudged by `nudge_id` in `thread_id`: its nudge record (naming the outbox entry
/// that carries its buttons, when the message is its own), its counters, and a completion
/// check-in remembered as asked for its current scheduled start (asked once per start).
fn task_nudged(
    conn: &Connection,
    (task, context): (&Task, ContextType),
    nudge_id: &str,
    thread_id: &str,
    entry: Option<i64>,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    match entry {
        Some(entry) => nudge_records::record(conn, nudge_id, &task.id, thread_id, entry, now)?,
        None => nudge_records::record_listed(conn, nudge_id, &task.id, thread_id, now)?,
    }
    repo::record_nudge(conn, &task.id, now)?;
    if context == ContextType::Completion {
        nudge_marks::completion_asked(conn, task)?;
    }
    Ok(())
}
