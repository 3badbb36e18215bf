//! The database file is the data: after a clean stop `donna.db` alone holds everything (the WAL
//! is checkpointed and emptied), and `donna backup` writes a consistent copy while `donna run`
//! serves and holds the data-dir lock, refusing to overwrite and failing with a clear message.
//! A reader that blocks the checkpoint at the stop delays it briefly and loses nothing.

mod common;

use std::ffi::OsStr;
use std::path::Path;

use common::process::{
    create_task, database, health, run_once, start, terminate, text, wait_healthy, write_config,
};

fn titles(database: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(database).unwrap_or_else(|e| panic!("{e}"));
    let mut statement = conn
        .prepare("SELECT title FROM task ORDER BY title")
        .unwrap_or_else(|e| panic!("{e}"));
    let rows = statement
        .query_map([], |row| row.get::<_, String>(0))
        .unwrap_or_else(|e| panic!("{e}"));
    rows.collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn integrity(database: &Path) -> String {
    let conn = rusqlite::Connection::open(database).unwrap_or_else(|e| panic!("{e}"));
    conn.query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn file_len(path: &Path) -> Option<u64> {
    std::fs::metadata(path).ok().map(|m| m.len())
}

fn backup(config: &Path, out: &Path) -> std::process::Output {
    run_once(&[
        OsStr::new("backup"),
        OsStr::new("--config"),
        config.as_os_str(),
        out.as_os_str(),
    ])
}

#[test]
fn after_a_clean_stop_the_database_file_alone_holds_every_task() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut running = start(dir.path());
    wait_healthy(&mut running);
    create_task(running.port, "Pay rent");
    create_task(running.port, "Call the plumber");
    assert_eq!(
        terminate(&mut running.child),
        Some(0),
        "{}",
        running.stderr()
    );

    // What people do: copy donna.db, and only donna.db.
    let db = database(dir.path());
    let elsewhere = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let copy = elsewhere.path().join("donna.db");
    std::fs::copy(&db, &copy).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        titles(&copy),
        ["Call the plumber", "Pay rent"],
        "donna.db alone after a clean stop ({} bytes; WAL beside it: {:?} bytes)",
        file_len(&db).unwrap_or(0),
        file_len(&db.with_extension("db-wal")),
    );
    assert!(
        matches!(file_len(&db.with_extension("db-wal")), None | Some(0)),
        "the WAL still holds {:?} bytes after a clean stop",
        file_len(&db.with_extension("db-wal"))
    );
}

#[actix_rt::test]
async fn a_reader_holding_an_old_snapshot_delays_the_stop_checkpoint_briefly_and_loses_nothing() {
    let bot = common::start_bot("").await;
    bot.task(serde_json::json!({ "title": "Pay rent" })).await;
    let db = bot.dir.path().join("data").join("donna.db");
    // A reader in the middle of a read transaction: its snapshot predates the next commit.
    let reader = rusqlite::Connection::open(&db).unwrap_or_else(|e| panic!("{e}"));
    reader
        .execute_batch("BEGIN")
        .unwrap_or_else(|e| panic!("{e}"));
    let seen: i64 = reader
        .query_row("SELECT count(*) FROM task", [], |row| row.get(0))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(seen, 1);
    bot.task(serde_json::json!({ "title": "Call the plumber" }))
        .await;

    let started = std::time::Instant::now();
    bot.stop().await;
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(10),
        "the stop waited {took:?} for the reader"
    );
    // The checkpoint could not finish past the reader: the WAL keeps the last commit.
    assert!(
        file_len(&db.with_extension("db-wal")).unwrap_or(0) > 0,
        "the WAL was emptied under a reader's snapshot"
    );
    reader
        .execute_batch("COMMIT")
        .unwrap_or_else(|e| panic!("{e}"));
    drop(reader);
    assert_eq!(titles(&db), ["Call the plumber", "Pay rent"]);
}

#[test]
fn backup_while_donna_runs_copies_every_task_into_a_file_that_passes_integrity_check() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut running = start(dir.path());
    wait_healthy(&mut running);
    for title in ["Pay rent", "Call the plumber", "Renew passport"] {
        create_task(running.port, title);
    }
    let outside = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = outside.path().join("donna-backup.db");

    let output = backup(&running.config, &out);
    let said = text(&output.stdout);
    assert!(
        output.status.success(),
        "donna backup while donna run holds the lock: {}\nstdout: {said}\nstderr: {}",
        output.status,
        text(&output.stderr)
    );
    assert_eq!(said.lines().count(), 1, "one line: {said}");
    assert!(said.contains(&out.display().to_string()), "{said}");

    // The running Donna did not notice: it still serves and writes.
    assert_eq!(health(running.port).map(|(status, _)| status), Some(200));
    create_task(running.port, "Written after the backup");

    assert_eq!(
        titles(&out),
        ["Call the plumber", "Pay rent", "Renew passport"]
    );
    assert_eq!(integrity(&out), "ok");
    assert_eq!(
        terminate(&mut running.child),
        Some(0),
        "{}",
        running.stderr()
    );
}

#[test]
fn backup_never_overwrites_and_says_why_it_cannot_write() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let outside = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));

    // No database yet: nothing is created, and the message says where it looked.
    let config = write_config(dir.path(), 9);
    let out = outside.path().join("first.db");
    let output = backup(&config, &out);
    let message = text(&output.stderr);
    assert!(!output.status.success(), "{message}");
    assert!(message.contains("no database"), "{message}");
    assert!(
        message.contains(&database(dir.path()).display().to_string()),
        "{message}"
    );
    assert!(!database(dir.path()).exists(), "backup created a database");
    assert!(!out.exists(), "backup wrote {out:?} without a database");

    let mut running = start(dir.path());
    wait_healthy(&mut running);
    create_task(running.port, "Pay rent");
    assert_eq!(
        terminate(&mut running.child),
        Some(0),
        "{}",
        running.stderr()
    );

    // An existing OUT is kept as it was.
    let existing = outside.path().join("existing.db");
    std::fs::write(&existing, "keep me").unwrap_or_else(|e| panic!("{e}"));
    let output = backup(&running.config, &existing);
    let message = text(&output.stderr);
    assert!(!output.status.success(), "{message}");
    assert!(message.contains("already exists"), "{message}");
    assert_eq!(
        std::fs::read_to_string(&existing).unwrap_or_default(),
        "keep me"
    );

    // An OUT that cannot be written (its folder is a file).
    let blocker = outside.path().join("not-a-folder");
    std::fs::write(&blocker, "").unwrap_or_else(|e| panic!("{e}"));
    let output = backup(&running.config, &blocker.join("donna.db"));
    let message = text(&output.stderr);
    assert!(!output.status.success(), "{message}");
    assert!(message.contains("cannot write"), "{message}");

    // Donna stopped: the backup works too.
    let output = backup(&running.config, &out);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(titles(&out), ["Pay rent"]);
    assert_eq!(integrity(&out), "ok");
}
