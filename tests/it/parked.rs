//! A message whose turn fails the same way at every start is tried 3 times (its first try and
//! two restarts), then parked with its reason: never run again, counted in /health and
//! /metrics, and a repeat of it is told so; the other threads are answered meanwhile.
//!
//! The poison: a plan row of the thread whose expiry cannot be read (a damaged row), so every
//! turn of that thread fails while loading its context, at every start. Written with SQLite
//! beside the running Donna, as a damaged database would be.

use crate::common;

use std::time::Duration;

use common::{start_bot_in, Bot, TestEnv};
use serde_json::json;

pub(crate) fn poison(bot: &Bot, thread: &str) {
    let database = bot.dir.path().join("data").join("donna.db");
    let conn = rusqlite::Connection::open(database).unwrap_or_else(|e| panic!("{e}"));
    conn.busy_timeout(Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("{e}"));
    conn.execute(
        "INSERT INTO plan (id, thread_id, actions_json, reply_text, status, created_at, expires_at) \
         VALUES ('pln_poison', ?1, '[]', 'x', 'cancelled', '9999-01-01T00:00:00.000000Z', 'not a time')",
        [thread],
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// Stops `bot` and starts Donna again on its data dir, recovering the inbox; returns the new
/// bot and how many messages recovery re-queued.
async fn restart(bot: Bot) -> (Bot, usize) {
    restart_with(bot, "").await
}

/// [`restart`] with config lines `extra`.
pub(crate) async fn restart_with(bot: Bot, extra: &str) -> (Bot, usize) {
    bot.stop().await;
    let again = bot.restart(extra).await;
    let recovered = again.app.recover().await.unwrap_or_else(|e| panic!("{e}"));
    (again, recovered)
}

pub(crate) async fn inbox_row(bot: &Bot, message_id: &str) -> (String, i64, Option<String>) {
    let database = bot.dir.path().join("data").join("donna.db");
    let conn = rusqlite::Connection::open(database).unwrap_or_else(|e| panic!("{e}"));
    conn.query_row(
        "SELECT status, failures, failure FROM inbox WHERE message_id = ?1",
        [message_id],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[actix_rt::test]
async fn a_message_that_fails_at_every_start_is_parked_after_three_tries_and_others_are_answered() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let bot = start_bot_in(dir, "", TestEnv(Vec::new())).await;
    let (poisoned_task, poisoned) = bot.nudged_task("Pay rent").await;
    let (healthy_task, healthy) = bot.nudged_task("Water the plants").await;
    poison(&bot, &poisoned);

    // Try 1: the turn fails (500, with no SQL or Rust in the answer) and the message stays.
    let (status, answer) = bot.say_with_id(&poisoned, "done", "m-poison").await;
    assert_eq!(status, 500, "{answer}");
    assert_eq!(inbox_row(&bot, "m-poison").await.0, "pending");
    assert_eq!(inbox_row(&bot, "m-poison").await.1, 1);

    // Try 2 at the next start, try 3 at the one after: parked.
    let (bot, recovered) = restart(bot).await;
    assert_eq!(recovered, 1);
    let tried = common::eventually(Duration::from_secs(10), || async {
        inbox_row(&bot, "m-poison").await.1 == 2
    })
    .await;
    assert!(tried, "{:?}", inbox_row(&bot, "m-poison").await);
    // The other thread is answered meanwhile.
    assert_eq!(bot.say(&healthy, "done").await["path"], "fast");
    assert_eq!(bot.task_json(&healthy_task).await["status"], "done");

    let (bot, recovered) = restart(bot).await;
    assert_eq!(recovered, 1);
    let parked = common::eventually(Duration::from_secs(10), || async {
        inbox_row(&bot, "m-poison").await.0 == "parked"
    })
    .await;
    let (status, failures, reason) = inbox_row(&bot, "m-poison").await;
    assert!(parked, "{status} {failures} {reason:?}");
    assert_eq!(failures, 3);
    assert!(
        reason.as_deref().is_some_and(|r| !r.is_empty()),
        "the reason is kept: {reason:?}"
    );
    // The count follows the row's commit (the turn counts it once the write returns).
    let counted = common::eventually(Duration::from_secs(10), || async {
        bot.get("/health").await.1["parked_messages"] == 1
    })
    .await;
    let (_, health) = bot.get("/health").await;
    assert!(counted, "{health}");

    // Never run again: the next start re-queues nothing, still counts it, and a repeat of it
    // is told so (409), changing nothing.
    let (bot, recovered) = restart(bot).await;
    assert_eq!(recovered, 0);
    let (_, health) = bot.get("/health").await;
    assert_eq!(health["parked_messages"], 1, "{health}");
    assert!(
        bot.metrics_text().await.contains("donna_parked_messages 1"),
        "{}",
        bot.metrics_text().await
    );
    let (status, answer) = bot.say_with_id(&poisoned, "done", "m-poison").await;
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("set aside")),
        "{answer}"
    );
    assert_eq!(inbox_row(&bot, "m-poison").await.1, 3);
    assert_eq!(bot.task_json(&poisoned_task).await["status"], "backlog");
    // Other threads are still answered.
    let (task, thread) = bot.nudged_task("Call the bank").await;
    let result = bot
        .post(
            "/api/messages",
            json!({"thread_id": thread, "user_id": "owner", "text": "done"}),
        )
        .await;
    assert_eq!(result.0, 200, "{}", result.1);
    assert_eq!(bot.task_json(&task).await["status"], "done");
}

#[actix_rt::test]
async fn a_turn_that_fails_once_is_finished_at_the_next_start_and_never_parked() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let bot = start_bot_in(dir, "", TestEnv(Vec::new())).await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    // The 1st write is the inbox row, the 2nd the turn's commit: make the commit fail once.
    bot.app.store.writer().inject_panic_on_nth(2);
    assert_eq!(bot.say_with_id(&thread, "done", "m-1").await.0, 500);
    assert_eq!(inbox_row(&bot, "m-1").await.1, 1);
    let (bot, recovered) = restart(bot).await;
    assert_eq!(recovered, 1);
    let done = common::eventually(Duration::from_secs(10), || async {
        bot.task_json(&task).await["status"] == "done"
    })
    .await;
    assert!(done);
    assert_eq!(inbox_row(&bot, "m-1").await.0, "done");
    let (_, health) = bot.get("/health").await;
    assert_eq!(health["parked_messages"], 0, "{health}");
}
