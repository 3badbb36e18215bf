//! A file's own VTIMEZONE (RFC 5545, 3.6.5), read for a TZID no table knows: its STANDARD and
//! DAYLIGHT observances become the instants the offset changes, up to a bound.
//!
//! Each observance starts at its DTSTART (a wall time in TZOFFSETFROM) and recurs by its RRULE
//! or RDATEs (the same bounded search as events: `rule`); at each onset the offset becomes its
//! TZOFFSETTO. Before the first change the first change's TZOFFSETFROM holds. The reverse of
//! `calendar::vtimezone`, which writes such components from chrono-tz's tables.
//! Invariants: pure; onsets are computed only up to `until` (the window's end and a year), so
//! a zone costs at most a few hundred onsets; a zone with no observance that reads is None.

use chrono::{DateTime, Duration, NaiveDateTime, Utc};

use super::rule::{read_rule, Recurrence, Steps};

/// The most onsets one observance is searched for (a yearly change from 1900 to 2100 is 200).
const OBSERVANCE_STEPS: usize = 2_000;
use super::values::{self, Stamp};

/// One STANDARD or DAYLIGHT component, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observance {
    pub start: NaiveDateTime,
    pub offset_from: i32,
    pub offset_to: i32,
    pub rule: Option<String>,
    pub rdates: Vec<NaiveDateTime>,
}

/// The offsets of a file's zone: the instants they change, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileZone {
    changes: Vec<(DateTime<Utc>, i32)>,
    initial: i32,
}

/// `+0100`, `-0430`, `+053028` as seconds east of UTC.
pub fn offset(text: &str) -> Option<i32> {
    let text = text.trim();
    let (sign, digits) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    if !(digits.len() == 4 || digits.len() == 6) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let part =
        |range: std::ops::Range<usize>| digits.get(range).and_then(|d| d.parse::<i32>().ok());
    let hours = part(0..2)?;
    let minutes = part(2..4)?;
    let seconds = if digits.len() == 6 { part(4..6)? } else { 0 };
    if hours > 23 || minutes > 59 || seconds > 59 {
        return None;
    }
    Some(sign * (hours * 3600 + minutes * 60 + seconds))
}

impl FileZone {
    /// The zone of `observances`, its changes computed up to `until` (wall-clock).
    pub fn new(observances: &[Observance], until: NaiveDateTime) -> Option<Self> {
        let first = observances.first()?;
        let mut changes = Vec::new();
        for observance in observances {
            let from = observance.offset_from;
            let rules = match &observance.rule {
                Some(text) => {
                    // UNTIL is UTC in a VTIMEZONE; as a wall time it is in the offset before.
                    let until_wall = |value: &str| match values::stamp(value, None)? {
                        Stamp::Utc(at) => Some(at.naive_utc() + Duration::seconds(i64::from(from))),
                        Stamp::Date(day) => Some(values::midnight(day)),
                        Stamp::Floating(wall) | Stamp::Zoned(wall, _) => Some(wall),
                    };
                    match read_rule(text, until_wall) {
                        Ok(rule) => vec![rule],
                        Err(_) => continue,
                    }
                }
                None => Vec::new(),
            };
            let recurrence = Recurrence {
                start: observance.start,
                rules,
                rdates: observance.rdates.clone(),
                exdates: Vec::new(),
            };
            let Ok(onsets) =
                recurrence.between(observance.start, until, &mut Steps(OBSERVANCE_STEPS))
            else {
                continue;
            };
            for onset in onsets {
                let at = onset.and_utc() - Duration::seconds(i64::from(from));
                changes.push((at, observance.offset_to, from));
            }
        }
        changes.sort();
        let initial = changes
            .first()
            .map_or(first.offset_to, |(_, _, from)| *from);
        let changes = changes.into_iter().map(|(at, to, _)| (at, to)).collect();
        Some(Self { changes, initial })
    }

    /// The offset in force at `at`, in seconds east of UTC.
    pub fn offset_at(&self, at: DateTime<Utc>) -> i32 {
        match self.changes.partition_point(|(change, _)| *change <= at) {
            0 => self.initial,
            n => self.changes[n - 1].1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_read_with_their_sign_and_seconds() {
        assert_eq!(offset("+0100"), Some(3600));
        assert_eq!(offset("-0430"), Some(-16_200));
        assert_eq!(offset("+053028"), Some(19_828));
        for bad in ["0100", "+1", "+2500", "+01:00", ""] {
            assert_eq!(offset(bad), None, "{bad}");
        }
    }
}
