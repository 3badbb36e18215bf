//! The plan SQLite chooses for a statement (`EXPLAIN QUERY PLAN`), for the tests that hold a
//! read to its indexes, and the one question they ask of it: which tables it reads whole.
//!
//! Plans are taken without `ANALYZE` statistics, as Donna's database has none: what a test sees
//! is what runs.
//! Invariant: read-only; the statement is prepared, never run.

use rusqlite::Connection;

use super::error::StoreError;

/// The plan's lines ("SEARCH task USING INDEX task_open_deadline (deadline<?)", ...), every
/// parameter NULL.
pub fn plan(conn: &Connection, sql: &str) -> Result<Vec<String>, StoreError> {
    let mut statement = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
    let unbound = std::iter::repeat_n(rusqlite::types::Null, statement.parameter_count());
    let lines = statement
        .query_map(rusqlite::params_from_iter(unbound), |row| {
            row.get::<_, String>(3)
        })?
        .collect::<Result<_, _>>()?;
    Ok(lines)
}

/// The lines of `plan` that read `table` whole: a scan of the table, or of an index holding
/// every row of it (`allowed` names the indexes a scan may walk: partial ones, such as the
/// open tasks', hold only what is asked about).
pub fn whole_reads<'a>(plan: &'a [String], table: &str, allowed: &[&str]) -> Vec<&'a str> {
    plan.iter()
        .map(String::as_str)
        .filter(|line| {
            let mut words = line.split_whitespace();
            words.next() == Some("SCAN")
                && words.next() == Some(table)
                && !line.split_whitespace().any(|word| allowed.contains(&word))
        })
        .collect()
}
