//! How times are stored: RFC 3339 in UTC with microseconds and a fixed width, so comparing the
//! text compares the times.
//!
//! Invariant: the format holds four-digit years (0000 to 9999 in UTC) and microseconds; a time
//! from outside the process (the API) is stored only when `round_trips` says it reads back as
//! itself, so a stored time never fails to read.

use chrono::{DateTime, SecondsFormat, Utc};

use super::error::StoreError;

pub fn to_db(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Micros, true)
}

pub fn from_db(text: &str) -> Result<DateTime<Utc>, StoreError> {
    DateTime::parse_from_rfc3339(text)
        .map(|at| at.with_timezone(&Utc))
        .map_err(|error| StoreError::Corrupt(format!("bad timestamp {text:?}: {error}")))
}

/// Whether `at` is written and read back as exactly the same time: its year in UTC has four
/// digits and it has no precision below a microsecond. (A year of 10000 or -1 would be written
/// as "+10000-..." or "-0001-..." and then refused by the reader.)
pub fn round_trips(at: DateTime<Utc>) -> bool {
    from_db(&to_db(at)).is_ok_and(|back| back == at)
}

pub fn opt_from_db(text: Option<String>) -> Result<Option<DateTime<Utc>>, StoreError> {
    text.as_deref().map(from_db).transpose()
}

#[cfg(test)]
mod tests {
    use chrono::{TimeDelta, TimeZone};

    use super::*;

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, s)
            .single()
            .unwrap_or_default()
    }

    #[test]
    fn exactly_the_four_digit_years_at_microsecond_precision_round_trip() {
        let first = utc(0, 1, 1, 0, 0, 0);
        let last = utc(9999, 12, 31, 23, 59, 59) + TimeDelta::microseconds(999_999);
        let micro = TimeDelta::microseconds(1);
        for at in [first, last, utc(2026, 11, 23, 10, 0, 0) + micro] {
            assert!(round_trips(at), "{at:?}");
            assert_eq!(from_db(&to_db(at)).ok(), Some(at));
        }
        for at in [
            first - micro,
            last + micro,
            utc(-1, 6, 1, 0, 0, 0),
            utc(10_000, 1, 1, 0, 0, 0),
            utc(2026, 11, 23, 10, 0, 0) + TimeDelta::nanoseconds(1),
        ] {
            assert!(!round_trips(at), "{at:?} is stored as {}", to_db(at));
        }
    }
}
