//! One row of a scheduled tick in a savepoint of its own, so a row that cannot be handled (a
//! value no read takes, a check that refuses, even a panic) is rolled back alone and the tick
//! goes on with the others, while a failure of the database itself (damage, a full disk, an
//! I/O error) still fails the whole unit of work, so the writer sees it and /health says so.
//!
//! Invariant: the caller's transaction is left as it was before the row when the row fails.

use std::panic::{catch_unwind, AssertUnwindSafe};

use rusqlite::Connection;

use super::connection::execute_cached;
use super::error::StoreError;

/// Runs `work` on one row: `Ok(Ok(value))` when it went through, `Ok(Err(why))` when the row
/// failed for a reason of its own (its changes rolled back), `Err` when the database failed.
pub fn isolated<T>(
    conn: &Connection,
    work: impl FnOnce(&Connection) -> Result<T, StoreError>,
) -> Result<Result<T, StoreError>, StoreError> {
    execute_cached(conn, "SAVEPOINT donna_row")?;
    let outcome = catch_unwind(AssertUnwindSafe(|| work(conn))).unwrap_or_else(|panic| {
        let said = panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        Err(StoreError::Panicked(said))
    });
    match outcome {
        Ok(value) => {
            execute_cached(conn, "RELEASE donna_row")?;
            Ok(Ok(value))
        }
        Err(error) if error.is_the_databases() => Err(error),
        Err(error) => {
            execute_cached(conn, "ROLLBACK TO donna_row")?;
            execute_cached(conn, "RELEASE donna_row")?;
            Ok(Err(error))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(conn: &Connection) -> i64 {
        conn.query_row("SELECT COUNT(*) FROM t", [], |row| row.get(0))
            .unwrap_or(-1)
    }

    #[test]
    fn a_failing_or_panicking_row_is_rolled_back_alone_and_the_others_stay() {
        let Ok(mut conn) = Connection::open_in_memory() else {
            panic!("sqlite");
        };
        assert!(conn.execute_batch("CREATE TABLE t (x INTEGER)").is_ok());
        let Ok(transaction) = conn.transaction() else {
            panic!("begin");
        };
        let insert = |conn: &Connection| -> Result<(), StoreError> {
            conn.execute("INSERT INTO t (x) VALUES (1)", [])?;
            Ok(())
        };
        assert!(matches!(isolated(&transaction, insert), Ok(Ok(()))));
        let refused = isolated(&transaction, |conn| {
            insert(conn)?;
            Err::<(), _>(StoreError::Corrupt("a row no read takes".into()))
        });
        assert!(
            matches!(refused, Ok(Err(StoreError::Corrupt(_)))),
            "{refused:?}"
        );
        let panicked = isolated(&transaction, |conn| -> Result<(), StoreError> {
            insert(conn)?;
            panic!("a stored value made this row panic");
        });
        assert!(
            matches!(&panicked, Ok(Err(StoreError::Panicked(said))) if said.contains("stored value")),
            "{panicked:?}"
        );
        assert!(matches!(isolated(&transaction, insert), Ok(Ok(()))));
        assert_eq!(count(&transaction), 2, "the two rows that went through");
        assert!(transaction.commit().is_ok());
        assert_eq!(count(&conn), 2);
    }
}
