//! What a turn does to its chat's list cursor (where the last list answer stopped, so "more"
//! continues it), applied inside the turn's transaction with everything else.
//!
//! Invariant: a new list answer always replaces or clears the chat's cursor, so "more" never
//! continues a list older than the last one asked.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::conversation::list_cursors::{self, ListCursor};
use crate::store::StoreError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListStep {
    /// A new list with more to come: this is now the chat's cursor.
    Save(ListCursor),
    /// A new list that fit one answer (or had nothing): nothing to continue.
    Clear,
    /// "more" showed the items up to `shown` of cursor `id`.
    Advance { id: String, shown: usize },
    /// "more" with nothing to continue: nothing changes.
    Keep,
}

pub fn apply(
    conn: &Connection,
    thread_id: &str,
    step: ListStep,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    match step {
        ListStep::Save(cursor) => list_cursors::save(conn, &cursor, now),
        ListStep::Clear => list_cursors::clear(conn, thread_id),
        ListStep::Advance { id, shown } => list_cursors::advance(conn, &id, shown),
        ListStep::Keep => Ok(()),
    }
}
