//! How times are stored: RFC 3339 in UTC with microseconds and a fixed width, so comparing the
//! text compares the times.

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

pub fn opt_from_db(text: Option<String>) -> Result<Option<DateTime<Utc>>, StoreError> {
    text.as_deref().map(from_db).transpose()
}
