//! Task rows: the SQL for reading and changing tasks. Functions take a `&Connection` so the
//! same code runs on a read connection or inside the writer's transaction.
//!
//! Invariant: status changes go through `set_status`, which enforces the state machine;
//! `restore` (undo) is the one deliberate exception and writes a saved snapshot back whole.

use chrono::{DateTime, Utc};
use rusqlite::types::Value as SqlValue;
use rusqlite::{params, params_from_iter, Connection, OptionalExtension, Row};

use super::model::{NewTask, Task, TaskSource};
use super::status::{TaskStatus, TransitionError};
use super::title_index;
use crate::store::page::{self, Ask, Page, Rows};
use crate::store::time::{from_db, opt_from_db, to_db};
use crate::store::StoreError;

pub(super) const COLUMNS: &str =
    "id, title, description, domain, priority, status, estimated_duration_minutes, \
    deadline, scheduled_start, completed_at, snoozed_until, reschedule_count, nudge_count, \
    unanswered_nudges, last_nudged_at, created_at, updated_at, source, tags_json, \
    applied_preferences_json, origin_thread_id, automation_id, occurrence_at, created_by";

pub(super) fn from_row(row: &Row<'_>) -> Result<Task, StoreError> {
    let status: String = row.get(5)?;
    Ok(Task {
        id: row.get(0)?,
        title: row.get(1)?,
        description: row.get(2)?,
        domain: row.get(3)?,
        priority: row.get(4)?,
        status: status
            .parse()
            .map_err(|e: super::status::UnknownStatus| StoreError::Corrupt(e.to_string()))?,
        estimated_duration_minutes: row.get(6)?,
        deadline: opt_from_db(row.get(7)?)?,
        scheduled_start: opt_from_db(row.get(8)?)?,
        completed_at: opt_from_db(row.get(9)?)?,
        snoozed_until: opt_from_db(row.get(10)?)?,
        reschedule_count: row.get(11)?,
        nudge_count: row.get(12)?,
        unanswered_nudges: row.get(13)?,
        last_nudged_at: opt_from_db(row.get(14)?)?,
        created_at: from_db(&row.get::<_, String>(15)?)?,
        updated_at: from_db(&row.get::<_, String>(16)?)?,
        source: {
            let source: String = row.get(17)?;
            TaskSource::parse(&source)
                .ok_or_else(|| StoreError::Corrupt(format!("unknown task source {source:?}")))?
        },
        tags: json_column(&row.get::<_, String>(18)?, "tags_json")?,
        applied_preferences: json_column(&row.get::<_, String>(19)?, "applied_preferences_json")?,
        origin_thread_id: row.get(20)?,
        automation_id: row.get(21)?,
        occurrence_at: opt_from_db(row.get(22)?)?,
        created_by: row.get(23)?,
    })
}

fn json_column<T: serde::de::DeserializeOwned>(text: &str, column: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|source| StoreError::json(format!("task.{column}"), source))
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|source| StoreError::json("a task field", source))
}

fn opt_ts(at: Option<DateTime<Utc>>) -> Option<String> {
    at.map(to_db)
}

pub fn insert(
    conn: &Connection,
    id: &str,
    new: &NewTask,
    now: DateTime<Utc>,
) -> Result<Task, StoreError> {
    let status = if new.scheduled_start.is_some() {
        TaskStatus::Scheduled
    } else {
        TaskStatus::Backlog
    };
    conn.execute(
        "INSERT INTO task (id, title, description, domain, priority, status, estimated_duration_minutes, \
         deadline, scheduled_start, created_at, updated_at, source, tags_json, applied_preferences_json, \
         origin_thread_id, automation_id, occurrence_at, created_by) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        params![
            id,
            new.title,
            new.description,
            new.domain,
            new.priority,
            status.as_str(),
            new.estimated_duration_minutes,
            opt_ts(new.deadline),
            opt_ts(new.scheduled_start),
            to_db(now),
            new.source.as_str(),
            to_json(&new.tags)?,
            to_json(&new.applied_preferences)?,
            new.origin_thread_id,
            new.automation_id,
            opt_ts(new.occurrence_at),
            new.created_by,
        ],
    )?;
    title_index::add(conn, id, &new.title)?;
    get(conn, id)?.ok_or_else(|| StoreError::Corrupt(format!("task {id} vanished after insert")))
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<Task>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM task WHERE id = ?1"))?;
    let mut rows = statement.query([id])?;
    match rows.next()? {
        Some(row) => Ok(Some(from_row(row)?)),
        None => Ok(None),
    }
}

/// Tasks, newest first, optionally of one status.
pub fn list(conn: &Connection, status: Option<TaskStatus>) -> Result<Vec<Task>, StoreError> {
    let mut tasks = Vec::new();
    match status {
        Some(status) => {
            let mut statement = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM task WHERE status = ?1 ORDER BY created_at DESC, id"
            ))?;
            let mut rows = statement.query([status.as_str()])?;
            while let Some(row) = rows.next()? {
                tasks.push(from_row(row)?);
            }
        }
        None => {
            let mut statement = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM task ORDER BY created_at DESC, id"
            ))?;
            let mut rows = statement.query([])?;
            while let Some(row) = rows.next()? {
                tasks.push(from_row(row)?);
            }
        }
    }
    Ok(tasks)
}

/// Every task someone taking part in the chats `visible` may see (None: every task), newest
/// first: those captured in one of the chats, or in none (`tasks::open` says the same of open
/// tasks). SQLite leaves out the others.
pub fn seen_in(
    conn: &Connection,
    visible: Option<&std::collections::BTreeSet<String>>,
) -> Result<Vec<Task>, StoreError> {
    let Some(visible) = visible else {
        return list(conn, None);
    };
    let chats = serde_json::to_string(visible)
        .map_err(|source| StoreError::json("the visible chats", source))?;
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM task WHERE origin_thread_id IS NULL \
         OR origin_thread_id IN (SELECT value FROM json_each(?1)) ORDER BY created_at DESC, id"
    ))?;
    let mut rows = statement.query([chats])?;
    let mut tasks = Vec::new();
    while let Some(row) = rows.next()? {
        tasks.push(from_row(row)?);
    }
    Ok(tasks)
}

/// (id, title) of the done and cancelled tasks whose title, lower-cased, holds `text`, and of
/// every one whose title has characters beyond ASCII (SQLite lower-cases ASCII only, so those
/// are left to the caller): a narrowing of the closed tasks before the caller's own check.
pub fn closed_titles_holding(
    conn: &Connection,
    text: &str,
) -> Result<Vec<(String, String)>, StoreError> {
    let rows = conn
        .prepare_cached(
            "SELECT id, title FROM task WHERE status IN ('done', 'cancelled') \
             AND (instr(lower(title), ?1) > 0 OR length(title) != length(CAST(title AS BLOB)))",
        )?
        .query_map([text.to_ascii_lowercase()], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// Which tasks a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Every,
    /// Those of one status.
    Status(TaskStatus),
    /// Those not done or cancelled.
    Open,
}

/// A page of the tasks `shown`, newest first (`store::page`).
pub fn page(conn: &Connection, shown: Shown, ask: &Ask) -> Result<Page<Task>, StoreError> {
    let (filter, params) = match shown {
        Shown::Every => ("1", Vec::new()),
        Shown::Status(status) => (
            "status = ?1",
            vec![SqlValue::Text(status.as_str().to_string())],
        ),
        Shown::Open => ("status NOT IN ('done', 'cancelled')", Vec::new()),
    };
    let rows = Rows {
        table: "task",
        columns: COLUMNS,
        filter,
        params,
    };
    page::read(conn, &rows, ask, from_row)
}

/// Why a task could not be changed.
#[derive(Debug, thiserror::Error)]
pub enum TaskChangeError {
    #[error("no task {0}")]
    NotFound(String),
    #[error("{0}")]
    InvalidTransition(#[from] TransitionError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for TaskChangeError {
    fn from(error: rusqlite::Error) -> Self {
        TaskChangeError::Store(error.into())
    }
}

impl From<TaskChangeError> for StoreError {
    fn from(error: TaskChangeError) -> Self {
        match error {
            TaskChangeError::NotFound(id) => {
                StoreError::refused(crate::store::Refusal::NotFound, format!("no task {id}"))
            }
            TaskChangeError::InvalidTransition(reason) => {
                StoreError::refused(crate::store::Refusal::Conflict, reason.to_string())
            }
            TaskChangeError::Store(error) => error,
        }
    }
}

pub fn require(conn: &Connection, id: &str) -> Result<Task, TaskChangeError> {
    get(conn, id)?.ok_or_else(|| TaskChangeError::NotFound(id.to_string()))
}

/// Moves a task through the state machine; `done` stamps `completed_at`, reopening clears it.
pub fn set_status(
    conn: &Connection,
    id: &str,
    to: TaskStatus,
    now: DateTime<Utc>,
) -> Result<Task, TaskChangeError> {
    let task = require(conn, id)?;
    task.status.can_move_to(to)?;
    let completed_at = match to {
        TaskStatus::Done => Some(to_db(now)),
        _ => None,
    };
    conn.prepare_cached(
        "UPDATE task SET status = ?2, completed_at = ?3, updated_at = ?4 WHERE id = ?1",
    )?
    .execute(params![id, to.as_str(), completed_at, to_db(now)])?;
    match (task.status.is_open(), to.is_open()) {
        (true, false) => title_index::remove(conn, id)?,
        (false, true) => title_index::add(conn, id, &task.title)?,
        _ => {}
    }
    require(conn, id)
}

/// The fields every write of a task sets, as stored, in `COLUMNS` order from `id` to
/// `last_nudged_at`: ?1 to ?15 of [`save`] and [`put`].
fn written_fields(task: &Task) -> [SqlValue; 15] {
    [
        SqlValue::from(task.id.clone()),
        SqlValue::from(task.title.clone()),
        SqlValue::from(task.description.clone()),
        SqlValue::from(task.domain.clone()),
        SqlValue::from(task.priority),
        SqlValue::from(task.status.as_str().to_string()),
        SqlValue::from(task.estimated_duration_minutes),
        SqlValue::from(opt_ts(task.deadline)),
        SqlValue::from(opt_ts(task.scheduled_start)),
        SqlValue::from(opt_ts(task.completed_at)),
        SqlValue::from(opt_ts(task.snoozed_until)),
        SqlValue::from(task.reschedule_count),
        SqlValue::from(task.nudge_count),
        SqlValue::from(task.unanswered_nudges),
        SqlValue::from(opt_ts(task.last_nudged_at)),
    ]
}

/// Writes every mutable field of `task` (edits through the API, action handlers, undo).
pub fn save(conn: &Connection, task: &Task, now: DateTime<Utc>) -> Result<Task, TaskChangeError> {
    let before: Option<(String, String)> = conn
        .prepare_cached("SELECT title, status FROM task WHERE id = ?1")?
        .query_row([&task.id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let changed = conn
        .prepare_cached(
            "UPDATE task SET title = ?2, description = ?3, domain = ?4, priority = ?5, status = ?6, \
             estimated_duration_minutes = ?7, deadline = ?8, scheduled_start = ?9, completed_at = ?10, \
             snoozed_until = ?11, reschedule_count = ?12, nudge_count = ?13, unanswered_nudges = ?14, \
             last_nudged_at = ?15, updated_at = ?16, tags_json = ?17 WHERE id = ?1",
        )?
        .execute(params_from_iter(written_fields(task).into_iter().chain([
            SqlValue::from(to_db(now)),
            SqlValue::from(to_json(&task.tags)?),
        ])))?;
    if changed == 0 {
        return Err(TaskChangeError::NotFound(task.id.clone()));
    }
    let indexed_as_before = before.is_some_and(|(title, status)| {
        title == task.title && status_is_open(&status) == task.status.is_open()
    });
    if !indexed_as_before {
        title_index::remove(conn, &task.id)?;
        if task.status.is_open() {
            title_index::add(conn, &task.id, &task.title)?;
        }
    }
    require(conn, &task.id)
}

/// Writes `task` whole, as it is (an import: its own times, counters and ids), adding it or
/// replacing the task with its id; the open-title index follows.
pub fn put(conn: &Connection, task: &Task) -> Result<(), StoreError> {
    conn.prepare_cached(&format!(
        "INSERT INTO task ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, \
         ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24) \
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description, \
         domain = excluded.domain, priority = excluded.priority, status = excluded.status, \
         estimated_duration_minutes = excluded.estimated_duration_minutes, \
         deadline = excluded.deadline, scheduled_start = excluded.scheduled_start, \
         completed_at = excluded.completed_at, snoozed_until = excluded.snoozed_until, \
         reschedule_count = excluded.reschedule_count, nudge_count = excluded.nudge_count, \
         unanswered_nudges = excluded.unanswered_nudges, last_nudged_at = excluded.last_nudged_at, \
         created_at = excluded.created_at, updated_at = excluded.updated_at, \
         source = excluded.source, tags_json = excluded.tags_json, \
         applied_preferences_json = excluded.applied_preferences_json, \
         origin_thread_id = excluded.origin_thread_id, automation_id = excluded.automation_id, \
         occurrence_at = excluded.occurrence_at, created_by = excluded.created_by"
    ))?
    .execute(params_from_iter(written_fields(task).into_iter().chain([
        SqlValue::from(to_db(task.created_at)),
        SqlValue::from(to_db(task.updated_at)),
        SqlValue::from(task.source.as_str().to_string()),
        SqlValue::from(to_json(&task.tags)?),
        SqlValue::from(to_json(&task.applied_preferences)?),
        SqlValue::from(task.origin_thread_id.clone()),
        SqlValue::from(task.automation_id.clone()),
        SqlValue::from(opt_ts(task.occurrence_at)),
        SqlValue::from(task.created_by.clone()),
    ])))?;
    title_index::remove(conn, &task.id)?;
    if task.status.is_open() {
        title_index::add(conn, &task.id, &task.title)?;
    }
    Ok(())
}

/// Whether a stored status text is an open one (an unknown text counts as open: the index
/// then holds the title, and the duplicate check re-reads the task anyway).
fn status_is_open(status: &str) -> bool {
    status
        .parse::<TaskStatus>()
        .map_or(true, TaskStatus::is_open)
}

/// Ids of the open tasks whose deadline or scheduled start has come by `now`, the earliest
/// first: the candidates for a nudge (the Nudger's rules decide which of them are due).
pub fn nudge_candidate_ids(
    conn: &Connection,
    now: DateTime<Utc>,
) -> Result<Vec<String>, StoreError> {
    // One search per index (open deadlines, open starts): the planner takes no partial index
    // for one arm of an OR.
    let mut statement = conn.prepare_cached(
        "SELECT id FROM task WHERE id IN (\
         SELECT id FROM task WHERE status NOT IN ('done', 'cancelled') AND deadline <= ?1 \
         UNION ALL \
         SELECT id FROM task WHERE status NOT IN ('done', 'cancelled') AND scheduled_start <= ?1) \
         ORDER BY COALESCE(deadline, scheduled_start), id",
    )?;
    let ids = statement
        .query_map([to_db(now)], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    Ok(ids)
}

/// Counts a nudge just sent about the task: one more nudge, one more unanswered (the gap to the
/// next one grows with those), last nudged `now`. Both counters count as `fields::count_one_more`
/// does: from within 0..=`MAX_COUNT`, saturating there (a `+ 1` past SQLite's largest integer
/// would turn the column into REAL, which no read takes).
pub fn record_nudge(
    conn: &Connection,
    task_id: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "UPDATE task SET \
         nudge_count = CASE WHEN nudge_count < 0 THEN 1 \
         WHEN nudge_count < ?3 THEN nudge_count + 1 ELSE ?3 END, \
         unanswered_nudges = CASE WHEN unanswered_nudges < 0 THEN 1 \
         WHEN unanswered_nudges < ?3 THEN unanswered_nudges + 1 ELSE ?3 END, \
         last_nudged_at = ?2 WHERE id = ?1",
    )?
    .execute(params![task_id, to_db(now), super::fields::MAX_COUNT])?;
    Ok(())
}

/// The task's open thread, if it has one.
pub fn open_thread_id(conn: &Connection, task_id: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT id FROM thread WHERE task_id = ?1 AND open = 1")?
        .query_row([task_id], |row| row.get(0))
        .optional()?)
}

pub fn delete(conn: &Connection, id: &str) -> Result<(), StoreError> {
    title_index::remove(conn, id)?;
    conn.execute("DELETE FROM task WHERE id = ?1", [id])?;
    Ok(())
}

/// The person answered in the task's thread: the nudge backoff starts over.
pub fn reset_unanswered_nudges(conn: &Connection, id: &str) -> Result<(), StoreError> {
    conn.prepare_cached("UPDATE task SET unanswered_nudges = 0 WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

/// Titles of the open tasks Donna nudged about and heard nothing back on, the oldest nudge first.
pub fn unanswered_nudge_titles(
    conn: &Connection,
) -> Result<Vec<(String, Option<String>)>, StoreError> {
    let titles = conn
        .prepare_cached(
            "SELECT title, origin_thread_id FROM task WHERE unanswered_nudges > 0 \
             AND status NOT IN ('done', 'cancelled') ORDER BY last_nudged_at",
        )?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(titles)
}
