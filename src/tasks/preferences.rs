//! The `preference` table: learned values (domain, priority) by the normalised title they were
//! learned from, and `learn`: when a change of a captured task teaches one (here, below the
//! actions, so the chat's `update_task` learns like an API edit). Which preference applies to
//! a new capture is `capture::preferences`.

use chrono::{DateTime, Duration, Utc};
use rusqlite::{params, Connection};

use crate::store::time::to_db;
use crate::store::StoreError;

use super::title_words::normalise;
use super::{Task, TaskSource};

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

/// A learned preference as stored (an export, an import).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learned {
    pub title_key: String,
    pub field: String,
    pub value: String,
    pub learned_from_task_id: Option<String>,
    pub learned_at: DateTime<Utc>,
}

/// Every learned preference as stored, by title and field.
pub fn records(conn: &Connection) -> Result<Vec<Learned>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT title_key, field, value, learned_from_task_id, learned_at FROM preference \
         ORDER BY title_key, field",
    )?;
    let mut rows = statement.query([])?;
    let mut all = Vec::new();
    while let Some(row) = rows.next()? {
        all.push(Learned {
            title_key: row.get(0)?,
            field: row.get(1)?,
            value: row.get(2)?,
            learned_from_task_id: row.get(3)?,
            learned_at: crate::store::time::from_db(&row.get::<_, String>(4)?)?,
        });
    }
    Ok(all)
}

/// Writes `learned` as it is: added, or the one for its title and field replaced.
pub fn put(conn: &Connection, learned: &Learned) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO preference (title_key, field, value, learned_from_task_id, learned_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (title_key, field) DO UPDATE SET value = excluded.value, \
         learned_from_task_id = excluded.learned_from_task_id, learned_at = excluded.learned_at",
    )?
    .execute(params![
        learned.title_key,
        learned.field,
        learned.value,
        learned.learned_from_task_id,
        to_db(learned.learned_at)
    ])?;
    Ok(())
}

/// How long after a capture a change still teaches a preference.
pub fn learning_window() -> Duration {
    Duration::days(1)
}

/// Learns from a change of `before` into `after`, if it is one (a captured task, changed within
/// a day, in its domain or priority).
pub fn learn(
    conn: &Connection,
    before: &Task,
    after: &Task,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    if before.source != TaskSource::Capture || now - before.created_at > learning_window() {
        return Ok(());
    }
    let key = normalise(&after.title);
    if key.is_empty() {
        return Ok(());
    }
    let mut changes = Vec::new();
    if before.domain != after.domain {
        changes.push(("domain", after.domain.clone()));
    }
    if before.priority != after.priority {
        changes.push(("priority", after.priority.to_string()));
    }
    for (field, value) in changes {
        remember(conn, &key, field, &value, &after.id, now)?;
        tracing::info!(field, value = %value, title = %key, "learned a preference");
    }
    Ok(())
}
