//! The database as the app starts on it: migrated (`store::prepare`) and its title index
//! repaired, before the store writer starts.
//!
//! Invariant: runs once, before any actor; a failure stops the start (nothing half-ready runs).

use std::path::{Path, PathBuf};

use crate::store::{self, DataDirLock, Durability, StoreError};

use super::error::StartError;

/// The data dir locked for this process, and its database prepared ([`prepared`]).
pub fn locked_and_prepared(data_dir: &Path) -> Result<(DataDirLock, PathBuf), StartError> {
    let lock = DataDirLock::acquire(data_dir)?;
    Ok((lock, prepared(data_dir)?))
}

/// The database in `data_dir`, migrated and its title index repaired (said in the log).
pub fn prepared(data_dir: &Path) -> Result<PathBuf, StartError> {
    let database = store::prepare(data_dir)?;
    repair_title_index(&database)?;
    tracing::info!(path = %database.display(), "database ready");
    Ok(database)
}

/// Part of preparing the database, before the writer starts (like the migrations): the word
/// index of open titles holds every open task (tasks written before migration 0009, or by hand).
fn repair_title_index(database: &Path) -> Result<(), StoreError> {
    let mut conn = store::open_connection(database, false, Durability::Full)?;
    let transaction = conn.transaction()?;
    let changed = crate::tasks::title_index::repair(&transaction)?;
    transaction.commit()?;
    if changed > 0 {
        tracing::info!(changed, "title index of open tasks repaired");
    }
    Ok(())
}
