//! The store: one SQLite database under `data_dir`.
//!
//! Owns: opening connections (WAL, synchronous=FULL, foreign keys, busy timeout), migrations, the
//! data-dir lock, the single writer actor, the read pool, `backup` (a consistent copy while
//! Donna runs), `write_count` (the writes made for one message, counted apart from the rest),
//! `page` (a page of a list, newest first, by a keyset) and `query_plan` (which tables a statement reads whole, for the tests that keep reads on
//! indexes).
//! Invariants:
//! - A damaged database (one that fails `PRAGMA quick_check`) or an emptied one (0 bytes, no WAL)
//!   is refused at startup, with what to do; `donna.db` appears only once it is created whole.
//! - Only `writer` writes: every change is a closure run by the store writer inside a
//!   transaction, and its caller hears back only after COMMIT.
//! - No SQLite call runs on an async arbiter thread: the writer has a thread (arbiter) of its own,
//!   reads run on the blocking pool.
//! - No transaction is held open across an await: a unit of work is synchronous code.

pub mod backup;
mod check;
mod checkpointer;
mod connection;
mod error;
mod isolated;
mod lock;
pub mod migrations;
pub mod page;
pub mod query_plan;
mod read_pool;
pub mod time;
pub mod write_count;
mod writer;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use actors::ChildRef;
use rusqlite::Connection;

pub use connection::{execute_cached, open_connection, Durability};
pub use error::{MigrationError, Refusal, StoreError};
pub use isolated::isolated;
pub use lock::DataDirLock;
pub use read_pool::ReadPool;
pub use writer::{StoreWriter, WriterMsg};

/// The database file inside `data_dir`.
pub const DATABASE_FILE: &str = "donna.db";

/// Makes the database ready: a new one is created whole, an existing one must pass SQLite's
/// check (`check::existing`) before it is migrated. Runs once at startup, before any actor and
/// before anything is served.
pub fn prepare(data_dir: &Path) -> Result<PathBuf, StoreError> {
    let path = data_dir.join(DATABASE_FILE);
    match std::fs::metadata(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => check::create(&path)?,
        Err(source) => return Err(StoreError::DataDir { path, source }),
        Ok(_) => {}
    }
    let mut conn = check::existing(&path)?;
    migrations::apply(&mut conn).map_err(|error| check::damaged_or(error, &path))?;
    Ok(path)
}

/// The handle the rest of Donna uses: writes through the writer actor, reads from the pool.
#[derive(Clone, Debug)]
pub struct Store {
    writer: ChildRef<WriterMsg>,
    reads: Arc<ReadPool>,
}

impl Store {
    pub fn new(writer: ChildRef<WriterMsg>, reads: Arc<ReadPool>) -> Self {
        Self { writer, reads }
    }

    /// Runs `work` in the writer's transaction; resolves after COMMIT (or with the error that
    /// rolled it back). `work` must not block on anything but SQLite.
    pub fn write<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> impl Future<Output = Result<T, StoreError>> {
        write_count::submitted();
        let answer = self.writer.ask(move |reply| WriterMsg::unit(work, reply));
        async move { answer.await? }
    }

    /// Runs `work` on a pooled read connection on the blocking pool.
    pub fn read<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> impl Future<Output = Result<T, StoreError>> {
        self.reads.run(work)
    }

    pub fn writer(&self) -> &ChildRef<WriterMsg> {
        &self.writer
    }
}
