//! Who takes part in which chat: a person takes part in the chats they have written in (their
//! 1:1 chats with Donna, the group chats they speak in, nudge threads they answered), and in the
//! chat they are writing in now. What was said or proposed elsewhere is not theirs to see:
//! the planner's tools and "what are you waiting on?" read only these chats (private memory).
//! A list shown in a group chat (`is_group_chat`) names only what comes from that group: the
//! asker's other tasks are counted, never named, since everyone there reads the answer.
//!
//! Read-only SQL. Invariant: a chat is visible to a person only through a message of theirs in
//! memory (or being the chat of the current message); a pruned history narrows what they see,
//! never widens it.

use std::collections::BTreeSet;

use rusqlite::Connection;

use crate::store::StoreError;

/// Who is asking, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    /// The person (the local API's user id, the Discord user id, `console`).
    pub person: String,
    /// The chat the question is asked in (always visible to its asker).
    pub here: String,
}

/// The chats `viewer` takes part in.
pub fn visible_threads(conn: &Connection, viewer: &Viewer) -> Result<BTreeSet<String>, StoreError> {
    let mut threads: BTreeSet<String> = conn
        .prepare_cached(
            "SELECT DISTINCT thread_id FROM memory WHERE role = 'user' AND author_id = ?1",
        )?
        .query_map([&viewer.person], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    threads.insert(viewer.here.clone());
    Ok(threads)
}

/// Whether something that came from `origin` (a task's origin chat; None: not from a chat, e.g.
/// the HTTP API) may be shown to someone taking part in `visible`.
pub fn may_see(visible: &BTreeSet<String>, origin: Option<&str>) -> bool {
    origin.is_none_or(|origin| visible.contains(origin))
}

/// Whether `chat` is a group chat: a list shown there names only that chat's things.
pub fn is_group_chat(conn: &Connection, chat: &str) -> Result<bool, StoreError> {
    Ok(super::threads::get(conn, chat)?.is_some_and(|thread| thread.is_group))
}
