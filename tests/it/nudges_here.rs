//! Nudges delivered into the chat a task came from (docs/contract.md "Where nudges go", "Free text"
//! step 5): a task captured in a free thread is nudged there (by the Nudger on a controlled
//! clock, or by `POST /api/nudges`), a keyword reply there acts on it as in a nudge thread, and
//! anything else there stays free text. Tasks without a chat keep their own nudge threads. With
//! the fake Discord: a DM-origin task is nudged in the DM and answered there, and a reply to one
//! of Donna's messages in a guild channel is heard like a mention.
//!
//! Tasks are inserted through the store with `origin_thread_id` (as a capture would record
//! them), so these tests do not depend on how free text is captured.

use crate::common;
use crate::common::{Fields, Needed};

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, Utc};
use common::fake_discord::{start_fake_discord, FakeDiscord, IncomingMessage, BOT_USER_ID};
use common::ids::{DM, GENERAL, GUILD, NUDGE_CHANNEL, OWNER, STRANGER};
use common::{eventually, monday_10am, sent_to, start_bot, Bot};
use donna::conversation::{threads, Channel};
use donna::tasks::{repo, NewTask, TaskSource};
use serde_json::{json, Value};

/// Ticks never fire on their own within a test; the test ticks by hand.
const MANUAL: &str = "nudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-08:00\"\n";

/// A task captured in `origin` (overdue since yesterday), inserted as the capture room would.
async fn task_from(bot: &Bot, title: &str, origin: &str) -> String {
    let id = format!("tsk_{}", title.to_lowercase().replace(' ', "_"));
    let new = NewTask {
        deadline: Some(monday_10am() - Duration::hours(25)),
        source: TaskSource::Capture,
        origin_thread_id: Some(origin.to_string()),
        ..NewTask::titled(title)
    };
    let (task_id, now) = (id.clone(), monday_10am());
    bot.app
        .store
        .write(move |conn| repo::insert(conn, &task_id, &new, now))
        .await
        .unwrap_or_else(|e| panic!("insert: {e}"));
    id
}

async fn thread_ids(bot: &Bot) -> Vec<String> {
    let (status, threads) = bot.get("/api/threads").await;
    assert_eq!(status, 200, "{threads}");
    threads
        .as_array()
        .map(|all| {
            all.iter()
                .filter_map(|t| t["id"].as_str().map(str::to_string))
                .collect()
        })
        .needed()
}

async fn messages(bot: &Bot, thread: &str) -> Vec<(String, String)> {
    let (status, body) = bot.get(&format!("/api/threads/{thread}/messages")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array()
        .map(|all| {
            all.iter()
                .map(|m| (m["role"].text().to_string(), m["text"].text().to_string()))
                .collect()
        })
        .needed()
}

/// `POST /api/nudges` for the task without naming a channel.
async fn nudge_api(bot: &Bot, task: &str) -> (u16, Value) {
    bot.post("/api/nudges", json!({ "task_id": task })).await
}

const RENT_NUDGE: &str = "'Pay rent' is overdue (due yesterday at 09:00). Done?";

#[actix_rt::test]
async fn the_nudger_nudges_a_task_in_the_free_thread_it_came_from_and_done_there_marks_it_done() {
    let bot = start_bot(MANUAL).await;
    let chat = bot.free_thread().await;
    let task = task_from(&bot, "Pay rent", &chat).await;

    let nudged = bot.tick_nudger().await;
    assert_eq!(nudged.len(), 1, "{nudged:?}");
    assert_eq!(nudged[0].thread_id, chat, "nudged in the chat it came from");
    assert_eq!(nudged[0].text, RENT_NUDGE);
    // No nudge thread was opened: the free thread is still the only one.
    assert_eq!(thread_ids(&bot).await, vec![chat.clone()]);
    assert_eq!(
        messages(&bot, &chat).await.last(),
        Some(&("donna".to_string(), RENT_NUDGE.to_string()))
    );
    let shown = bot.task_json(&task).await;
    assert_eq!(shown["nudge_count"], 1, "{shown}");
    assert!(shown["open_thread_id"].is_null(), "{shown}");
    assert_eq!(bot.stored_task(&task).await.unanswered_nudges, 1);

    let answer = bot.say(&chat, "done").await;
    assert_eq!(answer["path"], "fast", "{answer}");
    assert_eq!(answer["reply"], "Marked 'Pay rent' as done.", "{answer}");
    assert_eq!(bot.task_json(&task).await["status"], "done");
    assert_eq!(
        bot.stored_task(&task).await.unanswered_nudges,
        0,
        "the answer resets the backoff"
    );
    // The chat is still a free chat bound to no task.
    let (_, all) = bot.get("/api/threads").await;
    assert_eq!(all[0]["task_id"], Value::Null, "{all}");
}

#[actix_rt::test]
async fn post_api_nudges_goes_to_the_chat_and_push_it_to_friday_there_reschedules_the_task() {
    let bot = start_bot(MANUAL).await;
    let chat = bot.free_thread().await;
    let task = task_from(&bot, "Pay rent", &chat).await;

    let (status, nudge) = nudge_api(&bot, &task).await;
    assert_eq!(status, 200, "no thread was created: {nudge}");
    assert_eq!(nudge["thread_id"], chat.as_str());
    assert_eq!(nudge["text"], RENT_NUDGE);
    assert_eq!(thread_ids(&bot).await, vec![chat.clone()]);

    let answer = bot.say(&chat, "push it to friday").await;
    assert_eq!(answer["path"], "fast", "{answer}");
    assert_eq!(answer["actions"][0]["name"], "reschedule", "{answer}");
    let shown = bot.task_json(&task).await;
    // Friday 27 November 2026, 09:00 (the reader's default hour), UTC.
    assert_eq!(
        shown["scheduled_start"], "2026-11-27T09:00:00+00:00",
        "{shown}"
    );
    assert_eq!(shown["status"], "scheduled", "{shown}");
}

#[actix_rt::test]
async fn only_a_keyword_answer_right_after_the_nudge_acts_on_the_task() {
    let bot = start_bot(MANUAL).await;
    let chat = bot.free_thread().await;
    let task = task_from(&bot, "Pay rent", &chat).await;
    let before = bot.stored_task(&task).await;

    // Each of these, right after a fresh nudge in the chat, is free text: the task is untouched.
    let not_answers = [
        "hello there",
        "not done yet",
        "is it done?",
        "add milk tomorrow",
        "remind me to call mom tomorrow",
        "what's overdue?",
        "mark everything done",
    ];
    for text in not_answers {
        let (status, _) = nudge_api(&bot, &task).await;
        assert_eq!(status, 200);
        let answer = bot.say(&chat, text).await;
        assert_ne!(answer["path"], "fast", "{text:?}: {answer}");
        let after = bot.stored_task(&task).await;
        assert_eq!(
            (after.status, after.scheduled_start, after.snoozed_until),
            (before.status, before.scheduled_start, before.snoozed_until),
            "{text:?} changed the task"
        );
    }

    // A keyword after Donna answered something else is no answer to the nudge either.
    nudge_api(&bot, &task).await;
    bot.say(&chat, "hello there").await;
    for text in ["done", "busy", "push it to friday", "yes"] {
        let answer = bot.say(&chat, text).await;
        assert_ne!(answer["path"], "fast", "{text:?}: {answer}");
        assert!(
            !matches!(answer["actions"].as_array(), Some(a) if !a.is_empty()),
            "{answer}"
        );
    }
    assert_eq!(bot.stored_task(&task).await.status, before.status);

    // And "busy" right after the nudge snoozes it, as in a nudge thread.
    nudge_api(&bot, &task).await;
    let answer = bot.say(&chat, "busy").await;
    assert_eq!(answer["path"], "fast", "{answer}");
    assert!(bot
        .stored_task(&task)
        .await
        .snoozed_until
        .is_some_and(|until: DateTime<Utc>| until > monday_10am()));
}

#[actix_rt::test]
async fn tasks_without_a_chat_or_with_a_closed_one_or_a_channel_named_get_their_own_thread() {
    let bot = start_bot(MANUAL).await;
    let chat = bot.free_thread().await;
    // From POST /api/tasks: no origin.
    let api_task = bot
        .task(json!({"title": "Gym", "deadline": "2026-11-22T09:00:00Z"}))
        .await;
    let nudged = bot.tick_nudger().await;
    assert_eq!(nudged.len(), 1);
    assert_ne!(nudged[0].thread_id, chat);
    assert!(nudged[0].created, "a nudge thread of its own");
    assert_eq!(
        bot.task_json(&api_task).await["open_thread_id"],
        nudged[0].thread_id.as_str()
    );
    assert_eq!(
        messages(&bot, &chat).await,
        Vec::new(),
        "nothing in the chat"
    );

    // A task from the chat, nudged with a channel named: as today (its own thread).
    let named = task_from(&bot, "Pay rent", &chat).await;
    let (status, nudge) = bot
        .post("/api/nudges", json!({"task_id": named, "channel": "local"}))
        .await;
    assert_eq!(status, 201, "{nudge}");
    assert_ne!(nudge["thread_id"], chat.as_str());

    // A task whose chat was closed: its own thread too.
    let closed_chat = bot.free_thread().await;
    let orphan = task_from(&bot, "Call the bank", &closed_chat).await;
    let closing = closed_chat.clone();
    bot.app
        .store
        .write(move |conn| threads::close(conn, &closing))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let (status, nudge) = nudge_api(&bot, &orphan).await;
    assert_eq!(status, 201, "{nudge}");
    assert_ne!(nudge["thread_id"], closed_chat.as_str());
    assert_eq!(messages(&bot, &closed_chat).await, Vec::new());

    // A task from a Discord DM while Discord is off: a local thread of its own, not a nudge
    // that would wait in the outbox for a channel that is not there.
    bot.app
        .store
        .write(move |conn| {
            threads::open_free(
                conn,
                DM.to_string(),
                None,
                false,
                Channel::Discord,
                monday_10am(),
            )
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let from_dm = task_from(&bot, "Water the plants", &DM.to_string()).await;
    let nudged = bot.tick_nudger().await;
    let dm_nudge = nudged
        .iter()
        .find(|n| n.task_id == from_dm)
        .unwrap_or_else(|| panic!("{nudged:?}"));
    assert_ne!(dm_nudge.thread_id, DM.to_string());
    assert_eq!(dm_nudge.channel, Channel::Local);
    assert_eq!(messages(&bot, &DM.to_string()).await, Vec::new());
}

// ---- Discord ------------------------------------------------------------------------------

async fn discord_bot(fake: &FakeDiscord) -> Bot {
    common::discord_bot(fake, &[OWNER], NUDGE_CHANNEL, MANUAL).await
}

/// The id of Donna's message with `text` in `channel`.
fn donna_message_id(fake: &FakeDiscord, channel: u64, text: &str) -> u64 {
    fake.channel_messages(channel)
        .iter()
        .find(|m| {
            m["author"]["id"].as_str() == Some(BOT_USER_ID.to_string().as_str())
                && m["content"].as_str() == Some(text)
        })
        .and_then(|m| m["id"].as_str().and_then(|id| id.parse().ok()))
        .unwrap_or_else(|| panic!("Donna never said {text:?} in {channel}"))
}

#[actix_rt::test]
async fn a_dm_origin_task_is_nudged_in_the_dm_and_done_there_marks_it_done() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake).await;
    // The DM becomes a free Discord chat once the owner writes there.
    fake.dispatch_message_create(IncomingMessage::dm(DM, OWNER, "hi Donna"));
    let dm = DM.to_string();
    let known = eventually(StdDuration::from_secs(10), || async {
        thread_ids(&bot).await.contains(&dm)
    })
    .await;
    assert!(known, "the DM was never recorded");
    assert!(
        eventually(StdDuration::from_secs(10), || async {
            fake.sent_messages().iter().any(|(c, _)| *c == DM)
        })
        .await
    );
    let task = task_from(&bot, "Pay rent", &dm).await;

    let nudged = bot.tick_nudger().await;
    assert_eq!(nudged.len(), 1, "{nudged:?}");
    assert_eq!(nudged[0].thread_id, dm);
    assert!(
        sent_to(&fake, DM, RENT_NUDGE).await,
        "{:?}",
        fake.sent_messages()
    );
    // Nothing in the nudge channel, no Discord thread started.
    assert!(
        !fake
            .sent_messages()
            .iter()
            .any(|(c, _)| *c == NUDGE_CHANNEL),
        "{:?}",
        fake.sent_messages()
    );
    assert!(
        fake.requests().iter().all(|r| !r.path.contains("/threads")),
        "no Discord thread was started"
    );

    fake.dispatch_message_create(IncomingMessage::dm(DM, OWNER, "done"));
    assert!(
        sent_to(&fake, DM, "Marked 'Pay rent' as done.").await,
        "{:?}",
        fake.sent_messages()
    );
    assert_eq!(bot.task_json(&task).await["status"], "done");
}

#[actix_rt::test]
async fn in_a_guild_channel_a_reply_to_donnas_nudge_is_heard_and_answers_it() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake).await;
    // Donna answered a mention in #general: a free group chat.
    fake.dispatch_message_create(
        IncomingMessage::guild(GUILD, GENERAL, OWNER, "<@1000> hi").mentioning_bot(),
    );
    assert!(
        eventually(StdDuration::from_secs(10), || async {
            fake.sent_messages().iter().any(|(c, _)| *c == GENERAL)
        })
        .await
    );
    let general = GENERAL.to_string();
    let task = task_from(&bot, "Pay rent", &general).await;
    let (status, nudge) = nudge_api(&bot, &task).await;
    assert_eq!(status, 200, "{nudge}");
    assert!(sent_to(&fake, GENERAL, RENT_NUDGE).await);
    let nudge_id = donna_message_id(&fake, GENERAL, RENT_NUDGE);
    let replies_before = fake.sent_messages().len();

    // Not addressed to her (a reply to someone else's message), or a stranger's reply to her:
    // nothing. Then the owner's Discord reply to the nudge, without a mention: heard, and it
    // answers the nudge. One channel's messages are taken in order, so once she has answered
    // the last one, the first two were ignored.
    let other =
        fake.dispatch_message_create(IncomingMessage::guild(GUILD, GENERAL, STRANGER, "lunch?"));
    fake.dispatch_message_create(
        IncomingMessage::guild(GUILD, GENERAL, OWNER, "done").reply_to(other),
    );
    fake.dispatch_message_create(
        IncomingMessage::guild(GUILD, GENERAL, STRANGER, "done").reply_to(nudge_id),
    );
    fake.dispatch_message_create(
        IncomingMessage::guild(GUILD, GENERAL, OWNER, "done").reply_to(nudge_id),
    );
    assert!(
        sent_to(&fake, GENERAL, "Marked 'Pay rent' as done.").await,
        "{:?}",
        fake.sent_messages()
    );
    let said_since: Vec<(u64, String)> = fake.sent_messages()[replies_before..].to_vec();
    assert_eq!(
        said_since,
        vec![(GENERAL, "Marked 'Pay rent' as done.".to_string())],
        "only the owner's reply to her was answered"
    );
    assert_eq!(bot.task_json(&task).await["status"], "done");
}
