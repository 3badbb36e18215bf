//! Donna in Discord, against a fake Discord on loopback driven by the real twilight clients:
//! nudge threads, who is heard, replies from the outbox (split, rate-limited, retried after an
//! outage), resume after op 7, and a fatal close reported in /health.

use crate::common;
use crate::common::health::actor_in;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use common::fake_discord::{start_fake_discord, FakeDiscord, IncomingMessage, BOT_USER_ID};
use common::ids::{DM, GENERAL, GUILD, NUDGE_CHANNEL, OWNER, STRANGER};
use common::{eventually, sent_to, wait_ready, Bot, Fields, Needed, TestConfig};
use donna::config::LlmProvider;
use donna::discord::DiscordMsg;
use serde_json::{json, Value};

async fn discord_bot(fake: &FakeDiscord, http_timeout_secs: u64) -> Bot {
    let bot = discord_config(fake, http_timeout_secs, &[OWNER])
        .start()
        .await;
    wait_ready(&bot).await;
    bot
}

/// Discord on `fake` with nudges in `NUDGE_CHANNEL`, hearing `allowed`.
fn discord_config(fake: &FakeDiscord, http_timeout_secs: u64, allowed: &[u64]) -> TestConfig {
    TestConfig::new()
        .with_discord(fake, allowed)
        .nudging_in(NUDGE_CHANNEL)
        .with_discord_timeout(http_timeout_secs)
}

/// Opens a Discord nudge for a new task; returns (task id, Discord thread id).
async fn discord_nudge(bot: &Bot, title: &str) -> (String, u64) {
    let task = bot.task(json!({"title": title})).await;
    let (status, nudge) = bot
        .post(
            "/api/nudges",
            json!({"task_id": task, "channel": "discord"}),
        )
        .await;
    assert_eq!(status, 201, "{nudge}");
    let thread = nudge["thread_id"]
        .text()
        .parse()
        .unwrap_or_else(|e| panic!("a Discord thread id: {e}: {nudge}"));
    (task, thread)
}

#[actix_rt::test]
async fn a_nudge_opens_a_thread_and_done_there_marks_the_task_and_answers_in_the_thread() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 5).await;
    let (task, thread) = discord_nudge(&bot, "Pay rent").await;
    assert_ne!(thread, 0);
    // The nudge was posted in the nudge channel and a thread started on it.
    assert_eq!(
        fake.sent_messages().first().cloned(),
        Some((
            NUDGE_CHANNEL,
            "Time for 'Pay rent'. How is it going: done, later, or busy?".to_string()
        ))
    );
    assert!(fake.thread(thread).is_some());
    assert_eq!(
        bot.task_json(&task).await["open_thread_id"],
        thread.to_string()
    );

    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, OWNER, "done"));
    assert!(
        sent_to(&fake, thread, "Marked 'Pay rent' as done.").await,
        "{:?}",
        fake.sent_messages()
    );
    assert_eq!(bot.task_json(&task).await["status"], "done");
    // A second nudge for an open thread goes into that thread.
    let other = bot.task(json!({"title": "Gym"})).await;
    let (_, first) = bot
        .post(
            "/api/nudges",
            json!({"task_id": other, "channel": "discord"}),
        )
        .await;
    let (status, again) = bot
        .post(
            "/api/nudges",
            json!({"task_id": other, "channel": "discord"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(again["thread_id"], first["thread_id"]);
    let gym_thread = first["thread_id"]
        .as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    assert!(
        sent_to(
            &fake,
            gym_thread,
            "Time for 'Gym'. How is it going: done, later, or busy?"
        )
        .await
    );
}

#[actix_rt::test]
async fn own_bot_stranger_and_unaddressed_messages_get_nothing() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 5).await;
    // Counted from before the nudge: Discord echoes each of Donna's own posts (the nudge, her
    // replies) back to her as a message, so those reach her too.
    let shared = bot.app.discord_shared.clone().needed();
    let sent_at_start = fake.sent_messages().len() as u64;
    let received_before = shared.received.load(Ordering::Acquire);
    let settled_before = shared.inbound_settled.load(Ordering::Acquire);
    let ignored_before = shared.ignored.load(Ordering::Acquire);
    let (task, thread) = discord_nudge(&bot, "Pay rent").await;
    let before = fake.sent_messages().len();
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, BOT_USER_ID, "done"));
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, 77, "done").by_bot());
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, OWNER, "done").webhook(88));
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, STRANGER, "done"));
    fake.dispatch_message_create(IncomingMessage::dm(DM, STRANGER, "done"));
    fake.dispatch_message_create(IncomingMessage::guild(
        GUILD,
        GENERAL,
        OWNER,
        "done, anyone?",
    ));
    // A control message that is heard, after all of them.
    fake.dispatch_message_create(IncomingMessage::dm(DM + 1, OWNER, "hello"));
    assert!(
        eventually(Duration::from_secs(10), || async {
            fake.sent_messages().len() > before
        })
        .await
    );
    // Nothing more can come: every reply written is out of the outbox, and every message that
    // reached Donna (the seven above and the echo of each of her posts) was taken and its
    // handling is over (ignored, or its turn done).
    let echoes = || fake.sent_messages().len() as u64 - sent_at_start;
    let all_settled = eventually(Duration::from_secs(10), || async {
        let undelivered = bot
            .app
            .store
            .read(|conn| donna::conversation::outbox::undelivered(conn, "discord", 10))
            .await
            .map_or(usize::MAX, |entries| entries.len());
        let expected = 7 + echoes();
        undelivered == 0
            && shared.received.load(Ordering::Acquire) - received_before == expected
            && shared.inbound_settled.load(Ordering::Acquire) - settled_before == expected
    })
    .await;
    assert!(
        all_settled,
        "received {}, settled {}, expected {}",
        shared.received.load(Ordering::Acquire) - received_before,
        shared.inbound_settled.load(Ordering::Acquire) - settled_before,
        7 + echoes()
    );
    assert_eq!(
        shared.ignored.load(Ordering::Acquire) - ignored_before,
        6 + echoes(),
        "all but the control message were ignored"
    );
    let replies: Vec<(u64, String)> = fake.sent_messages().into_iter().skip(before).collect();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0].0, DM + 1);
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
    let (_, threads) = bot.get("/api/threads").await;
    let ids: Vec<&str> = threads
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert!(
        !ids.contains(&GENERAL.to_string().as_str()),
        "an unaddressed channel was recorded"
    );
    assert!(
        !ids.contains(&DM.to_string().as_str()),
        "a stranger's DM was recorded"
    );
}

#[actix_rt::test]
async fn dms_and_mentions_get_an_honest_short_answer_and_are_recorded() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 5).await;
    fake.dispatch_message_create(IncomingMessage::dm(DM, OWNER, "hi Donna"));
    assert!(
        eventually(Duration::from_secs(10), || async {
            fake.sent_messages().iter().any(|(c, _)| *c == DM)
        })
        .await
    );
    fake.dispatch_message_create(
        IncomingMessage::guild(
            GUILD,
            GENERAL,
            OWNER,
            &format!("<@{BOT_USER_ID}> what's up"),
        )
        .mentioning_bot(),
    );
    assert!(
        eventually(Duration::from_secs(10), || async {
            fake.sent_messages().iter().any(|(c, _)| *c == GENERAL)
        })
        .await
    );
    let (_, threads) = bot.get("/api/threads").await;
    let find = |id: u64| {
        threads
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["id"].as_str() == Some(id.to_string().as_str()))
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(find(DM)["is_group"], false);
    assert_eq!(find(DM)["channel"], "discord");
    assert_eq!(find(GENERAL)["is_group"], true);
    let (_, history) = bot.get(&format!("/api/threads/{GENERAL}/messages")).await;
    assert_eq!(history[0]["text"], "what's up", "the mention is stripped");
}

#[actix_rt::test]
async fn a_reply_over_two_thousand_characters_arrives_as_ordered_messages() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 5).await;
    let (_, thread) = discord_nudge(&bot, "Essay").await;
    let words: Vec<String> = (0..700).map(|i| format!("w{i:03}")).collect();
    let long = words.join(" "); // 3,499 characters
    let (thread_id, text, now) = (thread.to_string(), long.clone(), bot.app.clock.now());
    bot.app
        .store
        .write(move |conn| {
            donna::conversation::outbox::enqueue(conn, &thread_id, "discord", &text, now, false)
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(discord) = &bot.app.discord {
        let _ = discord.tell(DiscordMsg::Deliver);
    }
    assert!(
        eventually(Duration::from_secs(10), || async {
            fake.sent_messages()
                .iter()
                .filter(|(c, _)| *c == thread)
                .count()
                == 2
        })
        .await
    );
    let parts: Vec<String> = fake
        .sent_messages()
        .into_iter()
        .filter(|(c, _)| *c == thread)
        .map(|(_, t)| t)
        .collect();
    assert!(parts.iter().all(|p| p.chars().count() < 2_000));
    assert_eq!(parts.join(" "), long, "in order, nothing lost");
}

#[actix_rt::test]
async fn after_op_7_the_shard_resumes_and_later_messages_are_answered() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 5).await;
    let (task, thread) = discord_nudge(&bot, "Pay rent").await;
    fake.send_reconnect();
    assert!(
        eventually(Duration::from_secs(10), || async {
            fake.resume_count() >= 1
        })
        .await
    );
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, OWNER, "done"));
    assert!(sent_to(&fake, thread, "Marked 'Pay rent' as done.").await);
    assert_eq!(bot.task_json(&task).await["status"], "done");
    assert_eq!(fake.identify_count(), 1, "resumed, not re-identified");
}

#[actix_rt::test]
async fn a_429_is_waited_out_and_then_the_reply_is_delivered() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 10).await;
    let (_, thread) = discord_nudge(&bot, "Pay rent").await;
    fake.rate_limit_next(Duration::from_millis(1_500));
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, OWNER, "busy"));
    assert!(
        eventually(Duration::from_secs(10), || async {
            fake.sent_messages()
                .iter()
                .any(|(c, t)| *c == thread && t.starts_with("Snoozed"))
        })
        .await
    );
    let posts: Vec<Instant> = fake
        .requests_to("POST", &format!("/channels/{thread}/messages"))
        .into_iter()
        .map(|r| r.at)
        .collect();
    assert!(posts.len() >= 2, "{posts:?}");
    let waited = posts[posts.len() - 1].duration_since(posts[0]);
    assert!(
        waited >= Duration::from_millis(1_400),
        "retried after {waited:?}"
    );
}

#[actix_rt::test]
async fn a_rest_outage_longer_than_the_deadline_keeps_the_reply_until_rest_returns() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 1).await;
    let (task, thread) = discord_nudge(&bot, "Pay rent").await;
    fake.set_down(true);
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, OWNER, "done"));
    assert!(
        eventually(Duration::from_secs(10), || async {
            bot.task_json(&task).await["status"] == "done"
        })
        .await
    );
    let shared = bot.app.discord_shared.clone().needed();
    assert!(
        eventually(Duration::from_secs(10), || async {
            shared.send_failures.load(Ordering::Relaxed) >= 2
        })
        .await
    );
    assert!(!fake.sent_messages().iter().any(|(c, _)| *c == thread));
    let undelivered = bot
        .app
        .store
        .read(|conn| donna::conversation::outbox::undelivered(conn, "discord", 10))
        .await
        .needed();
    assert_eq!(undelivered.len(), 1);
    fake.set_down(false);
    assert!(sent_to(&fake, thread, "Marked 'Pay rent' as done.").await);
    assert_eq!(
        fake.sent_messages()
            .iter()
            .filter(|(c, _)| *c == thread)
            .count(),
        1,
        "delivered once"
    );
}

#[actix_rt::test]
async fn close_code_4004_fails_the_gateway_in_health_while_the_local_api_serves() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 5).await;
    fake.close_with(4004);
    let failed = eventually(Duration::from_secs(10), || async {
        bot.get("/health").await.0 == 503
    })
    .await;
    let (_, health) = bot.get("/health").await;
    assert!(failed, "{health}");
    let gateway = actor_in(&health, "discord_gateway");
    assert_eq!(gateway["state"], "failed");
    assert!(
        gateway["last_failure"]["message"].text().contains("4004"),
        "{gateway}"
    );
    // No reconnect loop, and the local API serves on: once no shard task is left (the shard
    // gave up for good), nothing can connect or identify again.
    let identifies = fake.identify_count();
    let shared = bot.app.discord_shared.clone().needed();
    assert!(
        eventually(Duration::from_secs(10), || async {
            shared.shard_tasks_running.load(Ordering::Acquire) == 0
        })
        .await,
        "the shard task did not end after a fatal close"
    );
    assert_eq!(fake.identify_count(), identifies);
    let (task, thread) = bot.nudged_task("Local task").await;
    assert_eq!(bot.say(&thread, "done").await["path"], "fast");
    assert_eq!(bot.task_json(&task).await["status"], "done");
}

#[actix_rt::test]
async fn two_bots_answering_each_other_stop_at_the_reply_cap() {
    const OTHER_BOT: u64 = 66;
    let fake = start_fake_discord().await;
    let llm = common::fake_llm::start_fake_llm();
    // The gate keeps voting REPLY: only the hard cap can end the loop.
    llm.always(common::fake_llm::Script::Output("REPLY".into()));
    let bot = discord_config(&fake, 5, &[OWNER, OTHER_BOT])
        .hearing_bots()
        .with_llm(&llm, LlmProvider::Ollama, 2, 2)
        .with_yaml(
            "reply_decision:\n  enabled: true\n  max_replies_per_window: 3\n  window: 120s\n",
        )
        .start()
        .await;
    wait_ready(&bot).await;
    let donna_in_general = |fake: &FakeDiscord| {
        fake.sent_messages()
            .iter()
            .filter(|(c, _)| *c == GENERAL)
            .count()
    };
    fake.dispatch_message_create(
        IncomingMessage::guild(
            GUILD,
            GENERAL,
            OTHER_BOT,
            &format!("<@{BOT_USER_ID}> hello fellow bot"),
        )
        .by_bot()
        .mentioning_bot(),
    );
    let mut rounds = 0;
    loop {
        let seen = donna_in_general(&fake);
        let answered = eventually(Duration::from_secs(3), || async {
            donna_in_general(&fake) > seen
        })
        .await;
        if !answered || rounds > 10 {
            break;
        }
        rounds += 1;
        // The other bot answers every message of Donna's.
        fake.dispatch_message_create(
            IncomingMessage::guild(
                GUILD,
                GENERAL,
                OTHER_BOT,
                &format!("<@{BOT_USER_ID}> reply {rounds}"),
            )
            .by_bot()
            .mentioning_bot(),
        );
    }
    assert_eq!(
        donna_in_general(&fake),
        3,
        "Donna stops at max_replies_per_window"
    );
    let (_, health) = bot.get("/health").await;
    assert!(
        health["reply_gate"]["cap_hits"].as_u64().unwrap_or(0) >= 1,
        "{health}"
    );
}

#[actix_rt::test]
async fn messages_sent_while_donna_was_down_are_answered_after_she_restarts() {
    let fake = start_fake_discord().await;
    let config = discord_config(&fake, 5, &[OWNER]);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let bot = config.clone().start_in(dir).await;
    wait_ready(&bot).await;
    let (task, thread) = discord_nudge(&bot, "Pay rent").await;
    bot.stop().await;
    let Bot { dir, app, .. } = bot;
    drop(app);
    assert!(
        eventually(Duration::from_secs(10), || async {
            !fake.has_live_session()
        })
        .await
    );
    // Said while Donna was offline: in the channel's history, never dispatched to her.
    fake.insert_message(IncomingMessage::guild(GUILD, thread, OWNER, "done"));

    let again = config.start_in(dir).await;
    wait_ready(&again).await;
    assert!(
        eventually(Duration::from_secs(10), || async {
            again.task_json(&task).await["status"] == "done"
        })
        .await
    );
    assert!(sent_to(&fake, thread, "Marked 'Pay rent' as done.").await);
}

#[actix_rt::test]
async fn with_discord_on_the_nudger_opens_its_threads_in_discord() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 5).await;
    let task = bot
        .task(json!({"title": "Pay rent", "deadline": "2026-11-20T09:00:00Z"}))
        .await;
    let nudged = bot.tick_nudger().await;
    assert_eq!(nudged.len(), 1);
    let thread: u64 = nudged[0].thread_id.parse().unwrap_or(0);
    assert!(
        fake.thread(thread).is_some(),
        "a Discord thread was started"
    );
    assert_eq!(
        fake.sent_messages().first().cloned(),
        Some((
            NUDGE_CHANNEL,
            "'Pay rent' is overdue (due Friday 20 Nov at 09:00). Done?".to_string()
        ))
    );
    assert_eq!(
        bot.task_json(&task).await["open_thread_id"],
        thread.to_string()
    );
}

#[actix_rt::test]
async fn no_message_donna_posts_can_ping_everyone_or_a_role() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, 5).await;
    let title = "Pay rent @everyone <@&123456789012345678>";
    let (task, thread) = discord_nudge(&bot, title).await;
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, OWNER, "done"));
    let done = format!("Marked '{title}' as done.");
    assert!(
        sent_to(&fake, thread, &done).await,
        "{:?}",
        fake.sent_messages()
    );
    assert_eq!(bot.task_json(&task).await["status"], "done");
    // The nudge in the nudge channel and the reply in the thread: every message created says
    // that it pings nobody, so Discord shows the mentions as text.
    let posts = fake.requests_to("POST", "/channels/");
    let created: Vec<&common::fake_discord::RecordedRequest> = posts
        .iter()
        .filter(|r| r.path.ends_with("/messages"))
        .collect();
    assert!(created.len() >= 2, "{created:?}");
    for request in created {
        let body = request.body.clone().needed();
        assert_eq!(body["allowed_mentions"], json!({"parse": []}), "{body}");
        assert!(body["content"].text().contains("@everyone"));
    }
}
