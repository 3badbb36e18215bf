//! What a turn needs to know before deciding: the thread, its task, its latest plan, what Donna
//! last said, and whether this message was handled already. Loaded in one read.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::capture::drafts::{self, Draft};
use crate::conversation::inbox::{self, Accepted, Inbound};
use crate::conversation::memory::{self, Kind};
use crate::conversation::plans::{self, Plan};
use crate::conversation::threads::{self, Thread};
use crate::store::StoreError;
use crate::tasks::{repo, Task};

#[derive(Debug, Clone)]
pub struct TurnContext {
    pub thread: Thread,
    pub task: Option<Task>,
    pub latest_plan: Option<Plan>,
    /// When Donna last spoke here and what kind of message it was.
    pub last_donna: Option<(DateTime<Utc>, Kind)>,
    /// This message's inbox state (Done when it was handled before).
    pub inbox: Option<Accepted>,
    /// The question Donna is waiting to have answered here, in a free thread (the free-text
    /// room checks it is still live at the turn's `now`).
    pub draft: Option<Draft>,
}

impl TurnContext {
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

pub fn load(conn: &Connection, inbound: &Inbound) -> Result<TurnContext, ContextError> {
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
    Ok(TurnContext {
        draft,
        latest_plan: plans::latest(conn, thread_id)?,
        last_donna: memory::last_donna(conn, thread_id)?,
        inbox: inbox::state(conn, inbound)?,
        thread,
        task,
    })
}
