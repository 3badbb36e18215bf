//! Opening a SQLite connection with Donna's settings: WAL, synchronous=FULL (or NORMAL for
//! benchmarks), foreign keys, a busy timeout, a statement cache that holds every statement a
//! turn runs; read-only connections for the read pool; the names of the files SQLite keeps
//! beside a database (`sidecar`); `execute_cached` for the parameterless statements (savepoints)
//! a turn runs every time.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::error::StoreError;

/// How hard each commit is made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// fsync at every commit (power-loss safe). The default.
    Full,
    /// WAL's NORMAL: safe against a crash of the process, not of the machine. Benchmarks only.
    Normal,
}

/// Prepared statements each connection keeps (every distinct statement Donna runs fits).
const STATEMENT_CACHE: usize = 512;

/// Runs one parameterless statement (`SAVEPOINT x`, `RELEASE x`) through the connection's
/// statement cache, so a statement a turn runs every time is parsed once per connection.
pub fn execute_cached(conn: &Connection, sql: &str) -> Result<(), StoreError> {
    conn.prepare_cached(sql)?.execute([])?;
    Ok(())
}

/// Opens a connection with Donna's settings.
pub fn open_connection(
    path: &Path,
    read_only: bool,
    durability: Durability,
) -> Result<Connection, StoreError> {
    let flags = if read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI
    };
    let conn = Connection::open_with_flags(path, flags)?;
    // rusqlite keeps 16 prepared statements by default; a "done" turn runs more than that, so
    // the cache evicted what the same turn needed again and a third of the writer's time went
    // to SQLite's parser (measured in a profile of the turn). Room for every statement Donna has.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Statement journals (a unit's savepoint) and sorts stay in memory: a turn changes more
    // pages than SQLite's 64 KiB spill threshold, so each commit used to create, write and
    // unlink a temp file (~18 pages) that no crash recovery ever reads (measured in a profile of the turn).
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    if !read_only {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        let synchronous = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", synchronous)?;
    }
    Ok(conn)
}

/// A file SQLite keeps beside `database` (`-wal`, `-shm`, `-journal`), or a name derived from it.
pub fn sidecar(database: &Path, suffix: &str) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}
