//! Schema migrations: the numbered .sql files of migrations/, embedded in the binary and applied
//! in file-name order at startup, all pending ones in one transaction.
//!
//! Invariants: applying is idempotent (SQLite's `user_version` records how far a database is);
//! a database written by a newer Donna (more migrations than this binary knows), or with a
//! version no Donna writes (negative), is refused, never downgraded or touched; every error
//! names the versions or the failing file (and line), and never carries a migration's SQL
//! (rusqlite_migration's errors and rusqlite's `SqlInputError` both print the whole batch).

use include_dir::{include_dir, Dir};
use rusqlite::Connection;
use rusqlite_migration::{MigrationDefinitionError, Migrations, M};

use super::error::{MigrationError, StoreError};

static MIGRATIONS_DIR: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations");

/// Longest text taken from an error we do not know the shape of.
const REASON_CHARS: usize = 300;

/// One migration: its file name and its SQL.
#[derive(Debug, Clone)]
struct MigrationFile<'a> {
    name: String,
    sql: &'a str,
}

/// The embedded migrations, ordered by file name (0001_..., 0002_...).
fn embedded() -> Result<Vec<MigrationFile<'static>>, MigrationError> {
    let mut files: Vec<_> = MIGRATIONS_DIR
        .files()
        .filter(|file| file.path().extension().is_some_and(|ext| ext == "sql"))
        .collect();
    files.sort_by_key(|file| file.path().to_path_buf());
    files
        .into_iter()
        .map(|file| {
            let name = file.path().display().to_string();
            match file.contents_utf8() {
                Some(sql) => Ok(MigrationFile { name, sql }),
                None => Err(MigrationError::NotUtf8(name)),
            }
        })
        .collect()
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
    apply_files(conn, &embedded()?)
}

fn apply_files(conn: &mut Connection, files: &[MigrationFile<'_>]) -> Result<(), StoreError> {
    let current: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let known = files.len();
    if current < 0 {
        return Err(MigrationError::Unknown {
            found: current,
            known,
        }
        .into());
    }
    if usize::try_from(current).map_or(true, |current| current > known) {
        return Err(MigrationError::TooNew {
            found: current,
            known,
        }
        .into());
    }
    let steps = files.iter().map(|file| M::up(file.sql)).collect();
    Migrations::new(steps)
        .to_latest(conn)
        .map_err(|error| describe(error, files, current).into())
}

/// The error to show for what rusqlite_migration reported (its Display is its Debug, which
/// holds the whole SQL of a failing migration).
fn describe(
    error: rusqlite_migration::Error,
    files: &[MigrationFile<'_>],
    current: i64,
) -> MigrationError {
    let known = files.len();
    match error {
        rusqlite_migration::Error::RusqliteError { query, err } => {
            match files.iter().find(|file| file.sql == query) {
                Some(file) => MigrationError::Failed {
                    file: file.name.clone(),
                    line: failing_line(file.sql, &err),
                    reason: sqlite_reason(&err),
                    stays_at: current,
                    known,
                },
                // Not a migration's body: a PRAGMA or the transaction itself.
                None if query.chars().count() <= 100 && !query.is_empty() => MigrationError::Other(
                    format!("{} (while running {query})", sqlite_reason(&err)),
                ),
                None => MigrationError::Other(sqlite_reason(&err)),
            }
        }
        rusqlite_migration::Error::MigrationDefinition(
            MigrationDefinitionError::DatabaseTooFarAhead,
        ) => MigrationError::TooNew {
            found: current,
            known,
        },
        rusqlite_migration::Error::MigrationDefinition(
            MigrationDefinitionError::NoMigrationsDefined,
        ) => MigrationError::Other("this build embeds no migrations".into()),
        rusqlite_migration::Error::MigrationDefinition(other) => {
            MigrationError::Other(other.to_string())
        }
        rusqlite_migration::Error::SpecifiedSchemaVersion(other) => {
            MigrationError::Other(other.to_string())
        }
        rusqlite_migration::Error::ForeignKeyCheck(violations) => {
            let shown: Vec<String> = violations.iter().take(3).map(ToString::to_string).collect();
            MigrationError::Other(clip(&format!(
                "foreign key check failed ({} rows): {}",
                violations.len(),
                shown.join("; ")
            )))
        }
        rusqlite_migration::Error::Hook(reason) | rusqlite_migration::Error::FileLoad(reason) => {
            MigrationError::Other(clip(&reason))
        }
        rusqlite_migration::Error::Unrecognized(error) => {
            MigrationError::Other(clip(&error.to_string()))
        }
        // A kind this version of Donna does not know: bounded, in case it quotes SQL.
        other => MigrationError::Other(clip(&other.to_string())),
    }
}

/// SQLite's own message, without the SQL rusqlite appends to a statement that did not prepare.
fn sqlite_reason(error: &rusqlite::Error) -> String {
    match error {
        rusqlite::Error::SqlInputError { msg, .. } => clip(msg),
        rusqlite::Error::SqliteFailure(_, Some(msg)) => clip(msg),
        other => clip(&other.to_string()),
    }
}

/// The line of `sql` where a statement failed to prepare. rusqlite reports the rest of the
/// batch from the failing statement on and an offset into it.
fn failing_line(sql: &str, error: &rusqlite::Error) -> Option<usize> {
    let rusqlite::Error::SqlInputError {
        sql: rest, offset, ..
    } = error
    else {
        return None;
    };
    let start = sql.len().checked_sub(rest.len())?;
    let at = start + usize::try_from(*offset).ok()?;
    let before = sql.as_bytes().get(..at)?;
    Some(before.iter().filter(|&&b| b == b'\n').count() + 1)
}

fn clip(text: &str) -> String {
    text.chars().take(REASON_CHARS).collect()
}

/// An in-memory database with every migration applied: for the unit tests of the modules that
/// own SQL (`conversation`, `tasks`, ...).
#[cfg(test)]
pub fn migrated_in_memory() -> Connection {
    let mut conn = Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
    apply(&mut conn).unwrap_or_else(|e| panic!("{e}"));
    conn
}

/// An in-memory database with only the first `count` migrations applied: a database as an
/// older Donna left it, for the tests of what a later migration does to its rows.
#[cfg(test)]
pub fn migrated_up_to(count: usize) -> Connection {
    let mut conn = Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
    let files = embedded().unwrap_or_else(|e| panic!("{e}"));
    apply_files(&mut conn, files.get(..count).unwrap_or(&files)).unwrap_or_else(|e| panic!("{e}"));
    conn
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &'static str)]) -> Vec<MigrationFile<'static>> {
        list.iter()
            .map(|(name, sql)| MigrationFile {
                name: name.to_string(),
                sql,
            })
            .collect()
    }

    fn memory() -> Connection {
        Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"))
    }

    fn version(conn: &Connection) -> i64 {
        conn.pragma_query_value(None, "user_version", |row| row.get(0))
            .unwrap_or(-99)
    }

    fn has_table(conn: &Connection, name: &str) -> bool {
        conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [name],
            |row| row.get::<_, i64>(0),
        )
        .is_ok_and(|n| n == 1)
    }

    const TWO: [(&str, &str); 2] = [
        (
            "0001_a.sql",
            "-- first\nCREATE TABLE a (x TEXT NOT NULL);\n",
        ),
        (
            "0002_b.sql",
            "CREATE TABLE b (x);\nINSERT INTO a VALUES ('ok');\n",
        ),
    ];

    #[test]
    fn the_embedded_migrations_apply_once_and_again_change_nothing() {
        let mut conn = memory();
        assert!(apply(&mut conn).is_ok());
        let known = i64::try_from(known_versions()).unwrap_or(-1);
        assert_eq!(version(&conn), known);
        assert!(apply(&mut conn).is_ok());
        assert_eq!(version(&conn), known);
    }

    #[test]
    fn a_database_from_a_newer_donna_names_both_versions_and_is_untouched() {
        let mut conn = memory();
        assert!(conn.pragma_update(None, "user_version", 5).is_ok());
        let error = apply_files(&mut conn, &files(&TWO)).err();
        let text = error.as_ref().map(ToString::to_string).unwrap_or_default();
        assert!(
            matches!(
                error,
                Some(StoreError::Migration(MigrationError::TooNew {
                    found: 5,
                    known: 2
                }))
            ),
            "{text}"
        );
        assert!(
            text.contains("schema version 5") && text.contains("0 to 2"),
            "{text}"
        );
        assert!(!has_table(&conn, "a"));
        assert_eq!(version(&conn), 5);
    }

    #[test]
    fn a_negative_version_is_not_called_newer() {
        let mut conn = memory();
        assert!(conn.pragma_update(None, "user_version", -1).is_ok());
        let error = apply_files(&mut conn, &files(&TWO)).err();
        let text = error.as_ref().map(ToString::to_string).unwrap_or_default();
        assert!(
            matches!(
                error,
                Some(StoreError::Migration(MigrationError::Unknown {
                    found: -1,
                    ..
                }))
            ),
            "{text}"
        );
        assert!(!text.contains("newer"), "{text}");
    }

    #[test]
    fn a_statement_that_does_not_prepare_is_named_by_file_and_line_without_its_sql() {
        let mut conn = memory();
        let broken = [
            TWO[0],
            (
                "0002_b.sql",
                "CREATE TABLE b (x);\n\nCREATE TABLE a (y);\nCREATE TABLE c (z);\n",
            ),
        ];
        let error = apply_files(&mut conn, &files(&broken)).err();
        let text = error.as_ref().map(ToString::to_string).unwrap_or_default();
        assert!(
            matches!(
                &error,
                Some(StoreError::Migration(MigrationError::Failed { file, line: Some(3), stays_at: 0, known: 2, .. }))
                    if file == "0002_b.sql"
            ),
            "{text}"
        );
        assert!(
            text.contains("0002_b.sql (line 3) failed: table a already exists"),
            "{text}"
        );
        assert!(!text.contains("CREATE"), "{text}");
        // One transaction: the first migration was rolled back with the second.
        assert!(!has_table(&conn, "a") && !has_table(&conn, "b"));
        assert_eq!(version(&conn), 0);
    }

    #[test]
    fn a_statement_that_fails_while_running_is_named_by_its_file() {
        let mut conn = memory();
        let broken = [
            TWO[0],
            (
                "0002_b.sql",
                "CREATE TABLE b (x);\nINSERT INTO a VALUES (NULL);\n",
            ),
        ];
        let error = apply_files(&mut conn, &files(&broken)).err();
        let text = error.as_ref().map(ToString::to_string).unwrap_or_default();
        assert!(
            matches!(
                &error,
                Some(StoreError::Migration(MigrationError::Failed { file, line: None, .. }))
                    if file == "0002_b.sql"
            ),
            "{text}"
        );
        assert!(text.contains("NOT NULL"), "{text}");
        assert!(!text.contains("INSERT"), "{text}");
    }

    #[test]
    fn every_error_rusqlite_migration_can_give_is_shown_without_sql() {
        let two = files(&TWO);
        let long_sql = "CREATE TABLE secret_dump (x);".repeat(50);
        let cases = [
            rusqlite_migration::Error::MigrationDefinition(
                MigrationDefinitionError::DatabaseTooFarAhead,
            ),
            rusqlite_migration::Error::MigrationDefinition(
                MigrationDefinitionError::NoMigrationsDefined,
            ),
            rusqlite_migration::Error::MigrationDefinition(
                MigrationDefinitionError::DownNotDefined { migration_index: 1 },
            ),
            rusqlite_migration::Error::with_sql(rusqlite::Error::InvalidQuery, &long_sql),
            rusqlite_migration::Error::with_sql(
                rusqlite::Error::InvalidQuery,
                "PRAGMA user_version = 2",
            ),
            rusqlite_migration::Error::Hook("a hook refused: ".repeat(100)),
            rusqlite_migration::Error::FileLoad("no such directory".into()),
        ];
        let mut shown = Vec::new();
        for case in cases {
            let text = describe(case, &two, 3).to_string();
            assert!(!text.contains("secret_dump (x);CREATE"), "{text}");
            assert!(text.chars().count() <= 400, "{text}");
            shown.push(text);
        }
        assert!(
            shown[0].contains("schema version 3") && shown[0].contains("0 to 2"),
            "{}",
            shown[0]
        );
        assert!(shown[4].contains("PRAGMA user_version = 2"), "{}", shown[4]);
        assert!(!shown[3].contains("secret_dump"), "{}", shown[3]);
    }
}
