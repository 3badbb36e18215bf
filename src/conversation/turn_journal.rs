//! The turn journal's SQL (migration 0007): every model request and answer of a turn and every
//! planner tool call, in call order, stored with the turn by `turn::apply::commit` (the same
//! transaction as the turn's effects), keyed by thread and message id; read back by the same
//! message id (`donna replay`), and pruned with `memory.retention`.
//!
//! Also the two steps `donna replay` takes on its COPY of the database: read a stored turn
//! (its inbox row, result and journal) and rewind the copy to just before that turn's commit.
//!
//! A model request's messages are stored once each (`journal_texts`, migration 0012): the entry
//! keeps references, `read` gives the request back whole.
//!
//! Invariants: each text (a message, an answer, a tool's output, a request stored whole) is cut
//! at `MAX_TEXT_BYTES` (64 KiB, on a character boundary) before it is stored, so a turn's
//! journal is bounded by its calls and their messages; `rewind` is never called on the live
//! database (only `cli::replay` calls it, on its temporary copy).

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

use super::inbox::{inbound_from, Inbound, INBOUND_COLUMNS};
use super::journal_texts;
use crate::store::time::{from_db, to_db};
use crate::store::StoreError;

/// The most bytes of one text (a message sent, an answer, a tool's output) a journal keeps.
pub const MAX_TEXT_BYTES: usize = 64 * 1024;

/// What a journal entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A model request and its answer (or failure).
    Model,
    /// A planner tool call and its output.
    Tool,
}

impl EntryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Model => "model",
            EntryKind::Tool => "tool",
        }
    }
}

/// One call of a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalEntry {
    pub kind: EntryKind,
    /// The output schema's title (`route`, `plan_step`, `chat`, ...; `gate` for the REPLY/SKIP
    /// gate) or the tool's name.
    pub name: String,
    /// Model: the messages sent (a JSON array of `{role, content}`); tool: its arguments (JSON).
    pub request: String,
    /// Model: the raw answer text; tool: its output. None when the model call failed.
    pub response: Option<String>,
    pub ok: bool,
    /// Why a model call failed.
    pub error: Option<String>,
}

/// A turn's calls, as its commit stores them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnCalls {
    /// The turn's clock when it decided (None: the commit time is used).
    pub decided_at: Option<DateTime<Utc>>,
    pub entries: Vec<JournalEntry>,
}

/// `text` cut to at most `MAX_TEXT_BYTES` bytes, on a character boundary.
pub fn cut(text: &str) -> String {
    if text.len() <= MAX_TEXT_BYTES {
        return text.to_string();
    }
    let mut end = MAX_TEXT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// Stores a turn's entries in call order (inside the turn's commit).
pub fn insert(
    conn: &Connection,
    thread_id: &str,
    message_id: &str,
    calls: &TurnCalls,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let mut statement = conn.prepare_cached(
        "INSERT INTO turn_journal (thread_id, message_id, position, kind, name, request, response, ok, error, decided_at, created_at, request_refs) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?;
    // To the nanosecond (not `to_db`'s microseconds): the prompts show this time in full, and a
    // replay must show the same.
    let decided_at = calls
        .decided_at
        .unwrap_or(at)
        .to_rfc3339_opts(chrono::SecondsFormat::Nanos, true);
    for (position, entry) in calls.entries.iter().enumerate() {
        let references = match entry.kind {
            EntryKind::Model => journal_texts::stored_form(conn, &entry.request, at)?,
            EntryKind::Tool => None,
        };
        let (request, request_refs) = match references {
            Some(references) => (references, true),
            None => (cut(&entry.request), false),
        };
        statement.execute(params![
            thread_id,
            message_id,
            i64::try_from(position).unwrap_or(i64::MAX),
            entry.kind.as_str(),
            entry.name,
            request,
            entry.response.as_deref().map(cut),
            entry.ok,
            entry.error.as_deref().map(cut),
            decided_at,
            to_db(at),
            request_refs,
        ])?;
    }
    Ok(())
}

/// A turn's entries in call order (empty when it has none, or they were pruned).
pub fn read(
    conn: &Connection,
    thread_id: &str,
    message_id: &str,
) -> Result<Vec<JournalEntry>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT kind, name, request, response, ok, error, request_refs FROM turn_journal \
         WHERE thread_id = ?1 AND message_id = ?2 ORDER BY position",
    )?;
    let mut rows = statement.query(params![thread_id, message_id])?;
    let mut entries = Vec::new();
    while let Some(row) = rows.next()? {
        let kind: String = row.get(0)?;
        let request: String = row.get(2)?;
        let request_refs: bool = row.get(6)?;
        entries.push(JournalEntry {
            kind: if kind == "tool" {
                EntryKind::Tool
            } else {
                EntryKind::Model
            },
            name: row.get(1)?,
            request: if request_refs {
                journal_texts::expand(conn, &request)?
            } else {
                request
            },
            response: row.get(3)?,
            ok: row.get(4)?,
            error: row.get(5)?,
        });
    }
    Ok(entries)
}

/// Deletes the journals of turns committed before `cutoff` (with the memory rows, by the same
/// retention prune) and the stored texts only they used; returns how many entries.
pub fn prune(conn: &Connection, cutoff: DateTime<Utc>) -> Result<usize, StoreError> {
    let entries = conn.execute(
        "DELETE FROM turn_journal WHERE created_at < ?1",
        [to_db(cutoff)],
    )?;
    journal_texts::prune(conn, cutoff)?;
    Ok(entries)
}

/// A finished turn as stored: its message, when it arrived, its result and its journal.
#[derive(Debug, Clone)]
pub struct StoredTurn {
    pub inbound: Inbound,
    pub received_at: DateTime<Utc>,
    /// The result JSON (None while the message is unfinished).
    pub result_json: Option<String>,
    /// When the turn's journal was committed (None without a journal).
    pub committed_at: Option<DateTime<Utc>>,
    /// The turn's clock when it decided (None without a journal).
    pub decided_at: Option<DateTime<Utc>>,
    pub entries: Vec<JournalEntry>,
}

/// The turn of `message_id` in `thread_id`, if the inbox has it.
pub fn stored_turn(
    conn: &Connection,
    thread_id: &str,
    message_id: &str,
) -> Result<Option<StoredTurn>, StoreError> {
    let found = conn
        .prepare_cached(&format!(
            "SELECT received_at, result_json, {INBOUND_COLUMNS} FROM inbox \
             WHERE thread_id = ?1 AND message_id = ?2 ORDER BY seq LIMIT 1"
        ))?
        .query_row(params![thread_id, message_id], |row| {
            let received_at: String = row.get(0)?;
            let result_json: Option<String> = row.get(1)?;
            Ok((received_at, result_json, inbound_from(row, 2)?))
        })
        .optional()?;
    let Some((received_at, result_json, inbound)) = found else {
        return Ok(None);
    };
    let inbound = inbound.map_err(|unreadable| {
        StoreError::Corrupt(format!("inbox message {message_id} has {unreadable}"))
    })?;
    let (committed_at, decided_at): (Option<String>, Option<String>) = conn
        .prepare_cached(
            "SELECT MIN(created_at), MIN(decided_at) FROM turn_journal WHERE thread_id = ?1 AND message_id = ?2",
        )?
        .query_row(params![thread_id, message_id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })?;
    Ok(Some(StoredTurn {
        inbound,
        received_at: from_db(&received_at)?,
        result_json,
        committed_at: committed_at.as_deref().map(from_db).transpose()?,
        decided_at: decided_at.as_deref().map(from_db).transpose()?,
        entries: read(conn, thread_id, message_id)?,
    }))
}

/// On a COPY of the database: takes the stored turn back so it can run again. Its journal is
/// removed, its inbox row is pending again, and every memory row committed at or after the
/// turn's commit (its own two, and later turns' in any thread: `search_memory` reads them all)
/// is deleted, so the prompts see the memory the turn saw. A turn that called the bigger model
/// committed twice (`turn::escalation_call`): its first commit is taken back too (see
/// [`rewind_escalation`]). Tasks, plans and drafts otherwise stay as they are now (`donna
/// replay` says so when the turn changed tasks).
pub fn rewind(conn: &Connection, turn: &StoredTurn) -> Result<(), StoreError> {
    let thread_id = turn.inbound.thread_id.as_str();
    let message_id = turn.inbound.message_id.as_str();
    rewind_escalation(conn, thread_id, message_id)?;
    conn.execute(
        "DELETE FROM turn_journal WHERE thread_id = ?1 AND message_id = ?2",
        params![thread_id, message_id],
    )?;
    conn.execute(
        "UPDATE inbox SET status = 'pending', result_json = NULL WHERE thread_id = ?1 AND message_id = ?2",
        params![thread_id, message_id],
    )?;
    if let Some(at) = turn.committed_at {
        conn.execute("DELETE FROM memory WHERE created_at >= ?1", [to_db(at)])?;
    }
    Ok(())
}

/// On a COPY: the escalation's first commit of this message taken back: its reservation in the
/// ledger removed, and the offer it consumed (the plan whose id is the reservation's offer)
/// pending again, so the replayed yes finds the offer as the recorded one did. A plan proposed
/// in the thread since (pending now) is set aside on the copy: a thread has one pending plan.
fn rewind_escalation(
    conn: &Connection,
    thread_id: &str,
    message_id: &str,
) -> Result<(), StoreError> {
    let offer: Option<String> = conn
        .query_row(
            "DELETE FROM escalation_spend WHERE thread_id = ?1 AND message_id = ?2 RETURNING offer_id",
            params![thread_id, message_id],
            |row| row.get(0),
        )
        .optional()?;
    let Some(offer) = offer else {
        return Ok(());
    };
    let consumed: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM plan WHERE id = ?1 AND thread_id = ?2 AND status = 'confirmed')",
        params![offer, thread_id],
        |row| row.get(0),
    )?;
    if consumed {
        conn.execute(
            "UPDATE plan SET status = 'cancelled' WHERE thread_id = ?1 AND status = 'pending'",
            [thread_id],
        )?;
        conn.execute(
            "UPDATE plan SET status = 'pending', resolved_at = NULL WHERE id = ?1",
            [&offer],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::migrations::migrated_in_memory as migrated;

    fn model_call(request: String) -> JournalEntry {
        JournalEntry {
            kind: EntryKind::Model,
            name: "chat".into(),
            request,
            response: Some("{\"reply_to_user\":\"ok\"}".into()),
            ok: true,
            error: None,
        }
    }

    #[test]
    fn a_request_larger_than_one_texts_bound_reads_back_whole() {
        let conn = migrated();
        let at = DateTime::parse_from_rfc3339("2026-11-23T09:00:00Z")
            .map(|at| at.with_timezone(&Utc))
            .unwrap_or_default();
        // Three messages of 50 KB: 150 KB of request, each message under the 64 KiB bound.
        let messages: Vec<String> = ["system", "user", "user"]
            .iter()
            .enumerate()
            .map(|(n, role)| {
                format!(
                    r#"{{"role":"{role}","content":"{}"}}"#,
                    n.to_string().repeat(50_000)
                )
            })
            .collect();
        let request = format!("[{}]", messages.join(","));
        assert!(request.len() > MAX_TEXT_BYTES);
        let calls = TurnCalls {
            decided_at: Some(at),
            entries: vec![model_call(request.clone()), model_call("not a list".into())],
        };
        assert!(insert(&conn, "thr-1", "m-1", &calls, at).is_ok());
        let read = read(&conn, "thr-1", "m-1").unwrap_or_default();
        assert_eq!(read.len(), 2);
        // Compared without printing 150 KB on failure.
        assert!(read[0].request == request, "the whole request comes back");
        assert_eq!(read[1].request, "not a list", "stored whole as before");
    }

    #[test]
    fn a_stored_click_is_replayed_as_its_intent_and_an_unreadable_one_is_damage() {
        use crate::actions::Intent;
        use crate::conversation::inbox::{accept, tests::message};
        let conn = migrated();
        let click = message("m1", Some(Intent::Tomorrow));
        assert!(accept(&conn, &click, DateTime::<Utc>::UNIX_EPOCH).is_ok());
        let stored = stored_turn(&conn, "web", "m1").ok().flatten();
        assert_eq!(stored.map(|turn| turn.inbound), Some(click));
        conn.execute(
            "UPDATE inbox SET intent = 'tomorrow' WHERE message_id = 'm1'",
            [],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            stored_turn(&conn, "web", "m1"),
            Err(StoreError::Corrupt(_))
        ));
    }
}
