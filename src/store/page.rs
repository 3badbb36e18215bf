//! A page of a list of rows, newest first, then by id: a keyset (the last row's `created_at`
//! and id), so paging through a list while rows are added never shows one twice and never
//! skips one (a new row is newer than every page already read: it waits for the next reading
//! from the start).
//!
//! Owns the statement of a page and of its total, read in one snapshot (the total and the page
//! agree). The tables it pages (tasks, threads, automations, proposals) each have an index on
//! `(created_at DESC, id)` (migration 0020), so a page costs its own rows, wherever it starts.
//! Invariant: read-only; a page holds at most `limit` rows, and `next` is set exactly when more
//! rows follow.

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, Row};

use super::error::StoreError;

/// Most rows one page holds (also the page of a list asked without a limit).
pub const MAX_PAGE: usize = 1_000;

/// Where a page ends: the last row's `created_at` as stored, and its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keyset {
    pub created_at: String,
    pub id: String,
}

/// Which page: at most `limit` rows after `after` (from the newest when None).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    pub limit: usize,
    pub after: Option<Keyset>,
}

/// One page: its rows, where the next one starts (None: this is the last), and how many rows
/// the whole list holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<Keyset>,
    pub total: usize,
}

impl<T> Page<T> {
    /// The same page with each row made into `view`'s value.
    pub fn map<V>(self, view: impl FnMut(T) -> V) -> Page<V> {
        Page {
            items: self.items.into_iter().map(view).collect(),
            next: self.next,
            total: self.total,
        }
    }
}

/// The rows a list pages through: a table (or a table and its filter, in SQL with `?1`,
/// `?2`... for `params`) and the columns the row reader takes.
#[derive(Debug, Clone)]
pub struct Rows<'a> {
    pub table: &'a str,
    pub columns: &'a str,
    /// A condition on the rows ("1" for every row).
    pub filter: &'a str,
    pub params: Vec<SqlValue>,
}

/// Reads the page `ask` of `rows` with `read` (the columns in the order given, from 0) and the
/// list's total, in one read transaction.
pub fn read<T>(
    conn: &Connection,
    rows: &Rows<'_>,
    ask: &Ask,
    mut read: impl FnMut(&Row<'_>) -> Result<T, StoreError>,
) -> Result<Page<T>, StoreError> {
    let snapshot = conn.unchecked_transaction()?;
    let Rows {
        table,
        columns,
        filter,
        ..
    } = rows;
    let total: i64 = snapshot
        .prepare_cached(&format!("SELECT COUNT(*) FROM {table} WHERE {filter}"))?
        .query_row(rusqlite::params_from_iter(&rows.params), |row| row.get(0))?;
    let mut params = rows.params.clone();
    let mut sql = format!("SELECT {columns}, created_at, id FROM {table} WHERE ({filter})");
    if let Some(after) = &ask.after {
        let (at, id) = (params.len() + 1, params.len() + 2);
        // The range on created_at first, so the index is searched, not walked.
        sql.push_str(&format!(
            " AND created_at <= ?{at} AND (created_at < ?{at} OR id > ?{id})"
        ));
        params.push(SqlValue::Text(after.created_at.clone()));
        params.push(SqlValue::Text(after.id.clone()));
    }
    let limit = ask.limit.clamp(1, MAX_PAGE);
    sql.push_str(&format!(
        " ORDER BY created_at DESC, id LIMIT ?{}",
        params.len() + 1
    ));
    params.push(SqlValue::Integer(i64::try_from(limit).unwrap_or(1) + 1));
    let mut statement = snapshot.prepare_cached(&sql)?;
    // The key is read from the two columns after the reader's own.
    let width = statement.column_count() - 2;
    let mut found = statement.query(rusqlite::params_from_iter(params))?;
    let mut items = Vec::new();
    let mut keys = Vec::new();
    while let Some(row) = found.next()? {
        items.push(read(row)?);
        keys.push(Keyset {
            created_at: row.get(width)?,
            id: row.get(width + 1)?,
        });
    }
    let next = if items.len() > limit {
        items.truncate(limit);
        keys.get(limit - 1).cloned()
    } else {
        None
    };
    Ok(Page {
        items,
        next,
        total: usize::try_from(total).unwrap_or(0),
    })
}
