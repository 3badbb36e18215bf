//! A capture as one validated `create_task` action: what the person asked for (title, times,
//! the fields they or the model gave), the learned preferences for the fields they did not
//! give, where it came from and which chat it belongs to.
//!
//! Invariant: built only from checked values (a cleaned title, a known domain, a priority in
//! range, times already read by Donna's parser), so the handler runs it as it is; the model's
//! own `create_task` (from the reply actions) never gets here and cannot set `source` or the
//! origin chat.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde_json::{json, Map, Value};

use crate::actions::{BoundAction, HandlerKind, TimeReading};
use crate::tasks::model::{check_domain, check_priority, clean_title, TaskFieldError};
use crate::tasks::{AppliedPreference, TaskSource};

/// What the person asked to have remembered.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Capture {
    pub title: String,
    pub description: Option<String>,
    /// Given by the person (or the model reading their words); None: default or learned.
    pub domain: Option<String>,
    pub priority: Option<i64>,
    pub deadline: Option<DateTime<Utc>>,
    pub scheduled_start: Option<DateTime<Utc>>,
    pub estimated_minutes: Option<i64>,
    pub tags: Vec<String>,
    /// The person named the moment itself (a clock time, "in 2 hours": `tasks::explicit`):
    /// its nudge fires at that time even in quiet hours.
    pub explicit_time: bool,
}

impl Capture {
    /// Checks every field (the title cleaned, the domain and priority known).
    pub fn checked(mut self) -> Result<Self, TaskFieldError> {
        self.title = clean_title(&self.title)?;
        if let Some(domain) = &self.domain {
            check_domain(domain)?;
        }
        if let Some(priority) = self.priority {
            check_priority(priority)?;
        }
        Ok(self)
    }

    /// The fields a learned preference may fill: the ones the person did not give.
    pub fn open_fields(&self) -> Vec<&'static str> {
        let mut fields = Vec::new();
        if self.domain.is_none() {
            fields.push("domain");
        }
        if self.priority.is_none() {
            fields.push("priority");
        }
        fields
    }

    /// The `create_task` action for this capture, with `preferences` applied to the fields the
    /// person did not give.
    pub fn action(
        &self,
        source: TaskSource,
        origin_thread_id: Option<&str>,
        preferences: &[AppliedPreference],
        timezone: Tz,
    ) -> BoundAction {
        let learned = |field: &str| {
            preferences
                .iter()
                .find(|preference| preference.field == field)
                .map(|preference| preference.value.clone())
        };
        let domain = self
            .domain
            .clone()
            .or_else(|| learned("domain"))
            .unwrap_or_else(|| "personal".into());
        let priority = self
            .priority
            .or_else(|| learned("priority").and_then(|value| value.parse().ok()))
            .unwrap_or(2);
        let mut params = Map::new();
        params.insert("title".into(), json!(self.title));
        params.insert("domain".into(), json!(domain));
        params.insert("priority".into(), json!(priority));
        params.insert("source".into(), json!(source.as_str()));
        if let Some(description) = &self.description {
            params.insert("description".into(), json!(description));
        }
        if let Some(minutes) = self.estimated_minutes {
            params.insert("estimated_minutes".into(), json!(minutes));
        }
        if !self.tags.is_empty() {
            params.insert("tags".into(), json!(self.tags));
        }
        if let Some(origin) = origin_thread_id {
            params.insert("origin_thread_id".into(), json!(origin));
        }
        if self.explicit_time && (self.deadline.is_some() || self.scheduled_start.is_some()) {
            params.insert("explicit_time".into(), json!(true));
        }
        if !preferences.is_empty() {
            params.insert(
                "applied_preferences".into(),
                serde_json::to_value(preferences).unwrap_or(Value::Null),
            );
        }
        let mut times = BTreeMap::new();
        for (name, at) in [
            ("deadline", self.deadline),
            ("scheduled_start", self.scheduled_start),
        ] {
            if let Some(at) = at {
                params.insert(name.into(), json!(at.with_timezone(&timezone).to_rfc3339()));
                times.insert(name.to_string(), TimeReading::At(at));
            }
        }
        BoundAction {
            name: "create_task".into(),
            handler: HandlerKind::CreateTask,
            params,
            times,
        }
    }
}
