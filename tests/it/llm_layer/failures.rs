//! The failure contract: every failure mode apologises, runs nothing and keeps the bot
//! healthy; an endless answer is cut off; unknown fields cost no retry.

use super::*;
use crate::common::health::actor_in;
use crate::common::Fields;
use crate::common::TestConfig;
use donna::config::LlmProvider;

#[actix_rt::test]
async fn every_failure_mode_apologises_executes_nothing_and_keeps_the_bot_healthy() {
    let fake = start_fake_llm();
    let bot = start_bot(&fake.config("ollama", "300ms", 2)).await;
    let garbage = || Script::Output("{\"actions\": \"all of them\"".into());
    let no_reply = || Script::Output(json!({"actions": [], "reasoning": "x"}).to_string());
    let modes: Vec<(&str, Vec<Script>)> = vec![
        (
            "timeout",
            vec![Script::Delay(
                Duration::from_secs(2),
                Box::new(Script::answer(json!([]), "late")),
            )],
        ),
        ("http 500", vec![Script::Status(500)]),
        ("garbage twice", vec![garbage(), garbage()]),
        ("schema-violating twice", vec![no_reply(), no_reply()]),
        (
            "empty twice",
            vec![Script::Output(String::new()), Script::Output(String::new())],
        ),
        ("ten thousand actions twice", {
            let many = json!({"actions": vec![json!({"name": "mark_done", "params": {}}); 10_000], "reply_to_user": "x", "reasoning": ""}).to_string();
            vec![Script::Output(many.clone()), Script::Output(many)]
        }),
    ];
    for (mode, scripts) in modes {
        let (task, thread) = bot.nudged_task(&format!("Task {mode}")).await;
        for script in scripts {
            fake.push(script);
        }
        let result = bot.say(&thread, "hmm, about that one").await;
        assert_eq!(result["path"], "llm_unavailable", "{mode}: {result}");
        assert!(reply(&result).starts_with("Sorry"), "{mode}");
        assert_eq!(result["actions"], json!([]), "{mode}");
        assert_eq!(bot.task_json(&task).await["status"], "backlog", "{mode}");
        // The thread stays usable and the FastPath works while the model is down.
        let done = bot.say(&thread, "done").await;
        assert_eq!(done["path"], "fast", "{mode}");
    }
    let (status, health) = bot.get("/health").await;
    assert_eq!(status, 200, "{health}");
    let record = actor_in(&health, "llm_classifier");
    assert_eq!(record["state"], "running");
    assert!(
        record["last_failure"]["message"]
            .text()
            .starts_with("model call failed"),
        "{record}"
    );
    let metrics = bot.metrics_text().await;
    assert!(
        metrics.contains("donna_turn_duration_seconds_count{path=\"llm_unavailable\"} 6"),
        "{metrics}"
    );
    assert!(
        metrics.contains("donna_llm_failures_total{kind=\"timeout\"} 1"),
        "{metrics}"
    );
}

#[actix_rt::test]
async fn a_refused_connection_apologises() {
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"));
    let bot = start_bot(&format!(
        "llm:\n  provider: openai\n  base_url: http://127.0.0.1:{closed_port}/v1\n"
    ))
    .await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    let result = bot.say(&thread, "hmm, about that one").await;
    assert_eq!(result["path"], "llm_unavailable");
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
}

#[actix_rt::test]
async fn an_endless_model_answer_is_cut_off_at_64_kib_and_the_turn_apologises_at_once() {
    const FULL_BODY: usize = 50 * 1024 * 1024;
    let fake = start_fake_llm();
    // 64 KiB every 20 ms: the whole body would take 16 s, longer than llm.timeout (10 s).
    fake.push(Script::Stream {
        chunk: 64 * 1024,
        every: Duration::from_millis(20),
        total: FULL_BODY,
    });
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    let started = std::time::Instant::now();
    let result = bot.say(&thread, "hmm, about that one").await;
    let took = started.elapsed();
    assert_eq!(result["path"], "llm_unavailable", "{result}");
    assert!(reply(&result).starts_with("Sorry"), "{result}");
    assert_eq!(result["actions"], json!([]));
    // Well under llm.timeout (10 s): the turn did not wait for the body to end or time out
    // (the byte count below is the proof that does not depend on the machine's load).
    assert!(
        took < Duration::from_secs(8),
        "the turn took {took:?}: the client read on instead of stopping at 64 KiB"
    );
    // The client hung up: the fake's body ended early, after far less than the whole body
    // (what the kernel's socket buffers took in is all that went out beyond the bound).
    assert!(
        eventually(Duration::from_secs(5), || async {
            !fake.stream_ends().is_empty()
        })
        .await,
        "the stream never ended"
    );
    let end = fake.stream_ends()[0];
    assert!(!end.complete, "{end:?}");
    assert!(end.sent < 8 * 1024 * 1024, "{end:?}");
    // A server that sends too much is not asked again.
    assert_eq!(fake.requests().len(), 1);
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
    let (status, _) = bot.get("/health").await;
    assert_eq!(status, 200);
    let metrics = bot.metrics_text().await;
    assert!(
        metrics.contains("donna_llm_failures_total{kind=\"too_large\"} 1"),
        "{metrics}"
    );
}

/// Fields the model adds beyond the answer's own are ignored (at the top and
/// inside an action), so an answer that is otherwise right costs no retry; a missing required
/// field still does.
#[actix_rt::test]
async fn unknown_fields_in_the_models_answer_are_ignored_and_cost_no_retry() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama").await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::Output(
        json!({
            "actions": [{"name": "mark_done", "params": {}, "why": "they paid"}],
            "reply_to_user": "Glad it's paid!",
            "reasoning": "the person says they paid",
            "confidence": 0.93,
            "intent": "mark_done"
        })
        .to_string(),
    ));
    let proposed = bot
        .say(
            &thread,
            "I paid it this morning, but the receipt is missing",
        )
        .await;
    assert_eq!(proposed["path"], "llm", "{proposed}");
    assert_eq!(proposed["actions"][0]["name"], "mark_done", "{proposed}");
    assert!(
        reply(&proposed).starts_with("Glad it's paid!"),
        "{proposed}"
    );
    assert_eq!(fake.requests().len(), 1, "an extra field cost a retry");
    assert_eq!(bot.say(&thread, "yes").await["path"], "plan_confirmed");
    assert_eq!(bot.task_json(&task).await["status"], "done");

    // Still invalid: a required field missing (one retry, then the apology).
    fake.push(Script::Output(
        json!({"actions": [], "confidence": 0.9}).to_string(),
    ));
    fake.push(Script::Output(
        json!({"actions": [], "confidence": 0.9}).to_string(),
    ));
    let (_, other) = bot.nudged_task("Call the bank").await;
    let failed = bot.say(&other, "hmm, about the bank thing").await;
    assert_eq!(failed["path"], "llm_unavailable", "{failed}");
    assert_eq!(fake.requests().len(), 3, "one retry for a missing field");
}
