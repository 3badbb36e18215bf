//! When Donna finds time for a task (`scheduling.*`): the working hours a free slot may lie in.
//!
//! Invariant: working hours are never empty (equal ends are refused); they may wrap midnight.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::quiet_hours::{QuietHours, QuietHoursError};

/// When Donna finds time for a task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SchedulingConfig {
    /// The local hours a free slot may lie in ("09:00-18:00"); it may wrap midnight.
    pub working_hours: WorkingHours,
}

impl Default for SchedulingConfig {
    fn default() -> Self {
        Self {
            working_hours: WorkingHours(QuietHours {
                start: chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap_or_default(),
                end: chrono::NaiveTime::from_hms_opt(18, 0, 0).unwrap_or_default(),
            }),
        }
    }
}

/// A daily local range of working hours, read like quiet hours ("09:00-18:00"); never empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WorkingHours(pub QuietHours);

impl WorkingHours {
    pub fn parse(text: &str) -> Result<Self, String> {
        let range = QuietHours::parse(text).map_err(|error| match error {
            QuietHoursError::Shape(text) => {
                format!("invalid working hours {text:?}: write them like \"09:00-18:00\"")
            }
            QuietHoursError::Time { part, text } => {
                format!("invalid time {part:?} in working hours {text:?}: use HH:MM")
            }
        })?;
        if range.start == range.end {
            return Err(format!(
                "working hours {text:?} are empty: give a start and a later end"
            ));
        }
        Ok(Self(range))
    }
}

impl std::fmt::Display for WorkingHours {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<'de> Deserialize<'de> for WorkingHours {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        WorkingHours::parse(&text).map_err(de::Error::custom)
    }
}
