//! "undo": the sender's last action in the thread, reverted (`actions::undo_last`), or why not.

use crate::actions::{self, UndoOutcome};
use crate::store::StoreError;

use super::super::result::TurnPath;
use super::super::texts;
use super::answered::{Answered, At};

pub fn commit(at: &At<'_>) -> Result<Answered, StoreError> {
    let outcome = actions::undo_last(
        at.conn,
        at.thread_id(),
        &at.inbound.user_id,
        at.now,
        at.undo_window,
    )?;
    Ok(match outcome {
        UndoOutcome::Undone(text) => Answered::new(TurnPath::Undone, text),
        UndoOutcome::Nothing => Answered::new(TurnPath::Unhandled, texts::NOTHING_TO_UNDO),
        UndoOutcome::NotYours => Answered::new(TurnPath::Unhandled, texts::NOT_YOURS_TO_UNDO),
        UndoOutcome::TooLate(summary) => {
            Answered::new(TurnPath::Unhandled, texts::too_late_to_undo(&summary))
        }
        UndoOutcome::Changed(reason) => Answered::new(TurnPath::Unhandled, reason),
    })
}
