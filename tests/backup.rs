//! The database file is the data: after a clean stop `donna.db` alone holds everything (the WAL
//! is checkpointed and emptied), and `donna backup` writes a consistent copy while `donna run`
//! serves and holds the data-dir lock, refusing to overwrite and failing with a clear message.

mod common;

use std::path::Path;

use common::process::{create_task, database, start, terminate, wait_healthy};

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

fn file_len(path: &Path) -> Option<u64> {
    std::fs::metadata(path).ok().map(|m| m.len())
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
