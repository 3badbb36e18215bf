//! The built-in action handlers. Each runs inside the turn's transaction on the store writer
//! and answers with one short, specific sentence ("Marked 'Pay rent' as done.").
//!
//! The chat's own handlers are here too: `update_task` (title, description, domain, priority)
//! and `stop_automation` (a recurring reminder stopped so that undo can resume it).
//!
//! Invariants: a handler changes only the task it was bound to (its `task_id` came from the
//! thread, or from Donna's own resolution of a task named in chat, never from the model), and
//! returns the task as it was before, so the change can be undone.

use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::Connection;
use serde_json::{Map, Value};

use super::bind::{BoundAction, TimeReading};
use super::handler_kind::HandlerKind;
use super::snooze_length::{say_minutes, snooze_minutes};
use super::task_details::{details, Details};
use crate::tasks::explicit::names_the_moment;
use crate::tasks::fields::{
    check_description, check_domain, check_estimate, check_priority, clean_title, count_one_more,
    TaskFieldError,
};
use crate::tasks::model::NewTask;
use crate::tasks::nudge_marks;
use crate::tasks::repo::{self, TaskChangeError};
use crate::tasks::when::{describe, WhenContext};
use crate::tasks::{Task, TaskStatus};

/// What a handler may read besides its parameters.
#[derive(Debug, Clone)]
pub struct ActionEnv {
    pub now: DateTime<Utc>,
    pub timezone: chrono_tz::Tz,
    /// What "later" means.
    pub later: Duration,
    /// Who asked for the actions (the turn's sender): journaled, so "undo" reverts only that
    /// person's own actions in a shared thread; a task or an automation it creates remembers
    /// them (`created_by`).
    pub author_id: Option<String>,
}

/// What a handler did.
#[derive(Debug, Clone)]
pub struct Effect {
    /// One sentence for the person.
    pub summary: String,
    /// The task before the change (None for create_task).
    pub before: Option<Task>,
    pub task_id: Option<String>,
    /// The task a create_task made (undo deletes it).
    pub created_task_id: Option<String>,
    /// The automation a create_automation stored (undo removes it).
    pub created_automation_id: Option<String>,
    /// The automation a stop_automation stopped (undo resumes it).
    pub stopped_automation_id: Option<String>,
    /// The task as the action left it, if its handler has it (else the journal reads it back).
    pub after: Option<Task>,
}

/// Why an action did nothing.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// Told to the person as is.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
}

impl From<TaskChangeError> for ActionError {
    fn from(error: TaskChangeError) -> Self {
        match error {
            TaskChangeError::NotFound(id) => {
                ActionError::Refused(format!("I can't find task {id} any more."))
            }
            TaskChangeError::InvalidTransition(reason) => {
                ActionError::Refused(format!("I can't: {reason}."))
            }
            TaskChangeError::Store(error) => ActionError::Store(error),
        }
    }
}

impl From<TaskFieldError> for ActionError {
    fn from(error: TaskFieldError) -> Self {
        ActionError::Refused(error.to_string())
    }
}

impl From<rusqlite::Error> for ActionError {
    fn from(error: rusqlite::Error) -> Self {
        ActionError::Store(error.into())
    }
}

fn text<'a>(params: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    params.get(name).and_then(Value::as_str)
}

fn task_of(conn: &Connection, params: &Map<String, Value>) -> Result<Task, ActionError> {
    let id = text(params, "task_id")
        .ok_or_else(|| ActionError::Refused("This thread is not about a task.".into()))?;
    Ok(repo::require(conn, id)?)
}

/// Runs one bound action's handler.
pub fn run(
    conn: &Connection,
    env: &ActionEnv,
    action: &BoundAction,
) -> Result<Effect, ActionError> {
    let params = &action.params;
    match action.handler {
        HandlerKind::MarkDone => mark_done(conn, env, params),
        HandlerKind::Reschedule => reschedule(conn, env, action),
        HandlerKind::CreateTask => create_task(conn, env, action),
        HandlerKind::RenameTask => rename_task(conn, env, params),
        HandlerKind::Snooze => snooze(conn, env, params),
        HandlerKind::CancelTask => cancel_task(conn, env, params),
        HandlerKind::CreateAutomation => create_automation(conn, env, action),
        HandlerKind::UpdateTask => update_task(conn, env, params),
        HandlerKind::StopAutomation => stop_automation(conn, env, params),
        // Its yes is the escalation room's (two commits around a model call), never a handler.
        HandlerKind::Escalate => Err(ActionError::Refused(
            "Asking the bigger model is not something a plan step can do.".into(),
        )),
    }
}

fn changed(before: Task, summary: String) -> Effect {
    Effect {
        summary,
        task_id: Some(before.id.clone()),
        before: Some(before),
        created_task_id: None,
        created_automation_id: None,
        stopped_automation_id: None,
        after: None,
    }
}

fn mark_done(
    conn: &Connection,
    env: &ActionEnv,
    params: &Map<String, Value>,
) -> Result<Effect, ActionError> {
    let before = task_of(conn, params)?;
    if before.status == TaskStatus::Done {
        return Err(ActionError::Refused(format!(
            "'{}' is already done.",
            before.title
        )));
    }
    before
        .status
        .can_move_to(TaskStatus::Done)
        .map_err(TaskChangeError::from)?;
    // Done and needing no more nudges, written once (the task is already read).
    let mut task = before.clone();
    task.status = TaskStatus::Done;
    task.completed_at = Some(env.now);
    task.snoozed_until = None;
    task.unanswered_nudges = 0;
    let summary = format!("Marked '{}' as done.", before.title);
    Ok(Effect {
        after: Some(repo::save(conn, &task, env.now)?),
        ..changed(before, summary)
    })
}

fn when_context(env: &ActionEnv, task: &Task) -> WhenContext {
    WhenContext {
        now: env.now,
        timezone: env.timezone,
        // The task's own time: its start, else its deadline ("friday" keeps its time).
        current_start: task.scheduled_start.or(task.deadline),
        later: env.later,
    }
}

/// Why a reschedule did nothing: the reader's reason, and that the task is as it was.
pub fn unusable_time(reason: &str, title: &str) -> String {
    format!("I couldn't use that time ({reason}), so '{title}' stays as it was.")
}

/// The bound task, refused with `why` when it is done or cancelled.
fn open_task_of(
    conn: &Connection,
    params: &Map<String, Value>,
    why: &str,
) -> Result<Task, ActionError> {
    let task = task_of(conn, params)?;
    if !task.status.is_open() {
        return Err(ActionError::Refused(format!(
            "'{}' is {}{why}",
            task.title, task.status
        )));
    }
    Ok(task)
}

fn reschedule(
    conn: &Connection,
    env: &ActionEnv,
    action: &BoundAction,
) -> Result<Effect, ActionError> {
    let before = open_task_of(conn, &action.params, ", so there is nothing to reschedule.")?;
    let context = when_context(env, &before);
    let at = match action.time("when", || context.clone()) {
        Some(TimeReading::At(at)) => at,
        // No time named ("push it"): "later".
        Some(TimeReading::NotNamed) | None => crate::clock::after(env.now, env.later),
        Some(TimeReading::Unreadable(reason) | TimeReading::Unclear(reason)) => {
            return Err(ActionError::Refused(unusable_time(&reason, &before.title)))
        }
    };
    let mut task = before.clone();
    task.scheduled_start = Some(at);
    task.snoozed_until = None;
    task.reschedule_count = count_one_more(task.reschedule_count);
    // "push it to 23:30" names the moment; "tomorrow" leaves the hour to Donna.
    let explicit = text(&action.params, "when").is_some_and(names_the_moment);
    nudge_marks::set_explicit(conn, &task.id, explicit.then_some(at))?;
    task.unanswered_nudges = 0;
    if task.status != TaskStatus::Scheduled {
        task.status
            .can_move_to(TaskStatus::Scheduled)
            .map_err(|reason| ActionError::Refused(format!("I can't: {reason}.")))?;
        task.status = TaskStatus::Scheduled;
    }
    repo::save(conn, &task, env.now)?;
    Ok(changed(
        before.clone(),
        format!("Moved '{}' to {}.", before.title, describe(at, &context)),
    ))
}

fn create_task(
    conn: &Connection,
    env: &ActionEnv,
    action: &BoundAction,
) -> Result<Effect, ActionError> {
    let params = &action.params;
    let title = clean_title(text(params, "title").unwrap_or(""))?;
    let domain = text(params, "domain").unwrap_or("personal").to_string();
    check_domain(&domain)?;
    let priority = params.get("priority").and_then(Value::as_i64).unwrap_or(2);
    check_priority(priority)?;
    let context = WhenContext {
        now: env.now,
        timezone: env.timezone,
        current_start: None,
        later: env.later,
    };
    // A capture names its times as `deadline` and `scheduled_start`; the reply actions' model
    // proposal names a deadline as `due_by`.
    let read = |name: &str| match action.time(name, || context.clone()) {
        Some(TimeReading::At(at)) => Ok(Some(at)),
        Some(TimeReading::NotNamed) | None => Ok(None),
        Some(TimeReading::Unreadable(reason) | TimeReading::Unclear(reason)) => Err(
            ActionError::Refused(format!("I couldn't use that time ({reason}).")),
        ),
    };
    let deadline = match read("deadline")? {
        Some(at) => Some(at),
        None => read("due_by")?,
    };
    let scheduled_start = read("scheduled_start")?;
    // Only a capture built by Donna's own code sets these (the registry drops parameters an
    // action does not declare, so the model cannot).
    let source = text(params, "source")
        .and_then(crate::tasks::TaskSource::parse)
        .unwrap_or(crate::tasks::TaskSource::Chat);
    let applied_preferences: Vec<crate::tasks::AppliedPreference> = params
        .get("applied_preferences")
        .and_then(|value| serde_json::from_value(value.clone()).ok())
        .unwrap_or_default();
    let Details {
        description,
        estimated_duration_minutes,
        tags,
    } = details(params)?;
    let id = crate::ids::new_id("tsk");
    let new = NewTask {
        title,
        description,
        domain,
        priority,
        deadline,
        scheduled_start,
        estimated_duration_minutes,
        source,
        tags,
        applied_preferences,
        origin_thread_id: text(params, "origin_thread_id").map(str::to_string),
        automation_id: None,
        occurrence_at: None,
        created_by: env.author_id.clone(),
    };
    let task = repo::insert(conn, &id, &new, env.now)?;
    // Only a capture built by Donna's own code says the person named the moment.
    if params.get("explicit_time").and_then(Value::as_bool) == Some(true) {
        nudge_marks::set_explicit(conn, &task.id, scheduled_start.or(deadline))?;
    }
    let due = deadline
        .map(|at| format!(", due {}", describe(at, &context)))
        .unwrap_or_default();
    // Learned preferences applied are always said (a capture's or the model's new task).
    let learned = task
        .applied_preferences
        .iter()
        .map(|preference| preference.reason.clone())
        .collect::<Vec<_>>();
    let learned = if learned.is_empty() {
        String::new()
    } else {
        format!(" ({})", learned.join("; "))
    };
    let summary = if source == crate::tasks::TaskSource::Capture {
        let start = scheduled_start
            .map(|at| format!("; I'll remind you {}", describe(at, &context)))
            .unwrap_or_default();
        format!("Added '{}'{due}{start}{learned}.", task.title)
    } else {
        format!("Created '{}'{due}{learned}.", task.title)
    };
    Ok(Effect {
        summary,
        before: None,
        task_id: Some(task.id.clone()),
        created_task_id: Some(task.id),
        created_automation_id: None,
        stopped_automation_id: None,
        after: None,
    })
}

fn create_automation(
    conn: &Connection,
    env: &ActionEnv,
    action: &BoundAction,
) -> Result<Effect, ActionError> {
    use super::automation::{create_for, CreateError};
    let created =
        create_for(conn, env.now, action, env.author_id.as_deref()).map_err(
            |error| match error {
                CreateError::Refused(reason) => ActionError::Refused(reason),
                CreateError::Store(error) => ActionError::Store(error),
            },
        )?;
    Ok(Effect {
        summary: created.summary,
        before: None,
        task_id: None,
        created_task_id: None,
        created_automation_id: Some(created.automation_id),
        stopped_automation_id: None,
        after: None,
    })
}

fn rename_task(
    conn: &Connection,
    env: &ActionEnv,
    params: &Map<String, Value>,
) -> Result<Effect, ActionError> {
    let before = task_of(conn, params)?;
    let title = clean_title(text(params, "new_title").unwrap_or(""))?;
    if title == before.title {
        return Err(ActionError::Refused(format!(
            "It is already called '{title}'."
        )));
    }
    let mut task = before.clone();
    task.title = title.clone();
    repo::save(conn, &task, env.now)?;
    Ok(changed(
        before.clone(),
        format!("Renamed '{}' to '{title}'.", before.title),
    ))
}

fn snooze(
    conn: &Connection,
    env: &ActionEnv,
    params: &Map<String, Value>,
) -> Result<Effect, ActionError> {
    let before = open_task_of(conn, params, "; no nudges are coming.")?;
    let minutes = snooze_minutes(params);
    let until = crate::clock::add(
        env.now,
        chrono::Duration::try_minutes(minutes).unwrap_or(chrono::Duration::MAX),
    );
    let mut task = before.clone();
    task.snoozed_until = Some(until);
    task.unanswered_nudges = 0;
    repo::save(conn, &task, env.now)?;
    let context = when_context(env, &before);
    Ok(changed(
        before.clone(),
        format!(
            "Snoozed '{}' for {} (until {}).",
            before.title,
            say_minutes(minutes),
            describe(until, &context)
        ),
    ))
}

fn cancel_task(
    conn: &Connection,
    env: &ActionEnv,
    params: &Map<String, Value>,
) -> Result<Effect, ActionError> {
    let before = task_of(conn, params)?;
    repo::set_status(conn, &before.id, TaskStatus::Cancelled, env.now)?;
    Ok(changed(
        before.clone(),
        format!("Cancelled '{}'.", before.title),
    ))
}

/// The chat's `update_task`: title, description, domain or priority of one task.
fn update_task(
    conn: &Connection,
    env: &ActionEnv,
    params: &Map<String, Value>,
) -> Result<Effect, ActionError> {
    let before = task_of(conn, params)?;
    let mut task = before.clone();
    let mut said = Vec::new();
    if let Some(title) = text(params, "title") {
        task.title = clean_title(title)?;
        if task.title != before.title {
            said.push(format!("renamed it to '{}'", task.title));
        }
    }
    if let Some(description) = text(params, "description") {
        task.description = check_description(Some(description))?;
        said.push("set its description".to_string());
    }
    if let Some(domain) = text(params, "domain") {
        check_domain(domain)?;
        task.domain = domain.to_string();
        said.push(format!("moved it to {domain}"));
    }
    if let Some(priority) = params.get("priority").and_then(Value::as_i64) {
        check_priority(priority)?;
        task.priority = priority;
        said.push(format!("set priority {priority}"));
    }
    if let Some(minutes) = params.get(super::estimate::MINUTES).and_then(Value::as_i64) {
        task.estimated_duration_minutes = check_estimate(Some(minutes))?;
        said.push(format!("it takes about {}", say_minutes(minutes)));
    }
    if task == before {
        return Err(ActionError::Refused(format!(
            "'{}' already is like that.",
            before.title
        )));
    }
    let task = repo::save(conn, &task, env.now)?;
    // A correction of a captured task teaches a preference, as an edit through the API does.
    crate::tasks::preferences::learn(conn, &before, &task, env.now)?;
    let summary = format!("Updated '{}': {}.", before.title, said.join(", "));
    Ok(changed(before, summary))
}

/// The chat's `stop_automation`: stopped so that undo can resume it.
fn stop_automation(
    conn: &Connection,
    env: &ActionEnv,
    params: &Map<String, Value>,
) -> Result<Effect, ActionError> {
    let id = text(params, "automation_id").unwrap_or_default();
    let Some(automation) = crate::automations::repo::get(conn, id)? else {
        return Err(ActionError::Refused(
            "That reminder does not exist any more.".into(),
        ));
    };
    if !crate::automations::repo::stop(conn, id, env.now)? {
        return Err(ActionError::Refused(format!(
            "'{}' is already stopped.",
            automation.title
        )));
    }
    Ok(Effect {
        summary: format!("Stopped reminding you to '{}'.", automation.title),
        before: None,
        task_id: None,
        created_task_id: None,
        created_automation_id: None,
        stopped_automation_id: Some(automation.id),
        after: None,
    })
}
