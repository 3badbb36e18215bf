//! Reading the action journal (`action_log`) back: which tasks the actions journaled after a
//! mark touched, with each task as it was before. The turn uses it, inside its own transaction,
//! to tell the event stream what changed.
//!
//! Invariant: read-only; rows rolled back (a refused step, a plan applied none of) are not
//! there, so only changes that will commit with the turn are reported.

use rusqlite::{Connection, OptionalExtension};

use crate::store::StoreError;
use crate::tasks::Task;

/// One journaled action: the task it changed (as it was before) or the task it created.
#[derive(Debug, Clone, PartialEq)]
pub struct Journaled {
    pub task_id: Option<String>,
    pub created_task_id: Option<String>,
    pub before: Option<Task>,
}

/// The id of the newest journal row (0 when there is none): what `journaled_after` counts from.
pub fn mark(conn: &Connection) -> Result<i64, StoreError> {
    let last: Option<i64> = conn
        .prepare_cached("SELECT MAX(id) FROM action_log")?
        .query_row([], |row| row.get(0))
        .optional()?
        .flatten();
    Ok(last.unwrap_or(0))
}

/// Every journal row written after `mark`, oldest first.
pub fn journaled_after(conn: &Connection, mark: i64) -> Result<Vec<Journaled>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT task_id, created_task_id, before_json FROM action_log WHERE id > ?1 ORDER BY id",
    )?;
    let mut rows = statement.query([mark])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let before: Option<String> = row.get(2)?;
        out.push(Journaled {
            task_id: row.get(0)?,
            created_task_id: row.get(1)?,
            before: before
                .map(|json| serde_json::from_str::<Task>(&json))
                .transpose()
                .map_err(|e| StoreError::json("action_log.before", e))?,
        });
    }
    Ok(out)
}
