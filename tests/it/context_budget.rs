//! The context the model runs with (`llm.context_tokens`, 4,096 by default), and prompts that
//! fit it, with the fake model on loopback. What a person notices: a long chat goes on being
//! answered (it used to end in "I can't use my language model right now" once the prompt grew
//! past what the server holds); Ollama is told the context to run with; a llama.cpp server
//! that runs with less is believed; the operator sees the figures in /health and at start.

use crate::common;
use crate::common::Needed;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use common::fake_llm::{out, start_fake_llm, FakeLlm};
use common::process::{self, terminate};
use common::{eventually, start_bot, Bot};
use donna::llm::budget::message_tokens;
use donna::llm::ChatMessage;
use serde_json::{json, Value};
use std::time::Duration;

/// The messages of a request body, as Donna's own types.
fn messages(body: &Value) -> Vec<ChatMessage> {
    serde_json::from_value(body["messages"].clone()).unwrap_or_else(|e| panic!("{e}: {body}"))
}

async fn context(bot: &Bot) -> Value {
    bot.get("/health").await.1["model"]["context"].clone()
}

/// A chat turn of about `chars` characters that `route` leaves to the chat room.
async fn chat_turn(bot: &Bot, fake: &FakeLlm, thread: &str, n: usize, chars: usize) {
    fake.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
    let reply = format!(
        "Reply {n}: {}",
        "that sounds like quite a day, tell me more. ".repeat(4)
    );
    fake.push_for("chat", out(json!({"reply_to_user": reply, "actions": []})));
    let text = format!(
        "message {n}: {}",
        "so much happened at work today and ".repeat(chars / 35)
    );
    let result = bot.say(thread, &text).await;
    assert_eq!(result["path"], "chat", "turn {n}: {result}");
}

#[actix_rt::test]
async fn a_long_chat_never_asks_for_more_than_the_context_and_keeps_its_newest_messages() {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    // 4,096 tokens: 512 kept for the answer, 204 spare, the rest for the prompt; the chat
    // budget (24,000 by default) is held to it.
    let figures = context(&bot).await;
    assert_eq!(
        figures,
        json!({"context_tokens": 4096, "source": "config", "answer_tokens": 512,
               "spare_tokens": 204, "prompt_tokens": 3380, "chat_budget_tokens": 3380})
    );
    let thread = bot.free_thread().await;
    for n in 1..=40 {
        chat_turn(&bot, &fake, &thread, n, 300).await;
    }
    // Every request of every turn (`route` and the chat room's) fits what a prompt may hold.
    let largest = fake
        .requests()
        .iter()
        .map(|(_, body)| message_tokens(&messages(body)))
        .max()
        .unwrap_or(0);
    assert!(largest <= 3380, "a prompt of {largest} estimated tokens");
    assert!(
        largest > 3000,
        "the chat room's prompts fill the room: {largest}"
    );
    // The last prompt holds the newest messages, not the oldest.
    let last = fake.messages_of("chat", 39);
    let shown = |words: &str| last.iter().any(|(_, content)| content.contains(words));
    assert!(shown("message 39: ") && shown("Reply 39: "), "{last:?}");
    assert!(!shown("message 1: "), "the oldest went first");
}

#[actix_rt::test]
async fn ollama_is_told_the_context_to_run_with() {
    let fake = start_fake_llm();
    for (extra, expected) in [("", 4096), ("  context_tokens: 8192\n", 8192)] {
        let bot = start_bot(&format!("{}{extra}", fake.config("ollama", "10s", 2))).await;
        let thread = bot.free_thread().await;
        fake.push_for(
            "route",
            out(json!({"intent": "chat", "confidence": 0.9, "reply_to_user": "Hi!"})),
        );
        bot.say(&thread, "the weather turned cold all of a sudden")
            .await;
        let (path, body) = fake.requests().pop().needed();
        assert_eq!(path, "/api/chat");
        assert_eq!(body["options"]["num_ctx"], expected, "{body}");
        assert_eq!(context(&bot).await["context_tokens"], expected);
    }
}

#[actix_rt::test]
async fn a_server_that_runs_with_less_context_than_configured_is_held_to_it() {
    let fake = start_fake_llm();
    fake.set_server_context(6000);
    let bot = start_bot(&format!(
        "{}  context_tokens: 8192\n  probe_interval: 1s\n",
        fake.config("openai", "10s", 2)
    ))
    .await;
    let believed = eventually(Duration::from_secs(10), || async {
        context(&bot).await["context_tokens"] == 6000
    })
    .await;
    assert!(believed, "{}", context(&bot).await);
    let figures = context(&bot).await;
    assert_eq!(figures["source"], "server");
    assert_eq!(figures["prompt_tokens"], 6000 - 512 - 300);
    // A long message's chat prompt is fitted to the server's figure, not the config's.
    let thread = bot.free_thread().await;
    for n in 1..=12 {
        chat_turn(&bot, &fake, &thread, n, 1500).await;
    }
    let last = fake
        .requests()
        .into_iter()
        .map(|(_, body)| messages(&body))
        .next_back()
        .needed();
    let estimated = message_tokens(&last);
    assert!(estimated <= 5188, "{estimated} estimated tokens");
    assert!(
        estimated > 4096,
        "more than 4,096 is allowed here: {estimated}"
    );
}

#[test]
fn the_start_line_says_the_context_and_the_chat_budget_in_force() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let extra = "  context_tokens: 8192\nchat:\n  context_budget_tokens: 2000\n";
    let mut running = process::start_with(dir.path(), extra, &[]);
    let health = process::wait_healthy(&mut running);
    assert_eq!(
        health["model"]["context"]["chat_budget_tokens"], 2000,
        "{health}"
    );
    assert_eq!(terminate(&mut running.child), Some(0));
    let stderr = running.stderr();
    let line = stderr
        .lines()
        .find(|line| line.contains("donna is running"))
        .unwrap_or_else(|| panic!("{stderr}"));
    for figure in [
        "context_tokens=8192",
        "answer_tokens=512",
        "prompt_tokens=7271",
        "chat_budget_tokens=2000",
    ] {
        assert!(line.contains(figure), "{figure}: {line}");
    }
}
