//! The bounded recurrence search of a calendar (RRULE, RDATE, EXDATE) in wall-clock time.
//!
//! How: the `rrule` crate expands the rule with DTSTART's wall-clock time given as if it were
//! UTC, so a "09:00 every Monday" stays 09:00 across a DST change; the caller turns each wall
//! time into an instant with the event's zone (`zones::Zone::to_instant`). UNTIL is taken out
//! of the rule text and given back as a wall time in the event's zone (the crate would read a
//! floating UNTIL in the machine's zone). DTSTART is always the first occurrence (RFC 5545,
//! 3.8.5.3), even when the rule does not match it.
//! Invariants: every search is the automations' bounded one (`automations::schedule::walk`):
//! it stops past `until`, steps through at most `MAX_STEPS` occurrences from DTSTART (past it
//! the search is `Cut` and the caller skips the series), and the crate's own cap on iterations
//! that find nothing ends a rule that never occurs; a file's searches share one budget of
//! steps (`Steps`).

use chrono::NaiveDateTime;
use rrule::{RRule, RRuleSet, Unvalidated};

use crate::automations::schedule::{walk, SearchCut, MAX_STEPS};

/// Why a series cannot be expanded (it is skipped and counted).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("a recurrence rule that does not read")]
    Invalid,
    #[error("a recurrence that steps past {MAX_STEPS} occurrences before the window")]
    Cut,
    /// The whole file's budget of steps is spent (`Steps`).
    #[error("the calendar's recurrences take too many steps to expand")]
    Budget,
}

/// The steps left for one file's searches, shared by all of them, so a file of many long
/// series costs a bounded time as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Steps(pub usize);

/// A recurrence in wall-clock time.
#[derive(Debug, Clone)]
pub struct Recurrence {
    pub start: NaiveDateTime,
    pub rules: Vec<RRule<Unvalidated>>,
    pub rdates: Vec<NaiveDateTime>,
    pub exdates: Vec<NaiveDateTime>,
}

fn floating(wall: NaiveDateTime) -> chrono::DateTime<rrule::Tz> {
    wall.and_utc().with_timezone(&rrule::Tz::UTC)
}

/// Reads an RRULE value; `until` turns its UNTIL value (a DATE or DATE-TIME as written) into
/// the wall-clock time it means for this event.
pub fn read_rule(
    text: &str,
    until: impl Fn(&str) -> Option<NaiveDateTime>,
) -> Result<RRule<Unvalidated>, RuleError> {
    let mut parts = Vec::new();
    let mut until_value = None;
    for part in text.trim().trim_start_matches("RRULE:").split(';') {
        match part.split_once('=') {
            Some((key, value)) if key.trim().eq_ignore_ascii_case("UNTIL") => {
                until_value = Some(until(value.trim()).ok_or(RuleError::Invalid)?);
            }
            _ if part.trim().is_empty() => {}
            _ => parts.push(part.trim()),
        }
    }
    let rule: RRule<Unvalidated> = parts.join(";").parse().map_err(|_| RuleError::Invalid)?;
    Ok(match until_value {
        Some(wall) => rule.until(floating(wall)),
        None => rule,
    })
}

impl Recurrence {
    /// The occurrences in [`from`, `until`], in order (DTSTART among them unless excluded).
    pub fn between(
        &self,
        from: NaiveDateTime,
        until: NaiveDateTime,
        steps: &mut Steps,
    ) -> Result<Vec<NaiveDateTime>, RuleError> {
        let start = floating(self.start);
        let mut set = RRuleSet::new(start);
        for rule in &self.rules {
            let rule = rule
                .clone()
                .validate(start)
                .map_err(|_| RuleError::Invalid)?;
            set = set.rrule(rule);
        }
        let mut rdates = self.rdates.clone();
        rdates.push(self.start);
        for rdate in rdates {
            set = set.rdate(floating(rdate));
        }
        for exdate in &self.exdates {
            set = set.exdate(floating(*exdate));
        }
        let mut found: Vec<NaiveDateTime> = Vec::new();
        let mut spent = false;
        walk(set, |at| {
            let wall = at.naive_utc();
            if wall > until {
                return false;
            }
            let Some(left) = steps.0.checked_sub(1) else {
                spent = true;
                return false;
            };
            steps.0 = left;
            if wall >= from && found.last() != Some(&wall) {
                found.push(wall);
            }
            true
        })
        .map_err(|SearchCut| RuleError::Cut)?;
        if spent {
            return Err(RuleError::Budget);
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap_or_default()
    }

    fn recurrence(rule: &str, start: &str) -> Recurrence {
        Recurrence {
            start: wall(start),
            rules: vec![read_rule(rule, |_| Some(wall("2026-12-31 23:59")))
                .unwrap_or_else(|e| panic!("{e}"))],
            rdates: Vec::new(),
            exdates: Vec::new(),
        }
    }

    #[test]
    fn a_weekly_rule_keeps_its_wall_time_excludes_its_exdates_and_stops_at_until() {
        let mut weekly = recurrence(
            "FREQ=WEEKLY;BYDAY=MO;UNTIL=20261231T235959Z",
            "2026-10-05 09:00",
        );
        weekly.exdates.push(wall("2026-10-12 09:00"));
        let found = weekly.between(
            wall("2026-10-01 00:00"),
            wall("2027-06-01 00:00"),
            &mut Steps(1000),
        );
        let found = found.unwrap_or_default();
        assert_eq!(found.first(), Some(&wall("2026-10-05 09:00")));
        assert!(!found.contains(&wall("2026-10-12 09:00")));
        assert_eq!(found.last(), Some(&wall("2026-12-28 09:00")));
        assert!(found
            .iter()
            .all(|at| at.time() == wall("2026-10-05 09:00").time()));
    }

    #[test]
    fn a_rule_that_never_occurs_or_steps_too_far_ends_and_says_why() {
        let never = recurrence("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "2026-01-30 09:00");
        let found = never.between(
            wall("2026-02-01 00:00"),
            wall("2030-01-01 00:00"),
            &mut Steps(1000),
        );
        assert_eq!(found, Ok(Vec::new()));
        let minutely = recurrence("FREQ=MINUTELY", "2000-01-01 00:00");
        let found = minutely.between(
            wall("2026-01-01 00:00"),
            wall("2026-01-02 00:00"),
            &mut Steps(1_000_000),
        );
        assert_eq!(found, Err(RuleError::Cut));
        let daily = recurrence("FREQ=DAILY", "2000-01-01 00:00");
        let found = daily.between(
            wall("2026-01-01 00:00"),
            wall("2026-01-02 00:00"),
            &mut Steps(100),
        );
        assert_eq!(found, Err(RuleError::Budget));
        assert!(read_rule("FREQ=SOMETIMES", |_| None).is_err());
        assert!(read_rule("FREQ=DAILY;UNTIL=soon", |_| None).is_err());
    }
}
