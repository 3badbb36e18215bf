//! `calendar_events` {day?, from?, to?, limit?}: the asker's own calendar events in a window,
//! soonest first, one compact line each in their zone (`line`): `day` (time words: the whole local day they fall on), else `from` / `to`
//! (time words or RFC 3339, read ahead: "saturday" is the coming one; `from` defaults to the start of today, `to` to a day after
//! `from`), at most [`MAX_WINDOW_DAYS`] days; no window at all is today.
//!
//! Invariants: read-only (the calendars Donna read, `calendar::book`); a person's events are
//! shown only to that person, in a chat that is theirs alone: only the asker's own calendars
//! are read, and in a group chat (or a chat Donna does not know, or with no asker) the answer
//! is empty and says why. A window that is backwards or too long is an error observation,
//! never cut.

use chrono::{DateTime, Duration, Utc};
use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::call::{ToolEnv, ToolError};
use super::{shown, time_arg};
use crate::calendar::CalendarEvent;
use crate::capture::questions::whole_day;
use crate::conversation::threads;

/// The longest window a call may ask for.
pub const MAX_WINDOW_DAYS: i64 = 31;
pub const DEFAULT_LIMIT: i64 = 20;
pub const MAX_LIMIT: i64 = 50;

/// Said instead of events where they may not be shown.
pub const NOT_HERE: &str =
    "calendar events are shown only to their person, in a chat that is theirs alone";

pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "day": {"type": "string", "minLength": 1, "maxLength": 100},
            "from": {"type": "string", "minLength": 1, "maxLength": 100},
            "to": {"type": "string", "minLength": 1, "maxLength": 100},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        },
        "additionalProperties": false,
    })
}

/// The window the arguments ask for, checked.
pub fn window(
    args: &Map<String, Value>,
    env: &ToolEnv,
) -> Result<(DateTime<Utc>, DateTime<Utc>), ToolError> {
    let text = |field: &str| args.get(field).and_then(Value::as_str);
    let read = |field: &'static str| {
        text(field)
            .map(|words| time_arg::read_ahead(field, words, env))
            .transpose()
    };
    if let Some(day) = read("day")? {
        if text("from").is_some() || text("to").is_some() {
            return Err(ToolError::InvalidArgs(
                "give either day, or from / to, not both".into(),
            ));
        }
        return Ok(whole_day(day, env.timezone));
    }
    let from = read("from")?.unwrap_or_else(|| whole_day(env.now, env.timezone).0);
    let to = read("to")?.unwrap_or(from + Duration::days(1));
    if to <= from {
        return Err(ToolError::InvalidArgs("to must be after from".into()));
    }
    if to - from > Duration::days(MAX_WINDOW_DAYS) {
        return Err(ToolError::InvalidArgs(format!(
            "the window is at most {MAX_WINDOW_DAYS} days"
        )));
    }
    Ok((from, to))
}

/// Whether the asker's calendar may be shown where they ask: a chat Donna knows that is not a
/// group.
fn private_here(conn: &Connection, env: &ToolEnv) -> Result<Option<String>, ToolError> {
    let Some(viewer) = &env.viewer else {
        return Ok(None);
    };
    let chat = threads::get(conn, &viewer.here)?;
    Ok(chat
        .filter(|chat| !chat.is_group)
        .map(|_| viewer.person.clone()))
}

pub fn run(
    conn: &Connection,
    args: &Map<String, Value>,
    env: &ToolEnv,
) -> Result<Value, ToolError> {
    let (from, to) = window(args, env)?;
    let shown_window = json!({
        "from": shown::time(Some(from), env.timezone),
        "to": shown::time(Some(to), env.timezone),
    });
    let Some(person) = private_here(conn, env)? else {
        return Ok(json!({"window": shown_window, "count": 0, "events": [], "note": NOT_HERE}));
    };
    let events = env
        .calendars
        .as_ref()
        .map(|book| book.events_of(&person, from, to))
        .unwrap_or_default();
    let limit = args
        .get("limit")
        .and_then(Value::as_i64)
        .unwrap_or(DEFAULT_LIMIT);
    let listed: Vec<String> = events
        .iter()
        .take(usize::try_from(limit).unwrap_or(0))
        .map(|event| line(event, env.timezone))
        .collect();
    Ok(json!({"window": shown_window, "count": events.len(), "events": listed}))
}

/// One event as the model reads it, compact, in the person's zone: "Tue 24 Nov 14:00-15:00
/// Dentist", "Fri 27 Nov - Sat 28 Nov (all day) Lisbon trip", "(free)" when it leaves the
/// time free.
pub fn line(event: &CalendarEvent, zone: chrono_tz::Tz) -> String {
    let (start, end) = (
        event.start.with_timezone(&zone),
        event.end.with_timezone(&zone),
    );
    let day = |at: &DateTime<chrono_tz::Tz>| at.format("%a %-d %b").to_string();
    let when = if event.all_day {
        let last = event.end - Duration::days(1);
        let last = last.with_timezone(&zone);
        if last.date_naive() > start.date_naive() {
            format!("{} - {} (all day)", day(&start), day(&last))
        } else {
            format!("{} (all day)", day(&start))
        }
    } else if end.date_naive() == start.date_naive() {
        format!(
            "{} {}-{}",
            day(&start),
            start.format("%H:%M"),
            end.format("%H:%M")
        )
    } else {
        format!(
            "{} {} - {} {}",
            day(&start),
            start.format("%H:%M"),
            day(&end),
            end.format("%H:%M")
        )
    };
    let free = if event.busy { "" } else { " (free)" };
    format!("{when} {}{free}", event.title)
}
