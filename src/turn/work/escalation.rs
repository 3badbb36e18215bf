//! The bigger model's turn ends: the reservation settled at what the call cost (or marked
//! interrupted by a restart), and the answer (or the honest failure); a real answer slides the
//! chat session.

use crate::conversation::{chat_sessions, escalation_ledger};
use crate::store::StoreError;

use super::super::result::TurnPath;
use super::answered::{Answered, At};

pub fn commit(
    at: &At<'_>,
    settle: Option<escalation_ledger::Settlement>,
    interrupted: Option<String>,
    text: String,
    path: TurnPath,
    session: Option<i64>,
) -> Result<Answered, StoreError> {
    if let Some(settle) = settle {
        escalation_ledger::settle(at.conn, &settle, at.now)?;
    }
    if let Some(offer_id) = interrupted {
        escalation_ledger::interrupted(at.conn, &offer_id, at.now)?;
    }
    if path == TurnPath::Escalated {
        chat_sessions::record_turn(at.conn, at.thread_id(), session, at.now)?;
    }
    Ok(Answered::new(path, text))
}
