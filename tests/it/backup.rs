//! The database file is the data: after a clean stop `donna.db` alone holds everything (the WAL
//! is checkpointed and emptied), and `donna backup` writes a consistent copy while `donna run`
//! serves and holds the data-dir lock, refusing to overwrite and failing with a clear message.
//! A reader that blocks the checkpoint at the stop delays it briefly and loses nothing.

use crate::common;
use crate::common::Needed;

use std::ffi::OsStr;
use std::path::Path;

use common::process::{
    create_task, database, health, run_once, run_with_tasks, start, terminate, text, wait_healthy,
    write_config,
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
    run_with_tasks(dir.path(), &["Pay rent", "Call the plumber"]);

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

    let config = run_with_tasks(dir.path(), &["Pay rent"]);

    // An existing OUT is kept as it was.
    let existing = outside.path().join("existing.db");
    std::fs::write(&existing, "keep me").unwrap_or_else(|e| panic!("{e}"));
    let output = backup(&config, &existing);
    let message = text(&output.stderr);
    assert!(!output.status.success(), "{message}");
    assert!(message.contains("already exists"), "{message}");
    assert_eq!(std::fs::read_to_string(&existing).needed(), "keep me");

    // An OUT that cannot be written (its folder is a file).
    let blocker = outside.path().join("not-a-folder");
    std::fs::write(&blocker, "").unwrap_or_else(|e| panic!("{e}"));
    let output = backup(&config, &blocker.join("donna.db"));
    let message = text(&output.stderr);
    assert!(!output.status.success(), "{message}");
    assert!(message.contains("cannot write"), "{message}");

    // Donna stopped: the backup works too.
    let output = backup(&config, &out);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(titles(&out), ["Pay rent"]);
    assert_eq!(integrity(&out), "ok");
}

/// Names in `folder`, sorted.
fn names_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.file_name().to_string_lossy().to_string())
                .collect()
        })
        .needed();
    names.sort();
    names
}

#[test]
fn a_killed_backup_leaves_nothing_at_out_and_a_finished_one_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let outside = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = write_config(dir.path(), 9);
    // A database of about 48 MiB, so the copy, its check and its sync take a while.
    std::fs::create_dir_all(dir.path().join("data")).unwrap_or_else(|e| panic!("{e}"));
    {
        let conn =
            rusqlite::Connection::open(database(dir.path())).unwrap_or_else(|e| panic!("{e}"));
        conn.execute_batch(
            "CREATE TABLE filler (blob BLOB);
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
             INSERT INTO filler SELECT randomblob(4096) FROM n;",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }

    // Killed once its work has started (its file is there): nothing is at OUT.
    let mut killed = 0;
    for attempt in 0..3 {
        let out = outside.path().join(format!("killed-{attempt}.db"));
        let mut child = common::process::donna()
            .args(["backup", "--config"])
            .arg(&config)
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        // Looked for every millisecond: the kill must land while the backup is writing.
        let started = common::wait_for_every(
            std::time::Duration::from_secs(30),
            std::time::Duration::from_millis(1),
            || {
                let names = names_in(outside.path());
                if names
                    .iter()
                    .any(|name| name.starts_with(&format!("killed-{attempt}.db")))
                {
                    return Some(true);
                }
                matches!(child.try_wait(), Ok(Some(_))).then_some(false)
            },
        )
        .unwrap_or(false);
        let _ = child.kill();
        let finished = child.wait().map(|status| status.success()).unwrap_or(false);
        assert!(started, "the backup never started writing");
        if !finished {
            killed += 1;
            assert!(
                !out.exists(),
                "a killed backup left {out:?} ({:?} bytes)",
                file_len(&out)
            );
        }
    }

    assert!(
        killed > 0,
        "every backup finished before it could be killed"
    );

    // A finished one: OUT and nothing else new beside it.
    let before: Vec<String> = names_in(outside.path());
    let out = outside.path().join("whole.db");
    let output = backup(&config, &out);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(integrity(&out), "ok");
    let mut expected = before.clone();
    expected.push("whole.db".to_string());
    expected.sort();
    assert_eq!(names_in(outside.path()), expected);
    // And OUT is never replaced.
    let output = backup(&config, &out);
    assert!(!output.status.success());
    assert!(text(&output.stderr).contains("already exists"));
    assert_eq!(names_in(outside.path()), expected);
}
