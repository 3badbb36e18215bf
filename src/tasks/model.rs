//! The task record and the values it may hold.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::status::TaskStatus;

/// Life areas a task belongs to.
pub const DOMAINS: [&str; 3] = ["work", "personal", "family"];
pub const PRIORITY_RANGE: std::ops::RangeInclusive<i64> = 1..=5;
pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_DESCRIPTION_CHARS: usize = 4_000;

/// A task as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub domain: String,
    pub priority: i64,
    pub status: TaskStatus,
    pub estimated_duration_minutes: Option<i64>,
    pub deadline: Option<DateTime<Utc>>,
    pub scheduled_start: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub snoozed_until: Option<DateTime<Utc>>,
    pub reschedule_count: i64,
    pub nudge_count: i64,
    pub unanswered_nudges: i64,
    pub last_nudged_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Fields of a new task.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTask {
    pub title: String,
    pub description: Option<String>,
    pub domain: String,
    pub priority: i64,
    pub deadline: Option<DateTime<Utc>>,
    pub scheduled_start: Option<DateTime<Utc>>,
    pub estimated_duration_minutes: Option<i64>,
}

impl NewTask {
    /// A task with only a title: personal, priority 2, no times (the defaults the API uses).
    pub fn titled(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            description: None,
            domain: "personal".into(),
            priority: 2,
            deadline: None,
            scheduled_start: None,
            estimated_duration_minutes: None,
        }
    }
}

/// Why a task field was refused. The text is told to the person (or API caller) as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskFieldError {
    #[error("title must not be empty")]
    EmptyTitle,
    #[error("title must be at most {MAX_TITLE_CHARS} characters")]
    TitleTooLong,
    #[error("title must not contain control characters")]
    TitleControl,
    #[error("domain must be one of {list}", list = DOMAINS.join(", "))]
    Domain,
    #[error("priority must be between {} and {}", PRIORITY_RANGE.start(), PRIORITY_RANGE.end())]
    Priority,
}

/// Checks a title: trimmed, not empty, not too long.
pub fn clean_title(title: &str) -> Result<String, TaskFieldError> {
    let title = title.trim();
    if title.is_empty() {
        return Err(TaskFieldError::EmptyTitle);
    }
    if title.chars().count() > MAX_TITLE_CHARS {
        return Err(TaskFieldError::TitleTooLong);
    }
    if title.chars().any(|c| c.is_control()) {
        return Err(TaskFieldError::TitleControl);
    }
    Ok(title.to_string())
}

pub fn check_domain(domain: &str) -> Result<(), TaskFieldError> {
    if DOMAINS.contains(&domain) {
        Ok(())
    } else {
        Err(TaskFieldError::Domain)
    }
}

pub fn check_priority(priority: i64) -> Result<(), TaskFieldError> {
    if PRIORITY_RANGE.contains(&priority) {
        Ok(())
    } else {
        Err(TaskFieldError::Priority)
    }
}
