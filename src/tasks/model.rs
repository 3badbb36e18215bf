//! The task record (the values it may hold are checked in `fields`, re-exported here).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::status::TaskStatus;

pub use super::fields::{
    check_description, check_domain, check_estimate, check_priority, check_tags, clean_title,
    TaskFieldError, DOMAINS, ESTIMATE_MINUTES, MAX_COUNT, MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS,
    PRIORITY_RANGE,
};

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
    /// Where the task came from.
    #[serde(default)]
    pub source: TaskSource,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Learned preferences applied when it was captured.
    #[serde(default)]
    pub applied_preferences: Vec<AppliedPreference>,
    /// The chat it was captured in: its nudges go there.
    #[serde(default)]
    pub origin_thread_id: Option<String>,
    /// The automation whose occurrence made it, and that occurrence.
    #[serde(default)]
    pub automation_id: Option<String>,
    #[serde(default)]
    pub occurrence_at: Option<DateTime<Utc>>,
    /// Who captured it (the id they write with): its nudges show times in their zone. None for
    /// a task from `POST /api/tasks`.
    #[serde(default)]
    pub created_by: Option<String>,
}

impl Task {
    /// Open, and its deadline has passed at `now` (what "what's overdue?" lists).
    pub fn is_overdue(&self, now: DateTime<Utc>) -> bool {
        self.status.is_open() && self.deadline.is_some_and(|at| at <= now)
    }

    /// Whether the two are the same task as the person sees it: title, description, domain,
    /// priority, status, times, estimate and tags (not Donna's bookkeeping: nudge counts,
    /// snoozes, `updated_at`). "undo" refuses when a task is no longer as the action left it.
    pub fn looks_the_same_as(&self, other: &Task) -> bool {
        let shown = |task: &Task| {
            (
                task.title.clone(),
                task.description.clone(),
                task.domain.clone(),
                task.priority,
                task.status,
                task.estimated_duration_minutes,
                task.deadline,
                task.scheduled_start,
                task.tags.clone(),
            )
        };
        self.id == other.id && shown(self) == shown(other)
    }
}

/// Where a task came from (docs/contract.md, "Free text").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskSource {
    /// `POST /api/tasks`.
    #[default]
    Api,
    /// A capture: the rules, the model's `parse_task`, the console's `add`.
    Capture,
    /// A model-proposed `create_task` (in chat or a nudge thread).
    Chat,
    /// An automation's occurrence.
    Automation,
}

impl TaskSource {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSource::Api => "api",
            TaskSource::Capture => "capture",
            TaskSource::Chat => "chat",
            TaskSource::Automation => "automation",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "api" => Some(TaskSource::Api),
            "capture" => Some(TaskSource::Capture),
            "chat" => Some(TaskSource::Chat),
            "automation" => Some(TaskSource::Automation),
            _ => None,
        }
    }
}

/// A learned preference applied to a captured task: which field got which value, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppliedPreference {
    pub field: String,
    pub value: String,
    /// For the person: "filed under work, like 'Send report'".
    pub reason: String,
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
    pub source: TaskSource,
    pub tags: Vec<String>,
    pub applied_preferences: Vec<AppliedPreference>,
    pub origin_thread_id: Option<String>,
    pub automation_id: Option<String>,
    pub occurrence_at: Option<DateTime<Utc>>,
    pub created_by: Option<String>,
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
            source: TaskSource::Api,
            tags: Vec::new(),
            applied_preferences: Vec::new(),
            origin_thread_id: None,
            automation_id: None,
            occurrence_at: None,
            created_by: None,
        }
    }
}
