//! The store's errors: SQLite's own, a unit of work that refused (with the reason for the
//! person), and the failures of opening, locking and migrating.

use std::path::PathBuf;

use actors::AskError;

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
    #[error("blocking task failed: {0}")]
    Join(String),
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
    pub fn refused(kind: Refusal, reason: impl Into<String>) -> Self {
        StoreError::Refused {
            reason: reason.into(),
            kind,
        }
    }
}
