//! A free-text turn costs the same with many open tasks as with a few: before `route`, Donna
//! checks whether the message asks for a change to one of the open tasks it names
//! (`turn::task_change`), and a message that shares words with every open task ("call the bank
//! about the loan" beside a list of "Call the bank about case N") must not be read once per
//! task. Read per task, a capture took 150-220 ms over an instant model with a few hundred
//! such tasks (release build), where the same two model calls took 0.33 ms.
//!
//! Measured as a ratio within the test, on two bots whose turns alternate, so that the load of
//! a shared machine falls on both alike.

use crate::common;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use std::time::{Duration, Instant};

use common::fake_llm::{out, start_fake_llm, FakeLlm};
use common::Bot;
use serde_json::json;

/// Open tasks the message names on the busy bot (each shares "call" and "bank" with it).
const NAMED_TASKS: usize = 200;
/// Turns timed on each bot.
const TURNS: usize = 7;
/// How many times the quiet bot's turn the busy bot's may take. Judged once, a debug build's
/// busy turn took 1.8 times the quiet one (the 200 rows are still read and compared, and the
/// machine was shared); judged once per task, 28 times (810 ms against 29 ms).
const MOST_TIMES_AS_LONG: f64 = 8.0;

const ASKED: &str = "could you make sure I call the bank about the loan on friday";

fn median(mut took: Vec<Duration>) -> Duration {
    took.sort();
    took[took.len() / 2]
}

/// One capture on `bot` over `fake`: how long the person waited for the answer.
async fn capture(bot: &Bot, fake: &FakeLlm, index: usize) -> Duration {
    fake.push_for(
        "route",
        out(json!({"intent": "capture", "confidence": 0.9})),
    );
    fake.push_for(
        "parse_task",
        out(
            json!({"title": format!("Ask the bank about loan {index}"), "when": "friday",
                   "confidence": 0.9}),
        ),
    );
    let thread = bot.free_thread().await;
    let started = Instant::now();
    let result = bot.say(&thread, ASKED).await;
    let took = started.elapsed();
    assert_eq!(result["path"], "task_created", "{result}");
    took
}

#[actix_rt::test]
async fn a_capture_takes_as_long_with_hundreds_of_open_tasks_named_as_with_two() {
    let (quiet_model, busy_model) = (start_fake_llm(), start_fake_llm());
    let quiet = TestConfig::new()
        .with_llm(&quiet_model, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    let busy = TestConfig::new()
        .with_llm(&busy_model, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    for case in 0..2 {
        quiet
            .task(json!({"title": format!("Call the bank about case {case}")}))
            .await;
    }
    for case in 0..NAMED_TASKS {
        busy.task(json!({"title": format!("Call the bank about case {case}")}))
            .await;
    }
    // The first turn of each warms what any first turn warms.
    capture(&quiet, &quiet_model, 0).await;
    capture(&busy, &busy_model, 0).await;
    let (mut quiet_took, mut busy_took) = (Vec::new(), Vec::new());
    for index in 1..=TURNS {
        quiet_took.push(capture(&quiet, &quiet_model, index).await);
        busy_took.push(capture(&busy, &busy_model, index).await);
    }
    let (quiet_took, busy_took) = (median(quiet_took), median(busy_took));
    assert!(
        busy_took.as_secs_f64() <= MOST_TIMES_AS_LONG * quiet_took.as_secs_f64(),
        "a capture with {NAMED_TASKS} open tasks named took {busy_took:?} (median of {TURNS}), \
         with 2 it took {quiet_took:?}"
    );
    // Nothing was taken for a change to a task: every turn was a capture through route.
    assert_eq!(busy_model.count("route"), TURNS + 1);
    assert_eq!(busy_model.count("parse_task"), TURNS + 1);
}
