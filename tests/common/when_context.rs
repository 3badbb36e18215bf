//! The "now" of a time table, as its lines write it: "Fri 2026-03-27 10:00" local wall time
//! with its weekday, in Europe/Berlin unless a zone follows ("... 10:00 America/New_York"),
//! and ", task at <local time>" for the task's current start. A weekday that does not match
//! its date, or a time that is not one instant, stops the test at the table's line.

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use donna::tasks::when::WhenContext;

/// A local time written "Fri 2026-03-27 10:00" (the weekday checked against the date).
pub fn parse_local(written: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(written.trim(), "%a %Y-%m-%d %H:%M")
        .unwrap_or_else(|e| panic!("bad local time {written:?} in the table: {e}"))
}

/// The instant a local time written as in the tables stands for in `tz`.
pub fn to_utc(tz: Tz, written: &str) -> DateTime<Utc> {
    tz.from_local_datetime(&parse_local(written))
        .single()
        .unwrap_or_else(|| panic!("{written:?} is not a single instant in {tz}"))
        .with_timezone(&Utc)
}

/// The reading context of "Fri 2026-03-27 10:00[ Zone/Name][, task at Fri 2026-03-27 07:30]",
/// with "later" meaning three hours.
pub fn when_context(now: &str) -> WhenContext {
    let (now, task) = match now.split_once(", task at ") {
        Some((now, task)) => (now, Some(task)),
        None => (now, None),
    };
    let fields: Vec<&str> = now.split_whitespace().collect();
    let timezone: Tz = match fields.get(3) {
        Some(name) => name
            .parse()
            .unwrap_or_else(|e| panic!("bad zone {name:?}: {e}")),
        None => chrono_tz::Europe::Berlin,
    };
    let Some(date_and_time) = fields.get(..3) else {
        panic!("{now:?} is not written \"Fri 2026-03-27 10:00\"");
    };
    WhenContext {
        now: to_utc(timezone, &date_and_time.join(" ")),
        timezone,
        current_start: task.map(|t| to_utc(timezone, t)),
        later: std::time::Duration::from_secs(3 * 3600),
    }
}
