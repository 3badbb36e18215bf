//! The values of the properties Donna reads from a VEVENT (RFC 5545, 3.3): DATE and DATE-TIME
//! (UTC, with a TZID, or floating), lists of them (EXDATE, RDATE), and DURATION.
//!
//! Invariants: pure; a value that does not read is `None`, never a panic or a guess; a
//! DATE-TIME's zone is only named here (`Stamp::Zoned` keeps the TZID), resolved in `zones`.

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, NaiveTime, Utc};

/// A DATE or DATE-TIME value as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stamp {
    /// `VALUE=DATE`: a day, in no zone.
    Date(NaiveDate),
    /// `...Z`: an instant.
    Utc(DateTime<Utc>),
    /// With `TZID=...`: a wall-clock time in that zone.
    Zoned(NaiveDateTime, String),
    /// Neither: the wall-clock time of whoever reads it.
    Floating(NaiveDateTime),
}

impl Stamp {
    pub fn is_date(&self) -> bool {
        matches!(self, Stamp::Date(_))
    }
}

/// One DATE (`20261123`) or DATE-TIME (`20261123T100000`, `...Z`) with its TZID, if any.
pub fn stamp(value: &str, tzid: Option<&str>) -> Option<Stamp> {
    let value = value.trim();
    if value.len() == 8 {
        return NaiveDate::parse_from_str(value, "%Y%m%d")
            .ok()
            .map(Stamp::Date);
    }
    let (text, utc) = match value.strip_suffix('Z').or_else(|| value.strip_suffix('z')) {
        Some(text) => (text, true),
        None => (value, false),
    };
    let wall = NaiveDateTime::parse_from_str(text, "%Y%m%dT%H%M%S").ok()?;
    Some(match (utc, tzid) {
        (true, _) => Stamp::Utc(wall.and_utc()),
        (false, Some(tzid)) => Stamp::Zoned(wall, tzid.to_string()),
        (false, None) => Stamp::Floating(wall),
    })
}

/// A comma-separated list of stamps (EXDATE, RDATE); values that do not read (a PERIOD of an
/// RDATE) are left out.
pub fn stamps(value: &str, tzid: Option<&str>) -> Vec<Stamp> {
    value
        .split(',')
        .filter_map(|part| stamp(part, tzid))
        .collect()
}

/// The longest DURATION read (ten years): longer ones do not read, so no time computed from
/// one can leave the range of dates.
const MAX_DURATION_DAYS: i64 = 3_660;

/// A DURATION value (`PT1H30M`, `P1D`, `-PT15M`, `P2W`); None when it does not read.
pub fn duration(value: &str) -> Option<Duration> {
    let value = value.trim();
    let (negative, rest) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value.strip_prefix('+').unwrap_or(value)),
    };
    let rest = rest.strip_prefix('P')?;
    let mut total = Duration::zero();
    let mut number = String::new();
    let mut in_time = false;
    let mut any = false;
    for c in rest.chars() {
        match c {
            '0'..='9' => number.push(c),
            'T' if number.is_empty() && !in_time => in_time = true,
            unit => {
                let amount: i64 = number.parse().ok()?;
                number.clear();
                let part = match (unit, in_time) {
                    ('W', false) => Duration::try_weeks(amount)?,
                    ('D', false) => Duration::try_days(amount)?,
                    ('H', true) => Duration::try_hours(amount)?,
                    ('M', true) => Duration::try_minutes(amount)?,
                    ('S', true) => Duration::try_seconds(amount)?,
                    _ => return None,
                };
                total = total.checked_add(&part)?;
                any = true;
            }
        }
    }
    if !number.is_empty() || !any || total > Duration::days(MAX_DURATION_DAYS) {
        return None;
    }
    Some(if negative { -total } else { total })
}

/// The start of a day, as a wall-clock time.
pub fn midnight(day: NaiveDate) -> NaiveDateTime {
    day.and_time(NaiveTime::MIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap_or_default()
    }

    #[test]
    fn dates_times_and_zones_read_as_written() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap_or_default();
        assert_eq!(stamp("20261123", None), Some(Stamp::Date(day)));
        assert_eq!(
            stamp("20261123T100000Z", Some("Europe/Berlin")),
            Some(Stamp::Utc(wall("2026-11-23 10:00").and_utc()))
        );
        assert_eq!(
            stamp("20261123T100000", Some("Europe/Berlin")),
            Some(Stamp::Zoned(
                wall("2026-11-23 10:00"),
                "Europe/Berlin".into()
            ))
        );
        assert_eq!(
            stamp("20261123T100000", None),
            Some(Stamp::Floating(wall("2026-11-23 10:00")))
        );
        for bad in ["", "2026-11-23", "20261323", "20261123T250000", "tomorrow"] {
            assert_eq!(stamp(bad, None), None, "{bad}");
        }
        assert_eq!(
            stamps("20261123T100000Z,bad,20261124T100000Z", None).len(),
            2
        );
    }

    #[test]
    fn durations_read_in_every_unit_and_nonsense_is_none() {
        let cases = [
            ("PT1H30M", Some(Duration::minutes(90))),
            ("P1D", Some(Duration::days(1))),
            ("P2W", Some(Duration::weeks(2))),
            ("P1DT2H", Some(Duration::hours(26))),
            ("-PT15M", Some(Duration::minutes(-15))),
            ("PT45S", Some(Duration::seconds(45))),
            ("P", None),
            ("PT", None),
            ("1H", None),
            ("PT1X", None),
            ("P99999999999999999999D", None),
            ("P99999999W", None),
            ("P3661D", None),
        ];
        for (text, expected) in cases {
            assert_eq!(duration(text), expected, "{text}");
        }
    }
}
