//! Wording a bound action for a plan proposal, from the validated action itself (never from
//! the model's description of it) and its time as read at bind time, so the person confirms
//! exactly what will run.

use rusqlite::Connection;
use serde_json::Value;

use super::bind::{BoundAction, TimeReading};
use super::handler_kind::HandlerKind;
use super::handlers::ActionEnv;
use super::snooze_length::{say_minutes, snooze_minutes};
use crate::store::StoreError;
use crate::tasks::repo;
use crate::tasks::when::{describe as describe_time, WhenContext};

pub fn describe(
    conn: &Connection,
    action: &BoundAction,
    env: &ActionEnv,
) -> Result<String, StoreError> {
    let param = |name: &str| {
        action
            .params
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let task = match action.params.get("task_id").and_then(Value::as_str) {
        Some(id) => repo::get(conn, id)?,
        None => None,
    };
    let title = task
        .as_ref()
        .map_or_else(|| "the task".to_string(), |t| format!("'{}'", t.title));
    Ok(match action.handler {
        HandlerKind::MarkDone => format!("mark {title} as done"),
        HandlerKind::CancelTask => format!("cancel {title}"),
        HandlerKind::RenameTask => format!("rename {title} to '{}'", param("new_title")),
        HandlerKind::Snooze => format!(
            "snooze {title} for {}",
            say_minutes(snooze_minutes(&action.params))
        ),
        HandlerKind::Reschedule => {
            let context = WhenContext {
                now: env.now,
                timezone: env.timezone,
                current_start: task.as_ref().and_then(|t| t.scheduled_start.or(t.deadline)),
                later: env.later,
            };
            match action.time("when", || context.clone()) {
                Some(TimeReading::At(at)) => {
                    format!("move {title} to {}", describe_time(at, &context))
                }
                Some(TimeReading::NotNamed) | None => format!(
                    "move {title} to later ({})",
                    humantime::format_duration(env.later)
                ),
                Some(TimeReading::Unreadable(_) | TimeReading::Unclear(_)) => {
                    format!("move {title} to \"{}\"", param("when"))
                }
            }
        }
        HandlerKind::CreateAutomation => super::automation::describe(action, env.now),
        HandlerKind::UpdateTask => {
            let mut changes = Vec::new();
            for (name, shown) in [
                ("title", "title"),
                ("description", "description"),
                ("domain", "domain"),
                ("priority", "priority"),
            ] {
                match action.params.get(name) {
                    Some(Value::String(text)) => changes.push(format!("{shown} '{text}'")),
                    Some(Value::Number(number)) => changes.push(format!("{shown} {number}")),
                    _ => {}
                }
            }
            format!("update {title}: {}", changes.join(", "))
        }
        HandlerKind::Escalate => {
            let estimate = action
                .params
                .get("estimate_micros")
                .and_then(Value::as_i64)
                .unwrap_or_default();
            format!(
                "ask the bigger model (about ${:.4})",
                estimate as f64 / 1_000_000.0
            )
        }
        HandlerKind::StopAutomation => {
            let id = param("automation_id");
            let automation = crate::automations::repo::get(conn, id)?;
            match automation {
                Some(automation) => format!(
                    "stop reminding you to '{}' ({})",
                    automation.title, automation.schedule.words
                ),
                None => "stop a reminder that no longer exists".to_string(),
            }
        }
        HandlerKind::CreateTask => {
            let domain = param("domain");
            let priority = action
                .params
                .get("priority")
                .and_then(Value::as_i64)
                .unwrap_or(2);
            let context = WhenContext {
                now: env.now,
                timezone: env.timezone,
                current_start: None,
                later: env.later,
            };
            // A capture's times were read when it was bound; the model's `due_by` is words.
            let read = |name: &str| match action.times.get(name) {
                Some(TimeReading::At(at)) => Some(describe_time(*at, &context)),
                _ => None,
            };
            let mut due = match (read("deadline"), param("due_by")) {
                (Some(at), _) => format!(", due {at}"),
                (None, "") => String::new(),
                (None, words) => format!(", due {words}"),
            };
            if let Some(at) = read("scheduled_start") {
                due.push_str(&format!(", for {at}"));
            }
            format!(
                "create a task '{}' ({domain}, priority {priority}{due})",
                param("title")
            )
        }
    })
}
