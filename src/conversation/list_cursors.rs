//! List cursors: where a list answer stopped, so "more" (or a More button) continues it.
//!
//! A cursor holds the whole list as it was when asked (its items: task ids, or lines for lists
//! that are not tasks, such as "what are you waiting on?") and how many items were shown. A
//! chat has at most one (keyed by `thread_id`: a new list replaces it, so "more" always
//! continues the LAST list of that chat); a Discord /tasks answer owns its own (`thread_id`
//! NULL), named by its More button. A cursor expires like a draft (`plans.expiry`); expired
//! ones are deleted whenever a new one is saved. A cursor records who asked (`asked_by`): only
//! they page on through it, so in a group another member's "more" never shows the asker's list.
//!
//! Invariants: the list is a snapshot (items added later wait for the next list, so paging
//! never skips or repeats an item); `shown` only grows.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::{Deserialize, Serialize};

use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

/// One item of a listed answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListItem {
    /// A task, shown as it is when its page is shown.
    Task(String),
    /// A line of text, shown as it was when listed.
    Line(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListCursor {
    pub id: String,
    /// The chat whose "more" continues it; None for a cursor a button owns.
    pub thread_id: Option<String>,
    /// The list's heading ("Your open tasks").
    pub heading: String,
    pub items: Vec<ListItem>,
    /// How many items have been shown so far.
    pub shown: usize,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// Who asked for the list: only they page on through it. None for a cursor saved before
    /// owners were recorded (it continues for no one).
    pub asked_by: Option<String>,
}

impl ListCursor {
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        now < self.expires_at
    }

    /// Whether `person` may page on through this list: only the one who asked for it.
    pub fn belongs_to(&self, person: &str) -> bool {
        self.asked_by.as_deref() == Some(person)
    }
}

const COLUMNS: &str = "id, thread_id, heading, items_json, shown, created_at, expires_at, asked_by";

fn from_row(row: &Row<'_>) -> Result<ListCursor, StoreError> {
    let items: String = row.get(3)?;
    let shown: i64 = row.get(4)?;
    Ok(ListCursor {
        id: row.get(0)?,
        thread_id: row.get(1)?,
        heading: row.get(2)?,
        items: serde_json::from_str(&items)
            .map_err(|e| StoreError::json("list_cursor.items_json", e))?,
        shown: usize::try_from(shown).unwrap_or(0),
        created_at: from_db(&row.get::<_, String>(5)?)?,
        expires_at: from_db(&row.get::<_, String>(6)?)?,
        asked_by: row.get(7)?,
    })
}

/// Saves a new cursor: the chat's previous one (if the cursor belongs to a chat) and every
/// expired cursor are removed in the same write.
pub fn save(conn: &Connection, cursor: &ListCursor, now: DateTime<Utc>) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM list_cursor WHERE expires_at <= ?1")?
        .execute([to_db(now)])?;
    if let Some(thread_id) = &cursor.thread_id {
        clear(conn, thread_id)?;
    }
    let items =
        serde_json::to_string(&cursor.items).map_err(|e| StoreError::json("list items", e))?;
    conn.prepare_cached(
        "INSERT INTO list_cursor (id, thread_id, heading, items_json, shown, created_at, expires_at, \
         asked_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        cursor.id,
        cursor.thread_id,
        cursor.heading,
        items,
        i64::try_from(cursor.shown).unwrap_or(i64::MAX),
        to_db(cursor.created_at),
        to_db(cursor.expires_at),
        cursor.asked_by,
    ])?;
    Ok(())
}

/// The chat's cursor, live or expired.
pub fn for_thread(conn: &Connection, thread_id: &str) -> Result<Option<ListCursor>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM list_cursor WHERE thread_id = ?1"
    ))?;
    let row = statement
        .query_row([thread_id], |row| Ok(from_row(row)))
        .optional()?;
    row.transpose()
}

/// A cursor by its id (a More button names it), live or expired.
pub fn get(conn: &Connection, id: &str) -> Result<Option<ListCursor>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM list_cursor WHERE id = ?1"))?;
    let row = statement
        .query_row([id], |row| Ok(from_row(row)))
        .optional()?;
    row.transpose()
}

/// Records that the items up to `shown` of cursor `id` have been shown.
pub fn advance(conn: &Connection, id: &str, shown: usize) -> Result<(), StoreError> {
    conn.prepare_cached("UPDATE list_cursor SET shown = MAX(shown, ?2) WHERE id = ?1")?
        .execute(params![id, i64::try_from(shown).unwrap_or(i64::MAX)])?;
    Ok(())
}

/// Removes the chat's cursor (a new list that fits one answer leaves nothing to continue).
pub fn clear(conn: &Connection, thread_id: &str) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM list_cursor WHERE thread_id = ?1")?
        .execute([thread_id])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::store::migrations::migrated_in_memory;

    fn cursor(id: &str, thread: Option<&str>, now: DateTime<Utc>) -> ListCursor {
        ListCursor {
            id: id.into(),
            thread_id: thread.map(str::to_string),
            heading: "Your open tasks".into(),
            items: vec![
                ListItem::Task("tsk_1".into()),
                ListItem::Line("- a yes or no here".into()),
            ],
            shown: 1,
            created_at: now,
            expires_at: now + Duration::minutes(60),
            asked_by: Some("ann".into()),
        }
    }

    #[test]
    fn a_new_list_replaces_the_chats_cursor_and_expired_ones_go() {
        let conn = migrated_in_memory();
        let now = DateTime::<Utc>::UNIX_EPOCH + Duration::days(20_000);
        let ok = |r: Result<(), StoreError>| r.unwrap_or_else(|e| panic!("{e}"));
        ok(save(&conn, &cursor("lst_a", Some("thr_1"), now), now));
        ok(save(&conn, &cursor("lst_button", None, now), now));
        let first = for_thread(&conn, "thr_1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first, Some(cursor("lst_a", Some("thr_1"), now)));
        ok(save(&conn, &cursor("lst_b", Some("thr_1"), now), now));
        let second = for_thread(&conn, "thr_1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(second.map(|c| c.id), Some("lst_b".to_string()));
        assert_eq!(get(&conn, "lst_a").ok().flatten(), None);
        // Shown only grows.
        ok(advance(&conn, "lst_b", 2));
        ok(advance(&conn, "lst_b", 1));
        assert_eq!(get(&conn, "lst_b").ok().flatten().map(|c| c.shown), Some(2));
        // Two hours later a new cursor elsewhere sweeps both old ones.
        let later = now + Duration::hours(2);
        ok(save(&conn, &cursor("lst_c", Some("thr_2"), later), later));
        assert_eq!(get(&conn, "lst_b").ok().flatten(), None);
        assert_eq!(get(&conn, "lst_button").ok().flatten(), None);
        assert!(get(&conn, "lst_c").ok().flatten().is_some());
    }
}
