//! Behaviour that was built but never tested (issue 29 item 10), each through the real HTTP API,
//! store and model client against the fake model: `reply_decision.model`,
//! `reply_decision.group_only: false`, tool results cut at `planner.tool_result_chars`, the
//! history of a nudge reply cut at `memory.window_size`, draft expiry (`plans.expiry`) and a
//! second "undo" reverting the action before. (`chat.summary_on_close: false` is in
//! `tests/it/chat.rs`.) Each test fails when its behaviour breaks.

use crate::common;
use crate::common::Needed;

use chrono::Duration;
use common::fake_llm::{out, schema_title, start_fake_llm, FakeLlm, Script};
use common::start_bot;
use serde_json::{json, Value};

/// The bodies of the requests without an output schema (the REPLY/SKIP gate's).
fn gate_requests(fake: &FakeLlm) -> Vec<Value> {
    fake.requests()
        .into_iter()
        .map(|(_, body)| body)
        .filter(|body| schema_title(body).is_none())
        .collect()
}

/// Everything the model was shown in the last request titled `title`, as one string.
fn prompt_of(fake: &FakeLlm, title: &str) -> String {
    let count = fake.count(title);
    fake.messages_of(title, count.saturating_sub(1))
        .into_iter()
        .map(|(role, content)| format!("[{role}] {content}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `reply_decision.model`: the gate asks its own model; every other call the main one.
#[actix_rt::test]
async fn the_reply_gate_asks_the_model_reply_decision_model_names() {
    let fake = start_fake_llm();
    fake.set_models(&["fake-model", "gate-model"]);
    let bot = start_bot(&format!(
        "{}reply_decision:\n  enabled: true\n  model: gate-model\n",
        fake.config("ollama", "5s", 2)
    ))
    .await;
    let thread = bot.group_thread().await;
    fake.push(Script::Output("REPLY".into()));
    fake.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
    fake.push_for("chat", out(json!({"reply_to_user": "Sounds fun."})));
    let result = bot.say(&thread, "anyone up for lunch?").await;
    assert_eq!(result["path"], "chat", "{result}");
    let gate = gate_requests(&fake);
    assert_eq!(gate.len(), 1, "{:?}", fake.requests());
    assert_eq!(gate[0]["model"], "gate-model", "{}", gate[0]);
    let routed = fake
        .requests()
        .into_iter()
        .find(|(_, body)| schema_title(body).as_deref() == Some("route"))
        .map(|(_, body)| body)
        .needed();
    assert_eq!(routed["model"], "fake-model", "{routed}");
}

/// `reply_decision.group_only: false`: 1:1 chats are gated too (a SKIP stays quiet); nudge
/// threads never are.
#[actix_rt::test]
async fn with_group_only_off_a_one_to_one_chat_is_gated_and_a_nudge_thread_is_not() {
    let fake = start_fake_llm();
    fake.always(Script::Output("SKIP".into()));
    let bot = start_bot(&format!(
        "{}reply_decision:\n  enabled: true\n  group_only: false\n",
        fake.config("ollama", "5s", 2)
    ))
    .await;
    let direct = bot.free_thread().await;
    let skipped = bot.say(&direct, "hello there").await;
    assert_eq!(skipped["path"], "skipped", "{skipped}");
    assert_eq!(skipped["reply"], Value::Null);
    assert_eq!(gate_requests(&fake).len(), 1);
    let (task, thread) = bot.nudged_task("Pay rent").await;
    assert_eq!(bot.say(&thread, "done").await["path"], "fast");
    assert_eq!(bot.task_json(&task).await["status"], "done");
    assert_eq!(
        gate_requests(&fake).len(),
        1,
        "the nudge thread was not gated"
    );
}

/// `planner.tool_result_chars`: a tool result longer than it reaches the next prompts cut, and
/// says so.
#[actix_rt::test]
async fn a_tool_result_is_cut_at_planner_tool_result_chars() {
    let fake = start_fake_llm();
    let bot = start_bot(&format!(
        "planner:\n  tool_result_chars: 60\n{}",
        fake.config("ollama", "5s", 2)
    ))
    .await;
    for title in [
        "Renew passport",
        "Pay the gas bill",
        "Zebra crossing permit",
    ] {
        bot.task(json!({"title": title})).await;
    }
    let thread = bot.free_thread().await;
    fake.plans_one_call("list_tasks", json!({}));
    fake.push_for(
        "chat",
        out(json!({"reply_to_user": "You have three tasks."})),
    );
    let result = bot.say(&thread, "what's on my list at the moment?").await;
    assert_eq!(result["path"], "answer", "{result}");
    let prompt = prompt_of(&fake, "chat");
    assert!(prompt.contains("[source: tool list_tasks"), "{prompt}");
    assert!(prompt.contains(" [cut]"), "{prompt}");
    let quoted: Vec<&str> = prompt
        .lines()
        .filter(|line| line.starts_with("> {"))
        .collect();
    assert_eq!(quoted.len(), 1, "{prompt}");
    let result_chars = quoted[0]
        .trim_start_matches("> ")
        .trim_end_matches(" [cut]");
    assert_eq!(result_chars.chars().count(), 60, "{prompt}");
    for title in [
        "Renew passport",
        "Pay the gas bill",
        "Zebra crossing permit",
    ] {
        assert!(!prompt.contains(title), "{title} is past the cut: {prompt}");
    }
}

/// `memory.window_size`: a nudge reply's model prompt holds only the last N messages of the
/// thread before it.
#[actix_rt::test]
async fn a_nudge_replys_history_is_cut_at_memory_window_size() {
    let fake = start_fake_llm();
    fake.always(Script::answer(json!([]), "Noted."));
    let bot = start_bot(&format!(
        "memory:\n  window_size: 3\n{}",
        fake.config("ollama", "5s", 2)
    ))
    .await;
    let (_, thread) = bot.nudged_task("Renew passport").await;
    assert_eq!(bot.say(&thread, "busy").await["path"], "fast");
    assert_eq!(bot.say(&thread, "tomorrow").await["path"], "fast");
    let answered = bot.say(&thread, "what do I need to bring?").await;
    assert_eq!(answered["path"], "llm", "{answered}");
    let prompt = prompt_of(&fake, "classify");
    // Before the reply: nudge, "busy", snoozed, "tomorrow", moved. The last three only.
    assert!(
        prompt.contains("Donna: Snoozed 'Renew passport'"),
        "{prompt}"
    );
    assert!(prompt.contains("User: tomorrow"), "{prompt}");
    assert!(prompt.contains("Donna: Moved 'Renew passport'"), "{prompt}");
    assert!(!prompt.contains("User: busy"), "{prompt}");
    assert!(
        !prompt.contains("Donna: Time for 'Renew passport'"),
        "{prompt}"
    );
}

/// Draft expiry: Donna's question ("What should I add?") is answered only while it lives
/// (`plans.expiry`); afterwards the answer is read on its own.
#[actix_rt::test]
async fn a_draft_expires_like_a_plan() {
    let bot = start_bot("plans:\n  expiry: 10m\n").await;
    let live = bot.free_thread().await;
    assert_eq!(bot.say(&live, "add").await["path"], "clarify");
    bot.clock.advance(Duration::minutes(9));
    let created = bot.say(&live, "call the bank tomorrow").await;
    assert_eq!(created["path"], "task_created", "still live: {created}");

    let late = bot.free_thread().await;
    assert_eq!(bot.say(&late, "add").await["path"], "clarify");
    bot.clock.advance(Duration::minutes(11));
    let expired = bot.say(&late, "water the plants tomorrow").await;
    assert_ne!(expired["path"], "task_created", "expired: {expired}");
    let (_, tasks) = bot.get("/api/tasks").await;
    assert_eq!(tasks.as_array().map(Vec::len), Some(1), "{tasks}");
}

/// A second "undo" reverts the action before the last one; a third finds nothing.
#[actix_rt::test]
async fn a_second_undo_reverts_the_action_before() {
    let bot = start_bot("").await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    assert_eq!(bot.say(&thread, "busy").await["path"], "fast");
    let snoozed = bot.task_json(&task).await;
    assert!(snoozed["snoozed_until"].is_string(), "{snoozed}");
    assert_eq!(bot.say(&thread, "friday 3pm").await["path"], "fast");
    let moved = bot.task_json(&task).await;
    assert!(moved["scheduled_start"].is_string(), "{moved}");

    let first = bot.say(&thread, "undo").await;
    assert_eq!(first["path"], "undone", "{first}");
    let after_first = bot.task_json(&task).await;
    assert_eq!(after_first["scheduled_start"], Value::Null, "{after_first}");
    assert_eq!(
        after_first["snoozed_until"], snoozed["snoozed_until"],
        "back to snoozed: {after_first}"
    );
    let second = bot.say(&thread, "undo").await;
    assert_eq!(second["path"], "undone", "{second}");
    let after_second = bot.task_json(&task).await;
    assert_eq!(after_second["snoozed_until"], Value::Null, "{after_second}");
    assert_eq!(after_second["status"], "backlog", "{after_second}");
    assert_eq!(bot.say(&thread, "undo").await["path"], "unhandled");
}
