//! The `preference` table: learned values (domain, priority) by the normalised title they were
//! learned from. The logic (when a change teaches one, which applies) is `capture::preferences`.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection};

use crate::store::time::to_db;
use crate::store::StoreError;

/// Remembers `value` for `field` of titles like `title_key` (the latest lesson wins).
pub fn remember(
    conn: &Connection,
    title_key: &str,
    field: &str,
    value: &str,
    task_id: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO preference (title_key, field, value, learned_from_task_id, learned_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (title_key, field) DO UPDATE SET value = excluded.value, \
         learned_from_task_id = excluded.learned_from_task_id, learned_at = excluded.learned_at",
    )?
    .execute(params![title_key, field, value, task_id, to_db(now)])?;
    Ok(())
}

/// Every learned (title_key, field, value), the latest first.
pub fn all(conn: &Connection) -> Result<Vec<(String, String, String)>, StoreError> {
    let learned = conn
        .prepare_cached(
            "SELECT title_key, field, value FROM preference ORDER BY learned_at DESC, id DESC",
        )?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<Result<Vec<(String, String, String)>, _>>()?;
    Ok(learned)
}
