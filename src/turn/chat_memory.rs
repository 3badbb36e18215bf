//! What the chat room remembers for a prompt: the live session's newest messages
//! (bounded by the budget), the pinned task, the summaries of earlier sessions and, for task
//! talk, the open tasks the asker may see (`participation`: never a task from a chat they do
//! not take part in), in one read.
//!
//! A returning person: when the thread's latest session expired (past `chat.session_ttl`) but
//! the sweeper has not closed it yet (it runs every `memory.prune_interval`), the turn closes it
//! first with the sweeper's own close (`subsystems::session_closer`: one `summarize` call, never
//! two even when the sweeper closes it at the same moment) and reads again, so the new
//! session's prompt carries that summary. Without a model a chat turn never gets here; with
//! `chat.summary_on_close` off the session closes without a summary, as the sweeper's would.
//!
//! Reaches (of `TurnDeps`): the session closer, the settings, the store; and what `capture`
//! reaches.
//!
//! Invariant: nothing here writes but that close (its own store write, before the turn's
//! commit, with no transaction open across the summarize call).

use chrono::{DateTime, Utc};

use crate::capture::questions::timing;
use crate::config::ChatConfig;
use crate::conversation::chat_sessions;
use crate::conversation::memory::Role;
use crate::conversation::participation::{visible_threads, Viewer};
use crate::conversation::pins;
use crate::llm::chat_prompt::ChatLine;
use crate::store::{Store, StoreError};
use crate::tasks::open::{self, Window};
use crate::tasks::repo;
use crate::tasks::when::WhenContext;

use super::capture::capture_when;
use super::deps::TurnDeps;
use super::error::TurnError;
use super::settings::chrono_duration;

/// How many earlier sessions' summaries a chat prompt shows (the newest ones).
pub const SUMMARIES_SHOWN: usize = 3;

/// Most open tasks a task-talk prompt lists (soonest first).
pub const OPEN_TASKS_SHOWN: usize = 30;

/// What the person is talking about, as `route` read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Talk {
    /// Small talk, venting: no task list in the prompt.
    Chat,
    /// Changing tasks in plain words: the open tasks are in the prompt.
    Tasks,
}

/// What the chat room reads from the store, in one read.
pub(super) struct Remembered {
    /// The live session, if the thread has one.
    pub live: Option<i64>,
    /// The latest session when it expired but is still open (the sweeper has not run yet).
    expired: Option<i64>,
    pub pinned: Option<crate::tasks::Task>,
    pub summaries: Vec<String>,
    pub history: Vec<ChatLine>,
    pub open_tasks: Vec<String>,
}

/// What the prompt remembers at `now`, after closing an expired session (see the header).
pub(super) async fn remembered_now(
    deps: &TurnDeps,
    asker: &Viewer,
    now: DateTime<Utc>,
    talk: Talk,
    chat: &ChatConfig,
) -> Result<Remembered, TurnError> {
    let when = capture_when(&deps.settings, now);
    let remembered = recall(&deps.store, &when, asker, talk, chat).await?;
    let Some(expired) = remembered.expired else {
        return Ok(remembered);
    };
    deps.actors
        .session_closer
        .close_if_idle(expired, now)
        .await?;
    recall(&deps.store, &when, asker, talk, chat).await
}

/// The live session's messages (bounded by the budget), the pinned task and the summaries
/// of earlier sessions in the asker's chat, in one read.
async fn recall(
    store: &Store,
    when: &WhenContext,
    asker: &Viewer,
    talk: Talk,
    chat: &ChatConfig,
) -> Result<Remembered, TurnError> {
    let (when, now) = (when.clone(), when.now);
    let asker = asker.clone();
    let thread_id = asker.here.clone();
    let ttl = chrono_duration(chat.session_ttl.get());
    // Characters are at least tokens: no more text than this can fit the budget.
    let max_chars = chat.context_budget_tokens.saturating_mul(4);
    Ok(store
        .read(move |conn| {
            let latest = chat_sessions::latest(conn, &thread_id)?;
            let expired = latest
                .as_ref()
                .filter(|session| session.closed_at.is_none() && !session.is_live(now, ttl))
                .map(|session| session.id);
            let live = latest.filter(|session| session.is_live(now, ttl));
            let history = match &live {
                Some(session) => {
                    chat_sessions::messages(conn, &thread_id, session.started_at, None, max_chars)?
                }
                None => Vec::new(),
            };
            let pinned = match pins::pinned(conn, &thread_id)? {
                Some(task_id) => repo::get(conn, &task_id)?,
                None => None,
            };
            let summaries = chat_sessions::summaries(
                conn,
                &thread_id,
                live.as_ref().map(|session| session.id),
                SUMMARIES_SHOWN,
            )?;
            let open_tasks = match talk {
                Talk::Chat => Vec::new(),
                Talk::Tasks => open_task_lines(conn, &asker, &when)?,
            };
            Ok(Remembered {
                open_tasks,
                live: live.map(|session| session.id),
                expired,
                pinned,
                summaries,
                history: history
                    .into_iter()
                    .map(|entry| ChatLine {
                        from_person: entry.role == Role::User,
                        text: entry.content,
                    })
                    .collect(),
            })
        })
        .await?)
}

/// The first open tasks `asker` may see (`participation`: those of the chats they take part
/// in, and those of no chat), soonest first, one line each: "Pay rent (due Friday 27 Nov at
/// 09:00)". SQLite keeps only those it returns (`tasks::open`).
fn open_task_lines(
    conn: &rusqlite::Connection,
    asker: &Viewer,
    when: &WhenContext,
) -> Result<Vec<String>, StoreError> {
    let visible = visible_threads(conn, asker)?;
    Ok(
        open::tasks(conn, Some(&visible), Window::Any, Some(OPEN_TASKS_SHOWN))?
            .iter()
            .map(|task| format!("{}{}", task.title, timing(task, when)))
            .collect(),
    )
}
