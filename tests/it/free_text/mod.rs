//! Free text and task capture, through the HTTP API with the real store: tables of
//! sentences that capture (title and time), sentences that must create and change nothing, the
//! rules' answers, duplicates, drafts (across a restart), undo and learned preferences.
//! The clock stands at Monday 23 November 2026, 10:00 UTC (11:00 in Paris).
//!
//! `captures`: what captures and what must not; `times`: each kind of time, and times read in
//! part or unusable; `questions`: the rules' answers; `duplicates`; `drafts`: the questions
//! for what is missing; `corrections`: undo and learned preferences; `recurring`: automations
//! and recurrences proposed in words.

mod captures;
mod corrections;
mod drafts;
mod duplicates;
mod questions;
mod recurring;
mod times;

use crate::common;
use crate::common::Fields;

use common::{start_bot, start_bot_in, Bot, TestEnv};
use serde_json::{json, Value};

const PARIS: &str = "timezone: Europe/Paris\n";

async fn tasks(bot: &Bot) -> Vec<Value> {
    let (_, list) = bot.get("/api/tasks").await;
    list.items().to_vec()
}

/// `sentence` in a fresh chat creates one task with `title`, `deadline` and `start` (local
/// "YYYY-MM-DDTHH:MM", or none): the chat, the turn's result and the task.
async fn captured(
    bot: &Bot,
    sentence: &str,
    title: &str,
    deadline: Option<&str>,
    start: Option<&str>,
) -> (String, Value, Value) {
    let thread = bot.free_thread().await;
    let result = bot.say(&thread, sentence).await;
    assert_eq!(result["path"], "task_created", "{sentence}: {result}");
    let task = bot.task_json(result["results"][0]["task_id"].text()).await;
    assert_eq!(task["title"], title, "{sentence}");
    assert_eq!(
        local(&task["deadline"]).as_deref(),
        deadline,
        "{sentence}: {task}"
    );
    assert_eq!(
        local(&task["scheduled_start"]).as_deref(),
        start,
        "{sentence}: {task}"
    );
    (thread, result, task)
}

fn local(value: &Value) -> Option<String> {
    value.as_str().map(|text| text.chars().take(16).collect())
}
