//! The details of a new task a `create_task` action carries (a capture's or the model's):
//! its description, estimate and tags, read from the action's parameters and checked by the
//! same functions every door that stores a task calls (`tasks::fields`), so a chat's task holds
//! what `POST /api/tasks` and `donna import` would take.

use serde_json::{Map, Value};

use crate::tasks::fields::{check_description, check_estimate, check_tags, TaskFieldError};

fn text<'a>(params: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    params.get(name).and_then(Value::as_str)
}

/// A new task's description, estimate and tags, checked as every door that stores a task
/// checks them (`tasks::fields`).
pub struct Details {
    pub description: Option<String>,
    pub estimated_duration_minutes: Option<i64>,
    pub tags: Vec<String>,
}

pub fn details(params: &Map<String, Value>) -> Result<Details, TaskFieldError> {
    let tags: Vec<String> = params
        .get("tags")
        .and_then(Value::as_array)
        .map(|tags| {
            tags.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Ok(Details {
        description: check_description(text(params, "description"))?,
        estimated_duration_minutes: check_estimate(
            params.get("estimated_minutes").and_then(Value::as_i64),
        )?,
        tags: check_tags(&tags)?,
    })
}
