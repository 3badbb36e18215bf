//! A recurring reminder at a time the person said keeps its word, through the real turns,
//! automation runner, Nudger and digest runner on a controlled clock: "every day at 23:00
//! remind me to take the pill" fires at 23:00 in quiet hours, as "remind me at 23:00" does; the
//! hour Donna picks when none is said (09:00) waits for quiet hours to end; a daily digest at
//! Donna's 08:00 waits for its person's own quiet hours, one at a time they said does not.
//!
//! The clock starts at Monday 23 November 2026, 10:00 UTC; the config's zone is UTC.

use crate::common;
use crate::common::{Fields, Needed};

use chrono::{DateTime, TimeZone, Utc};
use common::{start_bot, Bot};
use donna::subsystems::digest::DigestSent;
use serde_json::{json, Value};

/// Quiet until 10:00, so Donna's 09:00 falls inside.
const QUIET: &str = "nudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-10:00\"\n";

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0)
        .single()
        .needed()
}

/// `sentence` proposed in a chat of its own and confirmed with "yes"; the chat.
async fn confirmed_in_chat(bot: &Bot, sentence: &str) -> String {
    let chat = bot.free_thread().await;
    let proposed = bot.say(&chat, sentence).await;
    assert_eq!(
        proposed["path"], "automation_proposed",
        "{sentence}: {proposed}"
    );
    let yes = bot.say(&chat, "yes").await;
    assert_eq!(yes["path"], "plan_confirmed", "{sentence}: {yes}");
    chat
}

/// At `when`: the automation runner's tick, then the Nudger's; the titles nudged, sorted.
async fn nudged_at(bot: &Bot, when: DateTime<Utc>) -> Vec<String> {
    bot.clock.set(when);
    bot.automation_tick().await;
    bot.titles_of(&bot.tick_nudger().await).await
}

/// Each automation's (title, time_stated), as `GET /api/automations` shows them.
async fn stated(bot: &Bot) -> Vec<(String, bool)> {
    let (status, listed) = bot.get("/api/automations").await;
    assert_eq!(status, 200, "{listed}");
    let mut stated: Vec<(String, bool)> = listed
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            let title = a["title"].text().to_string();
            (title, a["time_stated"] == json!(true))
        })
        .collect();
    stated.sort();
    stated
}

#[actix_rt::test]
async fn a_recurring_reminder_at_a_stated_time_fires_then_in_quiet_hours_and_donnas_hour_waits() {
    let bot = start_bot(QUIET).await;
    confirmed_in_chat(&bot, "every day at 23:00 remind me to take the pill").await;
    confirmed_in_chat(&bot, "every day remind me to water the plants").await;
    confirmed_in_chat(&bot, "remind me every day at 9am to call mom").await;
    assert_eq!(
        stated(&bot).await,
        [
            ("Call mom".to_string(), true),
            ("Take the pill".to_string(), true),
            ("Water the plants".to_string(), false),
        ]
    );
    assert!(
        nudged_at(&bot, at(23, 22)).await.is_empty(),
        "nothing due yet"
    );
    assert_eq!(
        nudged_at(&bot, at(23, 23)).await,
        ["Take the pill"],
        "23:00, said by the person, in quiet hours"
    );
    // Tuesday 09:00: the 09:00 the person said fires; Donna's 09:00 and the unanswered pill's
    // repeat wait for 10:00.
    assert_eq!(nudged_at(&bot, at(24, 9)).await, ["Call mom"]);
    assert_eq!(
        nudged_at(&bot, at(24, 10)).await,
        ["Take the pill", "Water the plants"],
        "the quiet hours are over"
    );
    // And again on Tuesday night: every occurrence is marked, not only the first.
    let tuesday_night = nudged_at(&bot, at(24, 23)).await;
    assert!(
        tuesday_night.contains(&"Take the pill".to_string()),
        "{tuesday_night:?}"
    );
}

async fn digests_at(bot: &Bot, when: DateTime<Utc>) -> Vec<DigestSent> {
    bot.clock.set(when);
    let sent = bot.digest_tick().await;
    sent.into_iter().filter(|d| d.text.is_some()).collect()
}

#[actix_rt::test]
async fn a_digest_at_donnas_hour_waits_for_the_persons_own_quiet_hours_and_a_stated_one_does_not() {
    let bot = start_bot("nudges:\n  interval: 1h\n  quiet_hours: \"22:00-07:00\"\n").await;
    let (status, owner) = bot
        .request(
            reqwest::Method::PUT,
            "/api/people/owner",
            Some(json!({ "quiet_hours": "23:00-09:00" })),
        )
        .await;
    assert_eq!(status, 200, "{owner}");
    // Something for the agenda: a task due today (Tuesday) when the digests run.
    let (status, _): (u16, Value) = bot
        .post(
            "/api/tasks",
            json!({ "title": "Pay rent", "deadline": "2026-11-24T17:00:00Z" }),
        )
        .await;
    assert_eq!(status, 201);
    let default_chat = confirmed_in_chat(&bot, "send me my agenda every day").await;
    let stated_chat = confirmed_in_chat(&bot, "send me my agenda every day at 7am").await;
    let sent_in = |sent: Vec<DigestSent>| -> Vec<String> {
        sent.into_iter().filter_map(|d| d.thread_id).collect()
    };
    assert_eq!(
        sent_in(digests_at(&bot, at(24, 7)).await),
        [stated_chat],
        "07:00, said by the person, inside their quiet hours"
    );
    assert!(
        digests_at(&bot, at(24, 8)).await.is_empty(),
        "Donna's 08:00 is inside the owner's own quiet hours (until 09:00)"
    );
    assert_eq!(sent_in(digests_at(&bot, at(24, 9)).await), [default_chat]);
}
