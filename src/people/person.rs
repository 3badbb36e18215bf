//! A person's stored time zone: the `person` row.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// A person's stored zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub user_id: String,
    pub timezone: Tz,
    pub updated_at: DateTime<Utc>,
}
