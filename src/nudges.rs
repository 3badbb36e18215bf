//! Opening nudge threads: Donna's question about one task, as the first message of a thread
//! bound to that task (or a new message in the task's open thread).
//!
//! Also the `NudgeSink`: how the Nudger hands a nudge to a chat service that opens its threads
//! itself (Discord), without knowing that service; `NudgeFailure` says why one could not open.
//!
//! `NudgeOpened::publish` tells the event stream about a committed nudge. A nudge says the
//! task's time in the zone of the person who captured it (`created_by`), else in the config's
//! (`NudgeTime`).
//!
//! Where a nudge goes: a task captured in a chat (`origin_thread_id`: a DM, a free local thread,
//! the console) is nudged in that chat (`open_in_origin`) while it is an open free thread on a
//! channel that is on; any other task, or one whose chat is closed or gone, gets its own nudge
//! thread (`open`), as tasks from `POST /api/tasks` always do.
//!
//! Invariants: a task has at most one open thread and a new nudge reuses it; the nudge is
//! recorded in memory (kind `nudge`, with the task's id, so a bare "yes" right after it counts
//! as "done", even in a free thread that names no task), in the outbox and as a nudge record
//! with its own id (`conversation::nudge_records`: the buttons under it name it); the task's
//! nudge counters move in the same transaction, and a completion check-in is remembered as
//! asked for the task's current scheduled start (`tasks::nudge_marks`).

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rusqlite::Connection;

use crate::conversation::memory;
use crate::conversation::{nudge_records, outbox, threads, Channel, ContextType, Thread};
use crate::events::{EventBus, Payload};
use crate::people;
use crate::store::StoreError;
use crate::tasks::when::{describe, WhenContext};
use crate::tasks::{nudge_marks, repo, Task};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NudgeOpened {
    pub task_id: String,
    /// This nudge's id (`conversation::nudge_records`): buttons under it name it.
    pub nudge_id: String,
    pub thread_id: String,
    pub channel: Channel,
    pub text: String,
    /// False when the task's open thread was reused.
    pub created: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum NudgeError {
    #[error("no task {0}")]
    NoTask(String),
    #[error("'{title}' is {status}; there is nothing to nudge about")]
    Closed { title: String, status: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for NudgeError {
    fn from(error: rusqlite::Error) -> Self {
        NudgeError::Store(error.into())
    }
}

/// Why a nudge could not be opened through a `NudgeSink`.
#[derive(Debug, thiserror::Error)]
pub enum NudgeFailure {
    #[error("no task {0}")]
    NoTask(String),
    #[error("{0}")]
    Conflict(String),
    /// Discord refused the nudge or did not answer in time.
    #[error("discord: {0}")]
    Discord(String),
    /// The actor that opens the nudges could not take the request (queue full, not running):
    /// the actor runtime's error is the cause.
    #[error("the nudge sender is unavailable: {0}")]
    Unavailable(#[source] actors::AskError),
    /// Reading the task or recording the nudge failed: Donna's own fault, not the peer's.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<NudgeError> for NudgeFailure {
    fn from(error: NudgeError) -> Self {
        match error {
            NudgeError::NoTask(id) => NudgeFailure::NoTask(id),
            NudgeError::Closed { .. } => NudgeFailure::Conflict(error.to_string()),
            NudgeError::Store(error) => NudgeFailure::Store(error),
        }
    }
}

/// A nudge on its way through a `NudgeSink`.
pub type PendingNudge = Pin<Box<dyn Future<Output = Result<NudgeOpened, NudgeFailure>> + Send>>;

/// A chat service that opens nudge threads itself (Discord starts a thread on the nudge and its
/// id becomes the thread's id). Implemented by the channel, above this layer, so the Nudger
/// hands nudges over without knowing who carries them.
pub trait NudgeSink: Send + Sync {
    /// Opens the nudge about `task_id` (in the task's open thread if it has one); `context`
    /// None picks `default_context`. The request is queued before this returns, so nudges
    /// asked for one after another are opened in that order.
    fn open_nudge(&self, task_id: String, context: Option<ContextType>) -> PendingNudge;
}

impl NudgeOpened {
    /// Tells the event stream: a `nudge` event, then Donna's `message` in the thread. Call it
    /// only once the nudge is committed. Returns the two events' sequences.
    pub fn publish(&self, events: &EventBus) -> [u64; 2] {
        let nudge = events.publish(Payload::Nudge {
            task_id: self.task_id.clone(),
            thread_id: self.thread_id.clone(),
            text: self.text.clone(),
            channel: self.channel.as_str().to_string(),
        });
        let message = events.publish(Payload::Message {
            thread_id: self.thread_id.clone(),
            text: self.text.clone(),
        });
        [nudge, message]
    }
}

/// When a nudge is sent, and the zone its times are shown in for a task whose creator set
/// none (the config's `timezone`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NudgeTime {
    pub now: DateTime<Utc>,
    pub default_zone: Tz,
}

impl NudgeTime {
    pub fn new(now: DateTime<Utc>, default_zone: Tz) -> Self {
        Self { now, default_zone }
    }
}

/// Donna's nudge about a task: the question that opens (or continues) its thread, with the
/// task's time said in `zone` ("'Pay rent' is overdue (due today at 09:00). Done?").
pub fn nudge_text(task: &Task, context: ContextType, zone: Tz, now: DateTime<Utc>) -> String {
    let title = &task.title;
    let when = |at: DateTime<Utc>| {
        describe(
            at,
            &WhenContext {
                now,
                timezone: zone,
                current_start: None,
                later: std::time::Duration::ZERO,
            },
        )
    };
    match context {
        ContextType::Overdue => match task.deadline {
            Some(deadline) => format!("'{title}' is overdue (due {}). Done?", when(deadline)),
            None => format!("'{title}' is overdue. Done?"),
        },
        ContextType::CheckIn => {
            let at = task
                .scheduled_start
                .map(|at| format!(" ({})", when(at)))
                .unwrap_or_default();
            format!("Time for '{title}'{at}. How is it going: done, later, or busy?")
        }
        ContextType::Completion => format!("Did you finish '{title}'?"),
    }
}

/// The nudge about `task`, its times in the zone of the person who captured it (`created_by`),
/// else `at.default_zone`.
pub fn text_for(
    conn: &Connection,
    task: &Task,
    context: ContextType,
    at: NudgeTime,
) -> Result<String, StoreError> {
    let zone = people::zone_of(conn, task.created_by.as_deref(), at.default_zone)?;
    Ok(nudge_text(task, context, zone, at.now))
}

/// The context a nudge has when none is given: overdue past the deadline, else a check-in.
pub fn default_context(task: &Task, now: DateTime<Utc>) -> ContextType {
    match task.deadline {
        Some(deadline) if deadline <= now => ContextType::Overdue,
        _ => ContextType::CheckIn,
    }
}

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
    memory::append_nudge(conn, &thread_id, task_id, &text, now)?;
    let delivered = channel == Channel::Local || (created && posted.is_some());
    let entry = outbox::enqueue(conn, &thread_id, channel.as_str(), &text, now, delivered)?;
    let nudge_id = posted.map_or_else(new_nudge_id, str::to_string);
    nudge_records::record(conn, &nudge_id, task_id, &thread_id, entry, now)?;
    repo::record_nudge(conn, task_id, now)?;
    record_completion(conn, &task, context)?;
    Ok(NudgeOpened {
        task_id: task_id.to_string(),
        nudge_id,
        thread_id,
        channel,
        text,
        created,
    })
}

/// A completion check-in is asked once per scheduled start: remember which one it was for.
fn record_completion(
    conn: &Connection,
    task: &Task,
    context: ContextType,
) -> Result<(), StoreError> {
    if context == ContextType::Completion {
        nudge_marks::completion_asked(conn, task)?;
    }
    Ok(())
}

/// A new nudge's id.
pub fn new_nudge_id() -> String {
    crate::ids::new_id("ndg")
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
/// like any other (memory with the task's id, the outbox on that chat's channel, the task's
/// counters), and no thread is created.
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
    memory::append_nudge(conn, &thread.id, task_id, &text, now)?;
    // Local chats are read back through the API; Discord ones leave through the delivery rounds.
    let delivered = thread.channel == Channel::Local;
    let entry = outbox::enqueue(
        conn,
        &thread.id,
        thread.channel.as_str(),
        &text,
        now,
        delivered,
    )?;
    let nudge_id = new_nudge_id();
    nudge_records::record(conn, &nudge_id, task_id, &thread.id, entry, now)?;
    repo::record_nudge(conn, task_id, now)?;
    record_completion(conn, &task, context)?;
    Ok(Some(NudgeOpened {
        task_id: task_id.to_string(),
        nudge_id,
        thread_id: thread.id,
        channel: thread.channel,
        text,
        created: false,
    }))
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

/// Creates a free thread bound to no task.
pub fn open_free_thread(
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
    threads::insert(conn, &thread)?;
    Ok(thread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_error_stays_a_store_failure_not_a_discord_one() {
        let failure = NudgeFailure::from(NudgeError::Store(StoreError::Corrupt("bad row".into())));
        assert!(
            matches!(failure, NudgeFailure::Store(StoreError::Corrupt(_))),
            "{failure:?}"
        );
    }

    #[test]
    fn a_closed_task_is_a_conflict_with_the_reason() {
        let failure = NudgeFailure::from(NudgeError::Closed {
            title: "Pay rent".into(),
            status: "done".into(),
        });
        assert!(
            matches!(&failure, NudgeFailure::Conflict(reason)
                if reason == "'Pay rent' is done; there is nothing to nudge about"),
            "{failure:?}"
        );
    }
}
