//! The chat room (sessions, persona, the `chat` route, summaries) with a
//! fake model on loopback answering by schema title. What the person would notice: Donna
//! answers small talk in the chosen voice, remembers what was said earlier in the same
//! conversation, and after a break remembers only a summary of it; a long conversation keeps
//! its newest part; their words are never read as a template; a chat about one task always
//! knows that task; a model that fails or is missing gets the honest answer.
//!
//! `prompts`: what the model is shown (persona, history, budget, a pinned task);
//! `sessions`: expiry and summaries; `without_model`: failing or missing models;
//! `config_edits`: edits of the chat config and rules at run time.

mod config_edits;
mod prompts;
mod sessions;
mod without_model;

use crate::common;
use crate::common::Needed;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use chrono::Duration as ChronoDuration;
use common::fake_llm::{in_role, out, start_fake_llm, FakeLlm, Script};
use common::prefix::prefix_len;
use common::{eventually, start_bot, Bot};
use donna::config::{parse_yaml, Config};
use donna::conversation::chat_sessions;
use donna::subsystems::chat_sessions::SessionsMsg;
use serde_json::{json, Value};

fn routed_to_chat(fake: &FakeLlm) {
    fake.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
}

fn chat_says(fake: &FakeLlm, text: &str) {
    fake.push_for("chat", out(json!({"reply_to_user": text, "actions": []})));
}

async fn chat_bot(fake: &FakeLlm, extra: &str) -> Bot {
    TestConfig::yaml(extra)
        .with_llm(fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await
}

fn anywhere(messages: &[(String, String)], words: &str) -> bool {
    messages.iter().any(|(_, content)| content.contains(words))
}

/// A chat turn: the route says chat, the chat call answers `answer`.
async fn chat(bot: &Bot, fake: &FakeLlm, thread: &str, text: &str, answer: &str) -> Value {
    routed_to_chat(fake);
    chat_says(fake, answer);
    bot.say(thread, text).await
}

/// The estimated tokens of what every chat prompt holds besides the conversation: the prefix
/// of every call (the shipped persona, actions and look-ups) and the records with the time.
fn fixed_prompt_tokens() -> usize {
    use donna::llm::chat_prompt::{ChatContext, ChatPrompts};
    let context = ChatContext {
        open_tasks: Vec::new(),
        pinned: None,
        summaries: Vec::new(),
        history: Vec::new(),
        message: String::new(),
        now: "Mon 23 Nov 2026 10:00".into(),
        timezone: "UTC".into(),
        budget_tokens: 24_000,
    };
    ChatPrompts::new()
        .and_then(|prompts| prompts.messages(&common::prefix::shipped_prefix(), &context))
        .map(|messages| donna::llm::budget::message_tokens(&messages))
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn sessions(bot: &Bot, thread: &str) -> i64 {
    let thread = thread.to_string();
    bot.app
        .store
        .read(move |conn| chat_sessions::count(conn, &thread))
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn sweep(bot: &Bot) -> usize {
    bot.app
        .chat_sessions
        .ask(|reply| SessionsMsg::Sweep { reply: Some(reply) })
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The YAML `start_bot` ran with (`extra` after its usual lines), as a file in the bot's dir.
fn write_config(bot: &Bot, extra: &str) -> std::path::PathBuf {
    let path = bot.dir.path().join("donna.yaml");
    let yaml = format!(
        "data_dir: {}\ntimezone: UTC\nhttp:\n  bind: 127.0.0.1:0\n{extra}",
        bot.dir.path().join("data").display()
    );
    std::fs::write(&path, yaml).unwrap_or_else(|e| panic!("{e}"));
    path
}

async fn config_health(bot: &Bot) -> Value {
    bot.get("/health").await.1["config"].clone()
}

fn system_of(fake: &FakeLlm, index: usize) -> String {
    fake.messages_of("chat", index)
        .into_iter()
        .find(|(role, _)| role == "system")
        .map(|(_, content)| content)
        .needed()
}
