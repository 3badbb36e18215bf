//! A 500 says what failed in plain words, never SQL, a panic message or a Rust type name: the
//! detail goes to the log. Store failures forced with the fault-injection feature (a panic in
//! the store writer), a damaged row and a table gone from under Donna.

use crate::common;
use crate::common::Fields;

use std::time::Duration;

use common::{start_bot, Bot};
use serde_json::{json, Value};

/// Words that belong in the log, never in an answer.
const INTERNALS: [&str; 16] = [
    "panic",
    "injected",
    "sqlite",
    "SQL",
    "SELECT",
    "INSERT",
    "UPDATE",
    "no such",
    "Error",
    "::",
    "unit of work",
    "fault",
    "timestamp",
    "premature",
    "Store",
    "rusqlite",
];

fn assert_plain(status: u16, answer: &Value, what: &str, words: &str) {
    assert_eq!(status, 500, "{what}: {answer}");
    let error = answer["error"].text();
    assert!(
        error.contains(words),
        "{what}: {error:?} should say {words:?}"
    );
    for internal in INTERNALS {
        assert!(
            !error.contains(internal),
            "{what}: {error:?} shows {internal:?}"
        );
    }
}

fn database(bot: &Bot) -> rusqlite::Connection {
    let path = bot.dir.path().join("data").join("donna.db");
    let conn = rusqlite::Connection::open(path).unwrap_or_else(|e| panic!("{e}"));
    conn.busy_timeout(Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("{e}"));
    conn
}

#[actix_rt::test]
async fn a_write_that_fails_is_a_500_in_plain_words() {
    let bot = start_bot("").await;
    bot.app.store.writer().inject_panic_on_nth(1);
    let (status, answer) = bot.post("/api/tasks", json!({"title": "Pay rent"})).await;
    assert_plain(
        status,
        &answer,
        "POST /api/tasks",
        "the database writer failed on this request; nothing was changed",
    );
    let (_, tasks) = bot.get("/api/tasks").await;
    assert_eq!(tasks.as_array().map(Vec::len), Some(0));
}

#[actix_rt::test]
async fn a_turn_that_fails_is_a_500_in_plain_words() {
    let bot = start_bot("").await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    // The 1st write is the inbox row, the 2nd the turn's commit.
    bot.app.store.writer().inject_panic_on_nth(2);
    let (status, answer) = bot.say_with_id(&thread, "done", "m-1").await;
    assert_plain(
        status,
        &answer,
        "a turn whose commit failed",
        "nothing it asked for was changed, and it is tried again at the next start",
    );
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
}

#[actix_rt::test]
async fn a_damaged_row_is_a_500_in_plain_words() {
    let bot = start_bot("").await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    database(&bot)
        .execute(
            "INSERT INTO plan (id, thread_id, actions_json, reply_text, status, created_at, expires_at) \
             VALUES ('pln_bad', ?1, '[]', 'x', 'cancelled', '9999-01-01T00:00:00.000000Z', 'not a time')",
            [&thread],
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let (status, answer) = bot.say_with_id(&thread, "done", "m-1").await;
    assert_plain(
        status,
        &answer,
        "a turn reading a damaged row",
        "a record in the database could not be read",
    );
}

#[actix_rt::test]
async fn a_table_gone_from_under_donna_is_a_500_in_plain_words() {
    let bot = start_bot("").await;
    database(&bot)
        .execute_batch("DROP TABLE automation")
        .unwrap_or_else(|e| panic!("{e}"));
    let (status, answer) = bot.get("/api/automations").await;
    assert_plain(
        status,
        &answer,
        "GET /api/automations",
        "the database could not be used; nothing was changed",
    );
}
