//! How tasks and times appear in tool results: compact JSON the model reads, times as RFC 3339
//! in the person's zone (so "today" in the answer is their today).

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use crate::tasks::Task;

pub fn time(at: Option<DateTime<Utc>>, timezone: chrono_tz::Tz) -> Value {
    at.map_or(Value::Null, |at| {
        Value::String(at.with_timezone(&timezone).to_rfc3339())
    })
}

/// A task as a tool shows it: what a person asks about, nothing internal.
pub fn task(task: &Task, timezone: chrono_tz::Tz) -> Value {
    json!({
        "id": task.id,
        "title": task.title,
        "status": task.status.as_str(),
        "domain": task.domain,
        "priority": task.priority,
        "deadline": time(task.deadline, timezone),
        "scheduled_start": time(task.scheduled_start, timezone),
        "completed_at": time(task.completed_at, timezone),
        "description": task.description,
        "tags": task.tags,
    })
}

/// When a task is "due" for the tools' time filters: its deadline, else its start; a done task
/// without either, when it was completed.
pub fn due_time(task: &Task) -> Option<DateTime<Utc>> {
    task.deadline.or(task.scheduled_start).or(task.completed_at)
}
