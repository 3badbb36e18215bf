//! An automation's schedule: an RFC 5545 recurrence rule expanded in the person's time zone
//! (the `rrule` crate), and the three questions the runner and the proposal ask of it.
//!
//! Owns: `Schedule` (the rule, its first occurrence, the time zone, the words said back to the
//! person) and its math: `first_run_after`, `next_after`, `latest_occurrence_in`.
//! Format: `rrule` is the RRULE value only, without the `RRULE:` prefix and without DTSTART
//! ("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"); `dtstart` is kept apart (UTC) and
//! is itself the first occurrence; the rule is expanded from DTSTART in `timezone`, so every
//! occurrence is at the local wall time, across daylight saving changes.
//! Invariants: every expansion is bounded (a window of at most `LOOKBACK` and a count limit),
//! so a rule can never make Donna iterate without end; a rule that does not parse is an error,
//! never a panic.

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;
use rrule::{RRule, RRuleSet, Unvalidated};

/// How far back `latest_occurrence_in` looks: a missed occurrence older than this is not worth
/// firing, and every rule Donna writes recurs at least yearly, so the window always holds one.
pub const LOOKBACK_DAYS: i64 = 400;
/// The most occurrences one expansion collects (a daily rule over `LOOKBACK_DAYS` is ~400).
const EXPANSION_LIMIT: u16 = 2_000;

/// Why a stored or proposed rule cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("the recurrence rule {rule:?} is not valid: {reason}")]
    Invalid { rule: String, reason: String },
    #[error("the recurrence rule {0:?} has no occurrence after its start")]
    NoOccurrence(String),
}

/// A recurring schedule in a time zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The RRULE value (no `RRULE:` prefix, no DTSTART).
    pub rrule: String,
    /// The first occurrence (RFC 5545's DTSTART), in UTC.
    pub dtstart: DateTime<Utc>,
    pub timezone: Tz,
    /// The schedule as said to the person: "every Monday at 09:00".
    pub words: String,
}

impl Schedule {
    /// A schedule for `rrule` whose first occurrence is the first one after `now` (counting
    /// any interval from that occurrence: "every 2 weeks on friday" said on a Saturday starts
    /// next Friday, not in thirteen days).
    pub fn starting_after(
        rrule: &str,
        timezone: Tz,
        words: &str,
        now: DateTime<Utc>,
    ) -> Result<Self, ScheduleError> {
        // Find the first matching day with the interval and the bounds left out, then anchor
        // the rule there.
        let every_time: String = rrule
            .split(';')
            .filter(|part| {
                !(part.starts_with("INTERVAL=")
                    || part.starts_with("COUNT=")
                    || part.starts_with("UNTIL="))
            })
            .collect::<Vec<_>>()
            .join(";");
        let probe = Schedule {
            rrule: every_time,
            dtstart: now,
            timezone,
            words: String::new(),
        };
        let first = probe
            .next_after(now)?
            .ok_or_else(|| ScheduleError::NoOccurrence(rrule.to_string()))?;
        let schedule = Schedule {
            rrule: rrule.to_string(),
            dtstart: first,
            timezone,
            words: words.to_string(),
        };
        // The anchored rule must parse too (checked once, here).
        schedule.set()?;
        Ok(schedule)
    }

    /// A schedule whose rule counts from `start` (a local day at the reminder's time, maybe
    /// already past: "every 3 weeks" from today), first firing at its first occurrence after
    /// `now`; that occurrence becomes DTSTART.
    pub fn counting_from(
        rrule: &str,
        timezone: Tz,
        start: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<DateTime<Utc>, ScheduleError> {
        if start > now {
            return Ok(start);
        }
        let anchored = Schedule {
            rrule: rrule.to_string(),
            dtstart: start,
            timezone,
            words: String::new(),
        };
        anchored
            .next_after(now)?
            .ok_or_else(|| ScheduleError::NoOccurrence(rrule.to_string()))
    }

    /// The schedule with `first` as DTSTART, its rule checked.
    pub fn from_first(
        rrule: &str,
        timezone: Tz,
        words: &str,
        first: DateTime<Utc>,
    ) -> Result<Self, ScheduleError> {
        let schedule = Schedule {
            rrule: rrule.to_string(),
            dtstart: first,
            timezone,
            words: words.to_string(),
        };
        schedule.set()?;
        Ok(schedule)
    }

    fn set(&self) -> Result<RRuleSet, ScheduleError> {
        let invalid = |reason: String| ScheduleError::Invalid {
            rule: self.rrule.clone(),
            reason,
        };
        let rule: RRule<Unvalidated> = self.rrule.parse().map_err(|e| invalid(format!("{e}")))?;
        let start = self.dtstart.with_timezone(&rrule::Tz::Tz(self.timezone));
        rule.build(start).map_err(|e| invalid(format!("{e}")))
    }

    /// Occurrences in [from, to], oldest first, at most `EXPANSION_LIMIT`.
    fn between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<DateTime<Utc>>, ScheduleError> {
        if to < from {
            return Ok(Vec::new());
        }
        let tz = rrule::Tz::Tz(self.timezone);
        let result = self
            .set()?
            .after(from.with_timezone(&tz))
            .before(to.with_timezone(&tz))
            .all(EXPANSION_LIMIT);
        Ok(result
            .dates
            .into_iter()
            .map(|at| at.with_timezone(&Utc))
            .collect())
    }

    /// The first occurrence strictly after `t`. Looks at most `LOOKBACK_DAYS` ahead.
    pub fn next_after(&self, t: DateTime<Utc>) -> Result<Option<DateTime<Utc>>, ScheduleError> {
        let to = t + Duration::days(LOOKBACK_DAYS);
        Ok(self.between(t, to)?.into_iter().find(|at| *at > t))
    }

    /// The first run after `now` (what the proposal says: "first on Mon 30 Nov 09:00").
    pub fn first_run_after(
        &self,
        now: DateTime<Utc>,
    ) -> Result<Option<DateTime<Utc>>, ScheduleError> {
        // DTSTART is the first occurrence; before it there is none.
        if self.dtstart > now {
            return Ok(Some(self.dtstart));
        }
        self.next_after(now)
    }

    /// The latest occurrence in (`after`, `until`] (from the start when `after` is None),
    /// looking back at most `LOOKBACK_DAYS` from `until`: after downtime only this one fires.
    pub fn latest_occurrence_in(
        &self,
        after: Option<DateTime<Utc>>,
        until: DateTime<Utc>,
    ) -> Result<Option<DateTime<Utc>>, ScheduleError> {
        let window = until - Duration::days(LOOKBACK_DAYS);
        let from = after.map_or(window, |after| after.max(window));
        Ok(self
            .between(from, until)?
            .into_iter()
            .rfind(|at| after.is_none_or(|after| *at > after) && *at <= until))
    }
}
