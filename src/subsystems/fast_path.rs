//! The FastPath actor: the keyword layer (config/reply_intents.yaml).
//!
//! Owns: the compiled matcher. Takes: `Analyze` (one reply) and answers with everything the
//! turn needs from it at once: the intent outcome, the plan answer, undo, confirm word.
//! Invariant: pure; no I/O, so it answers in microseconds.

use std::sync::Arc;

use actors::{Behaviour, CellCtx, Handled, Reply};

use crate::replies::analysis::{analyze, Analysis};
use crate::replies::matcher::FastPath;

pub enum FastPathMsg {
    Analyze {
        text: String,
        reply: Reply<Analysis>,
    },
}

pub struct FastPathActor {
    matcher: Arc<FastPath>,
}

impl FastPathActor {
    pub fn new(matcher: Arc<FastPath>) -> Self {
        Self { matcher }
    }
}

impl Behaviour for FastPathActor {
    type Msg = FastPathMsg;

    fn handle(&mut self, message: FastPathMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            FastPathMsg::Analyze { text, reply } => reply.send(analyze(&self.matcher, &text)),
        }
        Handled::Done
    }
}
