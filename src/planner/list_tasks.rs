//! `list_tasks` {status?, domain?, due_before?, due_after?, overdue?, limit?}: tasks filtered,
//! soonest first (tasks without a time last). `status` is a task status or `open` (neither
//! done nor cancelled; the default); times in words or RFC 3339, past or future.

use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::call::{ToolEnv, ToolError};
use super::{shown, time_arg};
use crate::tasks::model::DOMAINS;
use crate::tasks::status::ALL_STATUSES;
use crate::tasks::Task;

pub const DEFAULT_LIMIT: i64 = 20;
pub const MAX_LIMIT: i64 = 50;

pub fn schema() -> Value {
    let mut statuses: Vec<&str> = ALL_STATUSES.iter().map(|s| s.as_str()).collect();
    statuses.extend(["open", "any"]);
    json!({
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": statuses},
            "domain": {"type": "string", "enum": DOMAINS},
            "due_before": {"type": "string", "minLength": 1, "maxLength": 100},
            "due_after": {"type": "string", "minLength": 1, "maxLength": 100},
            "overdue": {"type": "boolean"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        },
        "additionalProperties": false,
    })
}

/// The tasks the arguments select, soonest first (tasks without a time last).
pub fn matching(
    conn: &Connection,
    args: &Map<String, Value>,
    env: &ToolEnv,
) -> Result<Vec<Task>, ToolError> {
    let text = |field: &str| args.get(field).and_then(Value::as_str);
    let before = text("due_before")
        .map(|words| time_arg::read("due_before", words, env))
        .transpose()?;
    let after = text("due_after")
        .map(|words| time_arg::read("due_after", words, env))
        .transpose()?;
    let status = text("status").unwrap_or("open");
    let overdue = args.get("overdue").and_then(Value::as_bool);
    // The open ones (the default) are all SQLite reads; other statuses read every task the
    // asker may see.
    let candidates = if status == "open" {
        env.open_tasks(conn)?
    } else {
        env.visible_tasks(conn)?
    };
    let mut tasks: Vec<_> = candidates
        .into_iter()
        .filter(|task| match status {
            "open" => task.status.is_open(),
            "any" => true,
            wanted => task.status.as_str() == wanted,
        })
        .filter(|task| text("domain").is_none_or(|domain| task.domain == domain))
        .filter(|task| {
            let due = shown::due_time(task);
            before.is_none_or(|before| due.is_some_and(|at| at < before))
                && after.is_none_or(|after| due.is_some_and(|at| at >= after))
        })
        .filter(|task| {
            overdue.is_none_or(|wanted| {
                let late = task.status.is_open() && task.deadline.is_some_and(|at| at <= env.now);
                late == wanted
            })
        })
        .collect();
    tasks.sort_by_key(|task| {
        let due = shown::due_time(task);
        (due.is_none(), due, task.created_at)
    });
    Ok(tasks)
}

pub fn run(
    conn: &Connection,
    args: &Map<String, Value>,
    env: &ToolEnv,
) -> Result<Value, ToolError> {
    let tasks = matching(conn, args, env)?;
    let limit = args
        .get("limit")
        .and_then(Value::as_i64)
        .unwrap_or(DEFAULT_LIMIT);
    let total = tasks.len();
    let listed: Vec<Value> = tasks
        .iter()
        .take(usize::try_from(limit).unwrap_or(0))
        .map(|task| shown::task(task, env.timezone))
        .collect();
    Ok(json!({ "total": total, "tasks": listed }))
}
