//! A list asked for in a group chat: everyone there reads the answer, so it names only the
//! tasks captured in that group, and counts the asker's others ("and 25 more of yours in
//! other chats") without naming one. Used by `questions::list` and `agenda::compose`.
//!
//! Invariant: read-only; in a group nothing from another chat (or from no chat: the HTTP
//! API's) is named, only counted; in a chat of the person's own nothing changes.

use std::collections::BTreeSet;

use rusqlite::Connection;

use crate::conversation::participation::{is_group_chat, Viewer};
use crate::store::StoreError;
use crate::tasks::open::{self, Origins, Window};

/// The group chat `viewer` asks in, or None in a chat of their own (or outside any chat).
pub fn group_chat<'a>(
    conn: &Connection,
    viewer: Option<&'a Viewer>,
) -> Result<Option<&'a str>, StoreError> {
    match viewer {
        Some(viewer) if is_group_chat(conn, &viewer.here)? => Ok(Some(viewer.here.as_str())),
        _ => Ok(None),
    }
}

/// How many tasks in `window` the asker may see that the group's list leaves out (0 outside a
/// group); `listed` is how many the group's list found, and the most it looks for.
pub fn elsewhere(
    conn: &Connection,
    (group, visible): (Option<&str>, Option<&BTreeSet<String>>),
    window: Window,
    (listed_here, most): (usize, usize),
) -> Result<usize, StoreError> {
    let Some(group) = group else { return Ok(0) };
    let here = if listed_here >= most {
        open::count(conn, Origins::Only(group), window)?
    } else {
        listed_here
    };
    Ok(open::count(conn, visible.into(), window)?.saturating_sub(here))
}

/// A list's heading in a group: "Your open tasks" are the chat's, not the asker's.
pub fn heading(group: Option<&str>, heading: &str) -> String {
    match (group, heading) {
        (None, heading) => heading.to_string(),
        (Some(_), "Your open tasks") => "Open tasks in this chat".to_string(),
        (Some(_), heading) => format!("{heading} in this chat"),
    }
}

/// The heading, with how many of the asker's tasks are elsewhere when there are any.
pub fn with_elsewhere(heading: String, elsewhere: usize) -> String {
    match elsewhere {
        0 => heading,
        n => format!("{heading} (and {n} more of yours in your own chats, not listed here)"),
    }
}

/// What an empty list says in a group, with the asker's tasks elsewhere counted.
pub fn nothing(group: Option<&str>, none: &str, elsewhere: usize) -> String {
    match (group, elsewhere) {
        (None, _) => none.to_string(),
        (Some(_), 0) => format!("{} in this chat.", none.trim_end_matches('.')),
        (Some(_), n) => format!(
            "{} in this chat; you have {n} in your own chats: ask me there to see them.",
            none.trim_end_matches('.')
        ),
    }
}
