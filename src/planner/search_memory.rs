//! `search_memory` {query, limit?}: full-text search over the memory of the chats the asker
//! takes part in (FTS5, ranked by bm25; `conversation::memory_search`), each hit with its
//! thread, who spoke and when.

use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::call::{ToolEnv, ToolError};
use super::shown;
use crate::conversation::memory_search;

pub const DEFAULT_LIMIT: i64 = 5;
pub const MAX_LIMIT: i64 = 20;
/// Longest message text shown per hit.
pub const HIT_CHARS: usize = 300;

pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        },
        "required": ["query"],
        "additionalProperties": false,
    })
}

pub fn run(
    conn: &Connection,
    args: &Map<String, Value>,
    env: &ToolEnv,
) -> Result<Value, ToolError> {
    let query = args.get("query").and_then(Value::as_str).unwrap_or("");
    let limit = args
        .get("limit")
        .and_then(Value::as_i64)
        .unwrap_or(DEFAULT_LIMIT);
    let hits = memory_search::search(
        conn,
        query,
        usize::try_from(limit).unwrap_or(0),
        env.viewer.as_ref(),
    )?;
    let shown: Vec<Value> = hits
        .iter()
        .map(|hit| {
            json!({
                "thread_id": hit.thread_id,
                "who": hit.role.as_str(),
                "at": shown::time(Some(hit.created_at), env.timezone),
                "text": hit.content.chars().take(HIT_CHARS).collect::<String>(),
            })
        })
        .collect();
    Ok(json!({ "hits": shown }))
}
