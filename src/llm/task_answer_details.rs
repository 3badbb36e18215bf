//! The optional details of a task as the model read it: `parse_task`'s answer and `route`'s
//! capture answer carry the same ones (`description`, `domain`, `priority`,
//! `estimated_minutes`, `tags`), read here once for both, with the bounds of the functions
//! every door that stores a task calls (`tasks::fields`): a model's detail holds only what
//! `POST /api/tasks` would take.
//!
//! Invariants: a detail that fails its check, or has the wrong type, is never kept: it is
//! refused with the reason, and the caller decides what a refusal costs (`parse_task`'s answer
//! is then invalid and asked again once; `route`'s capture keeps its task without the detail);
//! absent, null, blank or a copied placeholder is no detail. Whether the person SAID a detail
//! is not judged here (`turn::said_details` does, against their words).

use serde_json::{json, Map, Value};

use super::output::clean_text;
use crate::tasks::fields::{
    check_description, check_domain, check_estimate, check_priority, check_tags, DOMAINS,
    ESTIMATE_MINUTES, MAX_DESCRIPTION_CHARS, MAX_TAGS, MAX_TAG_CHARS, PRIORITY_RANGE,
};

/// The details that passed their checks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TaskDetails {
    pub description: Option<String>,
    pub domain: Option<String>,
    pub priority: Option<i64>,
    pub estimated_minutes: Option<i64>,
    pub tags: Vec<String>,
}

/// The details of `object`, and why each one that was there was refused.
pub fn read_details(object: &Map<String, Value>) -> (TaskDetails, Vec<String>) {
    let mut refused = Vec::new();
    let description = keep(
        &mut refused,
        text_within(object, "description", MAX_DESCRIPTION_CHARS + 1).and_then(|text| {
            check_description(text.as_deref()).map_err(|e| format!("description: {e}"))
        }),
    );
    let domain = keep(
        &mut refused,
        text_within(object, "domain", 40).and_then(|domain| match domain {
            Some(domain) => check_domain(&domain)
                .map(|()| Some(domain))
                .map_err(|e| e.to_string()),
            None => Ok(None),
        }),
    );
    let priority = keep(
        &mut refused,
        integer(object, "priority").and_then(|priority| match priority {
            Some(priority) => check_priority(priority)
                .map(|()| Some(priority))
                .map_err(|e| e.to_string()),
            None => Ok(None),
        }),
    );
    let estimated_minutes = keep(
        &mut refused,
        integer(object, "estimated_minutes").and_then(|minutes| {
            check_estimate(minutes).map_err(|_| {
                format!(
                    "estimated_minutes must be between {} and {}",
                    ESTIMATE_MINUTES.start(),
                    ESTIMATE_MINUTES.end()
                )
            })
        }),
    );
    let tags = keep(&mut refused, tags(object));
    let details = TaskDetails {
        description: description.flatten(),
        domain: domain.flatten(),
        priority: priority.flatten(),
        estimated_minutes: estimated_minutes.flatten(),
        tags: tags.unwrap_or_default(),
    };
    (details, refused)
}

/// The value of a detail that passed; the reason of one that did not, noted in `refused`.
fn keep<T>(refused: &mut Vec<String>, result: Result<T, String>) -> Option<T> {
    result.map_err(|why| refused.push(why)).ok()
}

/// The output-schema properties of the details, with the same bounds, so a grammar-constrained
/// server can only write values the checks take.
pub fn detail_properties() -> Map<String, Value> {
    let properties = json!({
        "description": { "type": "string" },
        "domain": { "type": "string", "enum": DOMAINS },
        "priority": { "type": "integer", "minimum": PRIORITY_RANGE.start(), "maximum": PRIORITY_RANGE.end() },
        "estimated_minutes": { "type": "integer", "minimum": ESTIMATE_MINUTES.start(), "maximum": ESTIMATE_MINUTES.end() },
        "tags": { "type": "array", "items": { "type": "string" }, "maxItems": MAX_TAGS },
    });
    match properties {
        Value::Object(properties) => properties,
        _ => Map::new(),
    }
}

/// An optional text field of a model's answer, cleaned of control characters and placeholders,
/// at most `limit` characters: absent, null or blank is None; another type is refused. (For a
/// detail, one character more than its check allows lets the check refuse it, not cut it.)
pub(super) fn text_within(
    object: &Map<String, Value>,
    field: &str,
    limit: usize,
) -> Result<Option<String>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => {
            let text = clean_text(text, limit);
            Ok((!text.is_empty()).then_some(text))
        }
        Some(_) => Err(format!("{field} is not a string")),
    }
}

fn integer(object: &Map<String, Value>, field: &str) -> Result<Option<i64>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_i64()
            .map(Some)
            .ok_or_else(|| format!("{field} is not an integer")),
    }
}

fn tags(object: &Map<String, Value>) -> Result<Vec<String>, String> {
    let items = match object.get("tags") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err("tags is not a list".into()),
    };
    let tags = items
        .iter()
        .map(|item| {
            item.as_str()
                .map(|tag| clean_text(tag, MAX_TAG_CHARS + 1))
                .ok_or_else(|| "tags holds something that is not a string".to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_tags(&tags).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(answer: Value) -> (TaskDetails, Vec<String>) {
        read_details(answer.as_object().unwrap_or(&Map::new()))
    }

    #[test]
    fn each_detail_is_kept_or_refused_on_its_own_by_the_api_s_bounds() {
        // (answer, what is kept, how many refused)
        let table = [
            (
                json!({"priority": 1, "estimated_minutes": 60, "description": "Bring the old one",
                       "tags": ["errands", " "], "domain": "personal"}),
                TaskDetails {
                    description: Some("Bring the old one".into()),
                    domain: Some("personal".into()),
                    priority: Some(1),
                    estimated_minutes: Some(60),
                    tags: vec!["errands".into()],
                },
                0,
            ),
            (
                json!({"priority": 0, "estimated_minutes": 60}),
                TaskDetails {
                    estimated_minutes: Some(60),
                    ..TaskDetails::default()
                },
                1,
            ),
            (
                json!({"priority": "high", "estimated_minutes": -5, "tags": "work",
                       "domain": "space", "description": 7}),
                TaskDetails::default(),
                5,
            ),
            (
                json!({"estimated_minutes": 100_001, "priority": 2.5, "tags": vec!["x"; 11]}),
                TaskDetails::default(),
                3,
            ),
            (
                json!({"estimated_minutes": 100_000, "description": "<optional>", "tags": null}),
                TaskDetails {
                    estimated_minutes: Some(100_000),
                    ..TaskDetails::default()
                },
                0,
            ),
            (
                json!({"description": "x".repeat(MAX_DESCRIPTION_CHARS + 10),
                       "tags": ["y".repeat(MAX_TAG_CHARS + 1)]}),
                TaskDetails::default(),
                2,
            ),
        ];
        for (answer, kept, refusals) in table {
            let (details, refused) = read(answer.clone());
            assert_eq!(details, kept, "{answer}");
            assert_eq!(refused.len(), refusals, "{answer}: {refused:?}");
        }
    }

    #[test]
    fn the_schema_bounds_are_the_checks_bounds() {
        let properties = detail_properties();
        assert_eq!(
            properties["estimated_minutes"]["maximum"],
            json!(ESTIMATE_MINUTES.end())
        );
        assert_eq!(properties["priority"]["minimum"], json!(1));
        assert_eq!(properties["tags"]["maxItems"], json!(MAX_TAGS));
    }
}
