//! Full-text search over the memory of the chats a person takes part in (the planner's
//! `search_memory`; `participation`): SQLite FTS5 (`memory_fts`, migration 0005), ranked by
//! bm25, each hit with its thread and time.
//!
//! Invariants: the index is kept in step with `memory` by triggers, inside the same
//! transaction as the row's insert or prune (a pruned message is never found); the query is
//! built from the words of the text only, each quoted, so no text can reach FTS5's query
//! syntax (no operator, column filter or unbalanced quote from the model or the person).

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection};

use super::memory::Role;
use super::participation::Viewer;
use crate::sentence::tokens::{words, Join};
use crate::store::time::from_db;
use crate::store::StoreError;

/// Most words of a query used (a long query is cut, not refused).
pub const MAX_QUERY_WORDS: usize = 12;

/// One message found.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryHit {
    pub thread_id: String,
    pub role: Role,
    pub content: String,
    pub created_at: DateTime<Utc>,
}

/// The FTS5 query for `text`: its words, each quoted, any of them (bm25 ranks messages with
/// more and rarer words first). None when the text has no word.
pub fn fts_query(text: &str) -> Option<String> {
    let terms: Vec<String> = words(text, Join::Nothing)
        .into_iter()
        .take(MAX_QUERY_WORDS)
        .map(|word| format!("\"{word}\""))
        .collect();
    (!terms.is_empty()).then(|| terms.join(" OR "))
}

/// The best `limit` messages for `text`, best first (ties: newest first), among the chats
/// `viewer` takes part in (`participation`); every chat when `viewer` is None.
pub fn search(
    conn: &Connection,
    text: &str,
    limit: usize,
    viewer: Option<&Viewer>,
) -> Result<Vec<MemoryHit>, StoreError> {
    let Some(query) = fts_query(text) else {
        return Ok(Vec::new());
    };
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut statement = conn.prepare_cached(
        "SELECT m.thread_id, m.role, m.content, m.created_at FROM memory_fts f \
         JOIN memory m ON m.id = f.rowid \
         WHERE memory_fts MATCH ?1 \
           AND (?3 IS NULL OR m.thread_id = ?4 OR m.thread_id IN \
                (SELECT thread_id FROM memory WHERE role = 'user' AND author_id = ?3)) \
         ORDER BY bm25(memory_fts), m.id DESC LIMIT ?2",
    )?;
    let (person, here) = match viewer {
        Some(viewer) => (Some(viewer.person.as_str()), Some(viewer.here.as_str())),
        None => (None, None),
    };
    let mut rows = statement.query(params![query, limit, person, here])?;
    let mut hits = Vec::new();
    while let Some(row) = rows.next()? {
        let role: String = row.get(1)?;
        hits.push(MemoryHit {
            thread_id: row.get(0)?,
            role: if role == "donna" {
                Role::Donna
            } else {
                Role::User
            },
            content: row.get(2)?,
            created_at: from_db(&row.get::<_, String>(3)?)?,
        });
    }
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_quoted_words_only() {
        assert_eq!(
            fts_query("passport OR office\" NEAR(x"),
            Some("\"passport\" OR \"or\" OR \"office\" OR \"near\" OR \"x\"".to_string())
        );
        assert_eq!(fts_query("  ?! "), None);
    }
}
