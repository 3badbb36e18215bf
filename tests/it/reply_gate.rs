//! The group-chat reply gate and the rate cap (seed 004): REPLY/SKIP/fail-open, the hard cap
//! under concurrency, slots freed by SKIP, the sliding window, the cap across a restart, and the
//! chats that are never gated.

use crate::common;
use crate::common::Needed;

use std::time::Duration;

use chrono::Duration as ChronoDuration;
use common::fake_llm::{start_fake_llm, FakeLlm, Script};
use common::{start_bot, start_bot_in, Bot, TestEnv};
use serde_json::{json, Value};

fn gate_config(fake: &FakeLlm, max: usize) -> String {
    format!(
        "{}reply_decision:\n  enabled: true\n  max_replies_per_window: {max}\n  window: 120s\n",
        fake.config("ollama", "2s", 4)
    )
}

async fn history_len(bot: &Bot, thread: &str) -> usize {
    bot.get(&format!("/api/threads/{thread}/messages"))
        .await
        .1
        .as_array()
        .map_or(0, Vec::len)
}

#[actix_rt::test]
async fn reply_skip_error_empty_and_junk_behave_as_the_seed_says() {
    let fake = start_fake_llm();
    let bot = start_bot(&gate_config(&fake, 100)).await;
    let cases: [(&str, Script, bool); 5] = [
        ("reply", Script::Output("REPLY".into()), true),
        ("skip", Script::Output("SKIP: talking to Bob".into()), false),
        ("error", Script::Status(500), true),
        ("empty", Script::Output(String::new()), true),
        ("junk", Script::Output("¯\\_(ツ)_/¯".into()), true),
    ];
    for (name, script, replies) in cases {
        let thread = bot
            .open_thread(json!({"chat_id": format!("chat-{name}"), "is_group": true}))
            .await;
        fake.push(script);
        let result = bot.say(&thread, "anyone up for lunch?").await;
        if replies {
            assert_ne!(result["path"], "skipped", "{name}: {result}");
            assert!(result["reply"].is_string(), "{name}");
            assert_eq!(history_len(&bot, &thread).await, 2, "{name}");
        } else {
            assert_eq!(result["path"], "skipped", "{name}: {result}");
            assert_eq!(result["reply"], Value::Null, "{name}");
            // Recorded in memory (context for the next turn), nothing sent.
            assert_eq!(history_len(&bot, &thread).await, 1, "{name}");
        }
    }
    let (_, health) = bot.get("/health").await;
    assert_eq!(
        health["reply_gate"],
        json!({"reply": 1, "skip": 1, "fail_open": 3, "cap_hits": 0})
    );
}

#[actix_rt::test]
async fn one_to_one_chats_and_nudge_threads_are_never_gated() {
    let fake = start_fake_llm();
    fake.always(Script::Output("SKIP".into()));
    let bot = start_bot(&gate_config(&fake, 1)).await;
    let direct = bot.open_thread(json!({"is_group": false})).await;
    for _ in 0..3 {
        assert_ne!(bot.say(&direct, "hello there").await["path"], "skipped");
    }
    let (task, thread) = bot.nudged_task("Pay rent").await;
    assert_eq!(bot.say(&thread, "done").await["path"], "fast");
    assert_eq!(bot.task_json(&task).await["status"], "done");
    assert!(
        fake.requests().is_empty(),
        "the gate was asked: {:?}",
        fake.requests()
    );
}

#[actix_rt::test]
async fn fifty_concurrent_group_messages_get_exactly_the_cap_and_no_model_call_after_it() {
    let fake = start_fake_llm();
    fake.always(Script::Delay(
        Duration::from_millis(20),
        Box::new(Script::Output("REPLY".into())),
    ));
    let bot = start_bot(&gate_config(&fake, 6)).await;
    // A message the gate lets through is free text: the model's `route` reads it (issue 13).
    for _ in 0..6 {
        fake.push_for(
            "route",
            Script::Output(r#"{"intent":"chat","confidence":0.9}"#.into()),
        );
        // Routed to chat, the chat room answers with one `chat` call (issue 14).
        fake.push_for("chat", Script::Output(r#"{"reply_to_user":"ok"}"#.into()));
    }
    let mut threads = Vec::new();
    for _ in 0..50 {
        threads.push(
            bot.open_thread(json!({"chat_id": "busy-group", "is_group": true}))
                .await,
        );
    }
    let sends = threads.iter().map(|thread| {
        bot.client
            .post(format!("{}/api/messages", bot.base))
            .json(&json!({"thread_id": thread, "user_id": "bot-b", "text": "ping"}))
            .send()
    });
    let mut replied = 0;
    let mut skipped = 0;
    for response in futures_util::future::join_all(sends).await {
        let body: Value = match response {
            Ok(response) => response.json().await.unwrap_or(Value::Null),
            Err(error) => panic!("{error}"),
        };
        match body["path"].as_str() {
            Some("skipped") => skipped += 1,
            Some(_) => replied += 1,
            None => panic!("bad answer {body}"),
        }
    }
    assert_eq!((replied, skipped), (6, 44));
    let titles = fake.titles();
    assert_eq!(
        titles.iter().filter(|title| title.is_empty()).count(),
        6,
        "no gate call once the cap is reached"
    );
    assert_eq!(
        titles
            .iter()
            .filter(|title| title.as_str() != "chat")
            .count(),
        12,
        "one route call per message let through, none for the 44 kept quiet: {titles:?}"
    );
    let (_, health) = bot.get("/health").await;
    assert_eq!(health["reply_gate"]["cap_hits"], 44);
}

#[actix_rt::test]
async fn skip_frees_its_slot_and_the_window_slides() {
    let fake = start_fake_llm();
    let bot = start_bot(&gate_config(&fake, 2)).await;
    let thread = bot
        .open_thread(json!({"chat_id": "g", "is_group": true}))
        .await;
    fake.push(Script::Output("SKIP".into()));
    fake.push(Script::Output("REPLY".into()));
    fake.push(Script::Output("REPLY".into()));
    // A message the gate lets through is free text: the model's `route` reads it (issue 13).
    for _ in 0..3 {
        fake.push_for(
            "route",
            Script::Output(r#"{"intent":"chat","confidence":0.9}"#.into()),
        );
        // Routed to chat, the chat room answers with one `chat` call (issue 14).
        fake.push_for("chat", Script::Output(r#"{"reply_to_user":"ok"}"#.into()));
    }
    assert_eq!(bot.say(&thread, "one").await["path"], "skipped");
    // The skipped message gave its slot back: two replies still fit.
    assert_ne!(bot.say(&thread, "two").await["path"], "skipped");
    assert_ne!(bot.say(&thread, "three").await["path"], "skipped");
    assert_eq!(bot.say(&thread, "four").await["path"], "skipped");
    let gate_calls = fake
        .titles()
        .iter()
        .filter(|title| title.is_empty())
        .count();
    assert_eq!(gate_calls, 3);
    // Older than the window: pruned, so replies fit again.
    bot.clock.advance(ChronoDuration::seconds(121));
    fake.push(Script::Output("REPLY".into()));
    assert_ne!(bot.say(&thread, "five").await["path"], "skipped");
}

#[actix_rt::test]
async fn a_restart_inside_the_window_keeps_the_cap() {
    let fake = start_fake_llm();
    fake.always(Script::Output("REPLY".into()));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let data = dir.path().to_path_buf();
    let config = gate_config(&fake, 2);
    let bot = start_bot_in(dir, &config, TestEnv(Vec::new())).await;
    let thread = bot
        .open_thread(json!({"chat_id": "g", "is_group": true}))
        .await;
    assert_ne!(bot.say(&thread, "one").await["path"], "skipped");
    assert_ne!(bot.say(&thread, "two").await["path"], "skipped");
    bot.stop().await;
    // Same data dir, fresh process state.
    let again = bot.restart(&config).await;
    assert_eq!(again.dir.path(), data.as_path());
    assert_eq!(again.say(&thread, "three").await["path"], "skipped");
}

/// Titles of the open tasks.
async fn open_titles(bot: &Bot) -> Vec<String> {
    let (_, tasks) = bot.get("/api/tasks").await;
    tasks
        .as_array()
        .map(|tasks| {
            tasks
                .iter()
                .filter(|task| !matches!(task["status"].as_str(), Some("done" | "cancelled")))
                .filter_map(|task| task["title"].as_str().map(str::to_string))
                .collect()
        })
        .needed()
}

fn gate_calls(fake: &FakeLlm) -> usize {
    fake.titles()
        .iter()
        .filter(|title| title.is_empty())
        .count()
}

#[actix_rt::test]
async fn commands_and_the_requesters_answer_skip_the_gate_but_count_against_the_cap() {
    let fake = start_fake_llm();
    // The gate would keep every message quiet: whatever gets through did not ask it.
    fake.always(Script::Output("SKIP: not for Donna".into()));
    let bot = start_bot(&gate_config(&fake, 3)).await;
    let thread = bot
        .open_thread(json!({"chat_id": "family", "is_group": true}))
        .await;

    let captured = bot.say(&thread, "add buy milk").await;
    assert_eq!(captured["path"], "task_created", "{captured}");
    let reminder = bot
        .say(&thread, "remind me to call the bank friday 9am")
        .await;
    assert_eq!(reminder["path"], "task_created", "{reminder}");
    let question = bot.say(&thread, "what's due this week?").await;
    assert_eq!(question["path"], "answer", "{question}");
    assert_eq!(gate_calls(&fake), 0, "{:?}", fake.titles());
    // Three replies in the window: the cap holds for commands too, and nothing is captured.
    let over = bot.say(&thread, "add eggs").await;
    assert_eq!(over["path"], "skipped", "{over}");
    assert_eq!(open_titles(&bot).await.len(), 2);
    // Small talk is still put to the gate.
    bot.clock.advance(ChronoDuration::seconds(121));
    assert_eq!(bot.say(&thread, "lovely weather").await["path"], "skipped");
    assert_eq!(gate_calls(&fake), 1);

    // A likely duplicate is proposed to the person who asked; only their answer counts.
    let again = bot.say(&thread, "add buy milk").await;
    assert_eq!(again["path"], "duplicate", "{again}");
    fake.push(Script::Output("REPLY".into()));
    let guest = bot.say_as(&thread, "guest", "yes").await;
    assert_eq!(guest["path"], "unhandled", "{guest}");
    assert_eq!(
        gate_calls(&fake),
        2,
        "another member's yes is put to the gate"
    );
    let guest_talk = bot.say_as(&thread, "guest", "no way").await;
    assert_eq!(guest_talk["path"], "skipped", "{guest_talk}");
    assert_eq!(
        open_titles(&bot)
            .await
            .iter()
            .filter(|title| *title == "Buy milk")
            .count(),
        1
    );
    let yes = bot.say(&thread, "yes").await;
    assert_eq!(yes["path"], "plan_confirmed", "{yes}");
    assert_eq!(gate_calls(&fake), 3, "{:?}", fake.titles());
    assert_eq!(
        open_titles(&bot)
            .await
            .iter()
            .filter(|title| *title == "Buy milk")
            .count(),
        2
    );
}

#[actix_rt::test]
async fn a_time_zone_command_in_a_group_skips_the_gate_and_small_talk_that_looks_like_one_does_not()
{
    let fake = start_fake_llm();
    fake.always(Script::Output("SKIP: not for Donna".into()));
    let bot = start_bot(&gate_config(&fake, 6)).await;
    let thread = bot
        .open_thread(json!({"chat_id": "family", "is_group": true}))
        .await;
    let set = bot.say(&thread, "my time zone is Europe/Berlin").await;
    assert_eq!(set["path"], "chat", "{set}");
    let moved = bot.say(&thread, "I'm in Tokyo now").await;
    assert_eq!(moved["path"], "chat", "{moved}");
    let asked = bot.say(&thread, "what's my time zone?").await;
    assert_eq!(asked["path"], "answer", "{asked}");
    assert_eq!(gate_calls(&fake), 0, "{:?}", fake.titles());
    // Looks like one, is not: put to the gate, which keeps it quiet.
    assert_eq!(
        bot.say(&thread, "I'm in a meeting").await["path"],
        "skipped"
    );
    assert_eq!(gate_calls(&fake), 1);
}

/// A click is never chatter: in a gated group chat, a task's button acts (taking a reply slot)
/// without the REPLY/SKIP model being asked, even one that would say SKIP to everything.
#[actix_rt::test]
async fn a_click_in_a_group_chat_is_never_put_to_the_gate() {
    use donna::actions::Intent;
    use donna::conversation::Channel;
    use donna::turn::intake::Incoming;

    let fake = start_fake_llm();
    fake.always(Script::Output("SKIP".into()));
    let bot = start_bot(&gate_config(&fake, 5)).await;
    let group = bot
        .open_thread(json!({"chat_id": "team", "is_group": true}))
        .await;
    let task = bot.task(json!({ "title": "Book the room" })).await;
    let click =
        Incoming::clicked(Channel::Local, group.as_str(), "owner", Intent::Done).about(&task);
    let result = bot
        .app
        .intake
        .submit(click)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result.path.as_str(), "fast", "{result:?}");
    assert_eq!(bot.task_json(&task).await["status"], "done");
    assert!(
        fake.requests().is_empty(),
        "the gate was asked about a click: {:?}",
        fake.requests()
    );
    let (_, health) = bot.get("/health").await;
    assert_eq!(health["reply_gate"]["skip"], 0, "{health}");
}
