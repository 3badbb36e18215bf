//! The chat room (issue 14, slice A: sessions, persona, the `chat` route, summaries) with a
//! fake model on loopback answering by schema title. What the person would notice: Donna
//! answers small talk in the chosen voice, remembers what was said earlier in the same
//! conversation, and after a break remembers only a summary of it; a long conversation keeps
//! its newest part; their words are never read as a template; a chat about one task always
//! knows that task; a model that fails or is missing gets the honest answer.

use crate::common;

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
    start_bot(&format!("{extra}{}", fake.config("ollama", "10s", 2))).await
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

#[actix_rt::test]
async fn venting_gets_the_models_reply_and_the_next_prompt_holds_the_conversation_so_far() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    let first = chat(
        &bot,
        &fake,
        &thread,
        "ugh, my boss moved the deadline again",
        "That sounds exhausting. Want to talk it through?",
    )
    .await;
    assert_eq!(first["path"], "chat", "{first}");
    assert_eq!(
        first["reply"],
        "That sounds exhausting. Want to talk it through?"
    );
    assert_eq!(first["actions"], json!([]));
    let second = chat(
        &bot,
        &fake,
        &thread,
        "yes, it is the third time",
        "Three times is a lot.",
    )
    .await;
    assert_eq!(second["path"], "chat", "{second}");
    assert_eq!(second["reply"], "Three times is a lot.");
    assert_eq!(fake.count("chat"), 2);
    let prompt = fake.messages_of("chat", 1);
    // The earlier exchange in its roles, the current message last.
    assert!(
        in_role(&prompt, "user", "ugh, my boss moved the deadline again"),
        "{prompt:?}"
    );
    assert!(
        in_role(&prompt, "assistant", "That sounds exhausting."),
        "{prompt:?}"
    );
    assert_eq!(
        prompt.last(),
        Some(&("user".to_string(), "yes, it is the third time".to_string()))
    );
    assert!(!in_role(&prompt, "system", "boss"), "{prompt:?}");
    // The first prompt had nothing before the message but the persona and the time.
    let opening = fake.messages_of("chat", 0);
    assert_eq!(opening.len() - prefix_len(), 2, "{opening:?}");
    assert!(
        opening[prefix_len()].1.contains("Now: ") && !opening[prefix_len()].1.contains("boss"),
        "{opening:?}"
    );
    assert_eq!(sessions(&bot, &thread).await, 1, "one session for both");
    // Nothing was created or changed.
    assert_eq!(bot.get("/api/tasks").await.1, json!([]));
}

#[actix_rt::test]
async fn the_persona_decides_the_system_prompt() {
    let mut systems = Vec::new();
    for persona in ["donna", "neutral"] {
        let fake = start_fake_llm();
        let bot = chat_bot(&fake, &format!("chat:\n  persona: {persona}\n")).await;
        let thread = bot.free_thread().await;
        let result = chat(&bot, &fake, &thread, "long day today", "Rest up.").await;
        assert_eq!(result["path"], "chat", "{persona}: {result}");
        let prompt = fake.messages_of("chat", 0);
        let system = prompt
            .iter()
            .find(|(role, _)| role == "system")
            .map(|(_, content)| content.clone())
            .unwrap_or_default();
        systems.push(system);
    }
    assert!(systems[0].contains("You are Donna"), "{}", systems[0]);
    assert!(!systems[1].contains("Donna"), "{}", systems[1]);
    assert!(systems[1].contains("no persona"), "{}", systems[1]);
}

#[test]
fn an_unknown_persona_is_a_key_path_error() {
    let error = parse_yaml::<Config>("chat:\n  persona: pirate\n")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(error.starts_with("chat.persona"), "{error}");
    assert!(
        error.contains("donna") && error.contains("neutral"),
        "{error}"
    );
    assert!(parse_yaml::<Config>("chat:\n  persona: neutral\n  session_ttl: 30m\n").is_ok());
}

#[actix_rt::test]
async fn an_expired_session_is_summarised_once_and_the_next_session_sees_only_the_summary() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "chat:\n  session_ttl: 30m\n").await;
    let thread = bot.free_thread().await;
    chat(
        &bot,
        &fake,
        &thread,
        "I adopted a cat, her name is Miso",
        "Congratulations!",
    )
    .await;
    chat(&bot, &fake, &thread, "she sleeps all day", "Cats do.").await;
    // Still inside the TTL: nothing to close.
    bot.clock.advance(ChronoDuration::minutes(29));
    assert_eq!(sweep(&bot).await, 0);
    assert_eq!(fake.count("summarize"), 0);
    // Past the TTL (measured from the last chat turn): closed and summarised, once.
    bot.clock.advance(ChronoDuration::minutes(2));
    fake.push_for(
        "summarize",
        out(json!({"summary": "They adopted a cat called Miso, who sleeps a lot."})),
    );
    assert_eq!(sweep(&bot).await, 1);
    assert_eq!(sweep(&bot).await, 0, "closed sessions stay closed");
    assert_eq!(fake.count("summarize"), 1);
    let summarized = fake.messages_of("summarize", 0);
    assert!(
        in_role(&summarized, "user", "her name is Miso"),
        "{summarized:?}"
    );
    assert!(!in_role(&summarized, "system", "Miso"), "{summarized:?}");
    // A new session: the summary, not the old messages.
    let result = chat(
        &bot,
        &fake,
        &thread,
        "guess who knocked over my plant",
        "Miso?",
    )
    .await;
    assert_eq!(result["path"], "chat", "{result}");
    assert_eq!(sessions(&bot, &thread).await, 2);
    let prompt = fake.messages_of("chat", 2);
    assert!(
        in_role(
            &prompt,
            "user",
            "> They adopted a cat called Miso, who sleeps a lot."
        ),
        "{prompt:?}"
    );
    assert!(!anywhere(&prompt, "her name is Miso"), "{prompt:?}");
    assert!(!anywhere(&prompt, "Cats do."), "{prompt:?}");
    assert!(!in_role(&prompt, "system", "Miso"), "{prompt:?}");
}

#[actix_rt::test]
async fn a_failed_summary_closes_the_session_without_one() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "chat:\n  session_ttl: 30m\n").await;
    let thread = bot.free_thread().await;
    chat(&bot, &fake, &thread, "the weather is awful", "Stay dry.").await;
    bot.clock.advance(ChronoDuration::minutes(31));
    // An error answer is not retried (only invalid output is).
    fake.push_for("summarize", Script::Status(500));
    assert_eq!(sweep(&bot).await, 1);
    assert_eq!(fake.count("summarize"), 1);
    chat(&bot, &fake, &thread, "back from my walk", "Welcome back.").await;
    let prompt = fake.messages_of("chat", 1);
    assert_eq!(
        prompt.len() - prefix_len(),
        2,
        "the persona, the time, the message: no summary, no old messages: {prompt:?}"
    );
    assert!(!anywhere(&prompt, "Summaries"), "{prompt:?}");
}

#[actix_rt::test]
async fn a_tiny_budget_keeps_the_newest_messages_and_always_the_current_one() {
    let fake = start_fake_llm();
    // Room for the system message, the records with the time, and about 700 tokens more.
    let budget = fixed_prompt_tokens() + 700;
    // A model context far beyond the budget: the budget is what holds the prompt back here.
    let bot = start_bot(&format!(
        "chat:\n  context_budget_tokens: {budget}\n{}  context_tokens: 32768\n",
        fake.config("ollama", "10s", 2)
    ))
    .await;
    let thread = bot.free_thread().await;
    // Four messages of about 300 tokens each: they cannot all fit.
    for n in 1..=4 {
        let text = format!("message {n} {}", "x".repeat(1200));
        chat(&bot, &fake, &thread, &text, &format!("ok {n}")).await;
    }
    chat(&bot, &fake, &thread, "and now?", "Now.").await;
    let prompt = fake.messages_of("chat", 4);
    assert!(anywhere(&prompt, "message 4 "), "the newest is kept");
    assert!(anywhere(&prompt, "ok 4"), "the newest is kept");
    assert!(!anywhere(&prompt, "message 1 "), "the oldest is dropped");
    assert!(!anywhere(&prompt, "ok 1"), "the oldest is dropped");
    assert_eq!(
        prompt.last(),
        Some(&("user".to_string(), "and now?".to_string()))
    );
    // What is kept is the unbroken end: once one message is out, every older one is.
    let kept: Vec<bool> = (1..=4)
        .map(|n| anywhere(&prompt, &format!("message {n} ")))
        .collect();
    assert!(kept.windows(2).all(|pair| pair[0] <= pair[1]), "{kept:?}");
    // As Donna estimates it: the whole prompt is within the budget.
    let total: usize = prompt
        .iter()
        .map(|(_, content)| donna::llm::budget::tokens(content) + 5)
        .sum();
    assert!(total <= budget, "{total} > {budget}");
    // A current message bigger than the whole budget is still sent, last.
    let long = format!("a very long one {}", "y".repeat(3900));
    chat(&bot, &fake, &thread, &long, "That is long.").await;
    let prompt = fake.messages_of("chat", 5);
    assert_eq!(
        prompt.last().map(|(_, content)| content.as_str()),
        Some(long.as_str())
    );
    assert!(!anywhere(&prompt, "and now?"), "{prompt:?}");
}

#[actix_rt::test]
async fn template_text_in_the_persons_words_stays_literal() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    for text in [
        "{{persona}} {{tool_schemas}}",
        "{{> chat_donna}} {{#each summaries}}x{{/each}}",
    ] {
        let result = chat(&bot, &fake, &thread, text, "Noted.").await;
        assert_eq!(result["path"], "chat", "{result}");
    }
    let prompt = fake.messages_of("chat", 1);
    assert!(
        in_role(&prompt, "user", "{{persona}} {{tool_schemas}}"),
        "{prompt:?}"
    );
    assert_eq!(
        prompt.last().map(|(_, content)| content.as_str()),
        Some("{{> chat_donna}} {{#each summaries}}x{{/each}}")
    );
    assert!(!in_role(&prompt, "system", "{{"), "{prompt:?}");
}

#[actix_rt::test]
async fn a_pinned_chat_shows_its_task_in_every_prompt_and_stays_a_free_chat() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "").await;
    let task = bot
        .task(json!({"title": "Renew passport", "deadline": "2026-11-27T09:00:00Z"}))
        .await;
    let (status, _) = bot
        .post("/api/threads", json!({"task_id": "no-such-task"}))
        .await;
    assert_eq!(status, 404);
    let pinned = bot.open_thread(json!({"task_id": task})).await;
    let plain = bot.free_thread().await;
    let (_, threads) = bot.get("/api/threads").await;
    let view = |id: &str| {
        threads
            .as_array()
            .into_iter()
            .flatten()
            .find(|thread| thread["id"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(view(&pinned)["pinned_task_id"], json!(task));
    assert_eq!(view(&pinned)["task_id"], Value::Null, "still a free chat");
    assert_eq!(view(&plain)["pinned_task_id"], Value::Null);
    for (index, text) in ["I keep putting this off", "the photo booth is closed"]
        .into_iter()
        .enumerate()
    {
        let result = chat(&bot, &fake, &pinned, text, "Friday is close.").await;
        assert_eq!(result["path"], "chat", "{result}");
        let prompt = fake.messages_of("chat", index);
        assert!(
            in_role(&prompt, "user", "> title: Renew passport"),
            "{prompt:?}"
        );
        assert!(in_role(&prompt, "user", "27 Nov"), "{prompt:?}");
        assert!(in_role(&prompt, "user", "status: backlog"), "{prompt:?}");
        assert!(!in_role(&prompt, "system", "Renew passport"), "{prompt:?}");
    }
    chat(&bot, &fake, &plain, "unrelated", "Sure.").await;
    assert!(!anywhere(&fake.messages_of("chat", 2), "Renew passport"));
    // A nudge for the task never lands in the pinned chat.
    let (status, nudge) = bot.post("/api/nudges", json!({"task_id": task})).await;
    assert!(status == 200 || status == 201, "{nudge}");
    assert_ne!(nudge["thread_id"], json!(pinned));
}

#[actix_rt::test]
async fn a_failing_model_gives_llm_unavailable_and_stores_only_the_turns_messages() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    routed_to_chat(&fake);
    fake.push_for("chat", Script::Status(500));
    let result = bot.say(&thread, "I had the weirdest dream").await;
    assert_eq!(result["path"], "llm_unavailable", "{result}");
    assert!(
        !result["reply"]
            .as_str()
            .unwrap_or_default()
            .contains("again"),
        "never an invitation to say it again: {result}"
    );
    assert_eq!(sessions(&bot, &thread).await, 0, "no session opened");
    let (_, messages) = bot.get(&format!("/api/threads/{thread}/messages")).await;
    assert_eq!(messages.as_array().map(Vec::len), Some(2), "{messages}");
    // The next conversation starts fresh.
    bot.clock.advance(ChronoDuration::minutes(1));
    chat(&bot, &fake, &thread, "anyway, how's your day", "Hello!").await;
    let prompt = fake.messages_of("chat", 1);
    assert_eq!(
        prompt.len() - prefix_len(),
        2,
        "the persona, the time, the message: {prompt:?}"
    );
    assert!(!anywhere(&prompt, "weirdest dream"), "{prompt:?}");
    assert_eq!(sessions(&bot, &thread).await, 1);
}

#[actix_rt::test]
async fn without_a_model_a_change_asked_in_words_gets_the_honest_unhandled_answer_too() {
    let bot = start_bot("").await;
    let rent = bot.task(json!({"title": "Pay rent"})).await;
    let thread = bot.free_thread().await;
    for text in [
        "I finished paying the rent",
        "can you push the rent to next week",
    ] {
        let result = bot.say(&thread, text).await;
        assert_eq!(result["path"], "unhandled", "{text}: {result}");
        assert!(
            result["reply"]
                .as_str()
                .unwrap_or_default()
                .contains("Without a language model"),
            "{result}"
        );
    }
    assert_eq!(bot.task_json(&rent).await["status"], "backlog");
}

#[actix_rt::test]
async fn without_a_model_chat_gets_the_honest_unhandled_answer() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    for text in ["I feel so tired today", "my cat knocked over a plant"] {
        let result = bot.say(&thread, text).await;
        assert_eq!(result["path"], "unhandled", "{text}: {result}");
        assert!(
            result["reply"]
                .as_str()
                .unwrap_or_default()
                .contains("Without a language model"),
            "{result}"
        );
    }
    assert_eq!(sessions(&bot, &thread).await, 0);
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
        .unwrap_or_default()
}

#[actix_rt::test]
async fn an_edit_of_the_chat_config_or_the_rules_is_applied_and_an_invalid_one_refused() {
    let fake = start_fake_llm();
    let model = fake.config("ollama", "10s", 2);
    let bot = chat_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    chat(&bot, &fake, &thread, "long day", "Rest up.").await;
    assert!(system_of(&fake, 0).contains("You are Donna"));
    let first = config_health(&bot).await;
    assert_eq!(first["error"], Value::Null, "{first}");

    // The persona changes for the next turn.
    let path = write_config(&bot, &format!("{model}chat:\n  persona: neutral\n"));
    bot.app.reload_config(Some(&path));
    assert_eq!(config_health(&bot).await["error"], Value::Null);
    chat(&bot, &fake, &thread, "still tired", "Take a break.").await;
    assert!(
        system_of(&fake, 1).contains("no persona"),
        "{}",
        system_of(&fake, 1)
    );

    // A keyword added to the intents file is matched by the next reply.
    let (task, nudge_thread) = bot.nudged_task("Pay rent").await;
    let intents = include_str!("../../config/reply_intents.yaml").replace(
        "keywords: [\"done\", \"finished\",",
        "keywords: [\"nailed it\", \"done\", \"finished\",",
    );
    std::fs::write(bot.dir.path().join("intents.yaml"), &intents).unwrap_or_else(|e| panic!("{e}"));
    let with_intents = format!("{model}chat:\n  persona: neutral\nintents_file: intents.yaml\n");
    let path = write_config(&bot, &with_intents);
    bot.app.reload_config(Some(&path));
    assert_eq!(config_health(&bot).await["error"], Value::Null);
    let done = bot.say(&nudge_thread, "nailed it").await;
    assert_eq!(done["path"], "fast", "{done}");
    assert_eq!(bot.task_json(&task).await["status"], "done");

    // Invalid edits are refused, named by their key path, and the previous version stays.
    let table = [
        (
            format!("{model}chat:\n  persona: pirate\nintents_file: intents.yaml\n"),
            None,
            "chat.persona",
        ),
        (
            format!(
                "{model}chat:\n  persona: neutral\n  mood: sunny\nintents_file: intents.yaml\n"
            ),
            None,
            "chat.mood",
        ),
        (
            with_intents.clone(),
            Some("intents: [this is not\n"),
            "intents",
        ),
        (
            format!("{with_intents}chat_actions_file: chat_actions.yaml\n"),
            Some(intents.as_str()),
            "actions.mark_done.safety",
        ),
    ];
    let unsafe_actions = include_str!("../../config/chat_actions.yaml").replace(
        "    safety: write\n    description: Mark a task as completed.",
        "    description: Mark a task as completed.",
    );
    std::fs::write(bot.dir.path().join("chat_actions.yaml"), unsafe_actions)
        .unwrap_or_else(|e| panic!("{e}"));
    for (config, broken_intents, named) in table {
        if let Some(broken) = broken_intents {
            std::fs::write(bot.dir.path().join("intents.yaml"), broken)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let path = write_config(&bot, &config);
        bot.app.reload_config(Some(&path));
        let shown = config_health(&bot).await;
        let error = shown["error"].as_str().unwrap_or_default().to_string();
        assert!(error.contains(named), "{named}: {shown}");
        let turn = chat(&bot, &fake, &thread, "what now", "Whatever you like.").await;
        assert_eq!(turn["path"], "chat", "{turn}");
        let last = fake.count("chat") - 1;
        assert!(
            system_of(&fake, last).contains("no persona"),
            "{named}: the old version stays"
        );
    }
    let (other, other_thread) = bot.nudged_task("Call mum").await;
    let done = bot.say(&other_thread, "nailed it").await;
    assert_eq!(done["path"], "fast", "the old intents stay: {done}");
    assert_eq!(bot.task_json(&other).await["status"], "done");

    // The next good edit clears the error.
    std::fs::write(bot.dir.path().join("intents.yaml"), &intents).unwrap_or_else(|e| panic!("{e}"));
    let path = write_config(&bot, &with_intents);
    bot.app.reload_config(Some(&path));
    assert_eq!(config_health(&bot).await["error"], Value::Null);
}

/// Issue 29 item 3: a person who comes back after the session expired, before the sweeper's next
/// run, gets a prompt that carries the summary of the conversation they left: the turn closes
/// the expired session first with the sweeper's own close (one `summarize` call), then opens a
/// new one. The sweeper then finds nothing left to close.
#[actix_rt::test]
async fn a_returning_person_s_turn_closes_the_expired_session_with_its_summary_first() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "chat:\n  session_ttl: 30m\n").await;
    let thread = bot.free_thread().await;
    chat(
        &bot,
        &fake,
        &thread,
        "I adopted a cat, her name is Miso",
        "Congratulations!",
    )
    .await;
    bot.clock.advance(ChronoDuration::minutes(45));
    fake.push_for(
        "summarize",
        out(json!({"summary": "They adopted a cat called Miso."})),
    );
    let result = chat(&bot, &fake, &thread, "guess who broke my vase", "Miso?").await;
    assert_eq!(result["path"], "chat", "{result}");
    assert_eq!(fake.count("summarize"), 1);
    let prompt = fake.messages_of("chat", 1);
    assert!(
        in_role(&prompt, "user", "> They adopted a cat called Miso."),
        "{prompt:?}"
    );
    assert!(!anywhere(&prompt, "her name is Miso"), "{prompt:?}");
    assert_eq!(sessions(&bot, &thread).await, 2);
    assert_eq!(
        sweep(&bot).await,
        0,
        "the sweeper has nothing left to close"
    );
    assert_eq!(fake.count("summarize"), 1);
}

/// Issue 29 item 3: the sweeper and a returning person's turn closing the same session at the
/// same moment make ONE `summarize` call between them, whichever starts first, and the turn's
/// prompt carries the summary either way.
#[actix_rt::test]
async fn the_sweeper_and_a_returning_turn_at_once_summarise_the_session_once() {
    for sweeper_first in [true, false] {
        let fake = start_fake_llm();
        let bot = chat_bot(&fake, "chat:\n  session_ttl: 30m\n").await;
        let thread = bot.free_thread().await;
        chat(
            &bot,
            &fake,
            &thread,
            "we got a puppy called Pico",
            "Exciting!",
        )
        .await;
        bot.clock.advance(ChronoDuration::minutes(31));
        // A slow summary keeps the first close in flight while the other one starts.
        fake.push_for(
            "summarize",
            Script::Delay(
                std::time::Duration::from_millis(400),
                Box::new(out(json!({"summary": "They got a puppy called Pico."}))),
            ),
        );
        let in_flight = || async { fake.count("summarize") == 1 };
        let (swept, result) = if sweeper_first {
            tokio::join!(sweep(&bot), async {
                assert!(eventually(std::time::Duration::from_secs(10), in_flight).await);
                chat(&bot, &fake, &thread, "he chewed my slipper", "Puppies!").await
            })
        } else {
            let (result, swept) = tokio::join!(
                chat(&bot, &fake, &thread, "he chewed my slipper", "Puppies!"),
                async {
                    assert!(eventually(std::time::Duration::from_secs(10), in_flight).await);
                    sweep(&bot).await
                }
            );
            (swept, result)
        };
        assert_eq!(result["path"], "chat", "{result}");
        assert_eq!(fake.count("summarize"), 1, "sweeper first: {sweeper_first}");
        assert_eq!(
            swept,
            usize::from(sweeper_first),
            "closed once, by whoever came first"
        );
        let prompt = fake.messages_of("chat", 1);
        assert!(
            in_role(&prompt, "user", "> They got a puppy called Pico."),
            "sweeper first: {sweeper_first}: {prompt:?}"
        );
    }
}

/// Issue 29 item 3 (and item 10, `chat.summary_on_close: false`): with summaries off, the
/// expired session closes without a `summarize` call, by the sweeper or the returning turn,
/// and the next prompt holds neither its messages nor a summary.
#[actix_rt::test]
async fn with_summaries_off_a_session_closes_without_a_summarize_call() {
    let fake = start_fake_llm();
    let bot = chat_bot(
        &fake,
        "chat:\n  session_ttl: 30m\n  summary_on_close: false\n",
    )
    .await;
    let (swept, returning) = (bot.free_thread().await, bot.free_thread().await);
    for thread in [&swept, &returning] {
        chat(&bot, &fake, thread, "my sister visits on Sunday", "Nice!").await;
    }
    bot.clock.advance(ChronoDuration::minutes(31));
    fake.always(out(json!({"summary": "They talked about a visit."})));
    let closed = bot
        .app
        .chat_sessions
        .ask(|reply| SessionsMsg::Sweep { reply: Some(reply) });
    // The sweeper closes both (one of them before its person returns).
    assert_eq!(closed.await.ok().and_then(Result::ok), Some(2));
    chat(&bot, &fake, &returning, "she cancelled", "Oh no.").await;
    assert_eq!(fake.count("summarize"), 0, "no summary was asked for");
    let prompt = fake.messages_of("chat", 2);
    assert_eq!(
        prompt.len() - prefix_len(),
        2,
        "the persona, the time, the message: no summary, no old messages: {prompt:?}"
    );
    assert!(!anywhere(&prompt, "Summaries"), "{prompt:?}");
    // A returning turn closes it without a summary too.
    bot.clock.advance(ChronoDuration::minutes(31));
    chat(&bot, &fake, &returning, "she is coming after all", "Good.").await;
    assert_eq!(fake.count("summarize"), 0);
    assert_eq!(sessions(&bot, &returning).await, 3);
    let prompt = fake.messages_of("chat", 3);
    assert_eq!(prompt.len() - prefix_len(), 2, "{prompt:?}");
    assert!(!anywhere(&prompt, "Summaries"), "{prompt:?}");
}
