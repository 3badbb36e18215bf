//! `donna import`: a `Document` into a stopped Donna's data dir (created and migrated if new),
//! added or updated by id, in one transaction.
//!
//! The file is read like a config file (`config::read_text_within`): only a regular file
//! (opened without blocking, so a FIFO is refused at once), at most [`MAX_IMPORT_BYTES`], UTF-8.
//! Invariants: the file is read and checked whole before anything is touched (a refused file
//! creates nothing, not even a database); the data-dir lock is held throughout, so a running
//! Donna makes the import refuse; a record equal to the stored one is left as it is (importing
//! twice changes nothing); a row is never duplicated (tasks, automations and people by id,
//! preferences by title and field); everything is written in one transaction or nothing is; a
//! done or cancelled task it writes keeps no open nudge thread.

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::document::{self, Document, Malformed};
use crate::automations::repo as automations;
use crate::config::{read_text_within, FileError, Limit};
use crate::conversation::threads;
use crate::people::repo as people;
use crate::store::{self, open_connection, DataDirLock, Durability, StoreError};
use crate::tasks::preferences::{self, Learned};
use crate::tasks::repo as tasks;

/// The largest file `donna import` reads: 256 MiB (an export of years of tasks is a few MB).
pub const MAX_IMPORT_BYTES: u64 = 256 * 1024 * 1024;

const IMPORT_FILES: Limit = Limit {
    bytes: MAX_IMPORT_BYTES,
    shown: "256 MiB",
    one: "an import file",
    these: "import files",
};

/// How many records of one kind were added, changed, or already as in the file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub added: usize,
    pub updated: usize,
    pub unchanged: usize,
}

impl Counts {
    fn count<T: PartialEq>(&mut self, stored: Option<T>, new: &T) -> bool {
        match stored {
            None => self.added += 1,
            Some(stored) if stored == *new => {
                self.unchanged += 1;
                return false;
            }
            Some(_) => self.updated += 1,
        }
        true
    }
}

/// What an import did.
#[derive(Debug, Clone, Default)]
pub struct ImportReport {
    pub tasks: Counts,
    pub automations: Counts,
    pub preferences: Counts,
    pub people: Counts,
    pub threads: Counts,
}

/// Why nothing was imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read {path}: {reason}")]
    CannotRead { path: PathBuf, reason: String },
    /// Not a file this Donna imports: not a regular file, too large, not UTF-8 text.
    #[error("{0}")]
    NotImportable(FileError),
    /// The file is not an export this Donna can take (its JSON path and why).
    #[error("{0}")]
    Malformed(#[from] Malformed),
    /// Another process (a running Donna) holds the data dir.
    #[error("{0}; stop Donna first: an import writes to a stopped Donna's data dir")]
    Locked(StoreError),
    #[error("cannot write the database: {0}")]
    Store(#[from] StoreError),
}

/// Imports the export at `path` into `data_dir`.
pub fn import(data_dir: &Path, path: &Path) -> Result<ImportReport, ImportError> {
    let text = read_text_within(path, &IMPORT_FILES).map_err(|error| match error {
        FileError::Io { source, .. } => ImportError::CannotRead {
            path: path.to_path_buf(),
            reason: source.to_string(),
        },
        other => ImportError::NotImportable(other),
    })?;
    let document = document::read(&text)?;
    let _lock = DataDirLock::acquire(data_dir).map_err(|error| match error {
        StoreError::Locked { .. } => ImportError::Locked(error),
        other => ImportError::Store(other),
    })?;
    let database = store::prepare(data_dir)?;
    let mut conn = open_connection(&database, false, Durability::Full)?;
    let write = conn.transaction().map_err(StoreError::from)?;
    let report = apply(&write, &document)?;
    write.commit().map_err(StoreError::from)?;
    Ok(report)
}

fn apply(conn: &Connection, document: &Document) -> Result<ImportReport, ImportError> {
    let mut report = ImportReport::default();
    // The chats first: tasks and automations name them.
    for record in &document.threads {
        let stored = threads::get(conn, &record.id)?;
        if stored.is_none() {
            threads::insert(conn, &record.thread())?;
            report.threads.added += 1;
        } else {
            // A chat that exists is the live one: it is never rewritten by an import.
            report.threads.unchanged += 1;
        }
    }
    for (i, record) in document.people.iter().enumerate() {
        let person = record.person().map_err(|(field, reason)| Malformed {
            path: format!("people[{i}].{field}"),
            reason,
        })?;
        if report
            .people
            .count(people::get(conn, &person.user_id)?, &person)
        {
            people::put(conn, &person)?;
        }
    }
    let known_chat = |id: &Option<String>| -> Result<bool, StoreError> {
        match id {
            Some(id) => Ok(threads::get(conn, id)?.is_some()),
            None => Ok(true),
        }
    };
    for (i, task) in document.tasks.iter().enumerate() {
        if !known_chat(&task.origin_thread_id)? {
            return Err(unknown_chat(format!("tasks[{i}].origin_thread_id")));
        }
        if report.tasks.count(tasks::get(conn, &task.id)?, task) {
            tasks::put(conn, task)?;
            // A done or cancelled task has no nudge thread waiting for an answer: one left
            // open here (the task was open in this data dir) is closed, so the task shows no
            // `open_thread_id` and no button or reply in it acts on a closed task.
            if !task.status.is_open() {
                if let Some(thread) = threads::open_for_task(conn, &task.id)? {
                    threads::close(conn, &thread.id)?;
                }
            }
        }
    }
    for (i, record) in document.automations.iter().enumerate() {
        let automation = record.automation().map_err(|(field, reason)| Malformed {
            path: format!("automations[{i}].{field}"),
            reason,
        })?;
        if !known_chat(&automation.origin_thread_id)? {
            return Err(unknown_chat(format!("automations[{i}].origin_thread_id")));
        }
        if report
            .automations
            .count(automations::get(conn, &automation.id)?, &automation)
        {
            automations::put(conn, &automation)?;
        }
    }
    let stored = preferences::records(conn)?;
    for record in &document.preferences {
        let learned = Learned {
            title_key: record.title_key.clone(),
            field: record.field.clone(),
            value: record.value.clone(),
            learned_from_task_id: record.learned_from_task_id.clone(),
            learned_at: record.learned_at,
        };
        let existing = stored
            .iter()
            .find(|s| s.title_key == learned.title_key && s.field == learned.field)
            .cloned();
        if report.preferences.count(existing, &learned) {
            preferences::put(conn, &learned)?;
        }
    }
    Ok(report)
}

fn unknown_chat(path: String) -> ImportError {
    ImportError::Malformed(Malformed {
        path,
        reason: "names a chat that is neither in the file's threads nor in this data dir".into(),
    })
}
