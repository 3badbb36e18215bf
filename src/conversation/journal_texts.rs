//! The turn journal's message texts, stored once (migration 0012): a model request repeats the
//! same system prompt, persona, summaries and history turn after turn, so `turn_journal` keeps a
//! request's messages as references (`[{"role": ..., "text": <SHA-256 hex>}]`) and each text
//! here, written the first time it is seen. Plain SQL on the caller's connection: the writes run
//! inside the turn's commit, the reads inside `turn_journal::read`.
//!
//! Why: stored whole, every call of a chat session wrote its system prompt and its whole history
//! again (up to the context budget, ~96 KB a call at the default), and a request over 64 KiB was
//! cut into JSON that replay could not read. (It was not what held up other threads' turns
//! under chat load: BENCHMARKS.md section 7 measured that; the inline WAL checkpoint was.)
//!
//! Invariants:
//! - A request read back is the request stored, byte for byte (`expand` rebuilds the same JSON
//!   `stored_form` took apart; a request that is not a list of `{role, content}` messages is
//!   never turned into references and is stored whole by the caller).
//! - A text's `last_used` is at least its latest user's commit time minus `REFRESH`, so
//!   `prune(cutoff)` (which deletes texts unused since `cutoff - REFRESH`) never deletes a text
//!   that a journal entry committed at or after `cutoff` refers to.
//! - Reusing a text writes nothing unless its `last_used` is older than `REFRESH`.

use chrono::{DateTime, Duration, Utc};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::store::time::to_db;
use crate::store::StoreError;

/// How stale a text's `last_used` may get before a commit that uses it refreshes it.
const REFRESH: Duration = Duration::hours(1);

/// A message as a model request holds it (`llm::ChatMessage`'s JSON, in its field order).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Message {
    role: String,
    content: String,
}

/// A message as the journal stores it: its role and its text's hash.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Reference {
    role: String,
    text: String,
}

/// The SHA-256 of `text`, lowercase hex.
pub fn hash(text: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, text.as_bytes());
    digest
        .as_ref()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Stores the texts of `request` (a model request's JSON) that are not stored yet and returns
/// the request as references, or None when it is not a list of messages whose JSON is exactly
/// what `expand` would rebuild (the caller then stores it whole).
pub fn stored_form(
    conn: &Connection,
    request: &str,
    at: DateTime<Utc>,
) -> Result<Option<String>, StoreError> {
    let Ok(messages) = serde_json::from_str::<Vec<Message>>(request) else {
        return Ok(None);
    };
    if serde_json::to_string(&messages).ok().as_deref() != Some(request) {
        return Ok(None);
    }
    let mut remember = conn.prepare_cached(
        "INSERT INTO journal_text (hash, text, last_used) VALUES (?1, ?2, ?3) \
         ON CONFLICT (hash) DO UPDATE SET last_used = excluded.last_used \
         WHERE journal_text.last_used < ?4",
    )?;
    let (used, stale) = (to_db(at), to_db(at - REFRESH));
    let mut references = Vec::with_capacity(messages.len());
    for Message { role, content } in messages {
        let text = hash(&content);
        remember.execute(params![text, content, used, stale])?;
        references.push(Reference { role, text });
    }
    serde_json::to_string(&references)
        .map(Some)
        .map_err(|e| StoreError::json("journal request references", e))
}

/// The request `stored_form` turned into `references`, whole again.
pub fn expand(conn: &Connection, references: &str) -> Result<String, StoreError> {
    let references: Vec<Reference> = serde_json::from_str(references)
        .map_err(|e| StoreError::json("journal request references", e))?;
    let mut lookup = conn.prepare_cached("SELECT text FROM journal_text WHERE hash = ?1")?;
    let mut messages = Vec::with_capacity(references.len());
    for Reference { role, text } in references {
        let content: Option<String> = lookup.query_row([&text], |row| row.get(0)).optional()?;
        let content = content.ok_or_else(|| {
            StoreError::Corrupt(format!("journal text {text} is missing (pruned?)"))
        })?;
        messages.push(Message { role, content });
    }
    serde_json::to_string(&messages).map_err(|e| StoreError::json("journal request", e))
}

/// Deletes the texts no journal entry committed at or after `cutoff` can refer to (with the
/// retention prune of the journal itself); returns how many.
pub fn prune(conn: &Connection, cutoff: DateTime<Utc>) -> Result<usize, StoreError> {
    Ok(conn.execute(
        "DELETE FROM journal_text WHERE last_used < ?1",
        params![to_db(cutoff - REFRESH)],
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::migrations::migrated_in_memory as migrated;

    /// A fixed moment (tests take no time from the wall clock).
    fn monday() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-23T09:00:00Z")
            .map(|at| at.with_timezone(&Utc))
            .unwrap_or_default()
    }

    fn last_used(conn: &Connection, text: &str) -> String {
        conn.query_row(
            "SELECT last_used FROM journal_text WHERE hash = ?1",
            [hash(text)],
            |row| row.get(0),
        )
        .unwrap_or_default()
    }

    #[test]
    fn a_request_comes_back_byte_for_byte_and_a_repeated_text_is_stored_once() {
        let conn = migrated();
        let at = monday();
        let first = r#"[{"role":"system","content":"You are Donna.\n\"quoted\" é"},{"role":"user","content":"hi"}]"#;
        let second = r#"[{"role":"system","content":"You are Donna.\n\"quoted\" é"},{"role":"user","content":"and friday?"}]"#;
        let stored_first = stored_form(&conn, first, at).ok().flatten();
        let stored_second = stored_form(&conn, second, at).ok().flatten();
        let (Some(stored_first), Some(stored_second)) = (stored_first, stored_second) else {
            panic!("a list of messages is stored as references");
        };
        assert!(!stored_first.contains("You are Donna"), "{stored_first}");
        assert_eq!(expand(&conn, &stored_first).ok().as_deref(), Some(first));
        assert_eq!(expand(&conn, &stored_second).ok().as_deref(), Some(second));
        let texts: i64 = conn
            .query_row("SELECT COUNT(*) FROM journal_text", [], |row| row.get(0))
            .unwrap_or(-1);
        assert_eq!(texts, 3, "the system prompt is stored once");
    }

    #[test]
    fn what_is_not_a_plain_list_of_messages_is_left_for_the_caller_to_store_whole() {
        let conn = migrated();
        for request in [
            "not json",
            r#"{"role":"user","content":"hi"}"#,
            r#"[{"role":"user","content":"hi","name":"x"}]"#,
            r#"[{"content":"hi","role":"user"}]"#,
            r#"[ {"role":"user","content":"hi"}]"#,
        ] {
            assert!(
                matches!(stored_form(&conn, request, monday()), Ok(None)),
                "{request}"
            );
        }
    }

    #[test]
    fn the_prune_keeps_a_text_a_kept_entry_still_uses_and_drops_one_nobody_used_since() {
        let conn = migrated();
        let start = monday() - Duration::days(40);
        let old = r#"[{"role":"system","content":"shared"},{"role":"user","content":"old"}]"#;
        let new = r#"[{"role":"system","content":"shared"},{"role":"user","content":"new"}]"#;
        assert!(stored_form(&conn, old, start).is_ok());
        // 20 days later a new entry uses the shared text again (a refresh), and the prune
        // removes entries older than 10 days ago.
        let later = start + Duration::days(20);
        let Ok(Some(kept)) = stored_form(&conn, new, later) else {
            panic!("stored");
        };
        assert_eq!(prune(&conn, later - Duration::hours(1)).ok(), Some(1));
        assert_eq!(expand(&conn, &kept).ok().as_deref(), Some(new));
        assert_eq!(last_used(&conn, "old"), "", "pruned");
        // Used again within the hour: nothing is written.
        assert!(stored_form(&conn, new, later + Duration::minutes(30)).is_ok());
        assert_eq!(last_used(&conn, "shared"), to_db(later));
    }

    #[test]
    fn a_reference_to_a_missing_text_is_an_error_not_an_empty_message() {
        let conn = migrated();
        let missing = format!(r#"[{{"role":"user","text":"{}"}}]"#, hash("never stored"));
        assert!(matches!(
            expand(&conn, &missing),
            Err(StoreError::Corrupt(_))
        ));
    }
}
