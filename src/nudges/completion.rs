//! The completion check-in: a task with a scheduled start and an estimated duration
//! that is still open once both have passed gets one "Did you finish 'X'?" nudge
//! (`context_type: completion`), once per scheduled time: a reschedule gives it a new start,
//! and so a new check-in. A reply works like any nudge reply ("done", "not yet", "later").
//!
//! Pure: the sent check-in is remembered as the start it was for (`tasks::nudge_marks`),
//! recorded with the nudge (`nudges`).

use chrono::{DateTime, Utc};

use crate::tasks::nudge_marks::NudgeMarks;
use crate::tasks::Task;

/// Whether `task` is due for its completion check-in at `now`.
pub fn is_due(task: &Task, marks: &NudgeMarks, now: DateTime<Utc>) -> bool {
    let (Some(start), Some(minutes)) = (task.scheduled_start, task.estimated_duration_minutes)
    else {
        return false;
    };
    if !task.status.is_open() || task.snoozed_until.is_some_and(|until| until > now) {
        return false;
    }
    // A stored estimate is data: an out-of-range one (a database written before the import
    // checked it) means no check-in, never a panic of the whole tick.
    let Some(end) = chrono::Duration::try_minutes(minutes.max(0))
        .and_then(|length| start.checked_add_signed(length))
    else {
        return false;
    };
    end <= now && marks.completion_for != Some(start)
}
