//! Reading and writing API values: times in RFC 3339 (shown in the configured timezone, read
//! with an offset or as local time), and the "absent vs null" distinction PATCH needs.
//!
//! Invariant: a time read here is stored and shown again as the same instant (to the second in
//! the API, to the microsecond in the store); anything else is a 400 naming the field.

use chrono::{DateTime, NaiveDateTime, SubsecRound, TimeZone, Utc};
use serde::{Deserialize, Deserializer};

use super::error::ApiError;

/// A field that may be absent (None), null (Some(None)) or set (Some(Some)).
pub fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(deserializer).map(Some)
}

/// Shows a time in the user's timezone, RFC 3339 with its offset.
pub fn show(at: DateTime<Utc>, timezone: chrono_tz::Tz) -> String {
    at.with_timezone(&timezone)
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
}

pub fn show_opt(at: Option<DateTime<Utc>>, timezone: chrono_tz::Tz) -> Option<String> {
    at.map(|at| show(at, timezone))
}

/// Reads a time: RFC 3339 with an offset, or a local date-time ("2026-12-01T09:00") in
/// `timezone`. Precision below a microsecond is dropped (the store keeps microseconds). Only a
/// time that reads back as itself is accepted (`check_round_trip`).
pub fn parse_time(
    field: &str,
    text: &str,
    timezone: chrono_tz::Tz,
) -> Result<DateTime<Utc>, ApiError> {
    let at = read_time(field, text, timezone)?.trunc_subsecs(6);
    check_round_trip(field, text, at, timezone)?;
    Ok(at)
}

fn read_time(field: &str, text: &str, timezone: chrono_tz::Tz) -> Result<DateTime<Utc>, ApiError> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text.trim()) {
        return Ok(at.with_timezone(&Utc));
    }
    for format in ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"] {
        if let Ok(local) = NaiveDateTime::parse_from_str(text.trim(), format) {
            return timezone
                .from_local_datetime(&local)
                .earliest()
                .map(|at| at.with_timezone(&Utc))
                .ok_or_else(|| {
                    ApiError::BadRequest(format!(
                        "{field}: {text:?} does not exist in {timezone} (a clock change)"
                    ))
                });
        }
    }
    Err(ApiError::BadRequest(format!(
        "{field}: {text:?} is not a time; use RFC 3339 like 2026-12-01T09:00:00+01:00 or local 2026-12-01T09:00"
    )))
}

/// Refuses a time that would not read back as itself: one the store cannot hold (a year outside
/// 0000 to 9999 in UTC, e.g. "+10000-01-01T00:00" or "9999-12-31T23:59:00-23:59"), or one the
/// API cannot show as RFC 3339 that reads back as the same second (a year outside 0000 to 9999
/// in `timezone`, or a historical offset of the zone that is not whole minutes).
fn check_round_trip(
    field: &str,
    text: &str,
    at: DateTime<Utc>,
    timezone: chrono_tz::Tz,
) -> Result<(), ApiError> {
    if !crate::store::time::round_trips(at) {
        return Err(ApiError::BadRequest(format!(
            "{field}: {text:?} is outside the years 0000 to 9999 (in UTC) that Donna can store"
        )));
    }
    let shown = DateTime::parse_from_rfc3339(&show(at, timezone)).map(|s| s.with_timezone(&Utc));
    if shown != Ok(at.trunc_subsecs(0)) {
        return Err(ApiError::BadRequest(format!(
            "{field}: {text:?} cannot be shown in {timezone} without changing it (out of range \
             there, or the zone's offset then was not whole minutes)"
        )));
    }
    Ok(())
}
