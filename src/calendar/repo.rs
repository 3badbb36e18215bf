//! The calendar tables' SQL (migration 0020): each person's own calendars (`person_calendar`)
//! and the last good copy of every calendar (`calendar_copy`); and (migration 0024) the slots
//! proposed for deadline tasks (`task_placing`), each with the plan whose answer it waits for.
//!
//! Invariants: a person's list is replaced whole, in one write; a copy is stored with its
//! validators in one statement, so a conditional request never goes out for a copy Donna does
//! not have.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection};

use super::fetch::Validators;
use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

/// One of a person's own calendars.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonCalendar {
    pub user_id: String,
    pub name: String,
    pub url: String,
}

/// A stored copy of a calendar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copy {
    pub source_key: String,
    pub body: String,
    pub validators: Validators,
    pub fetched_at: DateTime<Utc>,
}

/// Every person's calendars, by person and name.
pub fn all_personal(conn: &Connection) -> Result<Vec<PersonCalendar>, StoreError> {
    let mut statement = conn
        .prepare_cached("SELECT user_id, name, url FROM person_calendar ORDER BY user_id, name")?;
    let rows = statement.query_map([], |row| {
        Ok(PersonCalendar {
            user_id: row.get(0)?,
            name: row.get(1)?,
            url: row.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// One person's calendars, by name.
pub fn of_person(conn: &Connection, user_id: &str) -> Result<Vec<PersonCalendar>, StoreError> {
    Ok(all_personal(conn)?
        .into_iter()
        .filter(|calendar| calendar.user_id == user_id)
        .collect())
}

/// Replaces `user_id`'s calendars with `calendars` (name, url).
pub fn replace_personal(
    conn: &Connection,
    user_id: &str,
    calendars: &[(String, String)],
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached("DELETE FROM person_calendar WHERE user_id = ?1")?
        .execute([user_id])?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO person_calendar (user_id, name, url, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (name, url) in calendars {
        insert.execute(params![user_id, name, url, to_db(now)])?;
    }
    Ok(())
}

/// The stored copy of the source `key`, if there is one.
pub fn copy_of(conn: &Connection, key: &str) -> Result<Option<Copy>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT source_key, body, etag, last_modified, fetched_at FROM calendar_copy \
         WHERE source_key = ?1",
    )?;
    let mut rows = statement.query([key])?;
    let Some(row) = rows.next()? else {
        return Ok(None);
    };
    Ok(Some(Copy {
        source_key: row.get(0)?,
        body: row.get(1)?,
        validators: Validators {
            etag: row.get(2)?,
            last_modified: row.get(3)?,
        },
        fetched_at: from_db(&row.get::<_, String>(4)?)?,
    }))
}

/// Stores (or replaces) a copy.
pub fn keep_copy(conn: &Connection, copy: &Copy) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO calendar_copy (source_key, body, etag, last_modified, fetched_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (source_key) DO UPDATE SET \
         body = excluded.body, etag = excluded.etag, last_modified = excluded.last_modified, \
         fetched_at = excluded.fetched_at",
    )?
    .execute(params![
        copy.source_key,
        copy.body,
        copy.validators.etag,
        copy.validators.last_modified,
        to_db(copy.fetched_at)
    ])?;
    Ok(())
}

/// Deletes the copies of calendars no longer read (any key not in `keep`).
pub fn forget_others(conn: &Connection, keep: &[String]) -> Result<usize, StoreError> {
    let mut forgotten = 0;
    for copy_key in copy_keys(conn)? {
        if !keep.contains(&copy_key) {
            forgotten += conn
                .prepare_cached("DELETE FROM calendar_copy WHERE source_key = ?1")?
                .execute([&copy_key])?;
        }
    }
    Ok(forgotten)
}

/// The sources whose copies are stored.
pub fn copy_keys(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut statement = conn.prepare_cached("SELECT source_key FROM calendar_copy")?;
    let rows = statement.query_map([], |row| row.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A slot proposed for a task (`placing`), and what became of its plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposed {
    pub plan_id: String,
    pub task_id: String,
    pub slot_start: DateTime<Utc>,
    pub slot_end: DateTime<Utc>,
    /// The plan's status ("pending", "confirmed", "rejected", "expired", "cancelled").
    pub plan_status: String,
    pub plan_expires_at: DateTime<Utc>,
}

/// Records that `plan_id` proposes [start, end) for `task_id`.
pub fn keep_placing(
    conn: &Connection,
    plan_id: &str,
    task_id: &str,
    (start, end): (DateTime<Utc>, DateTime<Utc>),
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO task_placing (plan_id, task_id, slot_start, slot_end, proposed_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        plan_id,
        task_id,
        to_db(start),
        to_db(end),
        to_db(now)
    ])?;
    Ok(())
}

/// Every slot proposed for `task_id`, oldest first, with its plan's status.
pub fn placing_of(conn: &Connection, task_id: &str) -> Result<Vec<Proposed>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT p.plan_id, p.task_id, p.slot_start, p.slot_end, plan.status, plan.expires_at \
         FROM task_placing p JOIN plan ON plan.id = p.plan_id \
         WHERE p.task_id = ?1 ORDER BY p.proposed_at, p.rowid",
    )?;
    let rows = statement.query_map([task_id], |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, String>(3)?,
            row.get::<_, String>(4)?,
            row.get::<_, String>(5)?,
        ))
    })?;
    let mut proposed = Vec::new();
    for row in rows {
        let (plan_id, task_id, start, end, plan_status, expires) = row?;
        proposed.push(Proposed {
            plan_id,
            task_id,
            slot_start: from_db(&start)?,
            slot_end: from_db(&end)?,
            plan_status,
            plan_expires_at: from_db(&expires)?,
        });
    }
    Ok(proposed)
}
