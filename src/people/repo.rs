//! The `person` table: one row per person who set a time zone.
//!
//! Invariant: a stored zone always parses (only a `Tz` is written); a row that does not is
//! reported as corrupt, never guessed.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rusqlite::{params, Connection, Row};

use super::person::Person;
use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

fn from_row(row: &Row<'_>) -> Result<Person, StoreError> {
    let timezone: String = row.get(1)?;
    Ok(Person {
        user_id: row.get(0)?,
        timezone: Tz::from_str(&timezone).map_err(|_| {
            StoreError::Corrupt(format!("person.timezone {timezone:?} is not a time zone"))
        })?,
        updated_at: from_db(&row.get::<_, String>(2)?)?,
    })
}

pub fn get(conn: &Connection, user_id: &str) -> Result<Option<Person>, StoreError> {
    let mut statement =
        conn.prepare_cached("SELECT user_id, timezone, updated_at FROM person WHERE user_id = ?1")?;
    let mut rows = statement.query([user_id])?;
    match rows.next()? {
        Some(row) => Ok(Some(from_row(row)?)),
        None => Ok(None),
    }
}

/// Every person, by id.
pub fn all(conn: &Connection) -> Result<Vec<Person>, StoreError> {
    let mut statement =
        conn.prepare_cached("SELECT user_id, timezone, updated_at FROM person ORDER BY user_id")?;
    let mut rows = statement.query([])?;
    let mut people = Vec::new();
    while let Some(row) = rows.next()? {
        people.push(from_row(row)?);
    }
    Ok(people)
}

/// Sets `user_id`'s zone (a new row or the existing one changed).
pub fn set(
    conn: &Connection,
    user_id: &str,
    timezone: Tz,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO person (user_id, timezone, updated_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (user_id) DO UPDATE SET timezone = excluded.timezone, \
         updated_at = excluded.updated_at",
    )?
    .execute(params![user_id, timezone.name(), to_db(now)])?;
    Ok(())
}

/// Writes `person` as it is (an import: its own `updated_at`).
pub fn put(conn: &Connection, person: &Person) -> Result<(), StoreError> {
    set(conn, &person.user_id, person.timezone, person.updated_at)
}
