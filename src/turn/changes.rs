//! What a committed turn tells the event stream: the tasks its actions changed (`task` events)
//! and Donna's reply (a `message` event).
//!
//! Owns: turning the action journal of one turn into `task` payloads (created, status or
//! updated; one per task, with its status and title after the turn), and publishing them.
//! Invariant: `changed_tasks` runs inside the turn's transaction (it sees exactly the turn's own
//! changes); `publish` runs only after that transaction committed, so a turn whose commit failed
//! publishes nothing.

use rusqlite::Connection;

use crate::actions::journal::Journaled;
use crate::events::{EventBus, Payload, TaskChange};
use crate::store::StoreError;
use crate::tasks::{repo, Task};

use super::result::TurnResult;

/// The `task` payloads for the journal rows a turn wrote and, for an undo, the thread's task as
/// it was before it (`undone`). A task deleted again (an undone capture) is not reported.
pub fn changed_tasks(
    conn: &Connection,
    journal: Vec<Journaled>,
    undone: Option<Task>,
) -> Result<Vec<Payload>, StoreError> {
    // (task id, change so far, status before), in the order first touched.
    let mut touched: Vec<(String, TaskChange, Option<String>)> = Vec::new();
    let mut touch = |id: String, created: bool, before: Option<&Task>| match touched
        .iter_mut()
        .find(|(seen, _, _)| *seen == id)
    {
        Some((_, change, _)) if created => *change = TaskChange::Created,
        Some(_) => {}
        None => touched.push((
            id,
            if created {
                TaskChange::Created
            } else {
                TaskChange::Updated
            },
            before.map(|task| task.status.to_string()),
        )),
    };
    for row in &journal {
        if let Some(created) = &row.created_task_id {
            touch(created.clone(), true, None);
        } else if let Some(id) = &row.task_id {
            touch(id.clone(), false, row.before.as_ref());
        }
    }
    if let Some(task) = &undone {
        touch(task.id.clone(), false, Some(task));
    }
    let mut payloads = Vec::new();
    for (task_id, change, status_before) in touched {
        let Some(task) = repo::get(conn, &task_id)? else {
            continue;
        };
        let status = task.status.to_string();
        let change = match change {
            TaskChange::Updated if status_before.as_ref() != Some(&status) => TaskChange::Status,
            other => other,
        };
        payloads.push(Payload::Task {
            task_id,
            change,
            status,
            title: task.title,
        });
    }
    Ok(payloads)
}

/// Publishes a committed turn: its task changes, then Donna's reply (if she said anything).
pub fn publish(events: &EventBus, result: &TurnResult, tasks: Vec<Payload>) {
    for task in tasks {
        events.publish(task);
    }
    if let Some(text) = &result.reply {
        events.publish(Payload::Message {
            thread_id: result.thread_id.clone(),
            text: text.clone(),
        });
    }
}
