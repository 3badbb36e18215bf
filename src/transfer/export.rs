//! `donna export`: the data dir's tasks, automations, preferences, people and their chats as a
//! `Document`, while Donna runs.
//!
//! Invariants: like `donna backup`, it opens the database read-only, takes no lock and
//! migrates nothing (a database at another schema version is refused with what to do); every
//! row comes from one read transaction; OUT is written under a temporary name in its folder,
//! synced, then linked to OUT, so OUT is either absent or whole, and an existing OUT is never
//! replaced.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use rusqlite::{Connection, TransactionBehavior};

use super::document::{Document, PersonRecord, PreferenceRecord, ThreadRecord, VERSION};
use crate::automations::repo as automations;
use crate::conversation::threads;
use crate::people::repo as people;
use crate::store::migrations::known_versions;
use crate::store::{open_connection, Durability, StoreError, DATABASE_FILE};
use crate::tasks::{preferences, repo as tasks};

/// What an export wrote.
#[derive(Debug, Clone)]
pub struct ExportReport {
    pub out: PathBuf,
    pub tasks: usize,
    pub automations: usize,
    pub preferences: usize,
    pub people: usize,
}

/// Why nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("no database at {0} (has Donna run with this config? its `data_dir` decides where the database is)")]
    NoDatabase(PathBuf),
    #[error("the database is at schema version {found} and this Donna knows {known}: start this Donna once (it migrates the database), or export with the Donna that wrote it")]
    Schema { found: i64, known: usize },
    #[error("cannot read the database: {0}")]
    Read(#[from] StoreError),
    #[error("{0} already exists; an export never overwrites a file: choose a new name, or move the old file away first")]
    OutExists(PathBuf),
    #[error("cannot write {path}: {reason}")]
    CannotWrite { path: PathBuf, reason: String },
}

/// Writes `data_dir`'s export to `out` (a new file), stamped `now`.
pub fn export(
    data_dir: &Path,
    out: &Path,
    now: DateTime<Utc>,
) -> Result<ExportReport, ExportError> {
    let database = data_dir.join(DATABASE_FILE);
    if !database.exists() {
        return Err(ExportError::NoDatabase(database));
    }
    if out.exists() {
        return Err(ExportError::OutExists(out.to_path_buf()));
    }
    let mut conn = open_connection(&database, true, Durability::Full)?;
    let document = snapshot(&mut conn, now)?;
    let text =
        serde_json::to_string_pretty(&document).map_err(|error| ExportError::CannotWrite {
            path: out.to_path_buf(),
            reason: error.to_string(),
        })?;
    write_new(out, text.as_bytes())?;
    Ok(ExportReport {
        out: out.to_path_buf(),
        tasks: document.tasks.len(),
        automations: document.automations.len(),
        preferences: document.preferences.len(),
        people: document.people.len(),
    })
}

/// Every row, in one read transaction.
fn snapshot(conn: &mut Connection, now: DateTime<Utc>) -> Result<Document, ExportError> {
    let found: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(StoreError::from)?;
    let known = known_versions();
    if usize::try_from(found).ok() != Some(known) {
        return Err(ExportError::Schema { found, known });
    }
    let read = conn
        .transaction_with_behavior(TransactionBehavior::Deferred)
        .map_err(StoreError::from)?;
    let tasks = tasks::list(&read, None)?;
    let automations = automations::all(&read)?;
    let mut chats = BTreeSet::new();
    chats.extend(
        tasks
            .iter()
            .filter_map(|task| task.origin_thread_id.clone()),
    );
    chats.extend(
        automations
            .iter()
            .filter_map(|a| a.origin_thread_id.clone()),
    );
    let mut threads_kept = Vec::new();
    for id in chats {
        if let Some(thread) = threads::get(&read, &id)? {
            threads_kept.push(ThreadRecord::from(&thread));
        }
    }
    let document = Document {
        version: VERSION,
        exported_at: now,
        automations: automations.iter().map(Into::into).collect(),
        preferences: preferences::records(&read)?
            .into_iter()
            .map(|learned| PreferenceRecord {
                title_key: learned.title_key,
                field: learned.field,
                value: learned.value,
                learned_from_task_id: learned.learned_from_task_id,
                learned_at: learned.learned_at,
            })
            .collect(),
        people: people::all(&read)?.iter().map(PersonRecord::from).collect(),
        threads: threads_kept,
        tasks,
    };
    read.finish().map_err(StoreError::from)?;
    Ok(document)
}

/// Writes `bytes` to a temporary file beside `out`, syncs it and links it to `out` (refused
/// when `out` exists meanwhile); the temporary name is removed either way.
fn write_new(out: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    let cannot = |error: std::io::Error| ExportError::CannotWrite {
        path: out.to_path_buf(),
        reason: error.to_string(),
    };
    let name = out
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "export".into());
    let temporary = out.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = File::create(&temporary)
        .and_then(|mut file| {
            file.write_all(bytes)?;
            file.sync_all()
        })
        .and_then(|()| std::fs::hard_link(&temporary, out));
    let _ = std::fs::remove_file(&temporary);
    match written {
        Ok(()) => {
            if let Some(folder) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
                // Best effort: the new name on disk too.
                if let Ok(folder) = File::open(folder) {
                    let _ = folder.sync_all();
                }
            }
            Ok(())
        }
        Err(error) if error.kind() == ErrorKind::AlreadyExists => {
            Err(ExportError::OutExists(out.to_path_buf()))
        }
        Err(error) => Err(cannot(error)),
    }
}
