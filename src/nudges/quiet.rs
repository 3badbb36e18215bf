//! Quiet hours (the person's own, else `nudges.quiet_hours`; local times in the person's own
//! zone, else `timezone`: `people::day`): no nudge is sent inside them,
//! except at a time the person gave explicitly ("remind me at 23:00 to take the pill"): that
//! nudge fires at its time. The others are held and go out when the quiet hours end, one
//! message per chat (`grouped`).
//!
//! An explicit time fires in quiet hours only once, and only if it fell in the current quiet
//! period: it is the task's start or deadline (`tasks::nudge_marks`), it has come, it came after
//! this quiet period began (an overdue deadline from the afternoon waits for the morning), and
//! the task was not nudged since. A repeat nudge (the backoff) or a completion check-in waits.

use chrono::{DateTime, Duration, TimeZone, Utc};

use crate::conversation::ContextType;
use crate::people::OwnDay;
use crate::tasks::nudge_marks::NudgeMarks;
use crate::tasks::Task;

/// When the quiet period of `day` that `now` is in began (UTC), or None when `now` is not quiet.
pub fn quiet_since(now: DateTime<Utc>, day: OwnDay) -> Option<DateTime<Utc>> {
    let (quiet, timezone) = (day.quiet_hours, day.zone);
    let local = now.with_timezone(&timezone);
    if !quiet.contains(local.time()) {
        return None;
    }
    // A period that wraps midnight began yesterday when it is now before its end.
    let mut day = local.date_naive();
    if quiet.start > quiet.end && local.time() < quiet.end {
        day = day.pred_opt()?;
    }
    let began = timezone
        .from_local_datetime(&day.and_time(quiet.start))
        .earliest()
        // A start inside a DST gap: at most a day back is the period's start.
        .map_or(now - Duration::hours(24), |began| began.with_timezone(&Utc));
    Some(began)
}

/// Whether a nudge of `context` about `task` fires at `now`, inside the quiet period that
/// began at `since`.
pub fn fires_in_quiet_hours(
    task: &Task,
    marks: &NudgeMarks,
    context: ContextType,
    since: DateTime<Utc>,
    now: DateTime<Utc>,
) -> bool {
    if context == ContextType::Completion {
        return false;
    }
    let Some(at) = marks.explicit_at else {
        return false;
    };
    let its_time = task.scheduled_start == Some(at) || task.deadline == Some(at);
    its_time && since <= at && at <= now && task.last_nudged_at.is_none_or(|last| last < at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, day, hour, minute, 0)
            .single()
            .unwrap_or_default()
    }

    fn day(quiet: &str, zone: chrono_tz::Tz) -> OwnDay {
        OwnDay {
            zone,
            quiet_hours: crate::config::QuietHours::parse(quiet).unwrap_or_else(|e| panic!("{e}")),
        }
    }

    #[test]
    fn the_quiet_period_began_at_its_start_tonight_or_last_night() {
        let quiet = day("22:00-08:00", chrono_tz::UTC);
        assert_eq!(quiet_since(utc(23, 21, 59), quiet), None);
        assert_eq!(quiet_since(utc(23, 23, 0), quiet), Some(utc(23, 22, 0)));
        assert_eq!(quiet_since(utc(24, 3, 0), quiet), Some(utc(23, 22, 0)));
        assert_eq!(quiet_since(utc(24, 8, 0), quiet), None);
        let lunch = day("13:00-14:00", chrono_tz::UTC);
        assert_eq!(quiet_since(utc(24, 13, 30), lunch), Some(utc(24, 13, 0)));
        // Berlin is UTC+1 in November: 22:00 local is 21:00 UTC.
        let berlin = day("22:00-08:00", chrono_tz::Europe::Berlin);
        assert_eq!(quiet_since(utc(23, 23, 0), berlin), Some(utc(23, 21, 0)));
    }
}
