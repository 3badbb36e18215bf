//! The records of an export file beside its tasks: automations, learned preferences, people
//! and chats, as stored, with the fields added within `version` 1 (`people[].quiet_hours` and `working_hours`,
//! `automations[].time_stated` and `repeat_from`) defaulting as a file from before them reads.
//! Each converts from the stored value, and back (`automation`, `person`, `thread`) with the
//! field that cannot be stored named; `document::read` checks them as every door does.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::automations::repo::AutomationKind;
use crate::automations::{stated, Automation, RepeatFrom, Schedule};
use crate::config::{QuietHours, WorkingHours};
use crate::conversation::{Channel, Thread};
use crate::people::Person;

/// An automation as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutomationRecord {
    pub id: String,
    /// `reminder` (a task each time) or `digest` (the agenda each time).
    #[serde(default = "reminder")]
    pub kind: String,
    /// Whose agenda a digest shows.
    #[serde(default)]
    pub for_user_id: Option<String>,
    pub title: String,
    pub schedule_words: String,
    pub rrule: String,
    pub dtstart: DateTime<Utc>,
    pub timezone: String,
    pub origin_thread_id: Option<String>,
    pub domain: String,
    pub priority: i64,
    pub last_occurrence_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    #[serde(default)]
    pub created_by: Option<String>,
    #[serde(default)]
    pub stopped_at: Option<DateTime<Utc>>,
    /// Whether the person stated its time of day (it fires then even in quiet hours). Absent
    /// in a file from before the field: read from `schedule_words` as migration 0023 reads
    /// stored rows (`automations::stated::from_words`).
    #[serde(default)]
    pub time_stated: Option<bool>,
    /// `schedule` (the default) or `completion` (`automations::completion`).
    #[serde(default = "from_schedule")]
    pub repeat_from: String,
}

/// A learned preference: `value` for `field` of titles like `title_key`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreferenceRecord {
    pub title_key: String,
    pub field: String,
    pub value: String,
    pub learned_from_task_id: Option<String>,
    pub learned_at: DateTime<Utc>,
}

/// A person's own settings (null: the config's default).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonRecord {
    pub user_id: String,
    pub timezone: Option<String>,
    /// "23:00-07:00", read in the person's zone.
    #[serde(default)]
    pub quiet_hours: Option<String>,
    /// "09:00-18:00", read in the person's zone.
    #[serde(default)]
    pub working_hours: Option<String>,
    pub updated_at: DateTime<Utc>,
}

/// A chat a task or an automation was captured in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadRecord {
    pub id: String,
    pub channel: Channel,
    pub chat_id: String,
    pub is_group: bool,
    pub open: bool,
    pub created_at: DateTime<Utc>,
}

impl From<&Automation> for AutomationRecord {
    fn from(automation: &Automation) -> Self {
        Self {
            id: automation.id.clone(),
            kind: automation.kind.as_str().to_string(),
            for_user_id: automation.for_user_id.clone(),
            title: automation.title.clone(),
            schedule_words: automation.schedule.words.clone(),
            rrule: automation.schedule.rrule.clone(),
            dtstart: automation.schedule.dtstart,
            timezone: automation.schedule.timezone.name().to_string(),
            origin_thread_id: automation.origin_thread_id.clone(),
            domain: automation.domain.clone(),
            priority: automation.priority,
            last_occurrence_at: automation.last_occurrence_at,
            created_at: automation.created_at,
            created_by: automation.created_by.clone(),
            stopped_at: automation.stopped_at,
            time_stated: Some(automation.time_stated),
            repeat_from: automation.repeat_from.as_str().to_string(),
        }
    }
}

impl AutomationRecord {
    /// The automation, or the field that cannot be stored and why. Its values are checked
    /// here (the zone, the kind, where it repeats from), its rule by `check`.
    pub fn automation(&self) -> Result<Automation, (&'static str, String)> {
        let kind = AutomationKind::parse(&self.kind)
            .ok_or_else(|| ("kind", format!("{:?} is not reminder or digest", self.kind)))?;
        let repeat_from = RepeatFrom::parse(&self.repeat_from).ok_or_else(|| {
            (
                "repeat_from",
                format!("{:?} is not schedule or completion", self.repeat_from),
            )
        })?;
        Ok(Automation {
            id: self.id.clone(),
            kind,
            for_user_id: self.for_user_id.clone(),
            title: self.title.clone(),
            schedule: Schedule {
                rrule: self.rrule.clone(),
                dtstart: self.dtstart,
                timezone: zone(&self.timezone).map_err(|reason| ("timezone", reason))?,
                words: self.schedule_words.clone(),
            },
            origin_thread_id: self.origin_thread_id.clone(),
            domain: self.domain.clone(),
            priority: self.priority,
            last_occurrence_at: self.last_occurrence_at,
            created_at: self.created_at,
            created_by: self.created_by.clone(),
            stopped_at: self.stopped_at,
            time_stated: self
                .time_stated
                .unwrap_or_else(|| stated::from_words(kind, &self.schedule_words)),
            repeat_from,
        })
    }
}

impl From<&Person> for PersonRecord {
    fn from(person: &Person) -> Self {
        Self {
            user_id: person.user_id.clone(),
            timezone: person.timezone.map(|zone| zone.name().to_string()),
            quiet_hours: person.quiet_hours.map(|hours| hours.to_string()),
            working_hours: person.working_hours.map(|hours| hours.to_string()),
            updated_at: person.updated_at,
        }
    }
}

impl PersonRecord {
    /// The person, or the field that cannot be stored and why.
    pub fn person(&self) -> Result<Person, (&'static str, String)> {
        Ok(Person {
            user_id: self.user_id.clone(),
            timezone: self
                .timezone
                .as_deref()
                .map(zone)
                .transpose()
                .map_err(|reason| ("timezone", reason))?,
            quiet_hours: self
                .quiet_hours
                .as_deref()
                .map(QuietHours::parse)
                .transpose()
                .map_err(|error| ("quiet_hours", error.to_string()))?,
            working_hours: self
                .working_hours
                .as_deref()
                .map(WorkingHours::parse)
                .transpose()
                .map_err(|error| ("working_hours", error))?,
            updated_at: self.updated_at,
        })
    }
}

impl From<&Thread> for ThreadRecord {
    fn from(thread: &Thread) -> Self {
        Self {
            id: thread.id.clone(),
            channel: thread.channel,
            chat_id: thread.chat_id.clone(),
            is_group: thread.is_group,
            open: thread.open,
            created_at: thread.created_at,
        }
    }
}

impl ThreadRecord {
    pub fn thread(&self) -> Thread {
        Thread {
            id: self.id.clone(),
            task_id: None,
            channel: self.channel,
            chat_id: self.chat_id.clone(),
            is_group: self.is_group,
            context_type: None,
            open: self.open,
            created_at: self.created_at,
        }
    }
}

fn reminder() -> String {
    AutomationKind::Reminder.as_str().to_string()
}

fn from_schedule() -> String {
    RepeatFrom::Schedule.as_str().to_string()
}

fn zone(name: &str) -> Result<Tz, String> {
    Tz::from_str(name).map_err(|_| format!("{name:?} is not an IANA time zone"))
}
