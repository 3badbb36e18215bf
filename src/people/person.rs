//! A person's stored settings: the `person` row.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::config::{QuietHours, WorkingHours};

/// What a person set for themselves; None: the config's default for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub user_id: String,
    /// Their zone (None: the config's `timezone`).
    pub timezone: Option<Tz>,
    /// Their quiet hours, read in their zone (None: the config's `nudges.quiet_hours`).
    pub quiet_hours: Option<QuietHours>,
    /// The hours a slot Donna proposes lies in, read in their zone (None: the config's
    /// `scheduling.working_hours`).
    pub working_hours: Option<WorkingHours>,
    pub updated_at: DateTime<Utc>,
}
