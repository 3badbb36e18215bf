//! A person's own quiet hours set in chat, through the real turns and HTTP API on a controlled
//! clock: "quiet hours 23:00 to 7:00", "don't nudge me between 10pm and 7am" store exactly what
//! `PUT /api/people/{user_id}` `quiet_hours` stores, answered in the person's zone; "use the
//! default quiet hours" gives back the config's; "quiet hours?" answers with the current ones;
//! sentences that only look like one change nothing; the hours set in words hold the nudges.
//!
//! The clock starts at Monday 23 November 2026, 10:00 UTC; the config's zone is UTC and its
//! quiet hours 22:00-08:00.

use crate::common;
use crate::common::{Fields, Needed};

use chrono::{TimeZone, Utc};
use common::{start_bot, Bot};
use serde_json::{json, Value};

const DEFAULT_QUIET: &str =
    "nudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-08:00\"\n";

async fn quiet_hours_of(bot: &Bot, user: &str) -> Value {
    let (status, person) = bot.get(&format!("/api/people/{user}")).await;
    assert_eq!(status, 200, "{person}");
    person["quiet_hours"].clone()
}

#[actix_rt::test]
async fn a_person_sets_resets_and_asks_for_their_quiet_hours_in_words() {
    let bot = start_bot(DEFAULT_QUIET).await;
    let (status, body) = bot
        .put_person("nyc", json!({ "timezone": "America/New_York" }))
        .await;
    assert_eq!(status, 200, "{body}");
    let chat = bot.free_thread().await;
    for (sentence, stored, path, answer) in [
        (
            "quiet hours?",
            "22:00-08:00",
            "answer",
            "22:00-08:00 (America/New_York time) (my default",
        ),
        (
            "quiet hours 23:00 to 7:00",
            "23:00-07:00",
            "chat",
            "now 23:00-07:00 (America/New_York time)",
        ),
        (
            "what are my quiet hours?",
            "23:00-07:00",
            "answer",
            "23:00-07:00 (America/New_York time).",
        ),
        (
            "don't nudge me between 10pm and 7am",
            "22:00-07:00",
            "chat",
            "now 22:00-07:00",
        ),
        (
            "no reminders after 11pm until 8",
            "23:00-08:00",
            "chat",
            "now 23:00-08:00",
        ),
        (
            "please set my quiet hours to 00:30-09:15",
            "00:30-09:15",
            "chat",
            "now 00:30-09:15",
        ),
        // Not about quiet hours, or not readable: nothing changes.
        ("I'm quiet today", "00:30-09:15", "", ""),
        ("the meeting runs from 10 to 7", "00:30-09:15", "", ""),
        (
            "don't remind me about the report between 10 and 7",
            "00:30-09:15",
            "",
            "",
        ),
        (
            "set my quiet hours",
            "00:30-09:15",
            "clarify",
            "Which hours should be quiet?",
        ),
        (
            "quiet hours 10 to 10",
            "00:30-09:15",
            "clarify",
            "Which hours should be quiet?",
        ),
        (
            "use the default quiet hours",
            "22:00-08:00",
            "chat",
            "back to the default, 22:00-08:00",
        ),
    ] {
        let said = bot.say_as(&chat, "nyc", sentence).await;
        let reply = said["reply"].text();
        if path.is_empty() {
            assert!(
                !reply.contains("quiet hours"),
                "{sentence:?} is not about quiet hours: {said}"
            );
        } else {
            assert_eq!(said["path"], path, "{sentence:?}: {said}");
            assert!(reply.contains(answer), "{sentence:?}: {reply}");
        }
        assert_eq!(quiet_hours_of(&bot, "nyc").await, stored, "{sentence:?}");
    }
    assert_eq!(
        quiet_hours_of(&bot, "owner").await,
        "22:00-08:00",
        "only the sender's own"
    );
}

#[actix_rt::test]
async fn quiet_hours_said_in_words_hold_the_nudges_in_the_persons_zone() {
    let bot = start_bot(DEFAULT_QUIET).await;
    let (status, body) = bot
        .put_person("owl", json!({ "timezone": "Asia/Tokyo" }))
        .await;
    assert_eq!(status, 200, "{body}");
    let chat = bot.free_thread().await;
    let set = bot
        .say_as(&chat, "owl", "quiet hours from 1am to 11am")
        .await;
    assert_eq!(set["path"], "chat", "{set}");
    // "tomorrow" is Tuesday 09:00 in Tokyo (00:00 UTC), Donna's choice: held until 11:00 there.
    let captured = bot
        .say_as(&chat, "owl", "remind me tomorrow to feed the fish")
        .await;
    assert_eq!(captured["path"], "task_created", "{captured}");
    let tick = |hour| Utc.with_ymd_and_hms(2026, 11, 24, hour, 0, 0).single();
    bot.clock.set(tick(0).needed());
    let at_nine = bot.titles_of(&bot.tick_nudger().await).await;
    assert!(
        at_nine.is_empty(),
        "09:00 in Tokyo is quiet for the owl: {at_nine:?}"
    );
    bot.clock.set(tick(2).needed());
    assert_eq!(
        bot.titles_of(&bot.tick_nudger().await).await,
        ["Feed the fish"]
    );
}
