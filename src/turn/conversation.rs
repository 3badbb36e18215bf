//! The Conversation: the keyed worker of one thread.
//!
//! Owns: nothing but the thread id; all state is in the store, so passivating it loses nothing.
//! Takes: `TurnMsg` (one inbound message with its reply port).
//! Invariants: one turn at a time, in arrival order (the keyed router's queue); a slow turn
//! here never blocks another thread.

use std::sync::Arc;

use actors::{Behaviour, CellCtx, Handled, Reply};

use super::error::TurnError;
use super::pipeline::Pipeline;
use super::receipt::LateReceipt;
use super::result::TurnResult;
use super::Inbound;

pub struct TurnMsg {
    pub inbound: Inbound,
    /// Set when the message's inbox row is still to be written (`receipt`).
    pub late: Option<Arc<LateReceipt>>,
    pub reply: Reply<Result<TurnResult, TurnError>>,
}

pub struct Conversation {
    pipeline: Arc<Pipeline>,
}

impl Conversation {
    pub fn new(pipeline: Arc<Pipeline>) -> Self {
        Self { pipeline }
    }
}

impl Behaviour for Conversation {
    type Msg = TurnMsg;

    fn handle(&mut self, message: TurnMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        let pipeline = self.pipeline.clone();
        Handled::wait(async move {
            let TurnMsg {
                inbound,
                late,
                reply,
            } = message;
            reply.send(pipeline.run(inbound, late).await);
        })
    }
}
