//! `recall_context` {aspect}: a ready-made view of the person's situation: `today` (open tasks
//! due or starting today, and how many are overdue), `deadlines` (open tasks with a deadline
//! ahead, soonest first), `overdue`, `completed` (done in the last 7 days, newest first),
//! `automations` (recurring reminders and their next run).

use chrono::{DateTime, Days, NaiveTime, TimeZone, Utc};
use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::call::{ToolEnv, ToolError};
use super::shown;
use crate::automations::repo as automations;
use crate::tasks::{Task, TaskStatus};

pub const ASPECTS: [&str; 5] = ["today", "deadlines", "overdue", "completed", "automations"];
/// Most rows of one view.
pub const MAX_ROWS: usize = 20;
/// How far back `completed` looks.
pub const COMPLETED_DAYS: u64 = 7;

pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "aspect": {"type": "string", "enum": ASPECTS},
        },
        "required": ["aspect"],
        "additionalProperties": false,
    })
}

pub fn run(
    conn: &Connection,
    args: &Map<String, Value>,
    env: &ToolEnv,
) -> Result<Value, ToolError> {
    let aspect = args.get("aspect").and_then(Value::as_str).unwrap_or("");
    if aspect == "automations" {
        let listed: Vec<Value> = automations::list(conn)?
            .iter()
            .take(MAX_ROWS)
            .map(|automation| {
                let next = automation.schedule.next_after(env.now).ok().flatten();
                json!({
                    "id": automation.id,
                    "title": automation.title,
                    "schedule": automation.schedule.words,
                    "next_run": shown::time(next, env.timezone),
                })
            })
            .collect();
        return Ok(json!({ "aspect": aspect, "automations": listed }));
    }
    // Only the completed view reads closed tasks; the others read the open ones alone.
    let all = if aspect == "completed" {
        env.visible_tasks(conn)?
    } else {
        env.open_tasks(conn)?
    };
    let open = || all.iter().filter(|task| task.status.is_open());
    let late = |task: &&Task| task.deadline.is_some_and(|at| at <= env.now);
    let mut tasks: Vec<&Task> = match aspect {
        "today" => {
            let end = end_of_today(env);
            open()
                .filter(|task| {
                    [task.deadline, task.scheduled_start]
                        .into_iter()
                        .flatten()
                        .any(|at| at > env.now && at < end)
                })
                .collect()
        }
        "deadlines" => open()
            .filter(|task| task.deadline.is_some_and(|at| at > env.now))
            .collect(),
        "overdue" => open().filter(late).collect(),
        _ => {
            let since = env.now - chrono::Duration::days(COMPLETED_DAYS as i64);
            all.iter()
                .filter(|task| task.status == TaskStatus::Done)
                .filter(|task| task.completed_at.is_some_and(|at| at >= since))
                .collect()
        }
    };
    if aspect == "completed" {
        tasks.sort_by_key(|task| std::cmp::Reverse(task.completed_at));
    } else {
        tasks.sort_by_key(|task| shown::due_time(task));
    }
    let overdue = open().filter(late).count();
    Ok(json!({
        "aspect": aspect,
        "now": shown::time(Some(env.now), env.timezone),
        "total": tasks.len(),
        "overdue_open_tasks": overdue,
        "tasks": tasks.iter().take(MAX_ROWS).map(|task| shown::task(task, env.timezone)).collect::<Vec<_>>(),
    }))
}

/// Midnight at the end of today in the person's zone.
fn end_of_today(env: &ToolEnv) -> DateTime<Utc> {
    let today = env.now.with_timezone(&env.timezone).date_naive();
    today
        .checked_add_days(Days::new(1))
        .and_then(|day| {
            env.timezone
                .from_local_datetime(&day.and_time(NaiveTime::MIN))
                .earliest()
        })
        .map_or(env.now, |at| at.with_timezone(&Utc))
}
