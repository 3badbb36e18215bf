//! The calendar feed (RFC 5545): what Donna will remind the person of, for a calendar app to
//! subscribe to (`GET /api/calendar.ics`).
//!
//! One VEVENT per open task with a time (DTSTART its scheduled start, else its deadline, then
//! titled "Due: <title>"; UID `<task id>@donna`), and one VEVENT per running automation with its
//! RRULE and DTSTART in its own zone (`TZID`), each zone written once as a VTIMEZONE. A task
//! that is an automation's occurrence, still at that occurrence, is left out: the automation's
//! own event shows it. An automation that repeats from completion has no rule a calendar could
//! expand (its next depends on when the last is done): its open occurrence shows as a task,
//! and once that is closed its next one shows as a single VEVENT without RRULE.
//! Invariants: pure (the tasks, the automations and `now` come in); the text is CRLF lines
//! folded at 75 octets with every title, description and UID escaped as TEXT and every other
//! value stripped of control characters (`ics`), so no stored value (a task id with CR LF, a
//! title, a rule) can add a property or a component.

pub mod answers;
pub mod book;
mod event;
pub mod fetch;
pub mod free_slots;
mod ics;
pub mod placing;
pub mod placing_offer;
pub mod read;
pub mod refresh;
pub mod repo;
pub mod sources;
pub mod today;
mod vtimezone;

pub use event::CalendarEvent;

use std::collections::{BTreeMap, HashSet};

use chrono::{DateTime, Datelike, TimeZone, Utc};
use chrono_tz::Tz;

use crate::automations::completion::{next_occurrence, Progress};
use crate::automations::{Automation, RepeatFrom};
use crate::tasks::Task;

use self::ics::{local, utc, Ics};

/// How many years ahead each VTIMEZONE covers.
const YEARS_AHEAD: i32 = 5;

/// The feed's text.
pub fn feed(tasks: &[Task], automations: &[Automation], now: DateTime<Utc>) -> String {
    let mut ics = Ics::default();
    ics.begin("VCALENDAR");
    ics.raw("VERSION", "2.0");
    ics.raw("PRODID", "-//Donna//Donna reminders//EN");
    ics.raw("CALSCALE", "GREGORIAN");
    ics.raw("METHOD", "PUBLISH");
    ics.text("X-WR-CALNAME", "Donna");
    let running: Vec<&Automation> = automations
        .iter()
        .filter(|automation| automation.stopped_at.is_none())
        .collect();
    // Each zone once, from the year its earliest automation starts.
    let mut zones: BTreeMap<&'static str, (Tz, i32)> = BTreeMap::new();
    for automation in &running {
        let tz = automation.schedule.timezone;
        let year = automation.schedule.dtstart.year().min(now.year());
        zones
            .entry(tz.name())
            .and_modify(|(_, from)| *from = (*from).min(year))
            .or_insert((tz, year));
    }
    for (tz, from_year) in zones.values() {
        vtimezone::write(
            &mut ics,
            *tz,
            year_start(*from_year),
            year_start(now.year() + YEARS_AHEAD),
        );
    }
    // The automations whose own event shows their occurrences (a rule to expand).
    let shown: HashSet<&str> = running
        .iter()
        .filter(|automation| automation.repeat_from == RepeatFrom::Schedule)
        .map(|automation| automation.id.as_str())
        .collect();
    for task in tasks.iter().filter(|task| task.status.is_open()) {
        let instance = task
            .automation_id
            .as_deref()
            .is_some_and(|id| shown.contains(id))
            && task.scheduled_start.is_some()
            && task.scheduled_start == task.occurrence_at;
        if !instance {
            task_event(&mut ics, task, now);
        }
    }
    for automation in running {
        match automation.repeat_from {
            RepeatFrom::Schedule => automation_event(&mut ics, automation, now),
            RepeatFrom::Completion => {
                let progress = Progress::from_tasks(automation, tasks);
                if let Ok(Some(next)) = next_occurrence(automation, progress) {
                    next_event(&mut ics, automation, next, now);
                }
            }
        }
    }
    ics.end("VCALENDAR");
    ics.finish()
}

fn year_start(year: i32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(year, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or(DateTime::<Utc>::MIN_UTC)
}

fn task_event(ics: &mut Ics, task: &Task, now: DateTime<Utc>) {
    let (start, summary) = match (task.scheduled_start, task.deadline) {
        (Some(start), _) => (start, task.title.clone()),
        (None, Some(deadline)) => (deadline, format!("Due: {}", task.title)),
        (None, None) => return,
    };
    ics.begin("VEVENT");
    // UID is TEXT (RFC 5545, 3.8.4.7): escaped like a title, so no id can end the line.
    ics.text("UID", &format!("{}@donna", task.id));
    ics.raw("DTSTAMP", &utc(now));
    ics.raw("DTSTART", &utc(start));
    if let Some(minutes) = task
        .estimated_duration_minutes
        .filter(|minutes| *minutes > 0 && task.scheduled_start.is_some())
    {
        ics.raw("DURATION", &format!("PT{minutes}M"));
    }
    ics.text("SUMMARY", &summary);
    if let Some(description) = task.description.as_deref().filter(|d| !d.is_empty()) {
        ics.text("DESCRIPTION", description);
    }
    ics.raw("LAST-MODIFIED", &utc(task.updated_at));
    ics.end("VEVENT");
}

fn automation_event(ics: &mut Ics, automation: &Automation, now: DateTime<Utc>) {
    let schedule = &automation.schedule;
    begin_automation_event(ics, automation, schedule.dtstart, now);
    ics.raw("RRULE", &schedule.rrule);
    end_automation_event(ics, automation);
}

/// The one next occurrence of an automation that repeats from completion (no RRULE).
fn next_event(ics: &mut Ics, automation: &Automation, next: DateTime<Utc>, now: DateTime<Utc>) {
    begin_automation_event(ics, automation, next, now);
    end_automation_event(ics, automation);
}

/// An automation's VEVENT up to its start, at `start` in its own zone.
fn begin_automation_event(
    ics: &mut Ics,
    automation: &Automation,
    start: DateTime<Utc>,
    now: DateTime<Utc>,
) {
    let tz = automation.schedule.timezone;
    ics.begin("VEVENT");
    ics.text("UID", &format!("{}@donna", automation.id));
    ics.raw("DTSTAMP", &utc(now));
    let start = start.with_timezone(&tz).naive_local();
    ics.raw(&format!("DTSTART;TZID={}", tz.name()), &local(start));
}

/// The rest of an automation's VEVENT: what it reminds of, in words.
fn end_automation_event(ics: &mut Ics, automation: &Automation) {
    let schedule = &automation.schedule;
    ics.text("SUMMARY", &automation.title);
    ics.text(
        "DESCRIPTION",
        &format!("Donna reminds you {}.", schedule.words),
    );
    ics.raw("LAST-MODIFIED", &utc(automation.created_at));
    ics.end("VEVENT");
}
