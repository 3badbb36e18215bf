//! Repeat from completion (Todoist's "every!") through the real HTTP API, automation runner,
//! turns and calendar feed on a controlled clock: an automation made with `repeat_from:
//! "completion"` has one occurrence at a time; the next comes the rule's interval after the last
//! one was done, at the stated clock time if one was said (else at the time it was done); a
//! snooze moves only that occurrence; the .ics feed shows the next one without RRULE; bad
//! requests are refused and change nothing.
//!
//! The clock starts at Monday 23 November 2026, 10:00 UTC; the config's zone is UTC.

use crate::common;
use crate::common::{Fields, Needed};

use chrono::{DateTime, TimeZone, Utc};
use common::{start_bot_with, Bot, TestEnv};
use donna::tasks::Task;
use serde_json::{json, Value};

const TOKEN: &str = "cal-completion-5d1";

fn at(month: u32, day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, month, day, hour, minute, 0)
        .single()
        .needed()
}

/// The runner's tick at `when`: the tasks it made.
async fn fired_at(bot: &Bot, when: DateTime<Utc>) -> Vec<Task> {
    bot.clock.set(when);
    bot.automation_tick().await
}

/// The person marks task `id` done at `when` (`PATCH /api/tasks/{id}`).
async fn done_at(bot: &Bot, id: &str, when: DateTime<Utc>) {
    bot.clock.set(when);
    let (status, done) = bot
        .patch(&format!("/api/tasks/{id}"), json!({"status": "done"}))
        .await;
    assert_eq!(status, 200, "{done}");
}

/// The automation `id` as `GET /api/automations` shows it.
async fn listed(bot: &Bot, id: &str) -> Value {
    let (status, all) = bot.get("/api/automations").await;
    assert_eq!(status, 200, "{all}");
    all.as_array()
        .into_iter()
        .flatten()
        .find(|a| a["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} not listed: {all}"))
}

async fn created(bot: &Bot, body: Value) -> Value {
    let (status, automation) = bot.post("/api/automations", body.clone()).await;
    assert_eq!(status, 201, "{body}: {automation}");
    automation
}

async fn calendar(bot: &Bot) -> String {
    let (status, text) = bot.get(&format!("/api/calendar.ics?token={TOKEN}")).await;
    assert_eq!(status, 200);
    text.text().to_string()
}

/// The VEVENT with `uid` in the feed, its lines unfolded enough to read DTSTART and RRULE.
fn event(feed: &str, uid: &str) -> Option<String> {
    feed.split("BEGIN:VEVENT")
        .skip(1)
        .map(|event| event.split("END:VEVENT").next().needed())
        .find(|event| event.contains(&format!("UID:{uid}@donna")))
        .map(str::to_string)
}

#[actix_rt::test]
async fn the_next_occurrence_comes_the_interval_after_the_last_was_done_and_a_snooze_moves_only_it()
{
    let bot = start_bot_with("", TestEnv(vec![("DONNA_CALENDAR_TOKEN", TOKEN)])).await;
    let kettle = created(
        &bot,
        json!({
            "title": "Descale the kettle",
            "rrule": "FREQ=WEEKLY;INTERVAL=2;BYHOUR=10;BYMINUTE=0;BYSECOND=0",
            "first_run": "2026-11-24T10:00:00Z",
            "repeat_from": "completion",
            "user_id": "owner",
        }),
    )
    .await;
    let id = kettle["id"].text().to_string();
    assert_eq!(kettle["repeat_from"], "completion");
    assert_eq!(
        kettle["time_stated"], true,
        "BYHOUR: a time the client chose"
    );
    assert_eq!(kettle["next_run"], "2026-11-24T10:00:00+00:00");
    assert_eq!(
        kettle["schedule"],
        "every 2 weeks after the last one is done at 10:00"
    );
    assert!(fired_at(&bot, at(11, 24, 9, 59)).await.is_empty());
    let first = fired_at(&bot, at(11, 24, 10, 0)).await;
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0].scheduled_start, Some(at(11, 24, 10, 0)));
    // Open: nothing comes next until it is done.
    assert_eq!(listed(&bot, &id).await["next_run"], Value::Null);
    bot.clock.set(at(11, 24, 10, 5));
    // A snooze in its nudge moves that occurrence only.
    let thread = bot.nudge(&first[0].id).await;
    let snoozed = bot.say(&thread, "snooze").await;
    assert_eq!(snoozed["path"], "fast", "{snoozed}");
    let task = bot.task_json(&first[0].id).await;
    assert!(task["snoozed_until"].is_string(), "{task}");
    assert_eq!(listed(&bot, &id).await["next_run"], Value::Null);
    assert!(fired_at(&bot, at(11, 24, 13, 0)).await.is_empty());
    let feed = calendar(&bot).await;
    assert!(
        event(&feed, &first[0].id).is_some(),
        "the open occurrence shows as a task: {feed}"
    );
    assert!(
        event(&feed, &id).is_none(),
        "no event of its own while open"
    );
    // Done on Wednesday 25 November at 17:42: the next is two weeks on, at the stated 10:00.
    done_at(&bot, &first[0].id, at(11, 25, 17, 42)).await;
    assert_eq!(
        listed(&bot, &id).await["next_run"],
        "2026-12-09T10:00:00+00:00"
    );
    let feed = calendar(&bot).await;
    let next = event(&feed, &id).unwrap_or_else(|| panic!("no next event: {feed}"));
    assert!(next.contains("DTSTART;TZID=UTC:20261209T100000"), "{next}");
    assert!(!next.contains("RRULE"), "{next}");
    assert!(fired_at(&bot, at(12, 9, 9, 59)).await.is_empty());
    let second = fired_at(&bot, at(12, 9, 10, 0)).await;
    assert_eq!(second.len(), 1, "{second:?}");
    assert_eq!(second[0].scheduled_start, Some(at(12, 9, 10, 0)));
    assert!(
        fired_at(&bot, at(12, 9, 11, 0)).await.is_empty(),
        "one at a time"
    );
}

#[actix_rt::test]
async fn without_a_stated_time_the_next_is_the_interval_after_the_moment_it_was_done() {
    let bot = start_bot_with("", TestEnv(Vec::new())).await;
    let cactus = created(
        &bot,
        json!({
            "title": "Water the cactus",
            "rrule": "FREQ=DAILY;INTERVAL=3",
            "repeat_from": "completion",
        }),
    )
    .await;
    let id = cactus["id"].text().to_string();
    assert_eq!(
        cactus["time_stated"], false,
        "no hour and no first run given"
    );
    // The rule's first occurrence after now: tomorrow at now's time.
    assert_eq!(cactus["next_run"], "2026-11-24T10:00:00+00:00");
    let first = fired_at(&bot, at(11, 24, 10, 0)).await;
    assert_eq!(first.len(), 1, "{first:?}");
    done_at(&bot, &first[0].id, at(11, 24, 17, 42)).await;
    assert_eq!(
        listed(&bot, &id).await["next_run"],
        "2026-11-27T17:42:00+00:00"
    );
    assert_eq!(fired_at(&bot, at(11, 27, 17, 42)).await.len(), 1);
}

#[actix_rt::test]
async fn a_bad_automation_request_is_refused_and_stores_nothing() {
    let bot = start_bot_with("", TestEnv(Vec::new())).await;
    let good = json!({"title": "Descale the kettle", "rrule": "FREQ=WEEKLY;INTERVAL=2"});
    let with = |key: &str, value: Value| {
        let mut body = good.clone();
        body[key] = value;
        body
    };
    for (body, named) in [
        (with("repeat_from", json!("sometimes")), "repeat_from"),
        (with("rrule", json!("FREQ=HOURLY;INTERVAL=2")), "rrule"),
        (with("rrule", json!("FREQ=WEEKLY;BYDAY=XX")), "rrule"),
        (
            with("first_run", json!("2026-11-20T10:00:00Z")),
            "first_run",
        ),
        (with("timezone", json!("Mars/Olympus")), "timezone"),
        (with("title", json!("  ")), "title"),
        (with("priority", json!(9)), "priority"),
        (with("every", json!(true)), "every"),
    ] {
        let (status, error) = bot.post("/api/automations", body.clone()).await;
        assert_eq!(status, 400, "{body}: {error}");
        assert!(error.to_string().contains(named), "{body}: {error}");
    }
    let (_, all) = bot.get("/api/automations").await;
    assert_eq!(all, json!([]));
}
