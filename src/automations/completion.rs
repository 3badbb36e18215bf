//! Repeat from completion (Todoist's "every!", Vikunja's "repeat from current date"): an
//! automation with `repeat_from: completion` has one occurrence at a time, and the next comes
//! the rule's interval after the last one was done ("descale the kettle every 2 weeks once I've
//! done it"), at the rule's time of day when the person stated one, else at the time it was done.
//!
//! Owns: `Step` (the interval: the rule's FREQ and
//! INTERVAL; the days or the month days it names do not count from completion), `Progress`
//! (where the automation stands: never fired, its occurrence still open, or closed at a time)
//! and `next_occurrence`, which the runner, `GET /api/automations` and the calendar feed ask.
//! The first occurrence is DTSTART, as for any automation; a snooze or a reschedule moves only
//! the open occurrence's task; closing it (done, or cancelled: the person is through with this
//! one) starts the interval. UNTIL and COUNT still end the series.
//! Invariants: pure; a rule that does not step by days, weeks, months or years is refused where
//! an automation is made, never guessed; date arithmetic is on the local wall clock in the
//! automation's zone (a month after 31 January is the last day of February), so DST never
//! moves a stated time.
//! The person's own words ask for it ("every 2 weeks once I've done it", "every! 2 weeks"):
//! `completion_words`, read by `command`, sets `AutomationDraft::repeat_from`.

use chrono::{DateTime, Duration, Months, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

use super::repeat_from::RepeatFrom;
use super::repo::{Automation, AutomationKind};
use super::schedule::{rule_part, Schedule, ScheduleError};
use crate::tasks::Task;

/// Whether an automation of `kind` on `schedule` can repeat from `from`: only a reminder (a
/// digest is never "done") on a rule that steps by days, weeks, months or years. The one check
/// the proposal's handler, `POST /api/automations` and an import make.
pub fn checked_repeat(
    kind: AutomationKind,
    from: RepeatFrom,
    schedule: &Schedule,
) -> Result<(), &'static str> {
    match from {
        RepeatFrom::Schedule => Ok(()),
        RepeatFrom::Completion if kind == AutomationKind::Digest => {
            Err("a digest repeats on its schedule: repeat_from \"completion\" is for reminders")
        }
        RepeatFrom::Completion => Step::of(&schedule.rrule).map(|_| ()).ok_or(NEEDS_A_STEP),
    }
}

/// How far one occurrence is from the last one done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Days(u32),
    Months(u32),
}

/// Why a rule cannot repeat from completion: told to an API caller or an import.
pub const NEEDS_A_STEP: &str =
    "repeat_from \"completion\" needs a rule that repeats by days, weeks, months or years \
     (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY with an INTERVAL of 1 to 1000)";

impl Step {
    /// The rule's FREQ and INTERVAL as a step; None when they are not days to years.
    pub fn of(rrule: &str) -> Option<Self> {
        let interval: u32 = match rule_part(rrule, "INTERVAL") {
            None => 1,
            Some(n) => n.parse().ok().filter(|n| (1..=1000).contains(n))?,
        };
        match rule_part(rrule, "FREQ")?.to_ascii_uppercase().as_str() {
            "DAILY" => Some(Step::Days(interval)),
            "WEEKLY" => Some(Step::Days(interval * 7)),
            "MONTHLY" => Some(Step::Months(interval)),
            "YEARLY" => Some(Step::Months(interval * 12)),
            _ => None,
        }
    }

    fn after(self, local: NaiveDateTime) -> Option<NaiveDateTime> {
        match self {
            Step::Days(days) => local.checked_add_signed(Duration::days(i64::from(days))),
            Step::Months(months) => local.checked_add_months(Months::new(months)),
        }
    }
}

/// Where an automation that repeats from completion stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// No occurrence yet: the first is DTSTART.
    NeverFired,
    /// Its latest occurrence is still open: the next waits for it.
    Open,
    /// Its latest occurrence was closed at this time; `fired` occurrences so far.
    ClosedAt { at: DateTime<Utc>, fired: u32 },
}

impl Progress {
    /// From the automation and its latest occurrence's task (None: the task is gone, counted
    /// as closed at its occurrence), `fired` being how many occurrences became tasks.
    pub fn of(automation: &Automation, latest: Option<&Task>, fired: u32) -> Self {
        let Some(last) = automation.last_occurrence_at else {
            return Progress::NeverFired;
        };
        match latest {
            Some(task) if task.status.is_open() => Progress::Open,
            Some(task) => Progress::ClosedAt {
                at: task.completed_at.unwrap_or(task.updated_at),
                fired,
            },
            None => Progress::ClosedAt { at: last, fired },
        }
    }

    /// The same, read from every task (the calendar feed's list).
    pub fn from_tasks(automation: &Automation, tasks: &[Task]) -> Self {
        let own = || {
            tasks
                .iter()
                .filter(|task| task.automation_id.as_deref() == Some(automation.id.as_str()))
        };
        let latest = own().find(|task| {
            task.occurrence_at.is_some() && task.occurrence_at == automation.last_occurrence_at
        });
        let fired = u32::try_from(own().count()).unwrap_or(u32::MAX);
        Self::of(automation, latest, fired)
    }
}

/// The rule's time of day (BYHOUR and BYMINUTE, one value each), when it names one.
fn time_of_day(rrule: &str) -> Option<NaiveTime> {
    let hour = rule_part(rrule, "BYHOUR")?.parse().ok()?;
    let minute = rule_part(rrule, "BYMINUTE").map_or(Some(0), |m| m.parse().ok())?;
    NaiveTime::from_hms_opt(hour, minute, 0)
}

/// `local` in `zone`; a wall time a DST change skips is the first instant after the gap.
fn resolve(zone: Tz, local: NaiveDateTime) -> Option<DateTime<Utc>> {
    zone.from_local_datetime(&local)
        .earliest()
        .or_else(|| {
            zone.from_local_datetime(&(local + Duration::hours(1)))
                .earliest()
        })
        .map(|at| at.with_timezone(&Utc))
}

/// UNTIL (UTC, "20270228T235959Z"), when the rule has one.
fn until(rrule: &str) -> Option<DateTime<Utc>> {
    let text = rule_part(rrule, "UNTIL")?;
    NaiveDateTime::parse_from_str(text.trim_end_matches('Z'), "%Y%m%dT%H%M%S")
        .ok()
        .map(|at| at.and_utc())
}

/// The occurrence after one done at `done_at`: that plus the step, at the rule's time of day
/// when `time_stated`. None when the rule has ended (UNTIL, or COUNT reached by `fired`).
pub fn next_after_done(
    schedule: &Schedule,
    time_stated: bool,
    done_at: DateTime<Utc>,
    fired: u32,
) -> Result<Option<DateTime<Utc>>, ScheduleError> {
    let invalid = |reason: &str| ScheduleError::Invalid {
        rule: schedule.rrule.clone(),
        reason: reason.to_string(),
    };
    let step = Step::of(&schedule.rrule).ok_or_else(|| invalid(NEEDS_A_STEP))?;
    let count: Option<u32> = rule_part(&schedule.rrule, "COUNT").and_then(|n| n.parse().ok());
    if count.is_some_and(|count| fired >= count) {
        return Ok(None);
    }
    let local = done_at.with_timezone(&schedule.timezone).naive_local();
    let mut next = step.after(local).ok_or_else(|| invalid("too far ahead"))?;
    if time_stated {
        if let Some(time) = time_of_day(&schedule.rrule) {
            next = next.date().and_time(time);
        }
    }
    let next = resolve(schedule.timezone, next).ok_or_else(|| invalid("no such local time"))?;
    Ok(match until(&schedule.rrule) {
        Some(until) if next > until => None,
        _ => Some(next),
    })
}

/// When the next occurrence of `automation` (repeating from completion) comes: DTSTART before
/// the first, none while the latest is open, else the step after it was closed.
pub fn next_occurrence(
    automation: &Automation,
    progress: Progress,
) -> Result<Option<DateTime<Utc>>, ScheduleError> {
    match progress {
        Progress::NeverFired => Ok(Some(automation.schedule.dtstart)),
        Progress::Open => Ok(None),
        Progress::ClosedAt { at, fired } => {
            next_after_done(&automation.schedule, automation.time_stated, at, fired)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0)
            .single()
            .unwrap_or_default()
    }

    fn schedule(rrule: &str, zone: Tz) -> Schedule {
        Schedule {
            rrule: rrule.to_string(),
            dtstart: utc(2026, 11, 23, 9, 0),
            timezone: zone,
            words: String::new(),
        }
    }

    fn next(rrule: &str, zone: Tz, stated: bool, done: DateTime<Utc>) -> Option<DateTime<Utc>> {
        next_after_done(&schedule(rrule, zone), stated, done, 1).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_next_comes_the_interval_after_it_was_done_at_the_stated_time_if_any() {
        let paris = chrono_tz::Europe::Paris;
        let every_two_weeks = "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=10;BYMINUTE=0;BYSECOND=0";
        // Done Wednesday 25 Nov at 17:42 in Paris (16:42 UTC).
        let done = utc(2026, 11, 25, 16, 42);
        assert_eq!(
            next(every_two_weeks, paris, false, done),
            Some(utc(2026, 12, 9, 16, 42))
        );
        // Stated "at 10:00": two weeks on, at 10:00 Paris; the Monday the rule names is not it.
        assert_eq!(
            next(every_two_weeks, paris, true, done),
            Some(utc(2026, 12, 9, 9, 0))
        );
        // Across the spring change the stated wall time stays 10:00 (08:00 UTC in summer).
        let march = utc(2027, 3, 20, 9, 0);
        assert_eq!(
            next(every_two_weeks, paris, true, march),
            Some(utc(2027, 4, 3, 8, 0))
        );
        // A month after 31 January is the end of February.
        let monthly = "FREQ=MONTHLY;BYMONTHDAY=31;BYHOUR=9;BYMINUTE=0;BYSECOND=0";
        let end_of_january = utc(2027, 1, 31, 12, 0);
        assert_eq!(
            next(monthly, chrono_tz::UTC, false, end_of_january),
            Some(utc(2027, 2, 28, 12, 0))
        );
        assert_eq!(
            next("FREQ=DAILY;INTERVAL=3", chrono_tz::UTC, true, done),
            Some(utc(2026, 11, 28, 16, 42)),
            "no time of day in the rule: the time it was done"
        );
    }

    #[test]
    fn until_and_count_end_it_and_a_rule_without_a_step_is_refused() {
        let done = utc(2026, 11, 25, 16, 42);
        let until = "FREQ=WEEKLY;BYHOUR=9;BYMINUTE=0;UNTIL=20261130T235959Z";
        assert_eq!(next(until, chrono_tz::UTC, true, done), None);
        let counted = schedule("FREQ=DAILY;COUNT=2", chrono_tz::UTC);
        assert!(next_after_done(&counted, false, done, 1).is_ok_and(|n| n.is_some()));
        assert_eq!(next_after_done(&counted, false, done, 2).ok(), Some(None));
        for rule in [
            "FREQ=HOURLY;INTERVAL=3",
            "FREQ=DAILY;INTERVAL=0",
            "BYDAY=MO",
        ] {
            assert_eq!(Step::of(rule), None, "{rule}");
        }
    }
}
