//! Reading and writing API values: times in RFC 3339 (shown in the configured timezone, read
//! with an offset or as local time), and the "absent vs null" distinction PATCH needs.

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
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
/// `timezone`.
pub fn parse_time(
    field: &str,
    text: &str,
    timezone: chrono_tz::Tz,
) -> Result<DateTime<Utc>, ApiError> {
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
