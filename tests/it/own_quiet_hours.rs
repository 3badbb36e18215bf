//! Quiet hours in a person's own day, on a controlled clock through the real HTTP API, turns
//! and Nudger: the quiet hours a nudge is held in are read in the zone of the person it is for
//! (a New York person is not woken at 4 in the morning because the config's zone is UTC), a
//! person may set their own (`PUT /api/people/{user_id}` `{"quiet_hours": "01:00-11:00"}`), and
//! null gives them back the config's `nudges.quiet_hours`.
//!
//! The clock starts at Monday 23 November 2026, 10:00 UTC; the config's zone is UTC and its
//! quiet hours 22:00-08:00. Every task here has a time Donna chose ("tomorrow evening": 18:00),
//! which waits for quiet hours to end.

use crate::common;
use crate::common::{Fields, Needed};

use chrono::{DateTime, TimeZone, Utc};
use common::{start_bot, Bot};
use serde_json::{json, Value};

const DEFAULT_QUIET: &str =
    "nudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-08:00\"\n";

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0)
        .single()
        .needed()
}

/// The titles nudged by a tick at `when`, sorted.
async fn nudged_at(bot: &Bot, when: DateTime<Utc>) -> Vec<String> {
    bot.clock.set(when);
    bot.titles_of(&bot.tick_nudger().await).await
}

/// `user` captures `sentence` in a chat of their own; the new task's id.
async fn captured_by(bot: &Bot, user: &str, sentence: &str) -> String {
    let chat = bot.free_thread().await;
    let result = bot.say_as(&chat, user, sentence).await;
    assert_eq!(result["path"], "task_created", "{sentence:?}: {result}");
    result["results"][0]["task_id"].text().to_string()
}

async fn person(bot: &Bot, user: &str) -> Value {
    let (status, person) = bot.get(&format!("/api/people/{user}")).await;
    assert_eq!(status, 200, "{person}");
    person
}

#[actix_rt::test]
async fn quiet_hours_are_read_in_the_zone_of_the_person_a_nudge_is_for() {
    let bot = start_bot(DEFAULT_QUIET).await;
    for (user, zone) in [("nyc", "America/New_York"), ("tokyo", "Asia/Tokyo")] {
        let (status, body) = bot.put_person(user, json!({ "timezone": zone })).await;
        assert_eq!(status, 200, "{body}");
    }
    // Tuesday 18:00 in New York is 23:00 UTC; Tuesday 09:00 in Tokyo is 00:00 UTC.
    captured_by(&bot, "nyc", "remind me tomorrow evening to call the bank").await;
    captured_by(&bot, "tokyo", "remind me tomorrow morning to buy rice").await;
    assert!(
        nudged_at(&bot, at(23, 23)).await.is_empty(),
        "nothing due yet"
    );
    assert_eq!(
        nudged_at(&bot, at(24, 0)).await,
        ["Buy rice"],
        "09:00 in Tokyo is no quiet hour there, though it is midnight in UTC"
    );
    // 14:00 UTC is 23:00 in Tokyo: the unanswered reminder's repeat waits for Tokyo's morning.
    assert!(
        nudged_at(&bot, at(24, 14)).await.is_empty(),
        "23:00 in Tokyo is quiet there"
    );
    // 23:00 UTC: 18:00 in New York, 08:00 on Wednesday in Tokyo; both are awake.
    assert_eq!(
        nudged_at(&bot, at(24, 23)).await,
        ["Buy rice", "Call the bank"]
    );
}

#[actix_rt::test]
async fn a_person_sets_their_own_quiet_hours_and_null_gives_back_the_default() {
    let bot = start_bot(DEFAULT_QUIET).await;
    let (status, owl) = bot
        .put_person("owl", json!({ "quiet_hours": "01:00-11:00" }))
        .await;
    assert_eq!(status, 200, "{owl}");
    assert_eq!(
        owl,
        json!({"user_id": "owl", "timezone": "UTC", "quiet_hours": "01:00-11:00", "working_hours": "09:00-18:00", "calendars": []})
    );
    assert_eq!(person(&bot, "owl").await["quiet_hours"], "01:00-11:00");
    assert_eq!(person(&bot, "lark").await["quiet_hours"], "22:00-08:00");
    // Refused, changing nothing: hours not like "23:00-07:00", a bad zone beside good hours
    // (checked before anything is written), an unknown field.
    for body in [
        json!({ "quiet_hours": "late" }),
        json!({ "quiet_hours": "25:00-07:00" }),
        json!({ "quiet_hours": "02:00-06:00", "timezone": "Mars/Olympus" }),
        json!({ "quiet_hours": "02:00-06:00", "naps": true }),
    ] {
        let (status, error) = bot.put_person("owl", body.clone()).await;
        assert_eq!(status, 400, "{body}: {error}");
    }
    assert_eq!(
        person(&bot, "owl").await,
        json!({"user_id": "owl", "timezone": "UTC", "quiet_hours": "01:00-11:00", "working_hours": "09:00-18:00", "calendars": []})
    );
    // Tuesday 09:00 (Donna's time for "tomorrow") is quiet for the owl, not for the lark.
    let fish = captured_by(&bot, "owl", "remind me tomorrow to feed the fish").await;
    captured_by(&bot, "lark", "remind me tomorrow to walk the dog").await;
    assert_eq!(nudged_at(&bot, at(24, 9)).await, ["Walk the dog"]);
    assert_eq!(nudged_at(&bot, at(24, 11)).await, ["Feed the fish"]);
    let (status, done) = bot
        .patch(&format!("/api/tasks/{fish}"), json!({ "status": "done" }))
        .await;
    assert_eq!(status, 200, "{done}");
    // Back to the default: the owl's next 09:00 is no longer held until 11:00.
    let (status, owl) = bot.put_person("owl", json!({ "quiet_hours": null })).await;
    assert_eq!(
        (status, &owl["quiet_hours"], &owl["timezone"]),
        (200, &json!("22:00-08:00"), &json!("UTC"))
    );
    captured_by(&bot, "owl", "remind me tomorrow to clean the tank").await;
    let wednesday = nudged_at(&bot, at(25, 9)).await;
    assert!(
        wednesday.contains(&"Clean the tank".to_string()),
        "{wednesday:?}"
    );
}
