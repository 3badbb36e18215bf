//! `get_task` {task}: one task by id or title words, resolved as docs/contract.md "Tasks named in
//! chat" says for reads: exact id, then exact normalised title, then titles containing every
//! word of the reference; among all tasks, open ones first. One match: the task; several: the
//! candidates (the answer can ask which); none: says so.

use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::call::{ToolEnv, ToolError};
use super::shown;
use crate::conversation::participation::may_see;
use crate::tasks::named::{self, Among};
use crate::tasks::Task;

/// Most candidates shown when several tasks match.
pub const MAX_CANDIDATES: usize = 10;

pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "task": {"type": "string", "minLength": 1, "maxLength": 200},
        },
        "required": ["task"],
        "additionalProperties": false,
    })
}

/// The tasks `reference` names, by the first rule that finds any; open tasks first
/// (`tasks::named`, shared with the chat's actions).
pub fn resolve(conn: &Connection, reference: &str) -> Result<Vec<Task>, ToolError> {
    Ok(named::candidates(conn, reference, Among::All)?)
}

pub fn run(
    conn: &Connection,
    args: &Map<String, Value>,
    env: &ToolEnv,
) -> Result<Value, ToolError> {
    let reference = args.get("task").and_then(Value::as_str).unwrap_or("");
    let visible = env.visible_chats(conn)?;
    let found: Vec<Task> = resolve(conn, reference)?
        .into_iter()
        .filter(|task| {
            visible
                .as_ref()
                .is_none_or(|visible| may_see(visible, task.origin_thread_id.as_deref()))
        })
        .collect();
    Ok(match found.as_slice() {
        [] => json!({ "found": 0, "note": "no task matches" }),
        [task] => json!({ "found": 1, "task": shown::task(task, env.timezone) }),
        several => json!({
            "found": several.len(),
            "note": "several tasks match; ask which one",
            "candidates": several
                .iter()
                .take(MAX_CANDIDATES)
                .map(|task| shown::task(task, env.timezone))
                .collect::<Vec<_>>(),
        }),
    })
}
