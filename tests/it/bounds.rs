//! Bounds and shutdown: the per-thread queue and the global cap refuse with 429 and record
//! nothing; shutdown lets turns in flight finish and refuses new ones with 503; a turn cut off
//! by the grace period stays in the inbox for the next start.

use crate::common;
use crate::common::Needed;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use std::time::Duration;

use common::fake_llm::{start_fake_llm, Script};
use common::{eventually, start_bot, start_bot_in, TestEnv};
use serde_json::{json, Value};

fn slow_llm() -> common::fake_llm::FakeLlm {
    let fake = start_fake_llm();
    fake.always(Script::Delay(
        Duration::from_millis(600),
        Box::new(Script::answer(json!([]), "Hmm.")),
    ));
    fake
}

async fn send(
    bot: &common::Bot,
    thread: &str,
    text: &str,
    id: &str,
) -> actix_rt::task::JoinHandle<(u16, Value)> {
    let request = bot
        .client
        .post(format!("{}/api/messages", bot.base))
        .json(&json!({"thread_id": thread, "user_id": "owner", "text": text, "message_id": id}))
        .send();
    actix_rt::spawn(async move {
        match request.await {
            Ok(response) => {
                let status = response.status().as_u16();
                (status, response.json().await.unwrap_or(Value::Null))
            }
            Err(error) => panic!("{error}"),
        }
    })
}

/// Sends a message and waits for the answer: (status, body, its Retry-After header).
async fn say_headers(
    bot: &common::Bot,
    thread: &str,
    text: &str,
    id: &str,
) -> (u16, Value, Option<String>) {
    let response = bot
        .client
        .post(format!("{}/api/messages", bot.base))
        .json(&json!({"thread_id": thread, "user_id": "owner", "text": text, "message_id": id}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (
        status,
        response.json().await.unwrap_or(Value::Null),
        retry_after,
    )
}

async fn user_messages(bot: &common::Bot, thread: &str) -> usize {
    let (_, history) = bot.get(&format!("/api/threads/{thread}/messages")).await;
    history
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "user")
        .count()
}

#[actix_rt::test]
async fn a_full_thread_queue_answers_429_and_records_nothing() {
    let fake = slow_llm();
    let bot = start_bot(&format!(
        "{}runtime:\n  thread_queue: 1\n",
        fake.config("ollama", "10s", 4)
    ))
    .await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    let first = send(&bot, &thread, "tell me more", "a").await;
    assert!(eventually(Duration::from_secs(5), || async { fake.in_flight() == 1 }).await);
    let second = send(&bot, &thread, "and more", "b").await;
    assert!(
        eventually(Duration::from_secs(5), || async {
            bot.app.intake.router().health().queue_depth() == 1
        })
        .await
    );
    let (status, answer, retry_after) = say_headers(&bot, &thread, "and even more", "c").await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(
        retry_after.as_deref(),
        Some("1"),
        "a 429 says when to retry"
    );
    assert!(answer["error"]
        .as_str()
        .is_some_and(|e| e.contains("try again")));
    let (first, second) = (first.await, second.await);
    assert_eq!(first.map(|r| r.0).ok(), Some(200));
    assert_eq!(second.map(|r| r.0).ok(), Some(200));
    assert_eq!(
        user_messages(&bot, &thread).await,
        2,
        "the refused message left no trace"
    );
    // Its retry with the same id is then accepted.
    let (status, _) = bot.say_with_id(&thread, "and even more", "c").await;
    assert_eq!(status, 200);
}

#[actix_rt::test]
async fn the_global_cap_on_turns_in_flight_answers_429() {
    let fake = slow_llm();
    let bot = start_bot(&format!(
        "{}runtime:\n  max_turns_in_flight: 2\n",
        fake.config("ollama", "10s", 4)
    ))
    .await;
    let mut threads = Vec::new();
    for i in 0..3 {
        threads.push(bot.nudged_task(&format!("Task {i}")).await.1);
    }
    let first = send(&bot, &threads[0], "tell me more", "a").await;
    let second = send(&bot, &threads[1], "tell me more", "b").await;
    assert!(eventually(Duration::from_secs(5), || async { fake.in_flight() == 2 }).await);
    let (status, _, retry_after) = say_headers(&bot, &threads[2], "tell me more", "c").await;
    assert_eq!(status, 429);
    assert_eq!(
        retry_after.as_deref(),
        Some("1"),
        "a 429 says when to retry"
    );
    assert_eq!(user_messages(&bot, &threads[2]).await, 0);
    assert_eq!(first.await.map(|r| r.0).ok(), Some(200));
    assert_eq!(second.await.map(|r| r.0).ok(), Some(200));
}

#[actix_rt::test]
async fn shutdown_finishes_turns_in_flight_and_refuses_new_ones() {
    let fake = slow_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 4)
        .start()
        .await;
    let (_, busy) = bot.nudged_task("Busy thread").await;
    let (_, other) = bot.nudged_task("Other thread").await;
    let in_flight = send(&bot, &busy, "tell me more", "a").await;
    assert!(eventually(Duration::from_secs(5), || async { fake.in_flight() == 1 }).await);
    bot.app.intake.router().close();
    let (status, _) = bot.say_with_id(&other, "done", "b").await;
    assert_eq!(status, 503);
    let left = bot.app.shutdown(Duration::from_secs(5)).await;
    assert_eq!(left, 0);
    let (status, answer) = in_flight.await.unwrap_or((0, Value::Null));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["path"], "llm");
}

#[actix_rt::test]
async fn a_turn_cut_off_by_the_grace_period_is_finished_at_the_next_start() {
    let fake = start_fake_llm();
    fake.push(Script::Delay(
        Duration::from_secs(3),
        Box::new(Script::answer(json!([]), "late")),
    ));
    fake.always(Script::answer(json!([]), "On it."));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = fake.config("ollama", "10s", 4);
    let bot = start_bot_in(dir, &config, TestEnv(Vec::new())).await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    let _cut_off = send(&bot, &thread, "tell me more", "a").await;
    assert!(eventually(Duration::from_secs(5), || async { fake.in_flight() == 1 }).await);
    bot.app.intake.router().close();
    let left = bot.app.shutdown(Duration::from_millis(200)).await;
    assert_eq!(
        left, 1,
        "the turn was still in flight at the end of the grace period"
    );
    // What the process's exit would do: drop everything, the lock with it.
    bot.stop_server_now().await;
    let common::Bot { dir, app, .. } = bot;
    drop(app);
    // The HTTP workers let go of the data-dir lock a moment later: `start_bot_in` waits for
    // the lock itself, which is the condition that proves the previous app is gone.

    let again = start_bot_in(dir, &config, TestEnv(Vec::new())).await;
    assert_eq!(again.app.recover().await.needed(), 1);
    assert!(
        eventually(Duration::from_secs(5), || async {
            user_messages(&again, &thread).await == 1
        })
        .await
    );
    let (status, result) = again.say_with_id(&thread, "tell me more", "a").await;
    assert_eq!(status, 200);
    assert_eq!(result["reply"], "On it.");
}
