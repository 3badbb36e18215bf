//! A person's own day: the zone and the quiet hours the nudges for them are held in.
//!
//! Owns: `OwnDay` (what is theirs, else the config's defaults) and `Days`, one look-up per
//! person for a round of nudges. Quiet hours are local times in the person's own zone: with the
//! default "22:00-08:00", a person in New York is left alone from 22:00 to 08:00 New York time,
//! whatever the config's zone. Where a person would say their own quiet hours in words ("quiet
//! hours 23:00 to 7:00"), the turn sets them with `repo::set_quiet_hours`, as
//! `PUT /api/people/{user_id}` does.
//! `WorkDay` adds the working hours a slot Donna proposes lies in (theirs, else
//! `scheduling.working_hours`), read in the same zone.
//! Invariants: nothing here reads the clock or the config (the defaults come in); a person
//! who set nothing has exactly the defaults.

use std::collections::HashMap;

use chrono_tz::Tz;
use rusqlite::Connection;

use super::repo;
use crate::config::{QuietHours, WorkingHours};
use crate::store::StoreError;

/// The zone and quiet hours a person's nudges are held in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnDay {
    pub zone: Tz,
    pub quiet_hours: QuietHours,
}

/// `user_id`'s own day: what they set, else `defaults` (the config's `timezone` and
/// `nudges.quiet_hours`); no person (a task from the API): the defaults.
pub fn day_of(
    conn: &Connection,
    user_id: Option<&str>,
    defaults: OwnDay,
) -> Result<OwnDay, StoreError> {
    let Some(user_id) = user_id else {
        return Ok(defaults);
    };
    Ok(match repo::get(conn, user_id)? {
        Some(person) => OwnDay {
            zone: person.timezone.unwrap_or(defaults.zone),
            quiet_hours: person.quiet_hours.unwrap_or(defaults.quiet_hours),
        },
        None => defaults,
    })
}

/// A person's day as a slot for them is found in: their own day and their working hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkDay {
    pub day: OwnDay,
    pub working_hours: WorkingHours,
}

/// `user_id`'s work day: their own day (`day_of`) and their working hours, else `working` (the
/// config's `scheduling.working_hours`).
pub fn work_day_of(
    conn: &Connection,
    user_id: &str,
    defaults: OwnDay,
    working: WorkingHours,
) -> Result<WorkDay, StoreError> {
    let working_hours = repo::get(conn, user_id)?
        .and_then(|person| person.working_hours)
        .unwrap_or(working);
    Ok(WorkDay {
        day: day_of(conn, Some(user_id), defaults)?,
        working_hours,
    })
}

/// People's days read once each for a round of nudges (many tasks, few people).
#[derive(Debug)]
pub struct Days {
    defaults: OwnDay,
    known: HashMap<String, OwnDay>,
}

impl Days {
    pub fn new(defaults: OwnDay) -> Self {
        Self {
            defaults,
            known: HashMap::new(),
        }
    }

    /// `user_id`'s day (the defaults for no one).
    pub fn of(&mut self, conn: &Connection, user_id: Option<&str>) -> Result<OwnDay, StoreError> {
        let Some(user_id) = user_id else {
            return Ok(self.defaults);
        };
        if let Some(day) = self.known.get(user_id) {
            return Ok(*day);
        }
        let day = day_of(conn, Some(user_id), self.defaults)?;
        self.known.insert(user_id.to_string(), day);
        Ok(day)
    }
}
