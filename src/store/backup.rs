//! `donna backup`: a consistent copy of the database, taken while Donna runs, with SQLite's
//! online backup API.
//!
//! Invariants:
//! - Reads only: the database is opened read-only, without the data-dir lock (a running Donna
//!   holds it) and without migrating; nothing under `data_dir` is created or changed.
//! - One snapshot: every page is copied in a single backup step, i.e. inside one read
//!   transaction, so the copy is the database as of one commit, whatever the writer commits
//!   meanwhile (in WAL mode a reader never blocks the writer).
//! - Never overwrites: an existing OUT is refused and left as it was.
//! - All or nothing at OUT: the copy is written to a temporary file beside OUT
//!   (`<OUT>.partial-<pid>`), checked (`PRAGMA quick_check`) and synced there, and only then
//!   given the name OUT (a hard link, which fails rather than replace a file that appeared
//!   meanwhile; then the temporary name is removed). So an OUT that exists is complete; a backup
//!   that fails removes its temporary file, and one that is killed leaves nothing at OUT (at
//!   most its `.partial-<pid>` file, which says what it is).

use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::backup::{Backup, StepResult};
use rusqlite::Connection;

use super::check::{quick_check, summary};
use super::connection::{open_connection, sidecar, Durability};
use super::error::StoreError;
use super::DATABASE_FILE;

/// How long a backup waits while the database is briefly locked (a checkpoint, a recovery).
const BUSY_LIMIT: Duration = Duration::from_secs(10);
const BUSY_PAUSE: Duration = Duration::from_millis(50);

/// What a backup wrote.
#[derive(Debug, Clone)]
pub struct BackupReport {
    pub database: PathBuf,
    pub out: PathBuf,
    pub bytes: u64,
    pub pages: i64,
}

/// Why a backup was not written.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "no database at {0} (has Donna run with this config? its `data_dir` decides where the \
         database is)"
    )]
    NoDatabase(PathBuf),
    #[error("the database {0} is an empty file: there is nothing to back up")]
    EmptyDatabase(PathBuf),
    #[error("cannot read the database {path}: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error(
        "{0} already exists; a backup never overwrites a file: choose a new name, or move the \
         old file away first"
    )]
    OutExists(PathBuf),
    #[error("cannot write {path}: {reason}")]
    CannotWrite { path: PathBuf, reason: String },
    #[error("cannot copy {database} to {out}: {reason}")]
    Copy {
        database: PathBuf,
        out: PathBuf,
        reason: String,
    },
    #[error(
        "the copy of {database} fails SQLite's check ({detail}): the database itself is damaged; \
         nothing was written"
    )]
    Damaged { database: PathBuf, detail: String },
}

/// Copies `data_dir`'s database to `out` (a new file) and says what was written.
pub fn backup(data_dir: &Path, out: &Path) -> Result<BackupReport, BackupError> {
    let database = data_dir.join(DATABASE_FILE);
    check_source(&database)?;
    let source =
        open_connection(&database, true, Durability::Full).map_err(|error| BackupError::Read {
            path: database.clone(),
            reason: error.to_string(),
        })?;
    if std::fs::symlink_metadata(out).is_ok() {
        return Err(BackupError::OutExists(out.to_path_buf()));
    }
    let partial = partial_name(out);
    claim(&partial, out)?;
    let written = copy(&source, &database, &partial).and_then(|pages| {
        publish(&partial, out)?;
        Ok(pages)
    });
    match written {
        Ok(pages) => {
            let bytes = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
            Ok(BackupReport {
                database,
                out: out.to_path_buf(),
                bytes,
                pages,
            })
        }
        Err(error) => {
            remove_copy(&partial);
            Err(error.naming(&partial, out))
        }
    }
}

/// The temporary name a backup to `out` is written under: beside it (same file system, so it
/// can be linked to OUT), naming this process.
fn partial_name(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".partial-{}", std::process::id()));
    out.with_file_name(name)
}

/// Gives the finished copy the name `out`, never replacing a file there: a hard link fails if
/// `out` exists. Where the file system cannot link, a rename after a last check.
fn publish(partial: &Path, out: &Path) -> Result<(), BackupError> {
    let cannot_write = |error: std::io::Error| BackupError::CannotWrite {
        path: out.to_path_buf(),
        reason: error.to_string(),
    };
    match std::fs::hard_link(partial, out) {
        Ok(()) => std::fs::remove_file(partial).map_err(cannot_write)?,
        Err(error) if error.kind() == ErrorKind::AlreadyExists => {
            return Err(BackupError::OutExists(out.to_path_buf()));
        }
        Err(_) => {
            if std::fs::symlink_metadata(out).is_ok() {
                return Err(BackupError::OutExists(out.to_path_buf()));
            }
            std::fs::rename(partial, out).map_err(cannot_write)?;
        }
    }
    sync_folder(out);
    Ok(())
}

impl BackupError {
    /// An error about the temporary file is told about OUT, which is what the person named.
    fn naming(self, partial: &Path, out: &Path) -> Self {
        match self {
            BackupError::CannotWrite { path, reason } if path == partial => {
                BackupError::CannotWrite {
                    path: out.to_path_buf(),
                    reason,
                }
            }
            BackupError::Copy {
                database,
                out: path,
                reason,
            } if path == partial => BackupError::Copy {
                database,
                out: out.to_path_buf(),
                reason,
            },
            other => other,
        }
    }
}

/// The database must exist and be more than an empty file (or have a WAL to read from).
fn check_source(database: &Path) -> Result<(), BackupError> {
    let metadata = std::fs::metadata(database).map_err(|error| match error.kind() {
        ErrorKind::NotFound => BackupError::NoDatabase(database.to_path_buf()),
        _ => BackupError::Read {
            path: database.to_path_buf(),
            reason: error.to_string(),
        },
    })?;
    let wal = sidecar(database, "-wal");
    let wal_len = std::fs::metadata(wal).map(|m| m.len()).unwrap_or(0);
    if metadata.len() == 0 && wal_len == 0 {
        return Err(BackupError::EmptyDatabase(database.to_path_buf()));
    }
    Ok(())
}

/// Creates the temporary file as a new, empty file (a leftover of a killed backup of this
/// same process id is refused, not reused).
fn claim(partial: &Path, out: &Path) -> Result<(), BackupError> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(partial)
        .map(drop)
        .map_err(|error| BackupError::CannotWrite {
            path: out.to_path_buf(),
            reason: match error.kind() {
                ErrorKind::AlreadyExists => format!(
                    "{} is in the way (left by a backup that was stopped); remove it",
                    partial.display()
                ),
                _ => error.to_string(),
            },
        })
}

/// Copies every page in one step (one read snapshot), checks the copy, syncs it. Returns the
/// copy's page count.
fn copy(source: &Connection, database: &Path, out: &Path) -> Result<i64, BackupError> {
    let cannot_write = |error: rusqlite::Error| BackupError::CannotWrite {
        path: out.to_path_buf(),
        reason: error.to_string(),
    };
    let mut target = Connection::open(out).map_err(cannot_write)?;
    {
        let backup = Backup::new(source, &mut target).map_err(cannot_write)?;
        let started = Instant::now();
        loop {
            match backup
                .step(-1)
                .map_err(|error| classify(error, database, out))?
            {
                StepResult::Done => break,
                StepResult::Busy | StepResult::Locked if started.elapsed() < BUSY_LIMIT => {
                    std::thread::sleep(BUSY_PAUSE);
                }
                StepResult::Busy | StepResult::Locked => {
                    return Err(BackupError::Read {
                        path: database.to_path_buf(),
                        reason: format!("still locked after {} s", BUSY_LIMIT.as_secs()),
                    });
                }
                // `More` (not with -1, which copies everything at once): step again.
                _ => {}
            }
        }
    }
    let findings = quick_check(&target).map_err(|error| match error {
        StoreError::Sqlite(error) => classify(error, database, out),
        other => BackupError::Copy {
            database: database.to_path_buf(),
            out: out.to_path_buf(),
            reason: other.to_string(),
        },
    })?;
    if findings != ["ok"] {
        return Err(BackupError::Damaged {
            database: database.to_path_buf(),
            detail: summary(&findings),
        });
    }
    let pages: i64 = target
        .pragma_query_value(None, "page_count", |row| row.get(0))
        .map_err(cannot_write)?;
    target.close().map_err(|(_, error)| cannot_write(error))?;
    sync(out).map_err(|error| BackupError::CannotWrite {
        path: out.to_path_buf(),
        reason: error.to_string(),
    })?;
    Ok(pages)
}

/// A damaged source is `Damaged`; anything else names both ends.
fn classify(error: rusqlite::Error, database: &Path, out: &Path) -> BackupError {
    let error = StoreError::Sqlite(error);
    match error.damage() {
        Some(detail) => BackupError::Damaged {
            database: database.to_path_buf(),
            detail,
        },
        None => BackupError::Copy {
            database: database.to_path_buf(),
            out: out.to_path_buf(),
            reason: error.to_string(),
        },
    }
}

/// Flushes the copy and its directory entry to disk.
fn sync(out: &Path) -> std::io::Result<()> {
    File::open(out)?.sync_all()?;
    sync_folder(out);
    Ok(())
}

/// Flushes the folder holding `path` (its entries), best effort: not every platform can open
/// a directory for syncing.
fn sync_folder(path: &Path) {
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        if let Ok(folder) = File::open(folder) {
            let _ = folder.sync_all();
        }
    }
}

/// Removes a failed copy and any journal SQLite left beside it.
fn remove_copy(out: &Path) {
    for path in [
        out.to_path_buf(),
        sidecar(out, "-journal"),
        sidecar(out, "-wal"),
        sidecar(out, "-shm"),
    ] {
        let _ = std::fs::remove_file(path);
    }
}
