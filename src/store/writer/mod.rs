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

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use actors::{Behaviour, CellCtx, Handled, Reply};
use rusqlite::Connection;

use super::checkpointer::{Checkpointer, BACKSTOP_PAGES};
use super::connection::{open_connection, Durability};
use super::error::StoreError;
use super::read_pool::panic_text;

type Deliver = Box<dyn FnOnce(Option<StoreError>) + Send>;

/// What SQLite ran into that the writer's health must show.
#[derive(Debug, Clone)]
enum Trouble {
    /// The database file is damaged (SQLite's own words).
    Damaged(String),
    /// No space for a write (SQLite's own words).
    Full(String),
}

impl Trouble {
    fn of(error: &StoreError) -> Option<Self> {
        if let Some(detail) = error.damage() {
            Some(Trouble::Damaged(detail))
        } else if error.is_disk_full() {
            Some(Trouble::Full(error.to_string()))
        } else {
            None
        }
    }

    /// Keeps the worse of what was noted and what was found (damage beats a full disk).
    fn note(slot: &mut Option<Trouble>, found: Option<Trouble>) {
        if matches!(slot, Some(Trouble::Damaged(_))) {
            return;
        }
        if let Some(found) = found {
            *slot = Some(found);
        }
    }
}

/// A unit that ran: whether it succeeded, what it ran into, and how to answer once the commit
/// is known.
struct Ran {
    ok: bool,
    trouble: Option<Trouble>,
    deliver: Deliver,
}

/// A unit of work with its reply port, type-erased so one mailbox carries every kind.
trait UnitOfWork: Send {
    /// Runs the work.
    fn run(self: Box<Self>, conn: &Connection) -> Ran;
    /// Answers without running (the transaction could not even begin).
    fn fail(self: Box<Self>, error: StoreError);
}

struct Typed<T, F> {
    work: F,
    reply: Reply<Result<T, StoreError>>,
}

impl<T, F> UnitOfWork for Typed<T, F>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
{
    fn run(self: Box<Self>, conn: &Connection) -> Ran {
        let Typed { work, reply } = *self;
        let result = catch_unwind(AssertUnwindSafe(|| work(conn)))
            .unwrap_or_else(|payload| Err(StoreError::Panicked(panic_text(&*payload))));
        let ok = result.is_ok();
        let trouble = result.as_ref().err().and_then(Trouble::of);
        let deliver: Deliver = Box::new(move |commit_error| match commit_error {
            None => reply.send(result),
            Some(error) => reply.send(Err(error)),
        });
        Ran {
            ok,
            trouble,
            deliver,
        }
    }

    fn fail(self: Box<Self>, error: StoreError) {
        self.reply.send(Err(error));
    }
}

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

/// What a batch came to, for the writer's health.
struct Batch {
    trouble: Option<Trouble>,
    /// It committed at least one change.
    wrote: bool,
    /// Every unit's answer, to send once health shows what the batch ran into.
    answers: Vec<Answer>,
}

/// One unit's answer, ready to send.
type Answer = Box<dyn FnOnce() + Send>;

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
        let mut trouble = None;
        let mut answers: Vec<Answer> = Vec::with_capacity(units.len());
        let mut transaction = match self.conn.transaction() {
            Ok(transaction) => transaction,
            Err(error) => {
                let cause = std::sync::Arc::new(error);
                fail_all(&mut answers, Vec::new(), units, || StoreError::Batch {
                    what: "cannot begin",
                    source: cause.clone(),
                });
                let error = StoreError::Batch {
                    what: "cannot begin",
                    source: cause,
                };
                return Batch {
                    trouble: Trouble::of(&error),
                    wrote: false,
                    answers,
                };
            }
        };
        let mut delivers: Vec<Deliver> = Vec::with_capacity(units.len());
        let mut units = units.into_iter();
        for unit in units.by_ref() {
            let mut savepoint = match transaction.savepoint() {
                Ok(savepoint) => savepoint,
                Err(error) => {
                    let error = StoreError::from(error);
                    Trouble::note(&mut trouble, Trouble::of(&error));
                    answers.push(Box::new(move || unit.fail(error)));
                    continue;
                }
            };
            let ran = unit.run(&savepoint);
            Trouble::note(&mut trouble, ran.trouble.clone());
            if !ran.ok && savepoint.is_autocommit() {
                // SQLite rolled the whole transaction back on its own (it does on SQLITE_FULL,
                // SQLITE_IOERR, SQLITE_NOMEM): the units before this one are undone too. Every
                // caller of the batch hears it; nothing is reported as saved.
                drop(savepoint);
                drop(transaction);
                let deliver = ran.deliver;
                answers.push(Box::new(move || deliver(None)));
                fail_all(&mut answers, delivers, units, || {
                    StoreError::Transaction(
                        "rolled back by SQLite after a failed write in the same batch".into(),
                    )
                });
                return Batch {
                    trouble,
                    wrote: false,
                    answers,
                };
            }
            let outcome = if ran.ok {
                savepoint.commit()
            } else {
                savepoint.rollback().and_then(|()| savepoint.finish())
            };
            match outcome {
                Ok(()) => delivers.push(ran.deliver),
                Err(error) => {
                    let error = StoreError::from(error);
                    Trouble::note(&mut trouble, Trouble::of(&error));
                    let deliver = ran.deliver;
                    answers.push(Box::new(move || deliver(Some(error))));
                }
            }
            if matches!(trouble, Some(Trouble::Damaged(_))) {
                break;
            }
        }
        if let Some(Trouble::Damaged(detail)) = &trouble {
            // Nothing more goes into a damaged file: the batch is rolled back (on drop) and
            // every caller hears why.
            drop(transaction);
            fail_all(&mut answers, delivers, units, || StoreError::Damaged {
                path: self.path.clone(),
                detail: detail.clone(),
            });
            return Batch {
                trouble,
                wrote: false,
                answers,
            };
        }
        let commit_error = transaction.commit().err().map(std::sync::Arc::new);
        let failed = |cause: &std::sync::Arc<rusqlite::Error>| StoreError::Batch {
            what: "commit failed",
            source: cause.clone(),
        };
        if let Some(cause) = &commit_error {
            Trouble::note(&mut trouble, Trouble::of(&failed(cause)));
        }
        let wrote = commit_error.is_none() && self.conn.total_changes() > before;
        for deliver in delivers {
            let error = commit_error.as_ref().map(failed);
            answers.push(Box::new(move || deliver(error)));
        }
        Batch {
            trouble,
            wrote,
            answers,
        }
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

/// Fails every unit of a batch that did not make it: those already delivered into the
/// transaction (their savepoint committed, the transaction not) and those still queued, each
/// with its own copy of the error `why` makes.
fn fail_all(
    answers: &mut Vec<Answer>,
    delivered: Vec<Deliver>,
    queued: impl IntoIterator<Item = Box<dyn UnitOfWork>>,
    why: impl Fn() -> StoreError,
) {
    for deliver in delivered {
        let error = why();
        answers.push(Box::new(move || deliver(Some(error))));
    }
    for unit in queued {
        let error = why();
        answers.push(Box::new(move || unit.fail(error)));
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
