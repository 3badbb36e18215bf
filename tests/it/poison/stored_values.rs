//! A database that already holds values no door stores (an import before the checks, or a
//! counter that overflowed) keeps working for everyone: the Nudger nudges, the lists answer,
//! counters saturate instead of turning into REAL, a row no read takes is skipped and reported
//! while the others go on, and an old database is repaired when it is opened.

use crate::common;
use crate::common::Needed;

use chrono::{DateTime, Duration, Utc};
use common::{start_bot, start_bot_in, Bot, TestEnv};
use donna::tasks::{repo, Task};
use serde_json::{json, Value};

use super::skipped;

const RULES: &str = "nudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-08:00\"\n";

/// Writes `task` as it is, past every door (as an import before the checks did).
async fn put(bot: &Bot, task: Task) {
    bot.app
        .store
        .write(move |conn| repo::put(conn, &task))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

/// A task through the API with a start an hour ago, then spoiled by `spoil` in the database.
async fn spoiled(bot: &Bot, title: &str, spoil: impl FnOnce(&mut Task)) -> String {
    let start = (now(bot) - Duration::hours(1)).to_rfc3339();
    let id = bot
        .task(json!({"title": title, "scheduled_start": start}))
        .await;
    let mut task = bot.stored_task(&id).await;
    spoil(&mut task);
    put(bot, task).await;
    id
}

fn now(bot: &Bot) -> DateTime<Utc> {
    donna::clock::Clock::now(&bot.clock)
}

#[actix_rt::test]
async fn a_database_holding_values_no_door_stores_still_nudges_and_lists_for_everyone() {
    let bot = start_bot(RULES).await;
    let huge_estimate = spoiled(&bot, "Huge estimate", |task| {
        task.estimated_duration_minutes = Some(i64::MAX);
    })
    .await;
    let huge_count = spoiled(&bot, "Huge count", |task| {
        task.nudge_count = i64::MAX;
        task.unanswered_nudges = i64::MAX;
        task.reschedule_count = i64::MAX;
    })
    .await;
    let negative = spoiled(&bot, "Negative", |task| {
        task.estimated_duration_minutes = Some(-5);
        task.nudge_count = -7;
    })
    .await;
    let long = spoiled(&bot, "Long description", |task| {
        task.description = Some("x".repeat(100_000));
    })
    .await;
    let plain = spoiled(&bot, "Pay rent", |_| {}).await;

    // Before: the completion check of the huge estimate panicked (`TimeDelta::minutes out of
    // bounds`) and no one was nudged at all.
    let nudged = bot
        .try_tick_nudger()
        .await
        .unwrap_or_else(|e| panic!("the tick failed: {e}"));
    let ids: Vec<&str> = nudged.iter().map(|n| n.task_id.as_str()).collect();
    for id in [&huge_estimate, &huge_count, &negative, &long, &plain] {
        assert!(ids.contains(&id.as_str()), "{id} not nudged: {ids:?}");
    }
    // The counter saturated: an integer still (before, `+ 1` made it REAL and every read of
    // the task failed from then on).
    let counted = bot.stored_task(&huge_count).await;
    assert_eq!(counted.nudge_count, 1_000_000);
    assert_eq!(counted.unanswered_nudges, 1_000_000);
    assert_eq!(bot.stored_task(&negative).await.nudge_count, 1);

    let (status, listed) = bot.get("/api/tasks").await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed.as_array().map(Vec::len), Some(5), "{listed}");
    let chat = bot.free_thread().await;
    let answer = bot.say(&chat, "list my tasks").await;
    assert!(
        answer["reply"]
            .as_str()
            .is_some_and(|reply| reply.contains("Pay rent")),
        "{answer}"
    );
    // Snoozed past the huge counts: "busy" in the nudge's own thread still works.
    let thread = nudged
        .iter()
        .find(|n| n.task_id == huge_count)
        .map(|n| n.thread_id.clone())
        .needed();
    let busy = bot.say(&thread, "busy").await;
    assert_eq!(busy["path"], "fast", "{busy}");
    assert!(bot.try_tick_nudger().await.is_ok());
    assert_eq!(skipped(&bot.metrics_text().await, "nudger"), 0.0);
}

#[actix_rt::test]
async fn a_row_no_read_takes_is_skipped_and_reported_and_the_others_are_nudged() {
    let bot = start_bot(RULES).await;
    let unreadable = spoiled(&bot, "Unreadable", |_| {}).await;
    let plain = spoiled(&bot, "Pay rent", |_| {}).await;
    // What the old `+ 1` left: a REAL in an integer column, which no read of a task takes.
    let database = bot.dir.path().join("data").join("donna.db");
    let conn = rusqlite::Connection::open(&database).unwrap_or_else(|e| panic!("{e}"));
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .unwrap_or_else(|e| panic!("{e}"));
    let changed = conn
        .execute(
            "UPDATE task SET nudge_count = 9.3e18 WHERE id = ?1",
            [&unreadable],
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(changed, 1);
    drop(conn);

    // Before: the whole tick failed on the one row, and no one was nudged.
    let nudged = bot
        .try_tick_nudger()
        .await
        .unwrap_or_else(|e| panic!("the tick failed: {e}"));
    let ids: Vec<&str> = nudged.iter().map(|n| n.task_id.as_str()).collect();
    assert_eq!(ids, vec![plain.as_str()]);
    assert_eq!(skipped(&bot.metrics_text().await, "nudger"), 1.0);
}

/// Spoils the database of a stopped bot as an older Donna left it: schema version 18 (before
/// the repair), a counter turned REAL and an estimate of 10^15 minutes. Version 18 had none of
/// the columns later migrations add (`inbox.intent`, 0021; `person.quiet_hours` and a zone that
/// may be null, 0022; `automation.time_stated` and `repeat_from`, 0023; `task_placing` and
/// `person.working_hours`, 0024; `list_cursor.asked_by`, 0026), so they go too: a
/// migration that adds a column runs once, on a database that does not have it.
fn spoil_as_an_older_donna_left_it(database: &std::path::Path, id: &str) {
    let conn = rusqlite::Connection::open(database).unwrap_or_else(|e| panic!("{e}"));
    let undone = conn.execute_batch(
        "ALTER TABLE inbox DROP COLUMN intent;
         ALTER TABLE list_cursor DROP COLUMN asked_by;
         DROP TABLE task_placing;
         ALTER TABLE automation DROP COLUMN time_stated;
         ALTER TABLE automation DROP COLUMN repeat_from;
         CREATE TABLE person_v18 (user_id TEXT PRIMARY KEY, timezone TEXT NOT NULL,
             updated_at TEXT NOT NULL);
         INSERT INTO person_v18 SELECT user_id, timezone, updated_at FROM person
             WHERE timezone IS NOT NULL;
         DROP TABLE person;
         ALTER TABLE person_v18 RENAME TO person;",
    );
    assert!(undone.is_ok(), "{undone:?}");
    let spoilt = conn.execute(
        "UPDATE task SET nudge_count = 9.3e18, estimated_duration_minutes = 1000000000000000 \
         WHERE id = ?1",
        [id],
    );
    assert!(matches!(spoilt, Ok(1)), "{spoilt:?}");
    let older = conn.pragma_update(None, "user_version", 18);
    assert!(older.is_ok(), "{older:?}");
}

#[actix_rt::test]
async fn an_old_database_holding_such_values_is_repaired_when_opened() {
    let bot = start_bot(RULES).await;
    let id = spoiled(&bot, "Pay rent", |_| {}).await;
    bot.stop().await;
    let Bot { dir, app, .. } = bot;
    drop(app);
    spoil_as_an_older_donna_left_it(&dir.path().join("data").join("donna.db"), &id);

    let bot = start_bot_in(dir, RULES, TestEnv(Vec::new())).await;
    let (status, shown) = bot.get(&format!("/api/tasks/{id}")).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["nudge_count"], 1_000_000);
    assert_eq!(shown["estimated_duration_minutes"], Value::Null);
    let nudged = bot
        .try_tick_nudger()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(nudged.len(), 1);
}
