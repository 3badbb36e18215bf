//! The store: one SQLite database under `data_dir`.
//!
//! Owns: opening connections (WAL, synchronous=FULL, foreign keys, busy timeout), migrations, the
//! data-dir lock, the single writer actor and the read pool.
//! Invariants:
//! - Only `writer` writes: every change is a closure run by the store writer inside a
//!   transaction, and its caller hears back only after COMMIT.
//! - No SQLite call runs on an async arbiter thread: the writer has a thread (arbiter) of its own,
//!   reads run on the blocking pool.
//! - No transaction is held open across an await: a unit of work is synchronous code.

mod lock;
pub mod migrations;
mod read_pool;
pub mod time;
mod writer;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use actors::{AskError, ChildRef};
use rusqlite::{Connection, OpenFlags};

pub use lock::DataDirLock;
pub use read_pool::ReadPool;
pub use writer::{StoreWriter, WriterMsg};

/// The database file inside `data_dir`.
pub const DATABASE_FILE: &str = "donna.db";

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A unit of work declined to apply; its changes are rolled back and `reason` is for the
    /// person who asked.
    #[error("{reason}")]
    Refused { reason: String, kind: Refusal },
    #[error("transaction: {0}")]
    Transaction(String),
    #[error("migration: {0}")]
    Migration(String),
    #[error("data directory {path}: {source}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "data directory {path} is in use by another Donna process (only one may use it at a time)"
    )]
    Locked { path: PathBuf },
    #[error("store writer unavailable: {0}")]
    Unavailable(#[from] AskError),
    #[error("a unit of work panicked: {0}")]
    Panicked(String),
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
    #[error("blocking task failed: {0}")]
    Join(String),
}

/// Why a unit of work refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    NotFound,
    Conflict,
    Invalid,
}

impl StoreError {
    pub fn refused(kind: Refusal, reason: impl Into<String>) -> Self {
        StoreError::Refused {
            reason: reason.into(),
            kind,
        }
    }
}

/// How hard each commit is made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// fsync at every commit (power-loss safe). The default.
    Full,
    /// WAL's NORMAL: safe against a crash of the process, not of the machine. Benchmarks only.
    Normal,
}

/// Opens a connection with Donna's settings.
pub fn open_connection(
    path: &Path,
    read_only: bool,
    durability: Durability,
) -> Result<Connection, StoreError> {
    let flags = if read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI
    };
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    if !read_only {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        let synchronous = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", synchronous)?;
    }
    Ok(conn)
}

/// Creates the database if needed and migrates it. Runs once at startup, before any actor.
pub fn prepare(data_dir: &Path) -> Result<PathBuf, StoreError> {
    let path = data_dir.join(DATABASE_FILE);
    let mut conn = open_connection(&path, false, Durability::Full)?;
    migrations::apply(&mut conn)?;
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
