//! A time argument of a tool ("friday", "last week", "3 days ago", "2026-11-30T09:00:00Z"):
//! RFC 3339 as given; else words read in the past mode of Donna's time reader
//! (`tasks::when::find_past`), else in its future mode (`find_when`), in `timezone`. A
//! calendar looks ahead (`read_ahead`): the future mode first ("saturday" is the coming one),
//! then the past ("yesterday").
//! The model copies words; the arithmetic is Donna's (docs/contract.md "Free text", step 8).

use chrono::{DateTime, Utc};

use super::call::{ToolEnv, ToolError};
use crate::tasks::when::{find_past, find_when, WhenContext};

pub fn read(field: &str, text: &str, env: &ToolEnv) -> Result<DateTime<Utc>, ToolError> {
    read_in(field, text, env, false)
}

/// As [`read`], but the future first: what a calendar is asked about.
pub fn read_ahead(field: &str, text: &str, env: &ToolEnv) -> Result<DateTime<Utc>, ToolError> {
    read_in(field, text, env, true)
}

fn read_in(
    field: &str,
    text: &str,
    env: &ToolEnv,
    ahead: bool,
) -> Result<DateTime<Utc>, ToolError> {
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
    if ahead {
        if let Ok(Some(at)) = find_when(text, &ctx) {
            return Ok(at);
        }
    }
    if let Some(at) = find_past(text, &ctx).map_err(|e| unreadable(e.to_string()))? {
        return Ok(at);
    }
    match find_when(text, &ctx) {
        Ok(Some(at)) => Ok(at),
        Ok(None) => Err(unreadable("no time in it".into())),
        Err(error) => Err(unreadable(error.to_string())),
    }
}
