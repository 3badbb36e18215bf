//! What a turn did, as a group of equivalent messages must share it: the path, the actions run
//! or proposed with their parameters (the acting task's id aside), whether they wait for a
//! yes, what changed on the task, and the tasks created. The reply's words may differ.

use crate::common::Fields;
use serde_json::{json, Value};

use crate::common::Bot;

/// A turn's outcome (see the module header).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub path: String,
    /// (name, parameters without `task_id`).
    pub actions: Vec<(String, Value)>,
    pub proposed: bool,
    /// The task's fields a turn may change, after it (null in a free chat).
    pub task: Value,
    /// Tasks the turn created: title, start, deadline.
    pub created: Vec<Value>,
}

/// The task fields a turn may change.
fn task_state(task: &Value) -> Value {
    json!({
        "status": task["status"],
        "scheduled_start": task["scheduled_start"],
        "deadline": task["deadline"],
        "snoozed_until": task["snoozed_until"],
        "title": task["title"],
    })
}

fn actions(result: &Value) -> Vec<(String, Value)> {
    result["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|action| {
            let mut params = action["params"].clone();
            if let Some(params) = params.as_object_mut() {
                params.remove("task_id");
            }
            (action["name"].text().to_string(), params)
        })
        .collect()
}

async fn open_ids(bot: &Bot) -> Vec<String> {
    let (_, tasks) = bot.get("/api/tasks").await;
    tasks
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|task| task["id"].as_str().map(str::to_string))
        .collect()
}

/// What `text` does as the reply in a fresh nudge thread about a fresh task `title`.
pub async fn in_a_nudge_thread(bot: &Bot, title: &str, text: &str) -> (Outcome, Value) {
    let (task, thread) = bot.nudged_task(title).await;
    let before = open_ids(bot).await;
    let result = bot.say(&thread, text).await;
    let after = bot.task_json(&task).await;
    let outcome = Outcome {
        path: result["path"].text().to_string(),
        actions: actions(&result),
        proposed: !result["pending_plan_id"].is_null(),
        task: task_state(&after),
        created: created(bot, &before).await,
    };
    // Out of the next member's way: its own task is the one nudged.
    let _ = bot
        .patch(
            &format!("/api/tasks/{task}"),
            json!({ "status": "cancelled" }),
        )
        .await;
    (outcome, result)
}

/// What `text` does in a fresh free chat; the tasks it creates are cancelled afterwards, so the
/// next member is no duplicate of them.
pub async fn in_a_free_chat(bot: &Bot, text: &str) -> (Outcome, Value) {
    let thread = bot.free_thread().await;
    let before = open_ids(bot).await;
    let result = bot.say(&thread, text).await;
    let outcome = Outcome {
        path: result["path"].text().to_string(),
        actions: actions(&result),
        proposed: !result["pending_plan_id"].is_null(),
        task: Value::Null,
        created: created(bot, &before).await,
    };
    (outcome, result)
}

/// The tasks open now that were not before (cancelled once read).
async fn created(bot: &Bot, before: &[String]) -> Vec<Value> {
    let mut created = Vec::new();
    for id in open_ids(bot).await {
        if before.contains(&id) {
            continue;
        }
        let task = bot.task_json(&id).await;
        created.push(json!({
            "title": task["title"],
            "scheduled_start": task["scheduled_start"],
            "deadline": task["deadline"],
        }));
        let _ = bot
            .patch(
                &format!("/api/tasks/{id}"),
                json!({ "status": "cancelled" }),
            )
            .await;
    }
    created
}
