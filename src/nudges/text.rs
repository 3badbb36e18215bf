//! What a nudge says: the question about one task ("'Pay rent' is overdue (due today at
//! 09:00). Done?"), and the context a nudge has when none is given (the message listing
//! several tasks is `round::group_text`).
//!
//! Pure but for reading the zone of the person who captured the task (`created_by`), in which
//! the task's times are said; else the config's (`NudgeTime`).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rusqlite::Connection;

use crate::conversation::ContextType;
use crate::people;
use crate::store::StoreError;
use crate::tasks::when::{describe, WhenContext};
use crate::tasks::Task;

/// When a nudge is sent, and the zone its times are shown in for a task whose creator set
/// none (the config's `timezone`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NudgeTime {
    pub now: DateTime<Utc>,
    pub default_zone: Tz,
}

impl NudgeTime {
    pub fn new(now: DateTime<Utc>, default_zone: Tz) -> Self {
        Self { now, default_zone }
    }
}

/// Donna's nudge about a task: the question that opens (or continues) its thread, with the
/// task's time said in `zone` ("'Pay rent' is overdue (due today at 09:00). Done?").
pub fn nudge_text(task: &Task, context: ContextType, zone: Tz, now: DateTime<Utc>) -> String {
    let title = &task.title;
    let when = |at: DateTime<Utc>| {
        describe(
            at,
            &WhenContext {
                now,
                timezone: zone,
                current_start: None,
                later: std::time::Duration::ZERO,
            },
        )
    };
    match context {
        ContextType::Overdue => match task.deadline {
            Some(deadline) => format!("'{title}' is overdue (due {}). Done?", when(deadline)),
            None => format!("'{title}' is overdue. Done?"),
        },
        ContextType::CheckIn => {
            let at = task
                .scheduled_start
                .map(|at| format!(" ({})", when(at)))
                .unwrap_or_default();
            format!("Time for '{title}'{at}. How is it going: done, later, or busy?")
        }
        ContextType::Completion => format!("Did you finish '{title}'?"),
    }
}

/// The nudge about `task`, its times in the zone of the person who captured it (`created_by`),
/// else `at.default_zone`.
pub fn text_for(
    conn: &Connection,
    task: &Task,
    context: ContextType,
    at: NudgeTime,
) -> Result<String, StoreError> {
    let zone = people::zone_of(conn, task.created_by.as_deref(), at.default_zone)?;
    Ok(nudge_text(task, context, zone, at.now))
}

/// The context a nudge has when none is given: overdue past the deadline, else a check-in.
pub fn default_context(task: &Task, now: DateTime<Utc>) -> ContextType {
    match task.deadline {
        Some(deadline) if deadline <= now => ContextType::Overdue,
        _ => ContextType::CheckIn,
    }
}
