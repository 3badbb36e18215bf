//! One tool call and what it returns: the call as the model asked for it, the time and zone it
//! reads against, the observation the next prompt quotes, and why a call gave no result.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use crate::conversation::participation::{visible_threads, Viewer};
use crate::store::StoreError;
use crate::tasks::open::{self, Window};
use crate::tasks::{repo, Task};

/// What a tool reads against: the turn's time, the person's zone, and who asks where (a tool
/// shows only what was said or proposed in chats the asker takes part in).
#[derive(Debug, Clone)]
pub struct ToolEnv {
    pub now: DateTime<Utc>,
    pub timezone: chrono_tz::Tz,
    /// None: every chat (tests and tools outside a turn).
    pub viewer: Option<Viewer>,
    /// The calendars Donna reads (None: none, e.g. a tool run outside the app).
    pub calendars: Option<std::sync::Arc<crate::calendar::book::CalendarBook>>,
}

impl ToolEnv {
    /// The tools' view at `now` in `timezone` for `viewer`, with no calendar.
    pub fn new(now: DateTime<Utc>, timezone: chrono_tz::Tz, viewer: Option<Viewer>) -> Self {
        Self {
            now,
            timezone,
            viewer,
            calendars: None,
        }
    }

    /// The chats whose tasks the asker may see (None: every chat): those they take part in
    /// (`conversation::participation`).
    pub fn visible_chats(
        &self,
        conn: &rusqlite::Connection,
    ) -> Result<Option<BTreeSet<String>>, StoreError> {
        self.viewer
            .as_ref()
            .map(|viewer| visible_threads(conn, viewer))
            .transpose()
    }

    /// The tasks the asker may see, newest first: those captured in chats they take part in,
    /// or not in a chat at all; SQLite leaves out the others.
    pub fn visible_tasks(&self, conn: &rusqlite::Connection) -> Result<Vec<Task>, StoreError> {
        repo::seen_in(conn, self.visible_chats(conn)?.as_ref())
    }

    /// The open ones of [`Self::visible_tasks`], soonest first (`tasks::open`).
    pub fn open_tasks(&self, conn: &rusqlite::Connection) -> Result<Vec<Task>, StoreError> {
        open::tasks(conn, self.visible_chats(conn)?.as_ref(), Window::Any, None)
    }
}

/// One tool call as the model asked for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    pub tool: String,
    /// The arguments exactly as the model gave them (Null: none given).
    pub args: Value,
}

/// What one call returned: the text the next prompt quotes, and whether it worked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    pub tool: String,
    pub args: Value,
    pub ok: bool,
    pub text: String,
}

/// Why a tool call gave no result.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("unknown tool {0:?}; the tools are: {1}")]
    UnknownTool(String, String),
    #[error("invalid arguments: {0}")]
    InvalidArgs(String),
    #[error("{0}")]
    BadTime(String),
    #[error("the database could not be read: {0}")]
    Store(#[from] StoreError),
}

impl Observation {
    /// The observation cut to `chars` characters (said so at the end when cut).
    pub fn cut(mut self, chars: usize) -> Self {
        if self.text.chars().count() > chars {
            self.text = self.text.chars().take(chars).collect::<String>() + " [cut]";
        }
        self
    }
}
