//! A file's events as occurrences in a window: single events, recurring ones expanded (RRULE,
//! RDATE, EXDATE), overridden occurrences (RECURRENCE-ID) in place of the ones they replace,
//! cancelled ones left out; all-day events (DATE values) from midnight to midnight.
//!
//! Times: a series is expanded in the wall-clock time of its zone (`rule`), then each
//! occurrence becomes an instant (`zones`), so a weekly 09:00 stays 09:00 across DST. A UTC
//! DTSTART recurs in UTC; a floating one and all-day events in the zone of the person the
//! calendar belongs to. An occurrence's length is DTEND - DTSTART in wall-clock time (or
//! DURATION; a day for an all-day event without an end; nothing otherwise).
//! Invariants: pure; every search is bounded (`rule`); at most `max_events` events, else the
//! whole reading fails (never a calendar silently cut short, which would show free time that is
//! not); a series whose zone is unknown or whose rule does not read or search is skipped and
//! counted, and the others are still read.

use std::collections::HashSet;
use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDateTime, NaiveTime, Utc};

use super::components::{Document, Series};
use super::observances::FileZone;
use super::reading::{ReadError, Reading, Settings};
use super::rule::{read_rule, Recurrence, RuleError, Steps};
use super::values::{self, Stamp};
use super::zones::{Zone, Zones};
use crate::calendar::CalendarEvent;

/// The steps one file's recurrences may take in all (`rule::Steps`).
const FILE_STEPS: usize = 2_000_000;

/// The wall time of `stamp` in `zone`.
fn wall_in(stamp: &Stamp, zone: &Zone, zones: &Zones) -> Option<NaiveDateTime> {
    Some(match stamp {
        Stamp::Date(day) => values::midnight(*day),
        Stamp::Utc(at) => zone.to_wall(*at),
        Stamp::Zoned(wall, tzid) => match zones.resolve(tzid) {
            Some(own) => zone.to_wall(own.to_instant(*wall)),
            None => return None,
        },
        Stamp::Floating(wall) => *wall,
    })
}

/// The zone a series recurs in, and whether it is all-day.
fn zone_of(start: &Stamp, zones: &Zones, floating: &Zone) -> Option<(Zone, bool)> {
    match start {
        Stamp::Date(_) => Some((floating.clone(), true)),
        Stamp::Utc(_) => Some((Zone::Iana(chrono_tz::UTC), false)),
        Stamp::Zoned(_, tzid) => zones.resolve(tzid).map(|zone| (zone, false)),
        Stamp::Floating(_) => Some((floating.clone(), false)),
    }
}

fn length_of(series: &Series, start: NaiveDateTime, zone: &Zone, zones: &Zones) -> Duration {
    let length = match (&series.end, series.duration) {
        (Some(end), _) => wall_in(end, zone, zones).map_or(Duration::zero(), |end| end - start),
        (None, Some(duration)) => duration,
        (None, None) if series.start.is_date() => Duration::days(1),
        (None, None) => Duration::zero(),
    };
    length.max(Duration::zero())
}

/// UNTIL as a wall time in the series' zone (a DATE: through that day).
fn until_wall(value: &str, zone: &Zone, all_day: bool) -> Option<NaiveDateTime> {
    Some(match values::stamp(value, None)? {
        Stamp::Utc(at) => zone.to_wall(at),
        Stamp::Date(day) if all_day => values::midnight(day),
        Stamp::Date(day) => day.and_time(NaiveTime::from_hms_opt(23, 59, 59)?),
        Stamp::Floating(wall) | Stamp::Zoned(wall, _) => wall,
    })
}

/// The wall times a series occurs at near the window.
fn walls(
    series: &Series,
    start: NaiveDateTime,
    length: Duration,
    (zone, all_day): (&Zone, bool),
    zones: &Zones,
    settings: &Settings,
    steps: &mut Steps,
) -> Result<Vec<NaiveDateTime>, RuleError> {
    if series.recurrence_id.is_some() || (series.rules.is_empty() && series.rdates.is_empty()) {
        return Ok(vec![start]);
    }
    let rules = series
        .rules
        .iter()
        .map(|text| read_rule(text, |value| until_wall(value, zone, all_day)))
        .collect::<Result<Vec<_>, _>>()?;
    let many = |stamps: &[Stamp]| {
        stamps
            .iter()
            .filter_map(|s| wall_in(s, zone, zones))
            .collect()
    };
    let recurrence = Recurrence {
        start,
        rules,
        rdates: many(&series.rdates),
        exdates: many(&series.exdates),
    };
    let from = zone.to_wall(settings.window.from) - length - Duration::days(1);
    let until = zone.to_wall(settings.window.to) + Duration::days(1);
    recurrence.between(from, until, steps)
}

/// The events of `document` in the window.
pub fn expand(document: &Document, settings: &Settings) -> Result<Reading, ReadError> {
    let floating = Zone::Iana(settings.floating);
    let horizon = floating.to_wall(settings.window.to) + Duration::days(366);
    let zones = Zones {
        file: document
            .zones
            .iter()
            .filter_map(|(id, parts)| Some((id.clone(), Arc::new(FileZone::new(parts, horizon)?))))
            .collect(),
    };
    let instant = |stamp: &Stamp| -> Option<DateTime<Utc>> {
        let (zone, _) = zone_of(stamp, &zones, &floating)?;
        Some(zone.to_instant(wall_in(stamp, &zone, &zones)?))
    };
    let overridden: HashSet<(&str, DateTime<Utc>)> = document
        .series
        .iter()
        .filter_map(|s| Some((s.uid.as_str(), instant(s.recurrence_id.as_ref()?)?)))
        .collect();
    let mut reading = Reading {
        events: Vec::new(),
        skipped: document.unreadable,
    };
    let mut steps = Steps(FILE_STEPS);
    for series in &document.series {
        if series.cancelled {
            continue;
        }
        let Some((zone, all_day)) = zone_of(&series.start, &zones, &floating) else {
            reading.skipped += 1;
            continue;
        };
        let Some(start) = wall_in(&series.start, &zone, &zones) else {
            reading.skipped += 1;
            continue;
        };
        let length = length_of(series, start, &zone, &zones);
        let occurrences = match walls(
            series,
            start,
            length,
            (&zone, all_day),
            &zones,
            settings,
            &mut steps,
        ) {
            Ok(walls) => walls,
            Err(RuleError::Budget) => return Err(ReadError::TooMuchWork),
            Err(_) => {
                reading.skipped += 1;
                continue;
            }
        };
        for wall in occurrences {
            let at = zone.to_instant(wall);
            if series.recurrence_id.is_none() && overridden.contains(&(series.uid.as_str(), at)) {
                continue;
            }
            let event = CalendarEvent {
                calendar: settings.calendar.clone(),
                uid: series.uid.clone(),
                title: series.title.clone(),
                start: at,
                end: zone.to_instant(wall + length).max(at),
                all_day,
                busy: !series.transparent,
            };
            if !event.overlaps(settings.window.from, settings.window.to) {
                continue;
            }
            if reading.events.len() >= settings.max_events {
                return Err(ReadError::TooManyEvents(settings.max_events));
            }
            reading.events.push(event);
        }
    }
    reading
        .events
        .sort_by(|a, b| (a.start, &a.title).cmp(&(b.start, &b.title)));
    Ok(reading)
}
