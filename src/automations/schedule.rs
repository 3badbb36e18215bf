//! An automation's schedule: an RFC 5545 recurrence rule expanded in the person's time zone
//! (the `rrule` crate), and the three questions the runner and the proposal ask of it.
//!
//! Owns: `Schedule` (the rule, its first occurrence, the time zone, the words said back to the
//! person) and its math: `first_run_after`, `next_after`, `latest_occurrence_in`.
//! Format: `rrule` is the RRULE value only, without the `RRULE:` prefix and without DTSTART
//! ("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"); `dtstart` is kept apart (UTC) and
//! is itself the first occurrence; the rule is expanded from DTSTART in `timezone`, so every
//! occurrence is at the local wall time, across daylight saving changes.
//! Which rules are stored at all (`check_rule`, every door: the chat's confirmed proposal and
//! `donna import`): at most daily (`FREQ=DAILY`, `WEEKLY`, `MONTHLY` or `YEARLY`; never
//! `SECONDLY`, `MINUTELY` or `HOURLY`), one time of day (one value each of BYHOUR, BYMINUTE and
//! BYSECOND), at most `MAX_COUNT` occurrences, a short rule of printable characters; and
//! `Schedule::check` adds an occurrence within `LOOKBACK_DAYS` of its start.
//! Invariants: every search is bounded three ways: a window of at most `LOOKBACK_DAYS`, at most
//! `MAX_STEPS` occurrences stepped through from DTSTART (`ScheduleError::SearchCut` past it) and
//! the `rrule` crate's own cap on empty iterations; a stored rule no door would take is refused
//! before any search (so one stored before these checks costs nothing); a rule that does not
//! parse is an error, never a panic; no window arithmetic can overflow (`clock::add`).

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;
use rrule::{Frequency, RRule, RRuleSet, Unvalidated};

use crate::clock;

/// How far back `latest_occurrence_in` looks: a missed occurrence older than this is not worth
/// firing, and every rule Donna writes recurs at least yearly, so the window always holds one.
pub const LOOKBACK_DAYS: i64 = 400;
/// The most occurrences one expansion collects (a daily rule over `LOOKBACK_DAYS` is ~400).
const EXPANSION_LIMIT: usize = 2_000;
/// The most occurrences one search steps through from DTSTART (the crate has no way to start
/// later): a daily rule's first 109 years.
pub const MAX_STEPS: usize = 40_000;
/// The most occurrences a rule may count (`COUNT`), as the chat's "N times" allows.
pub const MAX_COUNT: u32 = 1_000;
/// The longest rule stored, in characters (Donna's own are about 100).
const MAX_RULE_CHARS: usize = 500;

/// A recurrence search reached `MAX_STEPS` before it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchCut;

/// The one bounded search of recurrences (automations and the calendars Donna reads): steps
/// through `set`'s occurrences in order, handing each to `visit` until it answers false,
/// through at most `MAX_STEPS` of them (the crate cannot start later than DTSTART), with the
/// crate's own cap on iterations that find nothing turned on (`limit`).
pub fn walk(
    set: RRuleSet,
    mut visit: impl FnMut(chrono::DateTime<rrule::Tz>) -> bool,
) -> Result<(), SearchCut> {
    let set = set.limit();
    for (step, at) in (&set).into_iter().enumerate() {
        if step >= MAX_STEPS {
            return Err(SearchCut);
        }
        if !visit(at) {
            break;
        }
    }
    Ok(())
}

/// The value of `name` in an RRULE value ("FREQ=WEEKLY;INTERVAL=2": "2" for INTERVAL).
pub(super) fn rule_part<'a>(rrule: &'a str, name: &str) -> Option<&'a str> {
    rrule.split(';').find_map(|piece| {
        let (key, value) = piece.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case(name)
            .then_some(value.trim())
    })
}

/// Why a stored or proposed rule cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("the recurrence rule {rule:?} is not valid: {reason}")]
    Invalid { rule: String, reason: String },
    #[error("the recurrence rule {0:?} has no occurrence after its start")]
    NoOccurrence(String),
    /// A rule no door stores (more often than daily, several times a day, ...).
    #[error("the recurrence rule {rule:?} is not one Donna keeps: {reason}")]
    Refused { rule: String, reason: String },
    /// The search stepped through `MAX_STEPS` occurrences without reaching its window.
    #[error(
        "the recurrence rule {0:?} cannot be searched within {MAX_STEPS} occurrences of its start"
    )]
    SearchCut(String),
}

/// Checks a rule as every door stores it (see the module's header).
pub fn check_rule(rrule: &str) -> Result<(), ScheduleError> {
    let refused = |reason: &str| ScheduleError::Refused {
        rule: rrule.chars().take(60).collect(),
        reason: reason.to_string(),
    };
    if rrule.chars().count() > MAX_RULE_CHARS {
        return Err(refused("it is too long"));
    }
    if rrule.chars().any(char::is_control) {
        return Err(refused("it holds control characters"));
    }
    let rule: RRule<Unvalidated> = rrule.parse().map_err(|e| ScheduleError::Invalid {
        rule: rrule.to_string(),
        reason: format!("{e}"),
    })?;
    if !matches!(
        rule.get_freq(),
        Frequency::Daily | Frequency::Weekly | Frequency::Monthly | Frequency::Yearly
    ) {
        return Err(refused(
            "a reminder repeats at most daily (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY)",
        ));
    }
    if rule.get_by_hour().len() > 1
        || rule.get_by_minute().len() > 1
        || rule.get_by_second().len() > 1
    {
        return Err(refused("a reminder has one time of day"));
    }
    if rule.get_count().is_some_and(|count| count > MAX_COUNT) {
        return Err(refused("a reminder counts at most 1000 times"));
    }
    Ok(())
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
        // The anchored rule must parse too (checked once, there).
        Self::from_first(rrule, timezone, words, first)
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

    /// Whether the schedule is one a door stores: its rule passes [`check_rule`], builds from
    /// its start, and occurs within `LOOKBACK_DAYS` of it (a rule that never occurs, such as
    /// every 30 February, is refused rather than searched at every tick).
    pub fn check(&self) -> Result<(), ScheduleError> {
        let just_before = clock::add(self.dtstart, -Duration::seconds(1));
        match self.next_after(just_before)? {
            Some(_) => Ok(()),
            None => Err(ScheduleError::NoOccurrence(self.rrule.clone())),
        }
    }

    fn set(&self) -> Result<RRuleSet, ScheduleError> {
        check_rule(&self.rrule)?;
        let invalid = |reason: String| ScheduleError::Invalid {
            rule: self.rrule.clone(),
            reason,
        };
        let rule: RRule<Unvalidated> = self.rrule.parse().map_err(|e| invalid(format!("{e}")))?;
        let start = self.dtstart.with_timezone(&rrule::Tz::Tz(self.timezone));
        rule.build(start).map_err(|e| invalid(format!("{e}")))
    }

    /// Occurrences in [from, to], oldest first, at most `EXPANSION_LIMIT`, stepping through at
    /// most `MAX_STEPS` from DTSTART.
    fn between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<DateTime<Utc>>, ScheduleError> {
        if to < from {
            return Ok(Vec::new());
        }
        let mut found = Vec::new();
        walk(self.set()?, |at| {
            let at = at.with_timezone(&Utc);
            if at > to {
                return false;
            }
            if at >= from {
                found.push(at);
            }
            found.len() < EXPANSION_LIMIT
        })
        .map_err(|SearchCut| ScheduleError::SearchCut(self.rrule.clone()))?;
        Ok(found)
    }

    /// The first occurrence strictly after `t`. Looks at most `LOOKBACK_DAYS` ahead.
    pub fn next_after(&self, t: DateTime<Utc>) -> Result<Option<DateTime<Utc>>, ScheduleError> {
        let to = clock::add(t, Duration::days(LOOKBACK_DAYS));
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
        let window = clock::add(until, -Duration::days(LOOKBACK_DAYS));
        let from = after.map_or(window, |after| after.max(window));
        Ok(self
            .between(from, until)?
            .into_iter()
            .rfind(|at| after.is_none_or(|after| *at > after) && *at <= until))
    }
}
