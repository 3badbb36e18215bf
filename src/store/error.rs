//! The store's errors: SQLite's own, a unit of work that refused (with the reason for the
//! person), the failures of opening, locking and migrating, and a damaged or emptied database
//! file (each with what to do about it).

use std::path::PathBuf;

use actors::AskError;
use rusqlite::ErrorCode;

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
    /// A batch's transaction failed (it could not begin or commit), shared by every unit of
    /// the batch: the cause is kept, not only its words.
    #[error("transaction: {what}: {source}")]
    Batch {
        what: &'static str,
        #[source]
        source: std::sync::Arc<rusqlite::Error>,
    },
    #[error("migration: {0}")]
    Migration(#[from] MigrationError),
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
    /// A JSON column that does not read back (or a value that would not write as JSON):
    /// which one, with serde's error as the cause.
    #[error("stored data is invalid: {what}: {source}")]
    Json {
        what: String,
        #[source]
        source: serde_json::Error,
    },
    /// SQLite found the database file damaged (at startup, `PRAGMA quick_check`; later, any
    /// statement). Donna does not serve or write a damaged database.
    #[error(
        "the database {path} is damaged ({detail}). Donna will not use a damaged database. To \
         recover, stop Donna, then either restore your last backup (put the copy `donna backup` \
         wrote at {path} and delete {path}-wal and {path}-shm if present), or move the damaged \
         file away (with its -wal and -shm; keep them, some of the data may be recoverable with \
         sqlite3's .recover) to start fresh with an empty database"
    )]
    Damaged { path: PathBuf, detail: String },
    /// `donna.db` exists but is 0 bytes, with no WAL beside it to recover from.
    #[error(
        "the database {path} is an empty file (0 bytes) with no WAL beside it to recover from, \
         where Donna's data was expected: it was truncated or replaced. Donna will not start over \
         on it silently. Restore your last backup (put the copy `donna backup` wrote at {path}), \
         or delete the empty file to start fresh with an empty database"
    )]
    EmptyDatabase { path: PathBuf },
    #[error("blocking task failed")]
    Join(#[from] tokio::task::JoinError),
    #[error("the read pool is closed")]
    PoolClosed(#[from] tokio::sync::AcquireError),
}

impl StoreError {
    /// A JSON column (`what`) that did not read back or write, keeping serde's error.
    pub fn json(what: impl Into<String>, source: serde_json::Error) -> Self {
        StoreError::Json {
            what: what.into(),
            source,
        }
    }

    /// What failed, in words for the person who asked (the error itself goes to the log): no
    /// SQL, no panic message, no type name.
    pub fn in_plain_words(&self) -> &'static str {
        match self {
            StoreError::Refused { .. } => "the change was refused",
            StoreError::Damaged { .. } | StoreError::EmptyDatabase { .. } => {
                "the database is damaged; Donna does not use it (her log says what to do)"
            }
            StoreError::Corrupt(_) | StoreError::Json { .. } => {
                "a record in the database could not be read"
            }
            StoreError::Sqlite(_) | StoreError::Batch { .. } => {
                match self.sqlite().and_then(rusqlite::Error::sqlite_error_code) {
                    Some(ErrorCode::DiskFull) => {
                        "the disk is full, so the database could not be written"
                    }
                    Some(
                        ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied,
                    ) => "the database could not be written (the file is read-only or gone)",
                    Some(ErrorCode::SystemIoFailure) => {
                        "the database could not be read or written (an I/O error)"
                    }
                    Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
                        "the database was busy for too long"
                    }
                    _ => "the database could not be used",
                }
            }
            StoreError::Unavailable(_)
            | StoreError::Panicked(_)
            | StoreError::Join(_)
            | StoreError::PoolClosed(_) => "the database writer failed on this request",
            StoreError::Transaction(_)
            | StoreError::Migration(_)
            | StoreError::DataDir { .. }
            | StoreError::Locked { .. } => "the database could not be used",
        }
    }
}

/// Why the schema could not be brought up to date. No variant carries a migration's SQL: a
/// failing migration is named by its file (and line, when SQLite says where).
#[derive(Debug, thiserror::Error)]
pub enum MigrationError {
    #[error(
        "the database has schema version {found} but this Donna knows versions 0 to {known}: it \
         was written by a newer Donna; run that version or restore a backup"
    )]
    TooNew { found: i64, known: usize },
    #[error(
        "the database has schema version {found}, which no Donna writes (this one knows \
         versions 0 to {known}); restore a backup"
    )]
    Unknown { found: i64, known: usize },
    #[error(
        "{file}{} failed: {reason}; none of the pending migrations was applied and the database \
         stays at schema version {stays_at} (this Donna knows versions 0 to {known})",
        at_line(.line)
    )]
    Failed {
        file: String,
        line: Option<usize>,
        reason: String,
        stays_at: i64,
        known: usize,
    },
    #[error("{0} is not UTF-8")]
    NotUtf8(String),
    #[error("{0}")]
    Other(String),
}

fn at_line(line: &Option<usize>) -> String {
    line.map(|line| format!(" (line {line})"))
        .unwrap_or_default()
}

/// Why a unit of work refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    NotFound,
    Conflict,
    Invalid,
}

impl StoreError {
    /// What SQLite said, when this is SQLite finding the database file damaged
    /// (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    pub fn damage(&self) -> Option<String> {
        let error = self.sqlite()?;
        match error.sqlite_error_code() {
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => Some(error.to_string()),
            _ => None,
        }
    }

    /// The SQLite error this came from, if it did (directly, or a batch's shared cause).
    pub fn sqlite(&self) -> Option<&rusqlite::Error> {
        match self {
            StoreError::Sqlite(error) => Some(error),
            StoreError::Batch { source, .. } => Some(source),
            _ => None,
        }
    }

    /// Whether this is a write that found no space (`SQLITE_FULL`: the disk, or the
    /// connection's `max_page_count`).
    pub fn is_disk_full(&self) -> bool {
        self.sqlite()
            .is_some_and(|error| error.sqlite_error_code() == Some(ErrorCode::DiskFull))
    }

    /// Whether this is the database failing (damaged, full, unreadable, busy, gone), as
    /// opposed to one row or one request: a value that does not read back, a refusal, a panic.
    pub fn is_the_databases(&self) -> bool {
        match self {
            StoreError::Sqlite(_) | StoreError::Batch { .. } => {
                self.damage().is_some()
                    || matches!(
                        self.sqlite().and_then(rusqlite::Error::sqlite_error_code),
                        Some(
                            ErrorCode::DiskFull
                                | ErrorCode::SystemIoFailure
                                | ErrorCode::ReadOnly
                                | ErrorCode::CannotOpen
                                | ErrorCode::PermissionDenied
                                | ErrorCode::DatabaseBusy
                                | ErrorCode::DatabaseLocked
                                | ErrorCode::OutOfMemory
                        )
                    )
            }
            StoreError::Refused { .. }
            | StoreError::Corrupt(_)
            | StoreError::Json { .. }
            | StoreError::Panicked(_) => false,
            StoreError::Transaction(_)
            | StoreError::Migration(_)
            | StoreError::DataDir { .. }
            | StoreError::Locked { .. }
            | StoreError::Unavailable(_)
            | StoreError::Damaged { .. }
            | StoreError::EmptyDatabase { .. }
            | StoreError::Join(_)
            | StoreError::PoolClosed(_) => true,
        }
    }

    pub fn refused(kind: Refusal, reason: impl Into<String>) -> Self {
        StoreError::Refused {
            reason: reason.into(),
            kind,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::StoreError;

    #[test]
    fn a_json_column_that_does_not_read_keeps_serdes_error_as_its_cause() {
        let Err(cause) = serde_json::from_str::<Vec<String>>("[1,") else {
            panic!("the broken JSON parsed");
        };
        let error = StoreError::json("plan actions", cause);
        let source = error
            .source()
            .and_then(|s| s.downcast_ref::<serde_json::Error>());
        assert!(source.is_some(), "{error:?}");
        assert!(error
            .to_string()
            .starts_with("stored data is invalid: plan actions: "));
        assert_eq!(
            error.in_plain_words(),
            "a record in the database could not be read"
        );
    }
}
