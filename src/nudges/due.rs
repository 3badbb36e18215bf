//! Which tasks are due for a nudge at a tick, and which nudge each gets.
//!
//! Rules: a task is nudged when its deadline has passed (overdue) or its scheduled start has
//! passed (check-in); not when it is done or cancelled, snoozed, rescheduled to a later time, or
//! nudged too recently. The gap starts at `nudges.min_gap` and doubles with each unanswered
//! nudge, up to 24 hours; any answer in the thread resets it. A task whose scheduled start and
//! estimated duration have both passed gets the completion check-in instead, once per scheduled
//! time (`completion`). Inside the quiet hours of the person a nudge is for (the task's creator:
//! theirs, else `nudges.quiet_hours`, read in their zone, else `timezone`: `people::day`) only a
//! time the person gave explicitly fires (`quiet`); the rest wait for the quiet hours to end.
//!
//! Pure rules over a read connection: the caller records the nudges in the same unit of work.
//! Each task is judged on its own (`store::isolated`): one that cannot be read is skipped and
//! reported, never the end of the tick for everyone.

use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::{completion, quiet};
use crate::config::QuietHours;
use crate::conversation::ContextType;
use crate::nudges::default_context;
use crate::people::{Days, OwnDay};
use crate::skipped_rows::{Runner, SkippedRows};
use crate::store::{isolated, StoreError};
use crate::tasks::{nudge_marks, repo, Task};

/// Longest gap between nudges of one task, however many went unanswered.
pub const MAX_GAP: Duration = Duration::from_secs(24 * 3600);

/// What decides whether a task is due.
#[derive(Debug, Clone, Copy)]
pub struct DueRules {
    pub min_gap: Duration,
    /// The config's `nudges.quiet_hours` and `timezone`: the day of a person who set neither.
    pub quiet_hours: QuietHours,
    pub timezone: chrono_tz::Tz,
}

/// A task due for a nudge, and the nudge it gets.
#[derive(Debug, Clone)]
pub struct DueNudge {
    pub task: Task,
    pub context: ContextType,
}

/// The gap required after `unanswered` unanswered nudges.
pub fn gap(min_gap: Duration, unanswered: i64) -> Duration {
    let doublings = u32::try_from(unanswered.saturating_sub(1).max(0))
        .unwrap_or(u32::MAX)
        .min(16);
    min_gap.saturating_mul(1u32 << doublings).min(MAX_GAP)
}

/// Whether `task` is due for an overdue or check-in nudge at `now`.
pub fn is_due(task: &Task, now: DateTime<Utc>, min_gap: Duration) -> bool {
    if !task.status.is_open() {
        return false;
    }
    if task.snoozed_until.is_some_and(|until| until > now) {
        return false;
    }
    // Rescheduled to a later time: wait for it.
    if task.scheduled_start.is_some_and(|start| start > now) {
        return false;
    }
    let overdue = task.deadline.is_some_and(|deadline| deadline <= now);
    let started = task.scheduled_start.is_some_and(|start| start <= now);
    if !overdue && !started {
        return false;
    }
    match task.last_nudged_at {
        None => true,
        Some(last) => {
            let required = chrono::Duration::from_std(gap(min_gap, task.unanswered_nudges))
                .unwrap_or(chrono::Duration::MAX);
            now - last >= required
        }
    }
}

/// The nudges due at `now`, most overdue first: the completion check-in where it is due, else
/// an overdue or check-in nudge; in the quiet hours of the person a nudge is for (the task's
/// creator), read in their zone, only the explicit times that have come. A task that cannot be
/// read or judged is reported to `skipped` and left out; the others go on.
pub fn due_nudges(
    conn: &Connection,
    now: DateTime<Utc>,
    rules: &DueRules,
    skipped: &SkippedRows,
) -> Result<Vec<DueNudge>, StoreError> {
    let mut days = Days::new(OwnDay {
        zone: rules.timezone,
        quiet_hours: rules.quiet_hours,
    });
    let mut due = Vec::new();
    for id in repo::nudge_candidate_ids(conn, now)? {
        match isolated(conn, |conn| judge(conn, &id, now, rules, &mut days))? {
            Ok(Some(nudge)) => due.push(nudge),
            Ok(None) => {}
            Err(why) => skipped.report(Runner::Nudger, &id, &why),
        }
    }
    Ok(due)
}

/// The nudge task `id` is due for at `now`, if any; `days` are the people's days read so far.
fn judge(
    conn: &Connection,
    id: &str,
    now: DateTime<Utc>,
    rules: &DueRules,
    days: &mut Days,
) -> Result<Option<DueNudge>, StoreError> {
    let Some(task) = repo::get(conn, id)? else {
        return Ok(None);
    };
    let marks = nudge_marks::get(conn, id)?;
    let context = if completion::is_due(&task, &marks, now) {
        ContextType::Completion
    } else if is_due(&task, now, rules.min_gap) {
        default_context(&task, now)
    } else {
        return Ok(None);
    };
    let day = days.of(conn, task.created_by.as_deref())?;
    if let Some(since) = quiet::quiet_since(now, day) {
        if !quiet::fires_in_quiet_hours(&task, &marks, context, since, now) {
            return Ok(None);
        }
    }
    Ok(Some(DueNudge { task, context }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gap_doubles_with_each_unanswered_nudge_up_to_a_day() {
        let hour = Duration::from_secs(3600);
        let gaps: Vec<u64> = (0..=6).map(|n| gap(4 * hour, n).as_secs() / 3600).collect();
        assert_eq!(gaps, vec![4, 4, 8, 16, 24, 24, 24]);
    }
}
