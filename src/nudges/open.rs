//! Opening a nudge about one task: Donna's question as the first message of a thread bound to
//! that task, a new message in the task's open thread, or a message in the chat the task was
//! captured in.
//!
//! Where a nudge goes: a task captured in a chat (`origin_thread_id`: a DM, a free local thread,
//! the console) is nudged in that chat (`open_in_origin`) while it is an open free thread on a
//! channel that is on; any other task, or one whose chat is closed or gone, gets its own nudge
//! thread (`open`), as tasks from `POST /api/tasks` always do. A channel that starts its own
//! threads (Discord) asks `opening` first, starts the thread, then records with `open_on`.
//!
//! Invariants: a task has at most one open thread and a new nudge reuses it; only an open task
//! is nudged; the nudge is recorded once, by `record`, in the caller's unit of work.

use rusqlite::Connection;

use super::record::{self, new_nudge_id, Destination};
use super::text::{default_context, text_for, NudgeTime};
use super::{NudgeError, NudgeOpened};
use crate::conversation::{threads, Channel, ContextType, Thread};
use crate::store::StoreError;
use crate::tasks::{repo, Task};

/// Opens (or reuses) the task's thread on `channel` and records the nudge.
/// `new_thread_id` names the thread when one is created (a channel may impose its own id).
pub fn open(
    conn: &Connection,
    task_id: &str,
    context: Option<ContextType>,
    channel: Channel,
    new_thread_id: impl FnOnce() -> String,
    at: NudgeTime,
) -> Result<NudgeOpened, NudgeError> {
    open_on(conn, task_id, context, channel, new_thread_id, None, at)
}

/// Like `open`; `posted` is the id of a nudge the channel already shows as the new thread's
/// first message (a Discord thread started from it, its buttons naming that id), so it is not
/// sent again.
pub fn open_on(
    conn: &Connection,
    task_id: &str,
    context: Option<ContextType>,
    channel: Channel,
    new_thread_id: impl FnOnce() -> String,
    posted: Option<&str>,
    at: NudgeTime,
) -> Result<NudgeOpened, NudgeError> {
    let now = at.now;
    let task = open_task(conn, task_id)?;
    let context = context.unwrap_or_else(|| default_context(&task, now));
    let text = text_for(conn, &task, context, at)?;
    let (thread_id, created) = match threads::open_for_task(conn, task_id)? {
        Some(thread) => {
            threads::set_context(conn, &thread.id, context)?;
            (thread.id, false)
        }
        None => {
            let id = new_thread_id();
            threads::insert(
                conn,
                &Thread {
                    id: id.clone(),
                    task_id: Some(task_id.to_string()),
                    channel,
                    chat_id: id.clone(),
                    is_group: false,
                    context_type: Some(context),
                    open: true,
                    created_at: now,
                },
            )?;
            (id, true)
        }
    };
    let to = Destination {
        thread_id: &thread_id,
        channel,
        delivered: channel == Channel::Local || (created && posted.is_some()),
    };
    let nudge_id = posted.map_or_else(new_nudge_id, str::to_string);
    let opened = record::one(conn, (&task, context), to, (text, nudge_id), (created, now))?;
    Ok(opened)
}

/// A nudge's opening as the answer of its unit of work: a store failure fails the unit, so
/// nothing of the nudge is kept; a refusal (no such task, a closed one) comes before any write
/// and is the answer.
pub fn as_unit<T>(opened: Result<T, NudgeError>) -> Result<Result<T, NudgeError>, StoreError> {
    match opened {
        Err(NudgeError::Store(error)) => Err(error),
        other => Ok(other),
    }
}

/// What a channel that starts its own threads (Discord) does to open a nudge.
#[derive(Debug, Clone)]
pub enum Opening {
    /// The task's thread is open: the nudge goes into it (`open`), through the outbox.
    InItsThread,
    /// A new thread, started by the channel on this message (its buttons naming `nudge_id`),
    /// then recorded with `open_on`, `posted` naming that id.
    Start {
        /// The task's title (the thread is named after it).
        title: String,
        context: ContextType,
        text: String,
        nudge_id: String,
    },
}

/// How the nudge about `task_id` opens on a channel that starts its own threads; the task must
/// exist and be open.
pub fn opening(
    conn: &Connection,
    task_id: &str,
    context: Option<ContextType>,
    at: NudgeTime,
) -> Result<Opening, NudgeError> {
    let task = open_task(conn, task_id)?;
    if threads::open_for_task(conn, task_id)?.is_some() {
        return Ok(Opening::InItsThread);
    }
    let context = context.unwrap_or_else(|| default_context(&task, at.now));
    let text = text_for(conn, &task, context, at)?;
    Ok(Opening::Start {
        title: task.title,
        context,
        text,
        // Chosen now: the buttons name it before it is recorded.
        nudge_id: new_nudge_id(),
    })
}

/// The task, if it exists and is still open (nothing to nudge about otherwise).
fn open_task(conn: &Connection, task_id: &str) -> Result<Task, NudgeError> {
    let task = repo::get(conn, task_id)?.ok_or_else(|| NudgeError::NoTask(task_id.to_string()))?;
    if !task.status.is_open() {
        return Err(NudgeError::Closed {
            title: task.title,
            status: task.status.to_string(),
        });
    }
    Ok(task)
}

/// The chat a task's nudges go to: the thread it was captured in, while that thread is open,
/// bound to no task (a free chat), and on a channel that can carry it now (Discord only while
/// `discord_on`: a Discord chat's nudge would otherwise sit undelivered in the outbox).
pub fn origin_thread(
    conn: &Connection,
    task: &Task,
    discord_on: bool,
) -> Result<Option<Thread>, StoreError> {
    let Some(origin) = &task.origin_thread_id else {
        return Ok(None);
    };
    Ok(threads::get(conn, origin)?.filter(|thread| {
        thread.open && thread.task_id.is_none() && (thread.channel == Channel::Local || discord_on)
    }))
}

/// Nudges the task in the chat it was captured in (see `origin_thread`); None when it has no
/// such chat, so the caller opens its nudge thread as for any other task. The nudge is recorded
/// like any other, and no thread is created.
pub fn open_in_origin(
    conn: &Connection,
    task_id: &str,
    context: Option<ContextType>,
    discord_on: bool,
    at: NudgeTime,
) -> Result<Option<NudgeOpened>, NudgeError> {
    let now = at.now;
    let task = open_task(conn, task_id)?;
    let Some(thread) = origin_thread(conn, &task, discord_on)? else {
        return Ok(None);
    };
    let context = context.unwrap_or_else(|| default_context(&task, now));
    let text = text_for(conn, &task, context, at)?;
    let to = Destination::chat(&thread);
    let nudge = (text, new_nudge_id());
    Ok(Some(record::one(
        conn,
        (&task, context),
        to,
        nudge,
        (false, now),
    )?))
}

/// Nudges the task where its nudges go: its origin chat (`open_in_origin`), else as `open`.
pub fn open_where_it_belongs(
    conn: &Connection,
    task_id: &str,
    context: Option<ContextType>,
    channel: Channel,
    discord_on: bool,
    new_thread_id: impl FnOnce() -> String,
    at: NudgeTime,
) -> Result<NudgeOpened, NudgeError> {
    match open_in_origin(conn, task_id, context, discord_on, at)? {
        Some(opened) => Ok(opened),
        None => open(conn, task_id, context, channel, new_thread_id, at),
    }
}
