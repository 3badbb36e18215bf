//! What a turn does to its thread's draft (the question Donna is waiting to have answered),
//! applied inside the turn's transaction with everything else.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::conversation::drafts::{self, Draft, DraftKind};
use crate::store::StoreError;

/// What happens to the thread's draft (a question Donna is waiting to have answered).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum DraftStep {
    #[default]
    Keep,
    /// Ask: save this draft (replacing the thread's one), expiring like a plan.
    Save {
        kind: DraftKind,
        text: String,
        data: serde_json::Value,
        questions: i64,
    },
    /// Answered, given up or dropped.
    Remove,
}

/// Applies `step`; a saved draft is asked of `requester` (the turn's sender).
pub fn apply(
    conn: &Connection,
    thread_id: &str,
    requester: &str,
    step: DraftStep,
    now: DateTime<Utc>,
    expiry: chrono::Duration,
) -> Result<(), StoreError> {
    match step {
        DraftStep::Keep => Ok(()),
        DraftStep::Save {
            kind,
            text,
            data,
            questions,
        } => drafts::save(
            conn,
            &Draft {
                thread_id: thread_id.to_string(),
                kind,
                text,
                data,
                questions,
                created_at: now,
                expires_at: crate::clock::add(now, expiry),
                requester_id: Some(requester.to_string()),
            },
        ),
        DraftStep::Remove => drafts::remove(conn, thread_id),
    }
}
