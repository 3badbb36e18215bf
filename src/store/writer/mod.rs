//! The store writer actor: the only connection that writes.
//!
//! Owns: the write connection (opened fresh on every (re)start).
//! Takes: `WriterMsg` (a unit of work: a closure run inside the transaction).
//! Invariants:
//! - Group commit: the units already queued when one is taken (up to `batch_max`) run in one
//!   transaction, each inside its own savepoint, so one failing unit rolls back alone.
//! - A unit's caller hears back only after COMMIT succeeded (or with the error that prevented it).
//! - A panicking unit rolls back its savepoint and answers with an error; the others commit.
//! - When SQLite itself rolls the transaction back after a failed statement (it does on a full
//!   disk), every unit of the batch answers with an error: none is reported saved.
//! - Runs on an arbiter (thread) of its own, so its blocking SQLite calls stall no other actor.
//! - SQLite finding the database file damaged (SQLITE_CORRUPT, SQLITE_NOTADB) in any unit, or
//!   at BEGIN or COMMIT, stops the writer for good (`CellCtx::fail`, critical: /health 503 and
//!   the process exits 1): that batch is rolled back and nothing more is written into the file.
//! - A write that finds no space (SQLITE_FULL) marks the writer degraded with the reason until a
//!   batch commits a change again.
//! - It never checkpoints inside a commit: its `Checkpointer` copies the WAL into the database
//!   file on a thread of its own after writes (SQLite's automatic checkpoint stays only as a
//!   backstop, at `checkpointer::BACKSTOP_PAGES`). If that thread cannot start, SQLite's own
//!   checkpoint stays at its default (inside commits, every 1,000 pages) and writes go on.
//! - At a clean stop, after the last queued unit, it checkpoints the WAL into the database file
//!   and empties it (`checkpoint`), so `donna.db` alone holds everything; a reader's snapshot
//!   that blocks it is waited out for at most `CHECKPOINT_LIMIT`, never longer.

mod batch;
mod unit;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actors::{Behaviour, CellCtx, Handled, Reply};
use rusqlite::Connection;

use super::checkpointer::{Checkpointer, BACKSTOP_PAGES};
use super::connection::{open_connection, Durability};
use super::error::StoreError;

use batch::{cannot_begin, Batch, Running, UnitEnd};
use unit::{Trouble, Typed, UnitOfWork};

/// A message to the store writer.
pub struct WriterMsg {
    unit: Box<dyn UnitOfWork>,
}

impl WriterMsg {
    /// Wraps a typed unit of work and its reply port.
    pub fn unit<T: Send + 'static>(
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
        reply: Reply<Result<T, StoreError>>,
    ) -> Self {
        Self {
            unit: Box::new(Typed { work, reply }),
        }
    }
}

/// How long the checkpoint at a clean stop may wait for readers to let go of older snapshots.
const CHECKPOINT_LIMIT: Duration = Duration::from_secs(2);
/// Each attempt's own wait for a reader (SQLite's busy handler), and the pause between attempts.
const CHECKPOINT_WAIT: Duration = Duration::from_millis(100);

/// The writer's state: its connection and its checkpointer.
pub struct StoreWriter {
    conn: Connection,
    path: PathBuf,
    batch_max: usize,
    /// None when it could not start: SQLite then checkpoints inside commits, as it does by
    /// default (slower at the tail, never unbounded).
    checkpointer: Option<Checkpointer>,
}

impl StoreWriter {
    pub fn open(path: &Path, durability: Durability, batch_max: usize) -> Result<Self, StoreError> {
        let conn = open_connection(path, false, durability)?;
        let checkpointer = match Checkpointer::start(path, durability) {
            Ok(checkpointer) => {
                conn.pragma_update(None, "wal_autocheckpoint", BACKSTOP_PAGES)?;
                Some(checkpointer)
            }
            Err(error) => {
                tracing::warn!(%error, "the WAL checkpointer did not start; SQLite checkpoints inside commits instead");
                None
            }
        };
        Ok(Self {
            conn,
            path: path.to_path_buf(),
            batch_max: batch_max.max(1),
            checkpointer,
        })
    }

    /// Runs a batch in one transaction. Every unit's answer is returned, not sent: the caller
    /// marks the writer's health from the batch first, so no caller hears of a write before
    /// /health shows what it ran into.
    fn commit_batch(&mut self, units: Vec<Box<dyn UnitOfWork>>) -> Batch {
        let before = self.conn.total_changes();
        let mut transaction = match self.conn.transaction() {
            Ok(transaction) => transaction,
            Err(error) => return cannot_begin(error, units),
        };
        let mut batch = Running {
            trouble: None,
            answers: Vec::with_capacity(units.len()),
            kept: Vec::with_capacity(units.len()),
        };
        let mut units = units.into_iter();
        for unit in units.by_ref() {
            if let UnitEnd::TransactionLost(deliver) = batch.run(&mut transaction, unit) {
                // SQLite rolled the whole transaction back on its own (it does on SQLITE_FULL,
                // SQLITE_IOERR, SQLITE_NOMEM): the units before this one are undone too. Every
                // caller of the batch hears it; nothing is reported as saved.
                drop(transaction);
                batch.answers.push(Box::new(move || deliver(None)));
                return batch.fail_rest(units, || {
                    StoreError::Transaction(
                        "rolled back by SQLite after a failed write in the same batch".into(),
                    )
                });
            }
            if matches!(batch.trouble, Some(Trouble::Damaged(_))) {
                break;
            }
        }
        if let Some(Trouble::Damaged(detail)) = batch.trouble.clone() {
            // Nothing more goes into a damaged file: the batch is rolled back (on drop) and
            // every caller hears why.
            drop(transaction);
            let path = self.path.clone();
            return batch.fail_rest(units, || StoreError::Damaged {
                path: path.clone(),
                detail: detail.clone(),
            });
        }
        let commit_error = transaction.commit().err().map(Arc::new);
        let wrote = commit_error.is_none() && self.conn.total_changes() > before;
        batch.committed(commit_error, wrote)
    }
}

impl Behaviour for StoreWriter {
    type Msg = WriterMsg;

    fn handle(&mut self, first: WriterMsg, ctx: &mut CellCtx<Self>) -> Handled {
        let mut units = vec![first.unit];
        while units.len() < self.batch_max {
            match ctx.take_queued() {
                Some(next) => units.push(next.unit),
                None => break,
            }
        }
        let batch = self.commit_batch(units);
        match batch.trouble {
            Some(Trouble::Damaged(detail)) => ctx.fail(
                StoreError::Damaged {
                    path: self.path.clone(),
                    detail,
                }
                .to_string(),
            ),
            Some(Trouble::Full(detail)) => ctx.degraded(Some(format!(
                "disk full: a write failed for lack of space ({detail}); nothing new is saved \
                 until space is freed"
            ))),
            None if batch.wrote => ctx.degraded(None),
            None => {}
        }
        if let (true, Some(checkpointer)) = (batch.wrote, &self.checkpointer) {
            checkpointer.wrote();
        }
        // Health first, then the answers: a caller that hears "saved" or "disk full" and then
        // asks /health sees the same.
        for answer in batch.answers {
            answer();
        }
        Handled::Done
    }

    /// The last step of a clean stop: everything queued has been committed.
    fn stopping(&mut self) {
        if let Some(checkpointer) = &mut self.checkpointer {
            checkpointer.stop();
        }
        checkpoint(&self.conn);
    }
}

/// Copies every committed page from the WAL into the database file and truncates the WAL
/// (`PRAGMA wal_checkpoint(TRUNCATE)`). A reader holding an older snapshot blocks that; it is
/// retried for up to `CHECKPOINT_LIMIT` and then left (logged): the WAL keeps the rest, and
/// SQLite applies it at the next open. Returns whether the WAL is empty.
fn checkpoint(conn: &Connection) -> bool {
    let _ = conn.busy_timeout(CHECKPOINT_WAIT);
    let started = Instant::now();
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let outcome = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, i64>(2)?,
            ))
        });
        match outcome {
            Ok((0, _, _)) => {
                tracing::info!("checkpoint: the database file holds everything, the WAL is empty");
                return true;
            }
            Ok((_, in_wal, copied)) => tracing::warn!(
                attempt,
                in_wal,
                copied,
                "checkpoint blocked by a reader's snapshot; retrying"
            ),
            Err(error) => tracing::warn!(attempt, %error, "checkpoint failed; retrying"),
        }
        if started.elapsed() + CHECKPOINT_WAIT > CHECKPOINT_LIMIT {
            tracing::warn!(
                attempts = attempt,
                "checkpoint did not complete: the WAL keeps the latest changes until the next \
                 start; until then donna.db alone is not a complete copy (use `donna backup`)"
            );
            return false;
        }
        std::thread::sleep(CHECKPOINT_WAIT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit inserting one row of `bytes` bytes, and where its answer arrives.
    fn insert(
        bytes: usize,
    ) -> (
        WriterMsg,
        tokio::sync::oneshot::Receiver<Result<(), StoreError>>,
    ) {
        let (reply, answer) = Reply::channel();
        let unit = WriterMsg::unit(
            move |conn: &Connection| {
                conn.execute("INSERT INTO filler (data) VALUES (?1)", [vec![7u8; bytes]])?;
                Ok(())
            },
            reply,
        );
        (unit, answer)
    }

    #[test]
    fn a_batch_sqlite_rolls_back_on_a_full_disk_reports_none_of_its_units_saved() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("donna.db");
        let mut writer =
            StoreWriter::open(&path, Durability::Full, 8).unwrap_or_else(|e| panic!("{e}"));
        let setup = writer
            .conn
            .execute_batch("CREATE TABLE filler (data BLOB); PRAGMA max_page_count = 20;");
        assert!(setup.is_ok(), "{setup:?}");
        // The first unit fits; the second needs far more pages than are left; the third would
        // fit again, but comes after SQLite rolled the transaction back.
        let (small, small_answer) = insert(100);
        let (large, large_answer) = insert(200_000);
        let (after, after_answer) = insert(100);
        let batch = writer.commit_batch(vec![small.unit, large.unit, after.unit]);
        assert!(
            matches!(batch.trouble, Some(Trouble::Full(_))),
            "{:?}",
            batch.trouble
        );
        assert!(!batch.wrote);
        for answer in batch.answers {
            answer();
        }
        let small = small_answer.blocking_recv();
        let large = large_answer.blocking_recv();
        assert!(
            matches!(small, Ok(Err(_))),
            "the small write was undone: {small:?}"
        );
        let after = after_answer.blocking_recv();
        assert!(
            matches!(after, Ok(Err(_))),
            "the one after was not run: {after:?}"
        );
        assert!(
            matches!(large, Ok(Err(ref e)) if e.is_disk_full()),
            "the large one says why: {large:?}"
        );
        let rows: i64 = writer
            .conn
            .query_row("SELECT count(*) FROM filler", [], |row| row.get(0))
            .unwrap_or(-1);
        assert_eq!(rows, 0, "nothing reported unsaved is in the file");
    }
}
