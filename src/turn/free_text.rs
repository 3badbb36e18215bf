//! The free-text room: a message in a thread bound to no task (a DM, a mention, a free local
//! thread, the console's free lines) that no plan answer, confirm word or "undo" took.
//!
//! Today Donna says what she can do here (`unhandled`); the capture, chat and planner rooms of
//! DESIGN.md's "Free text" plug in here.
//! Invariant: reached only through `decide`'s `Next::FreeText`, so a bare confirmation or
//! "undo" never gets here.

use super::apply::Work;
use super::context::TurnContext;
use super::error::TurnError;
use super::pipeline::Pipeline;
use super::result::TurnPath;
use super::texts;
use super::Inbound;

impl Pipeline {
    pub(super) async fn free_text(
        &self,
        _context: &TurnContext,
        _inbound: &Inbound,
    ) -> Result<Work, TurnError> {
        Ok(Work::Say {
            path: TurnPath::Unhandled,
            text: texts::FREE_THREAD.to_string(),
        })
    }
}
