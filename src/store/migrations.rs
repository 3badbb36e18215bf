//! Schema migrations: the numbered .sql files of migrations/, embedded in the binary and applied
//! in file-name order at startup.
//!
//! Invariants: applying is idempotent (SQLite's `user_version` records how far a database is);
//! a database written by a newer Donna (more migrations than this binary knows) is refused,
//! never downgraded.

use include_dir::{include_dir, Dir};
use rusqlite::Connection;
use rusqlite_migration::{Migrations, M};

use super::error::StoreError;

static MIGRATIONS_DIR: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations");

/// The embedded migrations, ordered by file name (0001_..., 0002_...).
fn migrations() -> Result<Migrations<'static>, StoreError> {
    let mut files: Vec<_> = MIGRATIONS_DIR
        .files()
        .filter(|file| file.path().extension().is_some_and(|ext| ext == "sql"))
        .collect();
    files.sort_by_key(|file| file.path().to_path_buf());
    let steps = files
        .into_iter()
        .map(|file| {
            file.contents_utf8().map(M::up).ok_or_else(|| {
                StoreError::Migration(format!("{} is not UTF-8", file.path().display()))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Migrations::new(steps))
}

/// How many migrations this binary knows.
pub fn known_versions() -> usize {
    MIGRATIONS_DIR
        .files()
        .filter(|file| file.path().extension().is_some_and(|ext| ext == "sql"))
        .count()
}

/// Brings the database to the latest schema this binary knows.
pub fn apply(conn: &mut Connection) -> Result<(), StoreError> {
    let current: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let known = known_versions();
    if usize::try_from(current).unwrap_or(usize::MAX) > known {
        return Err(StoreError::Migration(format!(
            "the database has schema version {current} but this Donna knows only {known}: it was written by a newer version; run that version or restore a backup"
        )));
    }
    migrations()?.to_latest(conn).map_err(|error| match error {
        // Its Display repeats the whole migration's SQL; the SQLite error is what matters.
        rusqlite_migration::Error::RusqliteError { err, .. } => {
            StoreError::Migration(err.to_string())
        }
        other => StoreError::Migration(other.to_string()),
    })
}
