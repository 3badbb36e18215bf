//! `get_task` {task}: one task by id or title words, resolved as DESIGN.md "Tasks named in
//! chat" says for reads: exact id, then exact normalised title, then titles containing every
//! word of the reference; among all tasks, open ones first. One match: the task; several: the
//! candidates (the answer can ask which); none: says so.

use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::call::{ToolEnv, ToolError};
use super::shown;
use crate::capture::duplicates::normalise;
use crate::tasks::{repo, Task};

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

/// The tasks `reference` names, by the first rule that finds any; open tasks first.
pub fn resolve(conn: &Connection, reference: &str) -> Result<Vec<Task>, ToolError> {
    if let Some(task) = repo::get(conn, reference.trim())? {
        return Ok(vec![task]);
    }
    let wanted = normalise(reference);
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let mut all = repo::list(conn, None)?;
    // Open first (stable: newest first within each).
    all.sort_by_key(|task| !task.status.is_open());
    let exact: Vec<Task> = all
        .iter()
        .filter(|task| normalise(&task.title) == wanted)
        .cloned()
        .collect();
    if !exact.is_empty() {
        return Ok(exact);
    }
    let words: Vec<&str> = wanted.split(' ').collect();
    Ok(all
        .into_iter()
        .filter(|task| {
            let title = normalise(&task.title);
            let title_words: Vec<&str> = title.split(' ').collect();
            words.iter().all(|word| title_words.contains(word))
        })
        .collect())
}

pub fn run(
    conn: &Connection,
    args: &Map<String, Value>,
    env: &ToolEnv,
) -> Result<Value, ToolError> {
    let reference = args.get("task").and_then(Value::as_str).unwrap_or("");
    let found = resolve(conn, reference)?;
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
