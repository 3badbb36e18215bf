//! Quiet hours: a local time range like "22:00-08:00" in which no nudge is sent.

use std::fmt;

use chrono::NaiveTime;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

/// A daily local time range; it may wrap midnight. Equal ends mean "never quiet".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuietHours {
    pub start: NaiveTime,
    pub end: NaiveTime,
}

impl QuietHours {
    /// True when `time` (local) falls inside the range (start inclusive, end exclusive).
    pub fn contains(&self, time: NaiveTime) -> bool {
        if self.start == self.end {
            false
        } else if self.start < self.end {
            time >= self.start && time < self.end
        } else {
            time >= self.start || time < self.end
        }
    }

    pub fn parse(text: &str) -> Result<Self, QuietHoursError> {
        let (start, end) = text
            .split_once('-')
            .ok_or_else(|| QuietHoursError::Shape(text.to_string()))?;
        let time = |part: &str| {
            NaiveTime::parse_from_str(part.trim(), "%H:%M").map_err(|_| QuietHoursError::Time {
                part: part.trim().to_string(),
                text: text.to_string(),
            })
        };
        Ok(Self {
            start: time(start)?,
            end: time(end)?,
        })
    }
}

/// Why a quiet-hours range could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuietHoursError {
    #[error("invalid quiet hours {0:?}: write them like \"22:00-08:00\"")]
    Shape(String),
    #[error("invalid time {part:?} in quiet hours {text:?}: use HH:MM")]
    Time { part: String, text: String },
}

impl fmt::Display for QuietHours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}",
            self.start.format("%H:%M"),
            self.end.format("%H:%M")
        )
    }
}

impl<'de> Deserialize<'de> for QuietHours {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        QuietHours::parse(&text).map_err(de::Error::custom)
    }
}

impl Serialize for QuietHours {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: u32, m: u32) -> NaiveTime {
        NaiveTime::from_hms_opt(h, m, 0).unwrap_or_default()
    }

    #[test]
    fn a_range_over_midnight_covers_late_evening_and_early_morning() {
        let quiet = QuietHours::parse("22:00-08:00").map_err(|e| e.to_string());
        let quiet = quiet.as_ref().ok();
        assert_eq!(quiet.map(|q| q.contains(at(23, 0))), Some(true));
        assert_eq!(quiet.map(|q| q.contains(at(7, 59))), Some(true));
        assert_eq!(quiet.map(|q| q.contains(at(8, 0))), Some(false));
        assert_eq!(quiet.map(|q| q.contains(at(12, 0))), Some(false));
    }

    #[test]
    fn malformed_ranges_are_refused_with_the_reason() {
        assert!(QuietHours::parse("22-08").is_err());
        assert!(QuietHours::parse("25:00-08:00").is_err());
        assert!(QuietHours::parse("").is_err());
    }
}
