//! A task as stored, checked whole: what `donna import` takes. Every field a door sets goes
//! through the same check that door calls (`tasks::fields`); the fields only Donna sets get
//! their stated bounds (counters within 0..=`MAX_COUNT`, ids through `ids::check`, learned
//! preferences as a capture writes them). Times are the store's to check (`round_trips`).
//! Invariant: pure; a task that passes is one no tick, list or feed can fail on.

use super::fields::{
    check_description, check_domain, check_estimate, check_priority, check_tags, clean_title,
    TaskFieldError, MAX_COUNT, MAX_REASON_CHARS,
};
use super::model::{AppliedPreference, Task};

/// Why a stored task (an import's) is not one Donna would store: the field and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct StoredFieldError {
    pub field: &'static str,
    pub reason: String,
}

fn refused(field: &'static str, reason: impl ToString) -> StoredFieldError {
    StoredFieldError {
        field,
        reason: reason.to_string(),
    }
}

/// Checks every field of a task as stored, with the same checks as the doors, and the stated
/// bounds of the fields only Donna sets.
pub fn check_stored(task: &Task) -> Result<(), StoredFieldError> {
    crate::ids::check(&task.id).map_err(|e| refused("id", e))?;
    match clean_title(&task.title) {
        Ok(clean) if clean == task.title => {}
        Ok(_) => return Err(refused("title", "has spaces Donna would not store")),
        Err(error) => return Err(refused("title", error)),
    }
    match check_description(task.description.as_deref()) {
        Ok(clean) if clean == task.description => {}
        Ok(_) => {
            return Err(refused(
                "description",
                "is empty or has spaces Donna would not store",
            ))
        }
        Err(error) => return Err(refused("description", error)),
    }
    check_domain(&task.domain).map_err(|e| refused("domain", e))?;
    check_priority(task.priority).map_err(|e| refused("priority", e))?;
    check_estimate(task.estimated_duration_minutes)
        .map_err(|e| refused("estimated_duration_minutes", e))?;
    for (field, count) in [
        ("reschedule_count", task.reschedule_count),
        ("nudge_count", task.nudge_count),
        ("unanswered_nudges", task.unanswered_nudges),
    ] {
        if !(0..=MAX_COUNT).contains(&count) {
            return Err(refused(
                field,
                format!("{count} is not between 0 and {MAX_COUNT}"),
            ));
        }
    }
    match check_tags(&task.tags) {
        Ok(clean) if clean == task.tags => {}
        Ok(_) => {
            return Err(refused(
                "tags",
                "has empty tags or spaces Donna would not store",
            ))
        }
        Err(error) => return Err(refused("tags", error)),
    }
    check_applied(&task.applied_preferences)?;
    for (field, id) in [
        ("origin_thread_id", &task.origin_thread_id),
        ("automation_id", &task.automation_id),
        ("created_by", &task.created_by),
    ] {
        if let Some(id) = id {
            crate::ids::check(id).map_err(|e| refused(field, e))?;
        }
    }
    Ok(())
}

/// Learned preferences as a capture applies them: at most one per field (domain, priority),
/// each value one the field may hold, a short reason without control characters.
fn check_applied(applied: &[AppliedPreference]) -> Result<(), StoredFieldError> {
    let field = "applied_preferences";
    let mut seen = Vec::new();
    for preference in applied {
        match preference.field.as_str() {
            "domain" => check_domain(&preference.value).map_err(|e| refused(field, e))?,
            "priority" => preference
                .value
                .parse::<i64>()
                .map_err(|_| TaskFieldError::Priority)
                .and_then(check_priority)
                .map_err(|e| refused(field, e))?,
            other => {
                return Err(refused(
                    field,
                    format!("{other:?} is not domain or priority"),
                ))
            }
        }
        if seen.contains(&preference.field.as_str()) {
            return Err(refused(field, "names a field twice"));
        }
        seen.push(preference.field.as_str());
        if preference.reason.chars().count() > MAX_REASON_CHARS
            || preference.reason.chars().any(char::is_control)
        {
            return Err(refused(
                field,
                format!(
                    "a reason is over {MAX_REASON_CHARS} characters or holds control characters"
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task as an export holds it, with `field` set to `value`.
    fn stored(field: &str, value: serde_json::Value) -> Result<Task, String> {
        let mut task = serde_json::json!({
            "id": "tsk_one", "title": "Pay rent", "description": null, "domain": "personal",
            "priority": 2, "status": "scheduled", "estimated_duration_minutes": 30,
            "deadline": null, "scheduled_start": "2026-11-20T09:00:00Z", "completed_at": null,
            "snoozed_until": null, "reschedule_count": 0, "nudge_count": 3,
            "unanswered_nudges": 1, "last_nudged_at": null,
            "created_at": "2026-11-19T10:00:00Z", "updated_at": "2026-11-19T10:00:00Z",
            "tags": ["home"], "origin_thread_id": "thr_1", "created_by": "owner"
        });
        task[field] = value;
        serde_json::from_value(task).map_err(|e| e.to_string())
    }

    #[test]
    fn a_stored_task_holds_only_what_a_door_would_store() {
        use serde_json::json;
        // (field, value, the field refused or None)
        let table: Vec<(&str, serde_json::Value, Option<&str>)> = vec![
            ("title", json!("Pay rent"), None),
            (
                "estimated_duration_minutes",
                json!(i64::MAX),
                Some("estimated_duration_minutes"),
            ),
            (
                "estimated_duration_minutes",
                json!(1_000_000_000_000_000_i64),
                Some("estimated_duration_minutes"),
            ),
            (
                "estimated_duration_minutes",
                json!(-5),
                Some("estimated_duration_minutes"),
            ),
            (
                "estimated_duration_minutes",
                json!(0),
                Some("estimated_duration_minutes"),
            ),
            ("estimated_duration_minutes", json!(100_000), None),
            ("nudge_count", json!(i64::MAX), Some("nudge_count")),
            ("nudge_count", json!(-7), Some("nudge_count")),
            ("nudge_count", json!(MAX_COUNT), None),
            (
                "unanswered_nudges",
                json!(MAX_COUNT + 1),
                Some("unanswered_nudges"),
            ),
            ("reschedule_count", json!(-1), Some("reschedule_count")),
            (
                "description",
                json!("x".repeat(100_000)),
                Some("description"),
            ),
            ("description", json!("line one\nline two"), None),
            ("description", json!("bell\u{7}"), Some("description")),
            ("description", json!("  padded "), Some("description")),
            ("description", json!(""), Some("description")),
            ("id", json!("tsk\r\nBEGIN:VEVENT"), Some("id")),
            ("id", json!("x".repeat(10_000)), Some("id")),
            ("id", json!(""), Some("id")),
            (
                "created_by",
                json!(format!("{}\u{1}", "p".repeat(10_000))),
                Some("created_by"),
            ),
            (
                "origin_thread_id",
                json!("thr\n1"),
                Some("origin_thread_id"),
            ),
            ("tags", json!(vec!["a"; 11]), Some("tags")),
            ("tags", json!(["x".repeat(41)]), Some("tags")),
            ("tags", json!([" home"]), Some("tags")),
            ("title", json!(" Pay rent"), Some("title")),
            ("title", json!("x".repeat(201)), Some("title")),
            ("priority", json!(9), Some("priority")),
            (
                "applied_preferences",
                json!([{"field": "colour", "value": "red", "reason": "r"}]),
                Some("applied_preferences"),
            ),
            (
                "applied_preferences",
                json!([{"field": "domain", "value": "work", "reason": "filed under work, like 'Send report'"}]),
                None,
            ),
        ];
        for (field, value, refused) in table {
            let task = stored(field, value.clone()).unwrap_or_else(|e| panic!("{field}: {e}"));
            let verdict = check_stored(&task);
            assert_eq!(
                verdict.as_ref().err().map(|e| e.field),
                refused,
                "{field} = {}: {verdict:?}",
                value.to_string().chars().take(60).collect::<String>()
            );
        }
    }
}
