//! A time argument of a tool ("friday", "last week", "3 days ago", "2026-11-30T09:00:00Z"):
//! RFC 3339 as given; else words read in the past mode of Donna's time reader
//! (`tasks::when::find_past`), else in its future mode (`find_when`), in `timezone`.
//! The model copies words; the arithmetic is Donna's (docs/contract.md "Free text", step 8).

use chrono::{DateTime, Utc};

use super::call::{ToolEnv, ToolError};
use crate::tasks::when::{find_past, find_when, WhenContext};

pub fn read(field: &str, text: &str, env: &ToolEnv) -> Result<DateTime<Utc>, ToolError> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text.trim()) {
        return Ok(at.with_timezone(&Utc));
    }
    let ctx = WhenContext {
        now: env.now,
        timezone: env.timezone,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    };
    let unreadable = |reason: String| {
        ToolError::BadTime(format!(
            "{field}: cannot read {text:?} as a time ({reason})"
        ))
    };
    if let Some(at) = find_past(text, &ctx).map_err(|e| unreadable(e.to_string()))? {
        return Ok(at);
    }
    match find_when(text, &ctx) {
        Ok(Some(at)) => Ok(at),
        Ok(None) => Err(unreadable("no time in it".into())),
        Err(error) => Err(unreadable(error.to_string())),
    }
}
