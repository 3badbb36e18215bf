//! The `person` table: one row per person who set a time zone or quiet hours (migration 0016;
//! quiet hours and a zone that may be left to the default in 0022; working hours in 0024).
//!
//! Invariant: a stored zone, stored quiet hours and stored working hours always parse (only a
//! `Tz`, a `QuietHours` and a `WorkingHours` are written); a row that does not is reported as corrupt, never guessed.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rusqlite::{params, Connection, Row};

use super::person::Person;
use crate::config::{QuietHours, WorkingHours};
use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

const COLUMNS: &str = "user_id, timezone, quiet_hours, working_hours, updated_at";

/// Column `index` (`column` by name) read with `parse`; a value that does not parse is corrupt.
fn parsed<T, E>(
    row: &Row<'_>,
    index: usize,
    column: &str,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<Option<T>, StoreError> {
    let text: Option<String> = row.get(index)?;
    text.map(|text| {
        parse(&text)
            .map_err(|_| StoreError::Corrupt(format!("person.{column} {text:?} does not read")))
    })
    .transpose()
}

fn from_row(row: &Row<'_>) -> Result<Person, StoreError> {
    Ok(Person {
        user_id: row.get(0)?,
        timezone: parsed(row, 1, "timezone", Tz::from_str)?,
        quiet_hours: parsed(row, 2, "quiet_hours", QuietHours::parse)?,
        working_hours: parsed(row, 3, "working_hours", WorkingHours::parse)?,
        updated_at: from_db(&row.get::<_, String>(4)?)?,
    })
}

pub fn get(conn: &Connection, user_id: &str) -> Result<Option<Person>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM person WHERE user_id = ?1"))?;
    let mut rows = statement.query([user_id])?;
    match rows.next()? {
        Some(row) => Ok(Some(from_row(row)?)),
        None => Ok(None),
    }
}

/// Every person, by id.
pub fn all(conn: &Connection) -> Result<Vec<Person>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM person ORDER BY user_id"))?;
    let mut rows = statement.query([])?;
    let mut people = Vec::new();
    while let Some(row) = rows.next()? {
        people.push(from_row(row)?);
    }
    Ok(people)
}

/// Sets `user_id`'s zone (a new row or the existing one changed; their quiet hours stay).
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

/// Sets `user_id`'s quiet hours, or gives them back the default (None); their zone stays.
pub fn set_quiet_hours(
    conn: &Connection,
    user_id: &str,
    quiet_hours: Option<QuietHours>,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let text = quiet_hours.map(|hours| hours.to_string());
    set_hours(conn, (user_id, "quiet_hours"), text, now)
}

/// Sets `user_id`'s working hours, or gives them back the default (None); the rest stays.
pub fn set_working_hours(
    conn: &Connection,
    user_id: &str,
    working_hours: Option<WorkingHours>,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let text = working_hours.map(|hours| hours.to_string());
    set_hours(conn, (user_id, "working_hours"), text, now)
}

/// Sets one hours column of `user_id`'s row (a column name of this file, never from outside).
fn set_hours(
    conn: &Connection,
    (user_id, column): (&str, &'static str),
    hours: Option<String>,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(&format!(
        "INSERT INTO person (user_id, {column}, updated_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}, \
         updated_at = excluded.updated_at"
    ))?
    .execute(params![user_id, hours, to_db(now)])?;
    Ok(())
}

/// Writes `person` as it is (an import: its own `updated_at`).
pub fn put(conn: &Connection, person: &Person) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO person (user_id, timezone, quiet_hours, working_hours, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT (user_id) DO UPDATE SET timezone = excluded.timezone, \
         quiet_hours = excluded.quiet_hours, working_hours = excluded.working_hours, \
         updated_at = excluded.updated_at",
    )?
    .execute(params![
        person.user_id,
        person.timezone.map(|zone| zone.name()),
        person.quiet_hours.map(|hours| hours.to_string()),
        person.working_hours.map(|hours| hours.to_string()),
        to_db(person.updated_at)
    ])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migration_0022_keeps_every_zone_and_a_person_may_then_set_quiet_hours_alone() {
        let mut conn = crate::store::migrations::migrated_up_to(21);
        conn.execute(
            "INSERT INTO person (user_id, timezone, updated_at) VALUES ('owner', \
             'Europe/Berlin', '2026-11-23T08:00:00.000000Z')",
            [],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        crate::store::migrations::apply(&mut conn).unwrap_or_else(|e| panic!("{e}"));
        let owner = get(&conn, "owner").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            owner.map(|p| (p.timezone, p.quiet_hours)),
            Some((Some(chrono_tz::Europe::Berlin), None))
        );
        let night = QuietHours::parse("23:00-07:00").ok();
        let now = from_db("2026-11-24T08:00:00.000000Z").unwrap_or_else(|e| panic!("{e}"));
        set_quiet_hours(&conn, "owl", night, now).unwrap_or_else(|e| panic!("{e}"));
        let owl = get(&conn, "owl").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            owl.map(|p| (p.timezone, p.quiet_hours)),
            Some((None, night))
        );
    }
}
