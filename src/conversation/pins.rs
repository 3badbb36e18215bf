//! Pinned chats: a free thread opened with `POST /api/threads {task_id}` shows that task in
//! every chat prompt (docs/contract.md "Chat engine").
//!
//! Invariant: the pin is the thread's `pinned_task_id`, never its `task_id`: the thread stays a
//! free chat and nudges never reuse it.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

use crate::store::StoreError;

pub fn pin(conn: &Connection, thread_id: &str, task_id: &str) -> Result<(), StoreError> {
    conn.prepare_cached("UPDATE thread SET pinned_task_id = ?2 WHERE id = ?1")?
        .execute(params![thread_id, task_id])?;
    Ok(())
}

/// The task the thread is pinned to, if any.
pub fn pinned(conn: &Connection, thread_id: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT pinned_task_id FROM thread WHERE id = ?1")?
        .query_row([thread_id], |row| row.get::<_, Option<String>>(0))
        .optional()?
        .flatten())
}

/// Every pinned thread and its task.
pub fn all(conn: &Connection) -> Result<HashMap<String, String>, StoreError> {
    let mut statement = conn
        .prepare_cached("SELECT id, pinned_task_id FROM thread WHERE pinned_task_id IS NOT NULL")?;
    let pins = statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<HashMap<String, String>, _>>()?;
    Ok(pins)
}
