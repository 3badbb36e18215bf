//! What a turn needs to know before deciding: the thread, its task, its latest plan, what Donna
//! last said (in a free thread: the task of her nudge, if that is her last word, or the tasks
//! of her latest nudge that listed several), whether this message was handled already, and
//! the sender's time zone. Loaded in one read.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::conversation::drafts::{self, Draft};
use crate::conversation::escalation_ledger::{self, Reserved};
use crate::conversation::inbox::{self, Accepted, Inbound};
use crate::conversation::memory::{self, Kind};
use crate::conversation::nudge_groups;
use crate::conversation::nudge_records;
use crate::conversation::plans::{self, Plan};
use crate::conversation::threads::{self, Thread};
use crate::people;
use crate::store::StoreError;
use crate::tasks::{repo, Task};

#[derive(Debug, Clone)]
pub struct TurnContext {
    pub thread: Thread,
    /// Who sent this message (a proposal is answered only by the person it was made for).
    pub author_id: String,
    /// The sender's time zone (the config's `timezone` when they never set one): every time
    /// they write is read in it and every time shown to them is in it.
    pub timezone: chrono_tz::Tz,
    pub task: Option<Task>,
    pub latest_plan: Option<Plan>,
    /// When Donna last spoke here and what kind of message it was.
    pub last_donna: Option<(DateTime<Utc>, Kind)>,
    /// This message's inbox state (Done when it was handled before).
    pub inbox: Option<Accepted>,
    /// This message's escalation reservation still open: a restart cut off the call it made
    /// (`turn::escalation`).
    pub interrupted: Option<Reserved>,
    /// The question Donna is waiting to have answered here, in a free thread (the free-text
    /// room checks it is still live at the turn's `now`).
    pub draft: Option<Draft>,
    /// In a thread bound to no task: the open task this message answers about: the one its
    /// button names (a nudge's, or a task's Done on the web page: `Inbound::about_task`), else
    /// the one Donna's last message here nudged about (a nudge delivered into the chat the task
    /// was captured in), while nobody answered it.
    pub nudged_task: Option<Task>,
    /// Set by the pipeline once `decide` read this message as the answer to that nudge: the
    /// turn then acts on `nudged_task` as it would in the task's own thread.
    pub answering_nudge: bool,
    /// In a thread bound to no task whose latest nudge listed several tasks: the open ones, by
    /// their number in that message (`turn::nudge_group` picks one for a reply "2 done").
    pub nudge_group: Vec<(i64, Task)>,
    /// That grouped nudge is still Donna's last word here.
    pub group_unanswered: bool,
    /// A click on a nudge's button (`Inbound::answers_nudge`) that can no longer apply: its
    /// task is closed or not this thread's, a newer nudge replaced it, or another click
    /// answered it first; or a task's button (`Inbound::about_task`) whose task is closed,
    /// gone, or not this thread's. Such a turn changes nothing.
    pub stale_click: bool,
}

impl TurnContext {
    /// The task this turn acts on: the thread's, or the nudged one when the turn answers a nudge
    /// delivered into this free thread.
    pub fn task_id(&self) -> Option<String> {
        self.thread.task_id.clone().or_else(|| {
            self.nudged_task
                .as_ref()
                .filter(|_| self.answering_nudge)
                .map(|task| task.id.clone())
        })
    }

    /// The record of the task `task_id` names.
    pub fn acting_task(&self) -> Option<&Task> {
        match (&self.task, self.answering_nudge) {
            (Some(task), _) => Some(task),
            (None, true) => self.nudged_task.as_ref(),
            (None, false) => None,
        }
    }

    /// This message's place in the order of everything received (its inbox `seq`), while its
    /// turn runs.
    pub fn received_seq(&self) -> Option<i64> {
        match self.inbox {
            Some(Accepted::New { seq } | Accepted::Pending { seq }) => Some(seq),
            _ => None,
        }
    }
}

/// Why a context could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    #[error("no thread {0}")]
    NoThread(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub fn load(
    conn: &Connection,
    inbound: &Inbound,
    default_timezone: chrono_tz::Tz,
) -> Result<TurnContext, ContextError> {
    let thread_id = inbound.thread_id.as_str();
    let thread = threads::get(conn, thread_id)?
        .ok_or_else(|| ContextError::NoThread(thread_id.to_string()))?;
    let task = match &thread.task_id {
        Some(task_id) => repo::get(conn, task_id)?,
        None => None,
    };
    let draft = match &thread.task_id {
        None => drafts::get(conn, thread_id)?,
        Some(_) => None,
    };
    // A click names its nudge: in a free thread that nudge's task is the one answered, even
    // when Donna said something else since. A task's own button (the web page's Done) names
    // the task itself.
    let clicked = match (&inbound.answers_nudge, &inbound.about_task) {
        (Some(id), _) => Some(clicked_nudge(conn, inbound, id, thread.task_id.as_deref())?),
        (None, Some(task_id)) => Some(task_named(conn, task_id, thread.task_id.as_deref())?),
        (None, None) => None,
    };
    let stale_click = clicked.as_ref().is_some_and(Option::is_none);
    let nudged_task = match (&thread.task_id, clicked) {
        (Some(_), _) => None,
        (None, Some(task)) => task,
        (None, None) => match memory::unanswered_nudge_task(conn, thread_id)? {
            Some(task_id) => repo::get(conn, &task_id)?.filter(|task| task.status.is_open()),
            None => None,
        },
    };
    let group = match &thread.task_id {
        Some(_) => None,
        None => nudge_groups::latest(conn, thread_id)?,
    };
    let mut nudge_group = Vec::new();
    for (number, task_id) in group.iter().flat_map(|group| &group.tasks) {
        if let Some(task) = repo::get(conn, task_id)?.filter(|task| task.status.is_open()) {
            nudge_group.push((*number, task));
        }
    }
    Ok(TurnContext {
        nudge_group,
        group_unanswered: group.is_some_and(|group| group.unanswered),
        author_id: inbound.user_id.clone(),
        timezone: people::zone_of(conn, Some(&inbound.user_id), default_timezone)?,
        draft,
        nudged_task,
        answering_nudge: false,
        stale_click,
        latest_plan: plans::latest(conn, thread_id)?,
        last_donna: memory::last_donna(conn, thread_id)?,
        inbox: inbox::state(conn, inbound)?,
        interrupted: escalation_ledger::reserved_for(conn, thread_id, &inbound.message_id)?,
        thread,
        task,
    })
}

/// The open task `task_id` (named by a task's button) if the message can act on it: in a thread
/// bound to no task, or in that task's own thread.
fn task_named(
    conn: &Connection,
    task_id: &str,
    thread_task: Option<&str>,
) -> Result<Option<Task>, StoreError> {
    if thread_task.is_some_and(|task| task != task_id) {
        return Ok(None);
    }
    Ok(repo::get(conn, task_id)?.filter(|task| task.status.is_open()))
}

/// The open task nudge `nudge_id` (named by a click) is about, if the click can still apply:
/// the nudge was sent to this thread (about this thread's task, in a nudge thread), no newer
/// nudge replaced it, no earlier click answered it, and its task is open.
fn clicked_nudge(
    conn: &Connection,
    inbound: &Inbound,
    nudge_id: &str,
    thread_task: Option<&str>,
) -> Result<Option<Task>, StoreError> {
    let Some(nudge) = nudge_records::get(conn, nudge_id)? else {
        return Ok(None);
    };
    let here = nudge.thread_id == inbound.thread_id
        && thread_task.is_none_or(|task| task == nudge.task_id);
    let received = match inbox::state(conn, inbound)? {
        Some(Accepted::New { seq } | Accepted::Pending { seq }) => Some(seq),
        _ => None,
    };
    if !here
        || nudge_records::replaced(conn, &nudge)?
        || nudge_records::answered(conn, nudge_id, received)?
    {
        return Ok(None);
    }
    Ok(repo::get(conn, &nudge.task_id)?.filter(|task| task.status.is_open()))
}
