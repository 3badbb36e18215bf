//! A person's stored settings: the `person` row.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::config::QuietHours;

/// What a person set for themselves; None: the config's default for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub user_id: String,
    /// Their zone (None: the config's `timezone`).
    pub timezone: Option<Tz>,
    /// Their quiet hours, read in their zone (None: the config's `nudges.quiet_hours`).
    pub quiet_hours: Option<QuietHours>,
    pub updated_at: DateTime<Utc>,
}
