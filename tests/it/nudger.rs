//! The Nudger on a controlled clock: overdue and check-in nudges, snooze, reschedule, quiet
//! hours, and the backoff between unanswered nudges.

use crate::common;
use crate::common::Needed;

use std::time::Duration as StdDuration;

use chrono::{Duration, TimeZone, Utc};
use common::{eventually, start_bot, Bot};
use serde_json::json;

/// Ticks never fire on their own within a test; the test ticks by hand.
const MANUAL: &str = "nudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-08:00\"\n";

async fn task(bot: &Bot, body: serde_json::Value) -> String {
    bot.task(body).await
}

#[actix_rt::test]
async fn overdue_and_check_in_tasks_are_nudged_in_their_own_thread_and_others_are_not() {
    let bot = start_bot(MANUAL).await;
    let overdue = task(
        &bot,
        json!({"title": "Pay rent", "deadline": "2026-11-22T09:00:00Z"}),
    )
    .await;
    let started = task(
        &bot,
        json!({"title": "Gym", "scheduled_start": "2026-11-23T09:30:00Z"}),
    )
    .await;
    let later = task(
        &bot,
        json!({"title": "Dentist", "scheduled_start": "2026-11-25T09:00:00Z"}),
    )
    .await;
    let someday = task(&bot, json!({"title": "Learn Welsh"})).await;
    let done = task(
        &bot,
        json!({"title": "Old", "deadline": "2026-11-01T09:00:00Z"}),
    )
    .await;
    bot.patch(&format!("/api/tasks/{done}"), json!({"status": "done"}))
        .await;

    let nudged = bot.tick_nudger().await;
    let texts: Vec<&str> = nudged.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(
        texts.contains(&"'Pay rent' is overdue (due yesterday at 09:00). Done?"),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.starts_with("Time for 'Gym'")),
        "{texts:?}"
    );
    for id in [&overdue, &started] {
        let shown = bot.task_json(id).await;
        assert!(shown["open_thread_id"].is_string(), "{shown}");
        assert_eq!(shown["nudge_count"], 1);
    }
    for id in [&later, &someday, &done] {
        assert_eq!(bot.task_json(id).await["nudge_count"], 0);
    }
    // Right away again: nothing (the gap).
    assert!(bot.tick_nudger().await.is_empty());
}

#[actix_rt::test]
async fn snoozed_and_rescheduled_tasks_wait() {
    let bot = start_bot(MANUAL).await;
    let (task, thread) = {
        let id = task(
            &bot,
            json!({"title": "Pay rent", "deadline": "2026-11-22T09:00:00Z"}),
        )
        .await;
        let thread = bot.nudge(&id).await;
        (id, thread)
    };
    bot.say(&thread, "busy").await; // snoozed for 2 hours
    bot.clock.advance(Duration::hours(1));
    assert!(bot.tick_nudger().await.is_empty(), "snoozed");
    bot.clock.advance(Duration::hours(4));
    let nudged = bot.tick_nudger().await;
    assert_eq!(nudged.len(), 1);
    assert_eq!(nudged[0].thread_id, thread, "nudged in its open thread");

    bot.say(&thread, "tomorrow").await; // rescheduled to tomorrow 09:00
    bot.clock.advance(Duration::hours(5));
    assert!(
        bot.tick_nudger().await.is_empty(),
        "rescheduled to a later time"
    );
    bot.clock.set(
        Utc.with_ymd_and_hms(2026, 11, 24, 9, 1, 0)
            .single()
            .needed(),
    );
    assert_eq!(bot.tick_nudger().await.len(), 1, "its new time has come");
    assert_eq!(bot.task_json(&task).await["nudge_count"], 3);
}

#[actix_rt::test]
async fn quiet_hours_hold_nudges_until_morning() {
    let bot = start_bot(MANUAL).await;
    bot.clock.set(
        Utc.with_ymd_and_hms(2026, 11, 23, 23, 0, 0)
            .single()
            .needed(),
    );
    task(
        &bot,
        json!({"title": "Pay rent", "deadline": "2026-11-22T09:00:00Z"}),
    )
    .await;
    assert!(bot.tick_nudger().await.is_empty(), "23:00 is quiet");
    bot.clock.set(
        Utc.with_ymd_and_hms(2026, 11, 24, 7, 59, 0)
            .single()
            .needed(),
    );
    assert!(bot.tick_nudger().await.is_empty(), "07:59 is quiet");
    bot.clock.set(
        Utc.with_ymd_and_hms(2026, 11, 24, 8, 0, 0)
            .single()
            .needed(),
    );
    assert_eq!(bot.tick_nudger().await.len(), 1);
}

#[actix_rt::test]
async fn quiet_hours_are_read_in_the_configured_timezone() {
    let bot = start_bot(&format!("timezone: America/New_York\n{MANUAL}")).await;
    // 10:00 UTC is 05:00 in New York: quiet.
    task(
        &bot,
        json!({"title": "Pay rent", "deadline": "2026-11-22T09:00:00Z"}),
    )
    .await;
    assert!(bot.tick_nudger().await.is_empty());
    bot.clock.advance(Duration::hours(3)); // 08:00 in New York
    assert_eq!(bot.tick_nudger().await.len(), 1);
}

#[actix_rt::test]
async fn the_gap_doubles_while_unanswered_up_to_a_day_and_an_answer_resets_it() {
    let bot =
        start_bot("nudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"00:00-00:00\"\n").await;
    let id = task(
        &bot,
        json!({"title": "Pay rent", "deadline": "2026-11-22T09:00:00Z"}),
    )
    .await;
    let first = bot.tick_nudger().await;
    assert_eq!(first.len(), 1);
    let thread = first[0].thread_id.clone();
    // Each gap: one minute short, nothing; on time, a nudge. 4h, 8h, 16h, then capped at 24h.
    for gap_hours in [4, 8, 16, 24, 24] {
        bot.clock
            .advance(Duration::hours(gap_hours) - Duration::minutes(1));
        assert!(
            bot.tick_nudger().await.is_empty(),
            "before the {gap_hours}h gap"
        );
        bot.clock.advance(Duration::minutes(1));
        assert_eq!(
            bot.tick_nudger().await.len(),
            1,
            "after the {gap_hours}h gap"
        );
    }
    // An answer resets the backoff (the count is kept).
    bot.say(&thread, "hmm").await;
    bot.clock.advance(Duration::hours(4));
    assert_eq!(bot.tick_nudger().await.len(), 1, "back to the 4h gap");
    assert_eq!(bot.task_json(&id).await["nudge_count"], 7);
}

#[actix_rt::test]
async fn the_schedule_nudges_on_its_own() {
    let bot = start_bot("nudges:\n  interval: 50ms\n").await;
    let id = task(
        &bot,
        json!({"title": "Pay rent", "deadline": "2026-11-22T09:00:00Z"}),
    )
    .await;
    let nudged = eventually(StdDuration::from_secs(5), || async {
        bot.task_json(&id).await["nudge_count"] == 1
    })
    .await;
    assert!(nudged);
}
