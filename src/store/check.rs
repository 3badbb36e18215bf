//! The database file at startup: a new database is created whole (under a temporary name,
//! migrated, checkpointed, then renamed into place), and an existing one must be a database that
//! passes SQLite's `PRAGMA quick_check` before Donna migrates it or serves anything from it.
//!
//! Invariants:
//! - `donna.db` never exists half-created, so a 0-byte `donna.db` with no WAL beside it is
//!   damage (truncated or replaced): refused with its own message, never silently started over.
//! - Nothing is written into an existing database before it passed the check.

use std::fs;
use std::io::ErrorKind;
use std::path::Path;
use std::time::Instant;

use rusqlite::Connection;

use super::connection::{open_connection, sidecar, Durability};
use super::error::StoreError;
use super::migrations;

/// At most this many of quick_check's findings go into the message.
const FINDINGS_SHOWN: usize = 3;

/// Creates the database at `path` whole: built and migrated as `<path>.new`, then renamed.
pub(super) fn create(path: &Path) -> Result<(), StoreError> {
    let wal = sidecar(path, "-wal");
    match fs::metadata(&wal) {
        Ok(metadata) if metadata.len() > 0 => {
            return Err(StoreError::Damaged {
                path: path.to_path_buf(),
                detail: format!(
                    "the database file is missing but its WAL {} ({} bytes) is there",
                    wal.display(),
                    metadata.len()
                ),
            })
        }
        _ => {}
    }
    let fresh = sidecar(path, ".new");
    for leftover in [
        sidecar(path, "-wal"),
        sidecar(path, "-shm"),
        fresh.clone(),
        sidecar(&fresh, "-wal"),
        sidecar(&fresh, "-shm"),
        sidecar(&fresh, "-journal"),
    ] {
        remove(&leftover)?;
    }
    let mut conn = open_connection(&fresh, false, Durability::Full)?;
    migrations::apply(&mut conn)?;
    let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
    if busy != 0 {
        return Err(StoreError::Transaction(format!(
            "cannot checkpoint the new database {}",
            fresh.display()
        )));
    }
    conn.close().map_err(|(_, error)| StoreError::from(error))?;
    fs::rename(&fresh, path).map_err(|source| StoreError::DataDir {
        path: path.to_path_buf(),
        source,
    })?;
    if let Some(folder) = path.parent() {
        // Best effort: make the rename itself durable.
        if let Ok(folder) = fs::File::open(folder) {
            let _ = folder.sync_all();
        }
    }
    tracing::info!(path = %path.display(), "new database created");
    Ok(())
}

/// Opens the existing database for migration once it passed the checks.
pub(super) fn existing(path: &Path) -> Result<Connection, StoreError> {
    let size = fs::metadata(path)
        .map_err(|source| StoreError::DataDir {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    let wal = fs::metadata(sidecar(path, "-wal")).map_or(0, |m| m.len());
    if size == 0 && wal == 0 {
        return Err(StoreError::EmptyDatabase {
            path: path.to_path_buf(),
        });
    }
    let started = Instant::now();
    let conn = open_connection(path, false, Durability::Full).map_err(|e| damaged_or(e, path))?;
    let findings = quick_check(&conn).map_err(|e| damaged_or(e, path))?;
    if findings != ["ok"] {
        return Err(StoreError::Damaged {
            path: path.to_path_buf(),
            detail: summary(&findings),
        });
    }
    tracing::info!(
        path = %path.display(),
        bytes = size,
        ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        "database checked (quick_check ok)"
    );
    Ok(conn)
}

/// An error in which SQLite says the file is damaged becomes `Damaged` (naming the file).
pub(super) fn damaged_or(error: StoreError, path: &Path) -> StoreError {
    match error.damage() {
        Some(detail) => StoreError::Damaged {
            path: path.to_path_buf(),
            detail,
        },
        None => error,
    }
}

/// `PRAGMA quick_check`'s findings: `["ok"]` for a sound database.
pub(super) fn quick_check(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut statement = conn.prepare("PRAGMA quick_check")?;
    let rows = statement.query_map([], |row| row.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The first findings on one line, without SQLite's section headers.
pub(super) fn summary(findings: &[String]) -> String {
    let lines: Vec<&str> = findings
        .iter()
        .flat_map(|finding| finding.lines())
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("***"))
        .collect();
    let shown = &lines[..lines.len().min(FINDINGS_SHOWN)];
    let more = lines.len() - shown.len();
    let mut text = format!("quick_check: {}", shown.join("; "));
    if more > 0 {
        text.push_str(&format!(" (and {more} more)"));
    }
    text
}

fn remove(path: &Path) -> Result<(), StoreError> {
    match fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == ErrorKind::NotFound => Ok(()),
        Err(source) => Err(StoreError::DataDir {
            path: path.to_path_buf(),
            source,
        }),
    }
}
