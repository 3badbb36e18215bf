//! Free time: the slots of a window that overlap no busy event, lie inside working hours and
//! outside quiet hours, and last at least a given length.
//!
//! How: working hours are laid over each local day of the window (in the person's zone, so a
//! slot keeps its local hours across DST; hours that wrap midnight run into the next day), quiet
//! hours and busy events are cut out, and what is left is clipped to the window. An event the
//! calendar marks free (TRANSP:TRANSPARENT) cuts nothing; an all-day busy event cuts its day.
//! Invariants: pure; every slot returned is inside [from, to), overlaps no busy event and no
//! quiet hour, and is at least `least` long; slots are in order and never touch each other.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use chrono_tz::Tz;

use super::CalendarEvent;
use crate::capture::calendar_asked::instant;
use crate::config::{QuietHours, WorkingHours};

/// The hours a slot may lie in: inside `working`, outside `quiet`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hours {
    pub working: WorkingHours,
    pub quiet: QuietHours,
}

/// A free stretch of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

type Span = (DateTime<Utc>, DateTime<Utc>);

/// A daily range laid over each local day from `first` to `last`.
fn daily(
    zone: Tz,
    (start, end): (NaiveTime, NaiveTime),
    first: NaiveDate,
    last: NaiveDate,
) -> Vec<Span> {
    if start == end {
        return Vec::new();
    }
    first
        .iter_days()
        .take_while(|day| *day <= last)
        .map(|day| {
            let end_day = if end > start {
                day
            } else {
                day.succ_opt().unwrap_or(day)
            };
            (
                instant(zone, day.and_time(start)),
                instant(zone, end_day.and_time(end)),
            )
        })
        .collect()
}

/// Sorted, merged spans.
fn merged(mut spans: Vec<Span>) -> Vec<Span> {
    spans.retain(|(start, end)| start < end);
    spans.sort();
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// `keep` without `cut` (both sorted and merged).
fn subtract(keep: &[Span], cut: &[Span]) -> Vec<Span> {
    let mut out = Vec::new();
    for &(mut start, end) in keep {
        for &(cut_start, cut_end) in cut {
            if cut_end <= start || cut_start >= end {
                continue;
            }
            if cut_start > start {
                out.push((start, cut_start));
            }
            start = start.max(cut_end);
            if start >= end {
                break;
            }
        }
        if start < end {
            out.push((start, end));
        }
    }
    out
}

/// The free slots of [from, to) of at least `least` (see the module's header).
pub fn free_slots(
    events: &[CalendarEvent],
    (from, to): Span,
    least: Duration,
    hours: &Hours,
    zone: Tz,
) -> Vec<Slot> {
    if from >= to {
        return Vec::new();
    }
    let first = from
        .with_timezone(&zone)
        .date_naive()
        .pred_opt()
        .unwrap_or(NaiveDate::MIN);
    let last = to.with_timezone(&zone).date_naive();
    let working = merged(daily(
        zone,
        (hours.working.0.start, hours.working.0.end),
        first,
        last,
    ));
    let quiet = merged(daily(
        zone,
        (hours.quiet.start, hours.quiet.end),
        first,
        last,
    ));
    let busy = merged(
        events
            .iter()
            .filter(|event| event.busy)
            .map(|event| {
                (
                    event.start,
                    event.end.max(event.start + Duration::minutes(1)),
                )
            })
            .collect(),
    );
    let window = [(from, to)];
    let inside = subtract(&subtract(&working, &quiet), &busy);
    let clipped: Vec<Span> = inside
        .into_iter()
        .map(|(start, end)| (start.max(window[0].0), end.min(window[0].1)))
        .collect();
    merged(clipped)
        .into_iter()
        .filter(|(start, end)| *end - *start >= least)
        .map(|(start, end)| Slot { start, end })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDateTime;

    fn hours(working: &str, quiet: &str) -> Hours {
        Hours {
            working: WorkingHours::parse(working).unwrap_or_else(|e| panic!("{e}")),
            quiet: QuietHours::parse(quiet).unwrap_or_else(|e| panic!("{e}")),
        }
    }

    fn at(zone: Tz, text: &str) -> DateTime<Utc> {
        let wall = NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap_or_default();
        instant(zone, wall)
    }

    fn event(zone: Tz, start: &str, end: &str, busy: bool) -> CalendarEvent {
        CalendarEvent {
            calendar: "Work".into(),
            uid: format!("{start}@test"),
            title: "Meeting".into(),
            start: at(zone, start),
            end: at(zone, end),
            all_day: false,
            busy,
        }
    }

    fn shown(zone: Tz, slots: &[Slot]) -> Vec<String> {
        slots
            .iter()
            .map(|slot| {
                format!(
                    "{}-{}",
                    slot.start.with_timezone(&zone).format("%d %H:%M"),
                    slot.end.with_timezone(&zone).format("%d %H:%M")
                )
            })
            .collect()
    }

    /// (what the row is about, events (start, end, busy), window, least minutes, working,
    /// quiet, the slots expected as "DD HH:MM-DD HH:MM").
    type Row = (
        &'static str,
        &'static [(&'static str, &'static str, bool)],
        (&'static str, &'static str),
        i64,
        (&'static str, &'static str),
        &'static [&'static str],
    );

    #[test]
    fn free_slots_lie_inside_working_hours_outside_quiet_hours_and_around_busy_events() {
        let berlin = chrono_tz::Europe::Berlin;
        let rows: &[Row] = &[
            (
                "a free day is its working hours",
                &[],
                ("2026-11-24 00:00", "2026-11-25 00:00"),
                30,
                ("09:00-18:00", "22:00-08:00"),
                &["24 09:00-24 18:00"],
            ),
            (
                "meetings split the day",
                &[
                    ("2026-11-24 10:00", "2026-11-24 11:00", true),
                    ("2026-11-24 13:00", "2026-11-24 14:00", true),
                ],
                ("2026-11-24 00:00", "2026-11-25 00:00"),
                30,
                ("09:00-18:00", "22:00-08:00"),
                &[
                    "24 09:00-24 10:00",
                    "24 11:00-24 13:00",
                    "24 14:00-24 18:00",
                ],
            ),
            (
                "a slot shorter than asked is not one",
                &[
                    ("2026-11-24 10:00", "2026-11-24 11:00", true),
                    ("2026-11-24 13:00", "2026-11-24 14:00", true),
                ],
                ("2026-11-24 00:00", "2026-11-25 00:00"),
                90,
                ("09:00-18:00", "22:00-08:00"),
                &["24 11:00-24 13:00", "24 14:00-24 18:00"],
            ),
            (
                "an event over the start of the day moves it",
                &[("2026-11-24 08:00", "2026-11-24 09:30", true)],
                ("2026-11-24 00:00", "2026-11-25 00:00"),
                30,
                ("09:00-18:00", "22:00-08:00"),
                &["24 09:30-24 18:00"],
            ),
            (
                "an event marked free takes no time",
                &[("2026-11-24 10:00", "2026-11-24 12:00", false)],
                ("2026-11-24 00:00", "2026-11-25 00:00"),
                30,
                ("09:00-18:00", "22:00-08:00"),
                &["24 09:00-24 18:00"],
            ),
            (
                "a busy all-day event takes the day",
                &[("2026-11-24 00:00", "2026-11-25 00:00", true)],
                ("2026-11-24 00:00", "2026-11-25 00:00"),
                30,
                ("09:00-18:00", "22:00-08:00"),
                &[],
            ),
            (
                "quiet hours cut into early working hours",
                &[],
                ("2026-11-24 00:00", "2026-11-25 00:00"),
                30,
                ("07:00-18:00", "22:00-08:00"),
                &["24 08:00-24 18:00"],
            ),
            (
                "night working hours run past midnight",
                &[],
                ("2026-11-24 12:00", "2026-11-25 12:00"),
                30,
                ("22:00-06:00", "12:00-12:00"),
                &["24 22:00-25 06:00"],
            ),
            (
                "the window clips the slots",
                &[],
                ("2026-11-24 14:30", "2026-11-24 16:00"),
                30,
                ("09:00-18:00", "22:00-08:00"),
                &["24 14:30-24 16:00"],
            ),
            (
                "overlapping meetings are one busy stretch",
                &[
                    ("2026-11-24 10:00", "2026-11-24 12:00", true),
                    ("2026-11-24 11:00", "2026-11-24 15:00", true),
                ],
                ("2026-11-24 00:00", "2026-11-25 00:00"),
                30,
                ("09:00-18:00", "22:00-08:00"),
                &["24 09:00-24 10:00", "24 15:00-24 18:00"],
            ),
            (
                "a day that changes its clocks keeps local hours",
                &[],
                ("2026-10-25 00:00", "2026-10-26 00:00"),
                30,
                ("09:00-18:00", "22:00-08:00"),
                &["25 09:00-25 18:00"],
            ),
            (
                "two days, one busy morning",
                &[("2026-11-25 09:00", "2026-11-25 12:00", true)],
                ("2026-11-24 00:00", "2026-11-26 00:00"),
                60,
                ("09:00-18:00", "22:00-08:00"),
                &["24 09:00-24 18:00", "25 12:00-25 18:00"],
            ),
        ];
        for (about, events, (from, to), least, (working, quiet), expected) in rows {
            let events: Vec<CalendarEvent> = events
                .iter()
                .map(|(start, end, busy)| event(berlin, start, end, *busy))
                .collect();
            let window = (at(berlin, from), at(berlin, to));
            let hours = hours(working, quiet);
            let slots = free_slots(&events, window, Duration::minutes(*least), &hours, berlin);
            assert_eq!(shown(berlin, &slots), *expected, "{about}");
            // Must-not: no slot overlaps a busy event, leaves the window or is too short.
            for slot in &slots {
                assert!(slot.start >= window.0 && slot.end <= window.1, "{about}");
                assert!(
                    slot.end - slot.start >= Duration::minutes(*least),
                    "{about}"
                );
                for event in events.iter().filter(|event| event.busy) {
                    assert!(!event.overlaps(slot.start, slot.end), "{about}: {event:?}");
                }
            }
        }
    }
}
