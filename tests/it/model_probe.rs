//! Is the model there? The probe's states as /health shows them (ready, missing, unreachable,
//! disabled, and back again), the honest reply when the model is not there, and the one line
//! the real binary logs about it at startup.

use crate::common;
use crate::common::Fields;

use std::time::Duration;

use common::fake_llm::{start_fake_llm, start_fake_llm_on, Script};
use common::process::{self, free_port, terminate};
use common::{eventually, start_bot, wait_until, Bot};
use serde_json::{json, Value};

/// Probe often, so state changes show within a test's patience.
const FAST_PROBE: &str = "  probe_interval: 200ms\n";

async fn health(bot: &Bot) -> (u16, Value) {
    bot.get("/health").await
}

/// Waits until /health's model state is `state`, and returns the last /health (status, body).
async fn wait_model_state(bot: &Bot, state: &str) -> (u16, Value) {
    let reached = eventually(Duration::from_secs(10), || async {
        health(bot).await.1["model"]["state"] == state
    })
    .await;
    let last = health(bot).await;
    assert!(reached, "model never became {state}: {}", last.1);
    last
}

fn reply(result: &Value) -> String {
    result["reply"].text().to_string()
}

/// The honest answer: names a keyword that works, and does not invite a retry.
fn assert_honest(result: &Value) {
    assert_eq!(result["path"], "llm_unavailable", "{result}");
    let text = reply(result);
    assert!(
        text.contains("can't reach my language model") && text.contains("'done'"),
        "{text}"
    );
    assert!(!text.contains("say it again"), "{text}");
}

#[actix_rt::test]
async fn with_nothing_listening_health_is_degraded_and_a_free_reply_says_what_works_without_calling(
) {
    let port = free_port();
    let bot = start_bot(&format!(
        "llm:\n  provider: ollama\n  base_url: http://127.0.0.1:{port}\n  model: gemma3:270m\n{FAST_PROBE}"
    ))
    .await;
    let (status, body) = wait_model_state(&bot, "unreachable").await;
    assert_eq!(status, 200, "degraded, not failed: {body}");
    assert_eq!(body["status"], "degraded", "{body}");
    assert_eq!(body["model"]["provider"], "ollama");
    assert_eq!(body["model"]["model"], "gemma3:270m");
    assert!(body["model"]["checked_at"].is_string(), "{body}");
    assert!(body["model"]["error"].is_string(), "{body}");

    let (task, thread) = bot.nudged_task("Pay rent").await;
    let result = bot.say(&thread, "hmm let me think about it").await;
    assert_honest(&result);
    // The model was known to be away: it was not even asked.
    let metrics = bot.metrics_text().await;
    assert!(metrics.contains("donna_llm_calls_total 0"), "{metrics}");
    // And the keyword it named works.
    let done = bot.say(&thread, "done").await;
    assert_eq!(done["path"], "fast", "{done}");
    assert_eq!(bot.task_json(&task).await["status"], "done");
}

#[actix_rt::test]
async fn an_ollama_server_with_the_model_is_ready_and_health_stays_ok() {
    let fake = start_fake_llm();
    let bot = start_bot(&format!("{}{FAST_PROBE}", fake.config("ollama", "5s", 2))).await;
    let (status, body) = wait_model_state(&bot, "ready").await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ok", "{body}");
    assert_eq!(body["model"]["model"], "fake-model");
    assert!(body["model"]["checked_at"].is_string(), "{body}");
    assert!(body["model"]["error"].is_null(), "{body}");
    assert!(fake.list_requests() >= 1);
}

#[actix_rt::test]
async fn a_server_without_the_model_is_missing_and_the_reply_says_what_works_without_a_chat_call() {
    let fake = start_fake_llm();
    fake.set_models(&["llama3:8b", "qwen2.5:0.5b"]);
    let bot = start_bot(&format!("{}{FAST_PROBE}", fake.config("ollama", "5s", 2))).await;
    let (status, body) = wait_model_state(&bot, "missing").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "degraded", "{body}");
    let error = body["model"]["error"].text();
    assert!(
        error.contains("llama3:8b"),
        "the error lists what is there: {error}"
    );
    let (_, thread) = bot.nudged_task("Pay rent").await;
    let result = bot.say(&thread, "hmm let me think about it").await;
    assert_honest(&result);
    assert!(fake.requests().is_empty(), "{:?}", fake.requests());
}

#[actix_rt::test]
async fn an_openai_compatible_server_listing_the_model_under_v1_models_is_ready() {
    let fake = start_fake_llm();
    let bot = start_bot(&format!("{}{FAST_PROBE}", fake.config("openai", "5s", 2))).await;
    let (_, body) = wait_model_state(&bot, "ready").await;
    assert_eq!(body["model"]["provider"], "openai");
    assert_eq!(body["status"], "ok", "{body}");
    assert!(fake.list_requests() >= 1);
}

#[actix_rt::test]
async fn an_openai_server_listing_other_names_is_still_asked_and_its_404_says_what_works() {
    // OpenAI-compatible servers often serve one model under any name (llama.cpp, whose list
    // names the model file): "missing" there is reported, but the model is still asked.
    let fake = start_fake_llm();
    fake.set_models(&["/models/gemma-3-270m.gguf"]);
    let bot = start_bot(&format!("{}{FAST_PROBE}", fake.config("openai", "5s", 2))).await;
    let (_, body) = wait_model_state(&bot, "missing").await;
    assert_eq!(body["status"], "degraded", "{body}");
    let (_, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::answer(json!([]), "Noted, take your time."));
    let answered = bot.say(&thread, "hmm let me think about it").await;
    assert_eq!(answered["path"], "llm", "{answered}");
    assert_eq!(fake.requests().len(), 1);
    // It answered for this name: the list no longer makes it missing.
    let (_, body) = wait_model_state(&bot, "ready").await;
    assert_eq!(body["status"], "ok", "{body}");
    // A server that then answers 404 for the model does not have it: say what works.
    fake.push(Script::Status(404));
    let refused = bot
        .say(&thread, "hmm let me think about it some more")
        .await;
    assert_honest(&refused);
    assert_eq!(health(&bot).await.1["model"]["state"], "missing");
}

#[actix_rt::test]
async fn without_a_model_the_state_is_disabled_and_health_is_ok() {
    let bot = start_bot("").await;
    let (status, body) = health(&bot).await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ok", "{body}");
    assert_eq!(body["model"]["state"], "disabled", "{body}");
    assert_eq!(body["model"]["provider"], "none", "{body}");
    assert!(body["model"]["checked_at"].is_null(), "{body}");
}

#[actix_rt::test]
async fn a_server_that_comes_and_goes_is_seen_coming_and_going() {
    let port = free_port();
    let address = format!("127.0.0.1:{port}");
    let bot = start_bot(&format!(
        "llm:\n  provider: ollama\n  base_url: http://{address}\n  model: fake-model\n{FAST_PROBE}"
    ))
    .await;
    wait_model_state(&bot, "unreachable").await;
    let fake = start_fake_llm_on(&address);
    let (_, body) = wait_model_state(&bot, "ready").await;
    assert_eq!(body["status"], "ok", "{body}");
    fake.stop().await;
    let (status, body) = wait_model_state(&bot, "unreachable").await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "degraded", "{body}");
}

#[test]
fn the_binary_says_once_at_startup_that_the_model_is_unreachable_and_how_to_start_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (port, model_port) = (free_port(), free_port());
    let config = dir.path().join("donna.yaml");
    std::fs::write(
        &config,
        format!(
            "data_dir: data\ntimezone: UTC\nhttp:\n  bind: 127.0.0.1:{port}\nllm:\n  provider: ollama\n  base_url: http://127.0.0.1:{model_port}\n  model: gemma3:270m\n"
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut running = process::run(&config, port);
    process::wait_healthy(&mut running);
    // Serving may begin a moment before the first probe has answered.
    let mut body = Value::Null;
    wait_until(Duration::from_secs(10), || {
        // No answer yet is no state yet: look again.
        body = process::health(port).map_or(Value::Null, |(_, body)| body);
        body["model"]["state"] != "unknown"
    });
    assert_eq!(body["model"]["state"], "unreachable", "{body}");
    assert_eq!(body["status"], "degraded", "{body}");
    assert_eq!(terminate(&mut running.child), Some(0));
    let stderr = running.stderr();
    let expected =
        format!("model ollama gemma3:270m at http://127.0.0.1:{model_port}: unreachable");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains(&expected)).collect();
    assert_eq!(lines.len(), 1, "one line about the model:\n{stderr}");
    assert!(
        lines[0].contains("WARN") && lines[0].contains("ollama pull gemma3:270m"),
        "{}",
        lines[0]
    );
    let summary = stderr
        .lines()
        .find(|l| l.contains("donna is running"))
        .unwrap_or_else(|| panic!("no startup summary:\n{stderr}"));
    for part in [
        "version=",
        "config=",
        "data_dir=",
        "discord=off",
        &format!("bind=127.0.0.1:{port}"),
    ] {
        assert!(summary.contains(part), "{part} missing from: {summary}");
    }
    // The summary waits up to 2 s for the first probe; on a loaded machine it may say
    // "checking" (the probe's own line above still says what it found).
    assert!(
        summary.contains("model_state=unreachable") || summary.contains("model_state=checking"),
        "{summary}"
    );
}
