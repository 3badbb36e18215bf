//! One prefix for every model call: whatever kind of call came before (a reply to a nudge, a
//! free-text message, the chat room, a planner step, its composed answer, a summary, the group
//! reply check), the next call's request starts with the same bytes — the system message and
//! `route`'s guide and examples — also when the system message is folded into the first user
//! message (`llm.system_role: user`, as Gemma is served). A model server that keeps one
//! prompt (llama-cpp-python) or one per model (Ollama) then evaluates only what follows it:
//! the turn. What a person notices: a nudge reply right after a chat message no longer waits
//! for the model to read all of Donna's instructions again.
//!
//! Two views: the real bot against the fake model (every call kind a person can cause, each
//! request as it went over the wire), and the request bodies the bench `model_calls` replays
//! against the real server (benches/model_calls/cases.rs), so the test and the bench's
//! figures are about the same bytes. The frozen bodies of the earlier prompts
//! (benches/model_calls/before.json) must FAIL the same criterion: it can fail.

#[allow(dead_code)]
#[path = "../../benches/model_calls/cases.rs"]
mod cases;

use crate::common::{Fields, Needed};
use std::collections::BTreeMap;

use crate::common;

use chrono::Duration as ChronoDuration;
use common::fake_llm::{out, schema_title, start_fake_llm, FakeLlm, Script};
use common::{start_bot, Bot};
use donna::subsystems::chat_sessions::SessionsMsg;
use serde_json::{json, Value};

/// The words the scenario's person writes: none may be in the shared part.
const SAID: [&str; 6] = [
    "the landlord said",
    "ugh, long day",
    "call the plumber",
    "dentist thing",
    "who is bringing the cake",
    "Water the ficus",
];

/// Drives the bot through every kind of model call, each answered by the fake; returns every
/// request body by call kind (the reply check has no schema: "gate").
async fn every_call_kind(fake: &FakeLlm, llm: &str) -> BTreeMap<String, Vec<Value>> {
    let bot = start_bot(&format!(
        "reply_decision:\n  enabled: true\nchat:\n  session_ttl: 30m\n{llm}"
    ))
    .await;
    // A reply to a nudge the keywords do not take: `classify`.
    fake.push_for("classify", Script::answer(json!([]), "Alright."));
    let (_, thread) = bot.nudged_task("Water the ficus").await;
    let result = bot
        .say(&thread, "the landlord said we should talk first")
        .await;
    assert_eq!(result["path"], "llm", "{result}");
    // Small talk that `route` leaves to the chat room: `route`, `chat`.
    let free = bot.free_thread().await;
    fake.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
    fake.push_for(
        "chat",
        out(json!({"reply_to_user": "Rest up.", "actions": []})),
    );
    assert_eq!(bot.say(&free, "ugh, long day").await["path"], "chat");
    // A task `route` did not read: `route`, `parse_task`.
    fake.push_for(
        "route",
        out(json!({"intent": "capture", "confidence": 0.9})),
    );
    fake.push_for(
        "parse_task",
        out(json!({"title": "Call the plumber", "confidence": 0.9})),
    );
    let result = bot
        .say(&free, "could you make sure I call the plumber")
        .await;
    assert_eq!(result["path"], "task_created", "{result}");
    // A question whose step says only "done": `route`, `plan_step`, the composed `chat`.
    fake.push_for(
        "route",
        out(json!({"intent": "question", "confidence": 0.9})),
    );
    fake.push_for("plan_step", out(json!({"action": "done"})));
    fake.push_for(
        "chat",
        out(json!({"reply_to_user": "Nothing on that yet."})),
    );
    let result = bot
        .say(&free, "what's the deal with the dentist thing?")
        .await;
    assert_eq!(result["path"], "answer", "{result}");
    // A group message: the reply check first (no schema: the plain queue answers it).
    let group = bot.group_thread().await;
    fake.push(Script::Output("SKIP".into()));
    let result = bot
        .say_as(&group, "ann", "who is bringing the cake on saturday?")
        .await;
    assert_eq!(result["path"], "skipped", "{result}");
    // The chat session closes: `summarize`.
    bot.clock.advance(ChronoDuration::minutes(31));
    fake.push_for("summarize", out(json!({"summary": "They had a long day."})));
    sweep(&bot).await;
    let mut kinds: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (_, body) in fake.requests() {
        let kind = schema_title(&body).unwrap_or_else(|| "gate".into());
        kinds.entry(kind).or_default().push(body);
    }
    kinds
}

async fn sweep(bot: &Bot) {
    let closed = bot
        .app
        .chat_sessions
        .ask(|reply| SessionsMsg::Sweep { reply: Some(reply) })
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(closed, 1, "the session closed");
}

fn messages(body: &Value) -> Vec<Value> {
    body["messages"].items().to_vec()
}

/// How many messages every body starts with, identical byte for byte (role and content).
fn shared_messages(bodies: &[&Value]) -> usize {
    let all: Vec<Vec<Value>> = bodies.iter().map(|body| messages(body)).collect();
    let shortest = all.iter().map(Vec::len).min().unwrap_or(0);
    (0..shortest)
        .take_while(|index| all.iter().all(|m| m[*index] == all[0][*index]))
        .count()
}

/// Every call kind was made, and every request starts with the same `prefix_len` messages,
/// none of them holding the person's words; returns the first of them.
fn assert_one_prefix(kinds: &BTreeMap<String, Vec<Value>>, prefix_len: usize) -> Value {
    let made: Vec<&str> = kinds.keys().map(String::as_str).collect();
    assert_eq!(
        made,
        [
            "chat",
            "classify",
            "gate",
            "parse_task",
            "plan_step",
            "route",
            "summarize"
        ],
        "every kind (the planner's composed answer is a `chat`)"
    );
    assert_eq!(
        kinds["chat"].len(),
        2,
        "the chat room's and the composed answer"
    );
    let bodies: Vec<&Value> = kinds.values().flatten().collect();
    let shared = shared_messages(&bodies);
    assert!(
        shared >= prefix_len,
        "only {shared} messages are the same in every request: {:#?}",
        bodies
            .iter()
            .map(|body| messages(body).get(shared).cloned())
            .collect::<Vec<_>>()
    );
    let first = messages(bodies[0]);
    let shared_text = serde_json::to_string(&first[..prefix_len]).needed();
    for words in SAID {
        assert!(!shared_text.contains(words), "{words} is in the prefix");
    }
    first[0].clone()
}

#[actix_rt::test]
async fn every_call_kind_starts_with_the_one_system_message_and_route_s_examples() {
    let fake = start_fake_llm();
    let kinds = every_call_kind(&fake, &fake.config("ollama", "10s", 2)).await;
    // The system message, then `route`'s guide and 7 examples as user and assistant messages.
    let system = assert_one_prefix(&kinds, 15);
    assert_eq!(system["role"], "system");
    let text = system["content"].text();
    for kind in [
        "A reply to a nudge",
        "A reply check",
        "A summary",
        "A look-up step",
    ] {
        assert!(
            text.contains(kind),
            "the system message says how to answer {kind}"
        );
    }
}

#[actix_rt::test]
async fn folded_into_the_first_user_message_the_prefix_is_still_one() {
    let fake = start_fake_llm();
    let llm = format!("{}  system_role: user\n", fake.config("openai", "10s", 2));
    let kinds = every_call_kind(&fake, &llm).await;
    let first = assert_one_prefix(&kinds, 14);
    assert_eq!(first["role"], "user");
    let text = first["content"].text();
    assert!(text.starts_with("<instructions>\n"), "{text}");
    assert!(
        kinds.values().flatten().all(|body| messages(body)
            .iter()
            .all(|message| message["role"] != "system")),
        "no system message travels"
    );
}

/// The prompt as the server's chat template sees it: each message's role and content, in order.
fn prompt_text(body: &Value) -> String {
    messages(body)
        .iter()
        .map(|message| {
            format!(
                "<{}>\n{}\n",
                message["role"].text(),
                message["content"].text()
            )
        })
        .collect()
}

/// Bytes at the start of every prompt that are the same.
fn shared_prefix(prompts: &[String]) -> usize {
    let Some(first) = prompts.first() else {
        return 0;
    };
    (0..first.len())
        .take_while(|index| {
            prompts
                .iter()
                .all(|p| p.as_bytes().get(*index) == first.as_bytes().get(*index))
        })
        .count()
}

/// The bytes every call kind's two bodies (turns A and B) start with, in common.
fn common_start(cases: &cases::Cases) -> (usize, usize) {
    let prompts: Vec<String> = cases
        .calls
        .values()
        .flat_map(|pair| pair.iter().map(prompt_text))
        .collect();
    let shortest = prompts.iter().map(String::len).min().unwrap_or(0);
    (shared_prefix(&prompts), shortest)
}

fn before() -> cases::Cases {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/model_calls/before.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_bench_s_bodies_of_every_kind_share_all_but_their_turn_and_the_earlier_ones_did_not() {
    let today = cases::build("after");
    for kind in cases::KINDS {
        let [a, b] = &today.calls[kind];
        assert_ne!(a, b, "{kind}: the two turns must differ");
    }
    let (shared, shortest) = common_start(&today);
    // What follows the shared part is a turn: its words, time, records, and a line naming it.
    assert!(
        shared * 10 >= shortest * 8,
        "only {shared} of {shortest} bytes are shared by every kind and turn"
    );
    let frozen = before();
    let (before_shared, before_shortest) = common_start(&frozen);
    assert!(
        before_shared * 10 < before_shortest,
        "the earlier prompts shared {before_shared} of {before_shortest} bytes"
    );
}
