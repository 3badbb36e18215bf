//! The zone of a calendar's wall-clock times (TZID), and turning wall-clock times into instants.
//!
//! A TZID is read, in order, as an IANA name chrono-tz knows ("Europe/Berlin"), a Windows zone
//! name through CLDR's windowsZones table (the `localzone` crate: "W. Europe Standard Time", as
//! Outlook writes) at its world-wide default, or the file's own VTIMEZONE (`observances`);
//! else it is unknown and the caller skips the event and counts it.
//! A wall time that exists twice (the hour a DST change repeats) is its first instant; one that
//! does not exist (the hour skipped) is read with the offset before the change, as RFC 5545
//! (3.3.5) says, so 02:30 on the day clocks go from 02:00 to 03:00 is 03:30.
//! Invariants: pure; the same algorithm serves every kind of zone, from its offset at an
//! instant (`Zone::offset_at`).

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDateTime, Offset, TimeZone, Utc};
use chrono_tz::Tz;

use super::observances::FileZone;

/// The zone a calendar's times are in.
#[derive(Debug, Clone)]
pub enum Zone {
    Iana(Tz),
    /// A VTIMEZONE of the file itself, for a TZID no table knows.
    File(Arc<FileZone>),
}

impl Zone {
    /// The offset from UTC, in seconds, in force at `at`.
    pub fn offset_at(&self, at: DateTime<Utc>) -> i32 {
        match self {
            Zone::Iana(tz) => tz
                .offset_from_utc_datetime(&at.naive_utc())
                .fix()
                .local_minus_utc(),
            Zone::File(zone) => zone.offset_at(at),
        }
    }

    /// The wall-clock time at `at`.
    pub fn to_wall(&self, at: DateTime<Utc>) -> NaiveDateTime {
        at.naive_utc() + Duration::seconds(i64::from(self.offset_at(at)))
    }

    /// The instant of a wall-clock time: the first of two in a repeated hour, and with the
    /// offset before the change in a skipped one.
    pub fn to_instant(&self, wall: NaiveDateTime) -> DateTime<Utc> {
        let as_utc = wall.and_utc();
        let before = self.offset_at(as_utc - Duration::days(1));
        let after = self.offset_at(as_utc + Duration::days(1));
        [before, after]
            .into_iter()
            .map(|offset| as_utc - Duration::seconds(i64::from(offset)))
            .filter(|at| self.to_wall(*at) == wall)
            .min()
            .unwrap_or_else(|| as_utc - Duration::seconds(i64::from(before)))
    }
}

/// An IANA name, or the IANA zone CLDR gives a Windows name at its world-wide default ("001").
pub fn known(tzid: &str) -> Option<Tz> {
    let name = tzid.trim();
    Tz::from_str(name).ok().or_else(|| {
        localzone::win_zone_to_iana(name, Some("001")).and_then(|iana| Tz::from_str(iana).ok())
    })
}

/// Resolves TZIDs against the tables and the file's own VTIMEZONEs.
#[derive(Debug, Default)]
pub struct Zones {
    pub file: HashMap<String, Arc<FileZone>>,
}

impl Zones {
    pub fn resolve(&self, tzid: &str) -> Option<Zone> {
        known(tzid)
            .map(Zone::Iana)
            .or_else(|| self.file.get(tzid.trim()).cloned().map(Zone::File))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap_or_default()
    }

    fn utc(text: &str) -> DateTime<Utc> {
        wall(text).and_utc()
    }

    #[test]
    fn iana_and_windows_names_resolve_and_others_do_not() {
        let cases = [
            ("Europe/Berlin", Some("Europe/Berlin")),
            ("W. Europe Standard Time", Some("Europe/Berlin")),
            ("Pacific Standard Time", Some("America/Los_Angeles")),
            ("Eastern Standard Time", Some("America/New_York")),
            ("GMT Standard Time", Some("Europe/London")),
            ("Tokyo Standard Time", Some("Asia/Tokyo")),
            ("Mars/Olympus", None),
            ("Customized Time Zone", None),
        ];
        for (tzid, expected) in cases {
            assert_eq!(known(tzid).map(|tz| tz.name()), expected, "{tzid}");
        }
    }

    #[test]
    fn wall_times_across_a_dst_change_become_the_right_instants() {
        let berlin = Zone::Iana(chrono_tz::Europe::Berlin);
        let rows = [
            ("winter: +01:00", "2026-01-15 09:00", "2026-01-15 08:00"),
            ("summer: +02:00", "2026-07-15 09:00", "2026-07-15 07:00"),
            // 29 March 2026: 02:00 -> 03:00; 02:30 does not exist and is read as 03:30.
            ("a skipped hour", "2026-03-29 02:30", "2026-03-29 01:30"),
            // 25 October 2026: 03:00 -> 02:00; 02:30 happens twice, the first is meant.
            ("a repeated hour", "2026-10-25 02:30", "2026-10-25 00:30"),
        ];
        for (about, local, instant) in rows {
            assert_eq!(berlin.to_instant(wall(local)), utc(instant), "{about}");
        }
        assert_eq!(
            berlin.to_wall(utc("2026-07-15 07:00")),
            wall("2026-07-15 09:00")
        );
    }
}
