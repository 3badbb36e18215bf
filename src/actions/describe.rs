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
use crate::tasks::model::Task;
use crate::tasks::repo;
use crate::tasks::when::{describe as describe_time, WhenContext};

pub fn describe(
    conn: &Connection,
    action: &BoundAction,
    env: &ActionEnv,
) -> Result<String, StoreError> {
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
        HandlerKind::RenameTask => format!("rename {title} to '{}'", param(action, "new_title")),
        HandlerKind::Snooze => format!(
            "snooze {title} for {}",
            say_minutes(snooze_minutes(&action.params))
        ),
        HandlerKind::Reschedule => reschedule(action, env, task.as_ref(), &title),
        HandlerKind::CreateAutomation => super::automation::describe(action, env.now),
        HandlerKind::UpdateTask => update(action, &title),
        HandlerKind::Escalate => escalate(action),
        HandlerKind::StopAutomation => stop_automation(conn, action)?,
        HandlerKind::CreateTask => create_task(action, env),
    })
}

/// A text parameter of the action, "" when it has none.
fn param<'a>(action: &'a BoundAction, name: &str) -> &'a str {
    action
        .params
        .get(name)
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// "move 'X' to tomorrow at 9:00", "move 'X' to later (3h)", or the words as written when they
/// could not be read.
fn reschedule(action: &BoundAction, env: &ActionEnv, task: Option<&Task>, title: &str) -> String {
    let context = WhenContext {
        now: env.now,
        timezone: env.timezone,
        current_start: task.and_then(|t| t.scheduled_start.or(t.deadline)),
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
            format!("move {title} to \"{}\"", param(action, "when"))
        }
    }
}

/// "update 'X': title 'Y', priority 1": each field the action changes.
fn update(action: &BoundAction, title: &str) -> String {
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

/// "ask the bigger model (about $0.0012)": the call's estimated cost.
fn escalate(action: &BoundAction) -> String {
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

/// "stop reminding you to 'X' (every monday)", named from the automation as stored.
fn stop_automation(conn: &Connection, action: &BoundAction) -> Result<String, StoreError> {
    let automation = crate::automations::repo::get(conn, param(action, "automation_id"))?;
    Ok(match automation {
        Some(automation) => format!(
            "stop reminding you to '{}' ({})",
            automation.title, automation.schedule.words
        ),
        None => "stop a reminder that no longer exists".to_string(),
    })
}

/// "create a task 'X' (work, priority 2, due friday at 17:00, for thursday at 9:00)".
fn create_task(action: &BoundAction, env: &ActionEnv) -> String {
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
    let mut due = match (read("deadline"), param(action, "due_by")) {
        (Some(at), _) => format!(", due {at}"),
        (None, "") => String::new(),
        (None, words) => format!(", due {words}"),
    };
    if let Some(at) = read("scheduled_start") {
        due.push_str(&format!(", for {at}"));
    }
    format!(
        "create a task '{}' ({}, priority {priority}{due})",
        param(action, "title"),
        param(action, "domain")
    )
}
