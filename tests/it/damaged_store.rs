//! A damaged database is never served as healthy: at startup a database that fails
//! `PRAGMA quick_check`, or an emptied (0-byte) one, is refused with what to do; while running,
//! SQLite finding the file damaged fails the store writer in /health (503) with the reason, and a
//! write that finds no space degrades /health until a write succeeds again.

use crate::common;
use crate::common::health::actor_in;
use crate::common::Fields;

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

use common::process::{database, exit_or_serve, health, run_with_tasks, start, Outcome};
use common::{eventually, start_bot, wait_until, Bot};
use serde_json::{json, Value};

/// Moves everything into the database file (no WAL left), as after a clean stop. A running
/// Donna's own checkpointer may hold the checkpoint lock for a moment (a PASSIVE checkpoint
/// after a write): then this one reports busy and is tried again, for up to 5 s.
fn checkpoint(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap_or_else(|e| panic!("{e}"));
    let done = wait_until(Duration::from_secs(5), || {
        let busy: i64 = conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))
            .unwrap_or_else(|e| panic!("{e}"));
        busy == 0
    });
    assert!(done, "checkpoint blocked for 5 s");
}

fn page_size(db: &Path) -> u64 {
    let conn = rusqlite::Connection::open(db).unwrap_or_else(|e| panic!("{e}"));
    let size: i64 = conn
        .query_row("PRAGMA page_size", [], |row| row.get(0))
        .unwrap_or_else(|e| panic!("{e}"));
    u64::try_from(size).unwrap_or_else(|e| panic!("{e}"))
}

fn root_page(db: &Path, table: &str) -> u64 {
    let conn = rusqlite::Connection::open(db).unwrap_or_else(|e| panic!("{e}"));
    let page: i64 = conn
        .query_row(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [table],
            |row| row.get(0),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    u64::try_from(page).unwrap_or_else(|e| panic!("{e}"))
}

/// Writes one page of garbage (a fixed pseudo-random pattern) over page `page` (1-based).
fn garble_page(db: &Path, page: u64, page_size: u64) {
    let mut garbage = Vec::with_capacity(page_size as usize);
    let mut x: u32 = 0x9E37_79B9;
    for _ in 0..page_size {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        garbage.push((x >> 24) as u8);
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(db)
        .unwrap_or_else(|e| panic!("{e}"));
    file.seek(SeekFrom::Start((page - 1) * page_size))
        .unwrap_or_else(|e| panic!("{e}"));
    file.write_all(&garbage).unwrap_or_else(|e| panic!("{e}"));
    file.sync_all().unwrap_or_else(|e| panic!("{e}"));
}

/// A data dir whose database holds one task, Donna stopped and everything in `donna.db`.
fn database_with_a_task(dir: &Path) {
    run_with_tasks(dir, &["Pay rent"]);
    checkpoint(&database(dir));
    for sidecar in ["donna.db-wal", "donna.db-shm"] {
        let _ = std::fs::remove_file(dir.join("data").join(sidecar));
    }
}

/// Starts `donna run` on `dir` and expects it to refuse: exit 1 before serving, the stderr.
fn refused_start(dir: &Path) -> String {
    let mut running = start(dir);
    let outcome = exit_or_serve(&mut running);
    let stderr = running.stderr();
    assert!(
        matches!(outcome, Outcome::Exited(Some(1))),
        "donna run on a damaged database: {outcome:?}\n{stderr}"
    );
    assert!(
        !stderr.contains("donna is running"),
        "it served before refusing:\n{stderr}"
    );
    assert_eq!(health(running.port), None, "something still answers");
    stderr
}

#[test]
fn a_database_with_a_page_of_garbage_is_refused_at_startup_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    database_with_a_task(dir.path());
    let db = database(dir.path());
    garble_page(&db, 3, page_size(&db));

    let stderr = refused_start(dir.path());
    for words in [
        "is damaged",
        &db.display().to_string(),
        "donna backup",
        "move the damaged file away",
    ] {
        assert!(stderr.contains(words), "{words:?} missing:\n{stderr}");
    }
}

#[test]
fn an_emptied_database_file_is_refused_at_startup_with_its_own_message() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    database_with_a_task(dir.path());
    let db = database(dir.path());
    std::fs::File::create(&db).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(std::fs::metadata(&db).map(|m| m.len()).ok(), Some(0));

    let stderr = refused_start(dir.path());
    for words in [
        "empty file (0 bytes)",
        &db.display().to_string(),
        "donna backup",
    ] {
        assert!(stderr.contains(words), "{words:?} missing:\n{stderr}");
    }
    assert_eq!(
        std::fs::metadata(&db).map(|m| m.len()).ok(),
        Some(0),
        "the file was changed"
    );
}

async fn store_writer(bot: &Bot) -> (u16, Value, Value) {
    let (status, body) = bot.get("/health").await;
    let writer = actor_in(&body, "store_writer");
    (status, body, writer)
}

#[actix_rt::test]
async fn a_database_damaged_while_running_fails_the_store_writer_in_health_with_the_reason() {
    let bot = start_bot("").await;
    bot.task(json!({ "title": "Pay rent" })).await;
    let db = bot.dir.path().join("data").join("donna.db");
    // Everything into the file, then garbage over the task table's root page.
    checkpoint(&db);
    let root = root_page(&db, "task");
    garble_page(&db, root, page_size(&db));

    let (status, answer) = bot.post("/api/tasks", json!({ "title": "Call mum" })).await;
    assert_eq!(status, 500, "a write into a damaged table: {answer}");
    let failed = eventually(Duration::from_secs(5), || async {
        let (status, _, writer) = store_writer(&bot).await;
        status == 503 && writer["state"] == "failed"
    })
    .await;
    let (status, body, writer) = store_writer(&bot).await;
    assert!(failed, "{status} {body}");
    assert_eq!(body["status"], "degraded", "{body}");
    let reason = writer["last_failure"]["message"].text();
    assert!(reason.contains("is damaged"), "{writer}");
    assert!(reason.contains("malformed"), "SQLite's words: {writer}");
}

#[actix_rt::test]
async fn a_write_that_finds_no_space_degrades_health_until_a_write_succeeds_again() {
    let bot = start_bot("").await;
    // The writer's own connection may grow the file by no page from now: the next write that
    // needs a page fails exactly like a full disk (SQLITE_FULL).
    let limit = bot
        .app
        .store
        .write(|conn| {
            let pages: i64 = conn.pragma_query_value(None, "page_count", |row| row.get(0))?;
            Ok(
                conn.pragma_update_and_check(None, "max_page_count", pages, |row| {
                    row.get::<_, i64>(0)
                })?,
            )
        })
        .await;
    assert!(limit.is_ok(), "{limit:?}");
    let description = "x".repeat(3_900);
    let mut refused = None;
    for n in 0..100 {
        let (status, answer) = bot
            .post(
                "/api/tasks",
                json!({ "title": format!("Task {n}"), "description": description }),
            )
            .await;
        if status != 201 {
            refused = Some((status, answer));
            break;
        }
    }
    let (status, answer) = refused.unwrap_or_else(|| panic!("no write ran out of space"));
    assert_eq!(status, 500, "{answer}");

    let (status, body, writer) = store_writer(&bot).await;
    assert_eq!(status, 200, "the writer still runs: {body}");
    assert_eq!(body["status"], "degraded", "{body}");
    assert_eq!(writer["state"], "running", "{writer}");
    let reason = writer["last_failure"]["message"].text();
    assert!(reason.contains("full"), "{writer}");

    // Space again: the next write succeeds and /health is whole again.
    let lifted = bot
        .app
        .store
        .write(|conn| {
            Ok(
                conn.pragma_update_and_check(None, "max_page_count", 1_000_000_000i64, |row| {
                    row.get::<_, i64>(0)
                })?,
            )
        })
        .await;
    assert!(lifted.is_ok(), "{lifted:?}");
    bot.task(json!({ "title": "After the space came back", "description": description }))
        .await;
    let (status, body, _) = store_writer(&bot).await;
    assert_eq!((status, &body["status"]), (200, &json!("ok")), "{body}");
}
