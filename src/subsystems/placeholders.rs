//! Actors that are supervised and listed in /health from the start but take no messages yet:
//! the LLMClassifier (the model layer), RateCap (the group-chat cap) and the Nudger. Their
//! message enums are empty, so nothing can ask them for an answer they cannot really give.

use actors::{Behaviour, CellCtx, Handled};

/// A supervised actor with no behaviour yet.
pub struct Idle;

/// The message type of an actor with no messages: uninhabited.
pub enum NoMessages {}

impl Behaviour for Idle {
    type Msg = NoMessages;

    fn handle(&mut self, message: NoMessages, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {}
    }
}
