//! Free text in Discord (issue 13), against a fake Discord on loopback driven by the real twilight
//! clients: a DM and a mention capture tasks that remember the chat they came from, the common
//! questions are answered there, and messages Donna must not act on (a stranger's DM, a guild
//! message that does not address her) capture nothing.

use crate::common;
use crate::common::{Fields, Needed};

use chrono::{Datelike, Timelike, Weekday};
use common::fake_discord::{start_fake_discord, IncomingMessage, BOT_USER_ID};
use common::ids::{DM, GENERAL, GUILD, NUDGE_CHANNEL, OWNER, STRANGER, STRANGER_DM};
use common::{discord_bot, eventually, Bot};
use serde_json::Value;
use std::time::Duration;

async fn tasks(bot: &Bot) -> Vec<Value> {
    bot.get("/api/tasks").await.1.items().to_vec()
}

/// Donna's first message in `channel` starting with `start`, within 10 s.
async fn reply_in(fake: &common::fake_discord::FakeDiscord, channel: u64, start: &str) -> String {
    let find = || {
        fake.sent_messages()
            .into_iter()
            .find(|(c, text)| *c == channel && text.starts_with(start))
            .map(|(_, text)| text)
    };
    let arrived = eventually(Duration::from_secs(10), || async { find().is_some() }).await;
    assert!(
        arrived,
        "no {start:?} in {channel}: {:?}",
        fake.sent_messages()
    );
    find().needed()
}

#[actix_rt::test]
async fn a_dm_captures_a_reminder_with_its_time_and_answers_questions_there() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, &[OWNER], NUDGE_CHANNEL, "").await;
    fake.dispatch_message_create(IncomingMessage::dm(
        DM,
        OWNER,
        "remind me to pay rent friday 9am",
    ));
    let reply = reply_in(&fake, DM, "Added 'Pay rent'").await;
    assert!(
        reply.contains("Friday") && reply.contains("09:00"),
        "{reply}"
    );
    let all = tasks(&bot).await;
    assert_eq!(all.len(), 1, "{all:?}");
    let task = &all[0];
    assert_eq!(task["title"], "Pay rent");
    assert_eq!(task["source"], "capture");
    assert_eq!(task["origin_thread_id"], DM.to_string());
    let start = task["scheduled_start"]
        .as_str()
        .and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok())
        .unwrap_or_else(|| panic!("no start: {task}"));
    assert_eq!(
        (start.weekday(), start.hour()),
        (Weekday::Fri, 9),
        "{start}"
    );

    fake.dispatch_message_create(IncomingMessage::dm(DM, OWNER, "what's due this week?"));
    let answer = reply_in(&fake, DM, "Due this week").await;
    assert!(answer.contains("Pay rent"), "{answer}");
    // Only the one task: a question is never a capture.
    assert_eq!(tasks(&bot).await.len(), 1);
}

#[actix_rt::test]
async fn a_mention_in_a_guild_channel_captures_and_unaddressed_or_stranger_messages_do_not() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, &[OWNER], NUDGE_CHANNEL, "").await;
    // Not addressed to Donna, and a stranger's DM: nothing happens.
    fake.dispatch_message_create(IncomingMessage::guild(
        GUILD,
        GENERAL,
        OWNER,
        "add buy eggs",
    ));
    fake.dispatch_message_create(IncomingMessage::dm(STRANGER_DM, STRANGER, "add buy eggs"));
    fake.dispatch_message_create(
        IncomingMessage::guild(
            GUILD,
            GENERAL,
            OWNER,
            &format!("<@{BOT_USER_ID}> add buy milk"),
        )
        .mentioning_bot(),
    );
    let reply = reply_in(&fake, GENERAL, "Added 'Buy milk'").await;
    assert!(!reply.contains("@"), "{reply}");
    // The gateway reads events in order: the two before were turned away before the mention.
    let all = tasks(&bot).await;
    let titles: Vec<_> = all.iter().filter_map(|t| t["title"].as_str()).collect();
    assert_eq!(titles, ["Buy milk"], "{all:?}");
    assert_eq!(all[0]["origin_thread_id"], GENERAL.to_string());
    assert!(
        fake.sent_messages().iter().all(|(c, _)| *c == GENERAL),
        "nothing sent to the stranger or elsewhere: {:?}",
        fake.sent_messages()
    );
}
