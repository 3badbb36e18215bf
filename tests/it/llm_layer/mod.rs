//! The model layer against a fake model server on loopback (both protocols): prompts, strict
//! validation, plan-and-confirm, the failure contract, isolation and the concurrency cap.
//!
//! `plans`: prompts, strict validation and plan-and-confirm; `failures`: the failure contract;
//! `concurrency`: isolation, the cap and plans against the clock; `nudge_threads`: a task
//! proposed in a nudge thread.

mod concurrency;
mod failures;
mod nudge_threads;
mod plans;

use crate::common;
use crate::common::{Fields, Needed};

use std::time::Duration;

use common::fake_llm::{start_fake_llm, FakeLlm, Script};
use common::{eventually, start_bot, Bot};
use serde_json::{json, Value};

async fn bot_with(fake: &FakeLlm, provider: &str) -> Bot {
    start_bot(&fake.config(provider, "5s", 2)).await
}

fn reply(result: &Value) -> &str {
    result["reply"].text()
}

/// Everything the model was shown in the last request, as one string.
fn last_prompt(fake: &FakeLlm) -> String {
    fake.requests()
        .last()
        .map(|(_, body)| {
            body["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m["content"].as_str())
                .collect::<Vec<_>>()
                .join("\n---\n")
        })
        .needed()
}
