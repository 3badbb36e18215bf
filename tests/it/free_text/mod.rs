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

fn local(value: &Value) -> Option<String> {
    value.as_str().map(|text| text.chars().take(16).collect())
}
