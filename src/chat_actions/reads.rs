//! The read actions of the chat (`query_tasks`, `get_task`): run at once, change nothing, and
//! answer in Donna's own words from the database (the model's reply was written before the
//! read ran, so it never states what the read found).
//!
//! Invariant: read-only (a read connection); a time or a reference Donna cannot read is said
//! plainly, never guessed.

use rusqlite::Connection;

use super::request::ChatRequest;
use crate::capture::questions::{listing, timing};
use crate::planner::list_tasks;
use crate::planner::{ToolEnv, ToolError};
use crate::store::StoreError;
use crate::tasks::named::{self, Among, Found};
use crate::tasks::when::WhenContext;
use crate::tasks::Task;

/// The answer to `query_tasks`.
pub fn query_tasks(
    conn: &Connection,
    request: &ChatRequest,
    env: &ToolEnv,
) -> Result<String, StoreError> {
    let tasks = match list_tasks::matching(conn, &request.params, env) {
        Ok(tasks) => tasks,
        Err(ToolError::Store(error)) => return Err(error),
        Err(error) => return Ok(format!("I couldn't look that up: {error}.")),
    };
    let limit = request
        .params
        .get("limit")
        .and_then(serde_json::Value::as_u64)
        .map_or(tasks.len(), |limit| limit as usize);
    if tasks.is_empty() {
        return Ok("No tasks match.".to_string());
    }
    let shown: Vec<Task> = tasks.into_iter().take(limit).collect();
    Ok(listing("Tasks", &shown, &when(env)))
}

/// The answer to `get_task`: one task's details, the candidates, or that there is none.
pub fn get_task(
    conn: &Connection,
    request: &ChatRequest,
    env: &ToolEnv,
) -> Result<String, StoreError> {
    let reference = request.task_reference().unwrap_or_default();
    Ok(match named::resolve(conn, reference, Among::All)? {
        Found::One(task) => details(&task, env),
        Found::Several(tasks) => listing(
            &format!("Several tasks match '{reference}'"),
            &tasks,
            &when(env),
        ),
        Found::None => format!("I can't find a task matching '{reference}'."),
    })
}

fn details(task: &Task, env: &ToolEnv) -> String {
    let mut text = format!(
        "'{}': {}{}, {}, priority {}.",
        task.title,
        task.status.as_str().replace('_', " "),
        timing(task, &when(env)),
        task.domain,
        task.priority
    );
    if let Some(description) = task.description.as_deref().filter(|d| !d.is_empty()) {
        text.push_str(&format!(" {description}"));
    }
    text
}

fn when(env: &ToolEnv) -> WhenContext {
    WhenContext {
        now: env.now,
        timezone: env.timezone,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    }
}
