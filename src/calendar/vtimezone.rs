//! A VTIMEZONE component for an IANA zone (RFC 5545, 3.6.5): the zone's offsets over a window
//! of years, so a calendar app reads `DTSTART;TZID=Europe/Berlin:...` and the recurrence
//! expanded from it as the zone's own wall-clock times.
//!
//! Each change of offset in the window is one STANDARD or DAYLIGHT observance with its DTSTART
//! (the local time of the change, in the offset before it), TZOFFSETFROM, TZOFFSETTO and
//! TZNAME; the first observance is the offset in force when the window opens. A zone without a
//! change in the window (UTC, Asia/Tokyo) is one STANDARD observance. Changes are found from
//! chrono-tz's tables by a scan of the window in steps of a day, each change narrowed to the
//! second.
//! Invariants: the window is bounded by the caller (a few years), so a feed is never long or
//! slow to write; nothing here reads the clock.

use chrono::{DateTime, Duration, Offset, TimeZone, Utc};
use chrono_tz::{OffsetComponents, OffsetName, Tz};

use super::ics::{local, Ics};

/// The offset in force at an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Observed {
    seconds: i32,
    daylight: bool,
    name: String,
}

fn observed(tz: Tz, at: DateTime<Utc>) -> Observed {
    let offset = tz.offset_from_utc_datetime(&at.naive_utc());
    Observed {
        seconds: offset.fix().local_minus_utc(),
        daylight: !offset.dst_offset().is_zero(),
        name: offset
            .abbreviation()
            .map_or_else(|| tz.name().to_string(), str::to_string),
    }
}

/// `+0100`, `-0430`, `+053028` (seconds only when there are some).
fn offset_text(seconds: i32) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let total = seconds.unsigned_abs();
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60);
    if rest == 0 {
        format!("{sign}{hours:02}{minutes:02}")
    } else {
        format!("{sign}{hours:02}{minutes:02}{rest:02}")
    }
}

/// The first instant in (`before`, `after`] where `tz`'s offset is no longer the one at
/// `before`: a binary search to the second.
fn change_between(tz: Tz, before: DateTime<Utc>, after: DateTime<Utc>) -> DateTime<Utc> {
    let old = observed(tz, before);
    let (mut low, mut high) = (before, after);
    while high - low > Duration::seconds(1) {
        let middle = low + (high - low) / 2;
        if observed(tz, middle) == old {
            low = middle;
        } else {
            high = middle;
        }
    }
    high
}

/// Writes the VTIMEZONE of `tz`, with every change of offset in [`from`, `to`].
pub fn write(ics: &mut Ics, tz: Tz, from: DateTime<Utc>, to: DateTime<Utc>) {
    ics.begin("VTIMEZONE");
    ics.raw("TZID", tz.name());
    let first = observed(tz, from);
    observance(
        ics,
        &first,
        first.seconds,
        from + Duration::seconds(i64::from(first.seconds)),
    );
    let (mut at, mut current) = (from, first);
    while at < to {
        let next = (at + Duration::days(1)).min(to);
        let seen = observed(tz, next);
        if seen != current {
            let change = change_between(tz, at, next);
            let now_in_force = observed(tz, change);
            // DTSTART is the local time of the change, in the offset before it.
            let onset = change + Duration::seconds(i64::from(current.seconds));
            observance(ics, &now_in_force, current.seconds, onset);
            current = now_in_force;
            at = change;
            continue;
        }
        at = next;
    }
    ics.end("VTIMEZONE");
}

fn observance(ics: &mut Ics, observed: &Observed, from_seconds: i32, onset: DateTime<Utc>) {
    let kind = if observed.daylight {
        "DAYLIGHT"
    } else {
        "STANDARD"
    };
    ics.begin(kind);
    ics.raw("DTSTART", &local(onset.naive_utc()));
    ics.raw("TZOFFSETFROM", &offset_text(from_seconds));
    ics.raw("TZOFFSETTO", &offset_text(observed.seconds));
    ics.text("TZNAME", &observed.name);
    ics.end(kind);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(y: i32, mo: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, 0, 0, 0)
            .single()
            .unwrap_or_default()
    }

    #[test]
    fn berlin_has_its_2026_changes_at_the_local_hour_they_happen() {
        let mut ics = Ics::default();
        write(
            &mut ics,
            chrono_tz::Europe::Berlin,
            utc(2026, 1, 1),
            utc(2027, 1, 1),
        );
        let text = ics.finish();
        assert!(
            text.contains(
                "BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\n"
            ),
            "{text}"
        );
        assert_eq!(text.matches("BEGIN:STANDARD").count(), 2, "{text}");
    }

    #[test]
    fn a_zone_without_changes_is_one_standard_observance() {
        let mut ics = Ics::default();
        write(
            &mut ics,
            chrono_tz::Asia::Tokyo,
            utc(2026, 1, 1),
            utc(2028, 1, 1),
        );
        let text = ics.finish();
        assert_eq!(text.matches("BEGIN:STANDARD").count(), 1, "{text}");
        assert!(text.contains("TZOFFSETTO:+0900"), "{text}");
        assert!(!text.contains("DAYLIGHT"), "{text}");
    }
}
