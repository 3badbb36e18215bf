//! Automation rows: the SQL of the `automation` table (migrations/0003_free_text.sql; its
//! `kind`, reminder or digest, and `for_user_id` in 0014; `created_by` in 0016; `time_stated`
//! and `repeat_from` in 0023), and the questions the runners ask of the `task` table (is this
//! occurrence already a task? which task is the latest occurrence, and how many were there?).
//!
//! Functions take a `&Connection`, so the same code runs on a read connection or inside the
//! writer's transaction. Invariant: a stored automation always reads back as a valid
//! `Automation` (its time zone names a zone, its times are stored times); anything else is
//! reported as a corrupt store, never a panic.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension, Row};

use super::repeat_from::RepeatFrom;
use super::schedule::Schedule;
use crate::store::page::{self, Ask, Page, Rows};
use crate::store::time::{from_db, opt_from_db, to_db};
use crate::store::StoreError;
use crate::tasks::{repo as tasks, Task};

/// What an automation does at each occurrence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutomationKind {
    /// Creates a task (nudged like any other).
    #[default]
    Reminder,
    /// Sends the person's agenda to the chat it was made in (`subsystems::digest`).
    Digest,
}

impl AutomationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AutomationKind::Reminder => "reminder",
            AutomationKind::Digest => "digest",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "reminder" => Some(AutomationKind::Reminder),
            "digest" => Some(AutomationKind::Digest),
            _ => None,
        }
    }
}

/// A stored recurring reminder (or digest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Automation {
    pub id: String,
    pub kind: AutomationKind,
    /// Whose agenda a digest shows (the person who asked for it); None for reminders.
    pub for_user_id: Option<String>,
    /// The title of each task it creates.
    pub title: String,
    pub schedule: Schedule,
    /// The chat it was confirmed in: its tasks (and their nudges) belong there.
    pub origin_thread_id: Option<String>,
    pub domain: String,
    pub priority: i64,
    /// The latest occurrence already turned into a task (or passed over as missed).
    pub last_occurrence_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// Who made it (its tasks are theirs: `created_by`); None before people were told apart.
    pub created_by: Option<String>,
    /// When the chat's `stop_automation` stopped it (None: running).
    pub stopped_at: Option<DateTime<Utc>>,
    /// Whether the person stated its time of day (`stated`): its occurrences then fire at that
    /// time even in quiet hours.
    pub time_stated: bool,
    /// Where the next occurrence counts from (`completion`).
    pub repeat_from: RepeatFrom,
}

const COLUMNS: &str = "id, title, schedule_words, rrule, dtstart, timezone, origin_thread_id, \
    domain, priority, last_occurrence_at, created_at, kind, for_user_id, created_by, stopped_at, \
    time_stated, repeat_from";

fn from_row(row: &Row<'_>) -> Result<Automation, StoreError> {
    let timezone: String = row.get(5)?;
    let timezone = chrono_tz::Tz::from_str(&timezone).map_err(|_| {
        StoreError::Corrupt(format!(
            "automation.timezone {timezone:?} is not a time zone"
        ))
    })?;
    let kind: String = row.get(11)?;
    let kind = AutomationKind::parse(&kind)
        .ok_or_else(|| StoreError::Corrupt(format!("automation.kind {kind:?} is unknown")))?;
    let repeat_from: String = row.get(16)?;
    let repeat_from = RepeatFrom::parse(&repeat_from).ok_or_else(|| {
        StoreError::Corrupt(format!("automation.repeat_from {repeat_from:?} is unknown"))
    })?;
    Ok(Automation {
        id: row.get(0)?,
        kind,
        for_user_id: row.get(12)?,
        title: row.get(1)?,
        schedule: Schedule {
            words: row.get(2)?,
            rrule: row.get(3)?,
            dtstart: from_db(&row.get::<_, String>(4)?)?,
            timezone,
        },
        origin_thread_id: row.get(6)?,
        domain: row.get(7)?,
        priority: row.get(8)?,
        last_occurrence_at: opt_from_db(row.get(9)?)?,
        created_at: from_db(&row.get::<_, String>(10)?)?,
        created_by: row.get(13)?,
        stopped_at: opt_from_db(row.get(14)?)?,
        time_stated: row.get(15)?,
        repeat_from,
    })
}

/// Stores `automation` (a new one; with an id already stored, that row is replaced whole).
pub fn insert(conn: &Connection, automation: &Automation) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO automation (id, title, schedule_words, rrule, dtstart, timezone, \
         origin_thread_id, domain, priority, last_occurrence_at, created_at, kind, for_user_id, \
         created_by, stopped_at, time_stated, repeat_from) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) \
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, kind = excluded.kind, \
         for_user_id = excluded.for_user_id, \
         schedule_words = excluded.schedule_words, rrule = excluded.rrule, \
         dtstart = excluded.dtstart, timezone = excluded.timezone, \
         origin_thread_id = excluded.origin_thread_id, domain = excluded.domain, \
         priority = excluded.priority, last_occurrence_at = excluded.last_occurrence_at, \
         created_at = excluded.created_at, created_by = excluded.created_by, \
         stopped_at = excluded.stopped_at, time_stated = excluded.time_stated, \
         repeat_from = excluded.repeat_from",
    )?
    .execute(params![
        automation.id,
        automation.title,
        automation.schedule.words,
        automation.schedule.rrule,
        to_db(automation.schedule.dtstart),
        automation.schedule.timezone.name(),
        automation.origin_thread_id,
        automation.domain,
        automation.priority,
        automation.last_occurrence_at.map(to_db),
        to_db(automation.created_at),
        automation.kind.as_str(),
        automation.for_user_id,
        automation.created_by,
        automation.stopped_at.map(to_db),
        automation.time_stated,
        automation.repeat_from.as_str(),
    ])?;
    Ok(())
}

/// Writes `automation` whole (an import): added, or the one with its id replaced.
pub fn put(conn: &Connection, automation: &Automation) -> Result<(), StoreError> {
    insert(conn, automation)
}

/// Every automation, stopped ones too, oldest first (an export).
pub fn all(conn: &Connection) -> Result<Vec<Automation>, StoreError> {
    oldest_first(conn, "")
}

/// The automations `filter` (a WHERE clause, or nothing) keeps, oldest first.
fn oldest_first(conn: &Connection, filter: &str) -> Result<Vec<Automation>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM automation {filter} ORDER BY created_at, id"
    ))?;
    let mut rows = statement.query([])?;
    let mut all = Vec::new();
    while let Some(row) = rows.next()? {
        all.push(from_row(row)?);
    }
    Ok(all)
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<Automation>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM automation WHERE id = ?1"))?;
    let mut rows = statement.query([id])?;
    match rows.next()? {
        Some(row) => Ok(Some(from_row(row)?)),
        None => Ok(None),
    }
}

/// Every automation of `kind` not stopped, oldest first (what each runner fires).
pub fn list_of(conn: &Connection, kind: AutomationKind) -> Result<Vec<Automation>, StoreError> {
    Ok(list(conn)?
        .into_iter()
        .filter(|automation| automation.kind == kind)
        .collect())
}

/// Every automation not stopped, oldest first (the order the console numbers them in).
pub fn list(conn: &Connection) -> Result<Vec<Automation>, StoreError> {
    oldest_first(conn, "WHERE stopped_at IS NULL")
}

/// A page of the automations not stopped, newest first (`store::page`).
pub fn page(conn: &Connection, ask: &Ask) -> Result<Page<Automation>, StoreError> {
    let rows = Rows {
        table: "automation",
        columns: COLUMNS,
        filter: "stopped_at IS NULL",
        params: Vec::new(),
    };
    page::read(conn, &rows, ask, from_row)
}

/// Removes an automation; false when there was none. The tasks it already made stay.
pub fn delete(conn: &Connection, id: &str) -> Result<bool, StoreError> {
    let removed = conn
        .prepare_cached("DELETE FROM automation WHERE id = ?1")?
        .execute([id])?;
    Ok(removed > 0)
}

/// Stops an automation so that "undo" can resume it (chat's `stop_automation`): the runner and
/// every listing skip it from now on. False when there is no such running automation.
pub fn stop(conn: &Connection, id: &str, now: DateTime<Utc>) -> Result<bool, StoreError> {
    let stopped = conn
        .prepare_cached(
            "UPDATE automation SET stopped_at = ?2 WHERE id = ?1 AND stopped_at IS NULL",
        )?
        .execute(params![id, to_db(now)])?;
    Ok(stopped > 0)
}

/// Resumes a stopped automation (undo of a stop).
pub fn resume(conn: &Connection, id: &str) -> Result<bool, StoreError> {
    let resumed = conn
        .prepare_cached("UPDATE automation SET stopped_at = NULL WHERE id = ?1")?
        .execute([id])?;
    Ok(resumed > 0)
}

pub fn set_last_occurrence(
    conn: &Connection,
    id: &str,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached("UPDATE automation SET last_occurrence_at = ?2 WHERE id = ?1")?
        .execute(params![id, to_db(at)])?;
    Ok(())
}

/// Whether the occurrence `at` of automation `id` is already a task (the unique index
/// `task_one_per_occurrence` guarantees there is at most one).
pub fn occurrence_exists(
    conn: &Connection,
    id: &str,
    at: DateTime<Utc>,
) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS(SELECT 1 FROM task WHERE automation_id = ?1 AND occurrence_at = ?2)",
        )?
        .query_row(params![id, to_db(at)], |row| row.get(0))?)
}

/// The task of occurrence `at` of automation `id`, if it is one.
pub fn occurrence_task(
    conn: &Connection,
    id: &str,
    at: DateTime<Utc>,
) -> Result<Option<Task>, StoreError> {
    let found: Option<String> = conn
        .prepare_cached("SELECT id FROM task WHERE automation_id = ?1 AND occurrence_at = ?2")?
        .query_row(params![id, to_db(at)], |row| row.get(0))
        .optional()?;
    match found {
        Some(task_id) => tasks::get(conn, &task_id),
        None => Ok(None),
    }
}

/// How many occurrences of automation `id` became tasks.
pub fn occurrences_fired(conn: &Connection, id: &str) -> Result<u32, StoreError> {
    let count: i64 = conn
        .prepare_cached("SELECT COUNT(*) FROM task WHERE automation_id = ?1")?
        .query_row([id], |row| row.get(0))?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}
