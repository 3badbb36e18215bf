//! The WAL checkpointer: copies committed pages from the WAL into the database file on a
//! thread of its own, so no turn waits for it.
//!
//! Why: SQLite's automatic checkpoint runs inside the commit that makes the WAL pass 1,000
//! pages, on the writer's thread, and every unit queued behind that commit waited for a copy and
//! an fsync of the database file (BENCHMARKS.md, the 200-session chat load). Here the writer
//! only says "I wrote" (`wrote`, a non-blocking signal) and this thread runs
//! `PRAGMA wal_checkpoint(PASSIVE)` on its own connection, at most once per `INTERVAL`.
//!
//! Owned by the `StoreWriter` (started with it, stopped with it on every restart and at the
//! clean stop, before the writer's last TRUNCATE checkpoint).
//!
//! Invariants:
//! - PASSIVE never waits for readers or the writer and never blocks them: a reader's snapshot
//!   only limits how much it copies this time.
//! - The writer keeps SQLite's automatic checkpoint as a backstop at `BACKSTOP_PAGES`, so a
//!   checkpointer that falls behind (or fails) cannot let the WAL grow without bound.
//! - It never outlives its writer: `stop` (or drop) ends and joins the thread.

use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::Connection;

use super::connection::{open_connection, Durability};
use super::error::StoreError;
use crate::log_limit::WarnLimiter;

/// The least time between two checkpoints.
const INTERVAL: Duration = Duration::from_secs(1);
/// The writer's own automatic checkpoint, kept as a backstop: pages in the WAL (about 40 MiB).
pub const BACKSTOP_PAGES: i64 = 10_000;

static FAILED: WarnLimiter = WarnLimiter::new(5);

/// The checkpointer thread and the signal that wakes it.
#[derive(Debug)]
pub struct Checkpointer {
    wake: Option<SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Opens its own connection to `path` and starts the thread.
    pub fn start(path: &Path, durability: Durability) -> Result<Self, StoreError> {
        let conn = open_connection(path, false, durability)?;
        // Only this thread's explicit PASSIVE checkpoints: none of its own on commit (it
        // commits nothing anyway).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        let (wake, woken) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("wal-checkpoint".into())
            .spawn(move || run(&conn, &woken))
            .map_err(|e| StoreError::Transaction(format!("cannot start the checkpointer: {e}")))?;
        Ok(Self {
            wake: Some(wake),
            thread: Some(thread),
        })
    }

    /// The writer committed a change: a checkpoint is due (at most once per `INTERVAL`).
    /// Never blocks: a wake-up already pending covers this one.
    pub fn wrote(&self) {
        if let Some(wake) = &self.wake {
            match wake.try_send(()) {
                Ok(()) | Err(TrySendError::Full(())) => {}
                Err(TrySendError::Disconnected(())) => {
                    tracing::warn!("the WAL checkpointer stopped; SQLite's own checkpoint remains")
                }
            }
        }
    }

    /// Ends the thread once its current checkpoint (if any) is done.
    pub fn stop(&mut self) {
        self.wake = None;
        if let Some(thread) = self.thread.take() {
            if thread.join().is_err() {
                tracing::warn!("the WAL checkpointer panicked");
            }
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Waits for a write, checkpoints, rests until `INTERVAL` has passed, and checkpoints again at
/// once if a write came during the rest (its signal was taken there, so waiting for another
/// would leave those pages in the WAL until some later write); ends when the writer lets go of
/// the signal.
fn run(conn: &Connection, woken: &Receiver<()>) {
    if woken.recv().is_err() {
        return;
    }
    loop {
        let started = Instant::now();
        checkpoint(conn);
        let mut wrote_meanwhile = false;
        while let Some(left) = INTERVAL.checked_sub(started.elapsed()) {
            match woken.recv_timeout(left) {
                Ok(()) => wrote_meanwhile = true,
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        if !wrote_meanwhile && woken.recv().is_err() {
            return;
        }
    }
}

fn checkpoint(conn: &Connection) {
    let outcome = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
        Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?))
    });
    match outcome {
        Ok((in_wal, copied)) => tracing::trace!(in_wal, copied, "WAL checkpoint"),
        Err(error) => {
            if let crate::log_limit::Verdict::Log { suppressed_before } = FAILED.check() {
                tracing::warn!(%error, suppressed_before, "WAL checkpoint failed; retried after the next write");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn file_len(path: &Path) -> u64 {
        std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
    }

    /// A database in a fresh directory, a writer on it that never checkpoints itself (only the
    /// checkpointer can copy the pages), and the checkpointer.
    fn writer_and_checkpointer() -> (tempfile::TempDir, PathBuf, Connection, Checkpointer) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("donna.db");
        let writer =
            open_connection(&path, false, Durability::Full).unwrap_or_else(|e| panic!("{e}"));
        assert!(writer.pragma_update(None, "wal_autocheckpoint", 0).is_ok());
        let checkpointer =
            Checkpointer::start(&path, Durability::Full).unwrap_or_else(|e| panic!("{e}"));
        (dir, path, writer, checkpointer)
    }

    #[test]
    fn committed_pages_reach_the_database_file_without_the_writer_checkpointing() {
        let (_dir, path, writer, checkpointer) = writer_and_checkpointer();
        let wrote = writer.execute_batch(
            "CREATE TABLE filler (data BLOB); \
             INSERT INTO filler (data) VALUES (zeroblob(1000000));",
        );
        assert!(wrote.is_ok(), "{wrote:?}");
        assert!(
            file_len(&path) < 1_000_000,
            "the megabyte is in the WAL only"
        );
        checkpointer.wrote();
        assert!(
            file_reaches(&path, 1_000_000),
            "the checkpointer copied the committed pages into the database file"
        );
    }

    /// Waits (up to 10 s) until the database file holds at least `bytes`.
    fn file_reaches(path: &Path, bytes: u64) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while file_len(path) < bytes && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        file_len(path) >= bytes
    }

    #[test]
    fn a_write_signalled_while_it_rests_is_checkpointed_after_the_rest_without_another_signal() {
        let (_dir, path, writer, checkpointer) = writer_and_checkpointer();
        let megabyte = "INSERT INTO filler (data) VALUES (zeroblob(1000000));";
        let first = writer.execute_batch(&format!("CREATE TABLE filler (data BLOB); {megabyte}"));
        assert!(first.is_ok(), "{first:?}");
        checkpointer.wrote();
        assert!(file_reaches(&path, 1_000_000), "the first megabyte");
        // The checkpoint just ran, so this write lands within its one-second rest: its signal
        // arrives while it rests, and no write comes after it.
        assert!(writer.execute_batch(megabyte).is_ok());
        checkpointer.wrote();
        assert!(
            file_reaches(&path, 2_000_000),
            "the second megabyte stayed in the WAL: its signal was swallowed during the rest"
        );
    }

    #[test]
    fn stopping_ends_the_thread_and_later_writes_are_harmless() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("donna.db");
        let mut checkpointer =
            Checkpointer::start(&path, Durability::Full).unwrap_or_else(|e| panic!("{e}"));
        checkpointer.wrote();
        checkpointer.stop();
        assert!(checkpointer.thread.is_none());
        checkpointer.wrote();
    }
}
