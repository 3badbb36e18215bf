//! The startup check on a large database: how long `PRAGMA quick_check` (what
//! `store::prepare` runs before Donna serves anything, on a read-write connection) takes on a
//! ~1 GB `donna.db`, with the file in the OS page cache (warm) and evicted from it (cold), next
//! to quick_check on a read-only connection (which skips CHECK constraints), the whole
//! `store::prepare`, a full `PRAGMA integrity_check`, and `donna backup`'s copy
//! (`store::backup::backup`, which checks its copy with quick_check too).
//!
//! Run: `cargo bench --bench quick_check` (from the workspace root). It first generates the
//! database with Donna's schema (`store::prepare`): tasks, one nudge thread per task, and
//! message rows (`memory`, ~600 bytes of text each, 40 per thread) until the file reaches the
//! target size; that takes ~1 GB of disk in a temp dir (2 GB with the backup copy), removed at
//! the end. `DONNA_BENCH_MB=256` sets another size; `DONNA_BENCH_DIR=/path` uses (and keeps)
//! that data dir, reusing a `donna.db` already there.
//!
//! Cold runs evict only this file from the page cache (`dd iflag=nocache count=0`, i.e.
//! `posix_fadvise(DONTNEED)`), so other processes on the machine keep their cache; they are
//! skipped if `dd` cannot do that.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use donna::store::{self, Durability};
use rusqlite::{params, Connection};

const MEMORY_ROWS_PER_THREAD: usize = 40;
const ROWS_PER_TRANSACTION: usize = 20_000;

fn main() {
    let target_mb: u64 = std::env::var("DONNA_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024);
    let (dir, _temp) = match std::env::var_os("DONNA_BENCH_DIR") {
        Some(dir) => (PathBuf::from(dir), None),
        None => {
            let temp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
            (temp.path().to_path_buf(), Some(temp))
        }
    };
    let database = dir.join(store::DATABASE_FILE);
    if !database.exists() {
        let started = Instant::now();
        generate(&dir, target_mb * 1024 * 1024);
        println!(
            "generated {} in {:.1} s",
            database.display(),
            started.elapsed().as_secs_f64()
        );
    }
    let bytes = std::fs::metadata(&database).map(|m| m.len()).unwrap_or(0);
    let (tasks, messages) = counts(&database);
    println!(
        "database: {:.1} MiB ({bytes} bytes), {tasks} tasks, {messages} messages",
        bytes as f64 / 1048576.0
    );

    // As startup runs it: a read-write connection, where quick_check also verifies every row's
    // NOT NULL and CHECK constraints (on a read-only connection SQLite skips the CHECKs).
    let mut warm = Vec::new();
    for _ in 0..3 {
        warm.push(timed(|| quick_check(&database, false)));
    }
    print_runs(
        "quick_check as startup runs it (read-write connection), warm",
        &warm,
        bytes,
    );
    let mut cold = Vec::new();
    for _ in 0..3 {
        if !evict(&database) {
            println!("quick_check, cold: skipped (dd cannot evict the file)");
            break;
        }
        cold.push(timed(|| quick_check(&database, false)));
    }
    if !cold.is_empty() {
        print_runs(
            "quick_check as startup runs it, cold (file evicted first)",
            &cold,
            bytes,
        );
    }

    let mut read_only = Vec::new();
    for _ in 0..3 {
        read_only.push(timed(|| quick_check(&database, true)));
    }
    print_runs(
        "quick_check on a read-only connection (no CHECK constraints), warm",
        &read_only,
        bytes,
    );

    let mut prepare = Vec::new();
    for _ in 0..3 {
        prepare.push(timed(|| {
            store::prepare(&dir).unwrap_or_else(|e| panic!("prepare: {e}"));
        }));
    }
    print_runs(
        "store::prepare (startup: open, quick_check, migrations), warm",
        &prepare,
        bytes,
    );

    let integrity = timed(|| {
        let conn = Connection::open(&database).unwrap_or_else(|e| panic!("{e}"));
        let result: String = conn
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(result, "ok");
    });
    print_runs(
        "integrity_check (for comparison), warm",
        &[integrity],
        bytes,
    );

    let out = dir.join("bench-backup.db");
    let _ = std::fs::remove_file(&out);
    let backup = timed(|| {
        let report = store::backup::backup(&dir, &out).unwrap_or_else(|e| panic!("backup: {e}"));
        assert_eq!(report.bytes, bytes);
    });
    print_runs(
        "donna backup (copy + quick_check of the copy + fsync)",
        &[backup],
        bytes,
    );
    let _ = std::fs::remove_file(&out);
}

fn timed(work: impl FnOnce()) -> Duration {
    let started = Instant::now();
    work();
    started.elapsed()
}

fn print_runs(what: &str, runs: &[Duration], bytes: u64) {
    let mut sorted = runs.to_vec();
    sorted.sort();
    let median = sorted[sorted.len() / 2];
    let list: Vec<String> = runs
        .iter()
        .map(|d| format!("{:.2} s", d.as_secs_f64()))
        .collect();
    println!(
        "{what}: {} (median {:.2} s, {:.0} MiB/s)",
        list.join(" / "),
        median.as_secs_f64(),
        bytes as f64 / 1048576.0 / median.as_secs_f64()
    );
}

fn quick_check(database: &Path, read_only: bool) {
    let conn = store::open_connection(database, read_only, Durability::Full)
        .unwrap_or_else(|e| panic!("{e}"));
    let result: String = conn
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result, "ok");
}

/// Drops this file's pages from the OS page cache; false when `dd` cannot.
fn evict(database: &Path) -> bool {
    let mut input = std::ffi::OsString::from("if=");
    input.push(database);
    Command::new("dd")
        .arg(input)
        .args(["iflag=nocache", "count=0", "status=none"])
        .status()
        .is_ok_and(|status| status.success())
}

fn counts(database: &Path) -> (i64, i64) {
    let conn = Connection::open(database).unwrap_or_else(|e| panic!("{e}"));
    let count = |table: &str| -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
            row.get(0)
        })
        .unwrap_or_else(|e| panic!("{e}"))
    };
    (count("task"), count("memory"))
}

/// Fills a new database with Donna's schema until it is `target` bytes.
fn generate(dir: &Path, target: u64) {
    let database = store::prepare(dir).unwrap_or_else(|e| panic!("prepare: {e}"));
    let mut conn = Connection::open(&database).unwrap_or_else(|e| panic!("{e}"));
    conn.execute_batch("PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;")
        .unwrap_or_else(|e| panic!("{e}"));
    let words = [
        "pay",
        "rent",
        "call",
        "the",
        "plumber",
        "tomorrow",
        "friday",
        "at",
        "five",
        "done",
        "busy",
        "later",
        "push",
        "it",
        "to",
        "next",
        "week",
        "remind",
        "me",
        "about",
        "passport",
        "renewal",
        "and",
        "groceries",
        "milk",
        "eggs",
        "bread",
        "meeting",
        "notes",
        "draft",
    ];
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut text = |len: usize| -> String {
        let mut out = String::with_capacity(len + 16);
        while out.len() < len {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            out.push_str(words[(seed % words.len() as u64) as usize]);
            out.push(' ');
        }
        out
    };
    let mut thread_no = 0usize;
    let mut row_no = 0u64;
    loop {
        let tx = conn.transaction().unwrap_or_else(|e| panic!("{e}"));
        {
            let mut task = tx
                .prepare_cached(
                    "INSERT INTO task (id, title, description, created_at, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?4)",
                )
                .unwrap_or_else(|e| panic!("{e}"));
            let mut thread = tx
                .prepare_cached(
                    "INSERT INTO thread (id, task_id, channel, chat_id, context_type, open, created_at)
                     VALUES (?1, ?2, 'local', ?1, 'overdue', 0, ?3)",
                )
                .unwrap_or_else(|e| panic!("{e}"));
            let mut memory = tx
                .prepare_cached(
                    "INSERT INTO memory (thread_id, role, kind, author_id, content, created_at)
                     VALUES (?1, ?2, 'reply', 'owner', ?3, ?4)",
                )
                .unwrap_or_else(|e| panic!("{e}"));
            for _ in 0..ROWS_PER_TRANSACTION / MEMORY_ROWS_PER_THREAD {
                thread_no += 1;
                let task_id = format!("tsk_{thread_no:012}");
                let thread_id = format!("thr_{thread_no:012}");
                let at = format!("2026-{:02}-01T09:00:00.000000Z", 1 + thread_no % 12);
                task.execute(params![task_id, text(40), text(300), at])
                    .unwrap_or_else(|e| panic!("{e}"));
                thread
                    .execute(params![thread_id, task_id, at])
                    .unwrap_or_else(|e| panic!("{e}"));
                for n in 0..MEMORY_ROWS_PER_THREAD {
                    row_no += 1;
                    let role = if n % 2 == 0 { "user" } else { "donna" };
                    let at = format!("2026-01-01T00:00:00.{:06}Z", row_no % 1_000_000);
                    memory
                        .execute(params![thread_id, role, text(600), at])
                        .unwrap_or_else(|e| panic!("{e}"));
                }
            }
        }
        tx.commit().unwrap_or_else(|e| panic!("{e}"));
        let pages: i64 = conn
            .query_row("PRAGMA page_count", [], |row| row.get(0))
            .unwrap_or_else(|e| panic!("{e}"));
        let size: i64 = conn
            .query_row("PRAGMA page_size", [], |row| row.get(0))
            .unwrap_or_else(|e| panic!("{e}"));
        if u64::try_from(pages * size).unwrap_or(0) >= target {
            break;
        }
    }
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| {
        row.get::<_, i64>(0)
    })
    .unwrap_or_else(|e| panic!("{e}"));
}
