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

/// Why a task field was refused. The text is told to the person (or API caller) as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskFieldError {
    #[error("title must not be empty")]
    EmptyTitle,
    #[error("title must be at most {MAX_TITLE_CHARS} characters")]
    TitleTooLong,
    #[error("title must not contain control characters")]
    TitleControl,
    #[error("title must have at least one visible character (letters, digits, punctuation or symbols); this one is only spaces or invisible characters")]
    TitleInvisible,
    #[error("domain must be one of {list}", list = DOMAINS.join(", "))]
    Domain,
    #[error("priority must be between {} and {}", PRIORITY_RANGE.start(), PRIORITY_RANGE.end())]
    Priority,
}

/// Checks a title: trimmed, not empty, not too long, no control characters, and something a
/// person can see (not only zero-width spaces, joiners, bidi marks, combining marks without a
/// letter, or spaces of any kind).
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
    if !title.chars().any(is_visible) {
        return Err(TaskFieldError::TitleInvisible);
    }
    Ok(title.to_string())
}

/// Whether a character shows on its own: a letter, digit, punctuation mark or symbol (Unicode
/// general categories L, N, P, S), except the blank ones among them (the Hangul fillers and the
/// blank Braille pattern). Spaces, format characters (zero-width spaces and joiners, bidi
/// marks, the byte order mark), marks (which only decorate another character), private-use
/// and unassigned code points are not.
fn is_visible(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    const BLANK: [char; 5] = ['\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{2800}'];
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter
            | GeneralCategoryGroup::Number
            | GeneralCategoryGroup::Punctuation
            | GeneralCategoryGroup::Symbol
    ) && !BLANK.contains(&c)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_must_have_something_a_person_can_see() {
        // (title, accepted)
        let table = [
            ("Pay rent", true),
            ("🎉", true),
            ("!!!", true),
            ("日本語", true),
            ("e\u{301}", true),
            ("\u{200B}Pay rent", true),
            ("\u{200B}", false),
            ("\u{200B}\u{200C}\u{200D}", false),
            ("\u{2060}\u{FEFF}", false),
            (
                "\u{200E}\u{200F}\u{202A}\u{202E}\u{2066}\u{2069}\u{061C}",
                false,
            ),
            ("\u{301}\u{302}\u{20DD}", false),
            ("\u{00A0}\u{2003}\u{3000}\u{205F}", false),
            ("\u{00AD}\u{180E}", false),
            ("\u{3164}\u{115F}\u{2800}", false),
            ("\u{FE0F}\u{E0041}", false),
            ("\u{E000}", false),
        ];
        for (title, accepted) in table {
            let result = clean_title(title);
            assert_eq!(result.is_ok(), accepted, "{title:?}: {result:?}");
            if !accepted {
                assert!(
                    matches!(
                        result,
                        Err(TaskFieldError::TitleInvisible | TaskFieldError::EmptyTitle)
                    ),
                    "{title:?}: {result:?}"
                );
            }
        }
    }
}
