//! The store's errors: SQLite's own, a unit of work that refused (with the reason for the
//! person), and the failures of opening, locking and migrating.

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
    /// What SQLite said, when this is SQLite finding the database file damaged
    /// (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    pub fn damage(&self) -> Option<String> {
        match self {
            StoreError::Sqlite(error) => match error.sqlite_error_code() {
                Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
                    Some(error.to_string())
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether this is a write that found no space (`SQLITE_FULL`: the disk, or the
    /// connection's `max_page_count`).
    pub fn is_disk_full(&self) -> bool {
        matches!(self, StoreError::Sqlite(error) if error.sqlite_error_code() == Some(ErrorCode::DiskFull))
    }

    pub fn refused(kind: Refusal, reason: impl Into<String>) -> Self {
        StoreError::Refused {
            reason: reason.into(),
            kind,
        }
    }
}
