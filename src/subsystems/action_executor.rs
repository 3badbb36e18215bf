//! The ActionExecutor actor: the action registry (config/reply_actions.yaml).
//!
//! Owns: the checked registry. Takes: `BindIntent` (a keyword intent) and `Bind` (proposed
//! actions), answering with validated, context-bound actions whose times are already read
//! (`actions::bind`); the bound actions then run inside the turn's transaction on the store
//! writer (`actions::execute_all`).
//! Invariants: only registered, valid actions come out; context parameters come from the
//! thread; for a keyword intent, the reply's own words fill an action's optional `when`
//! parameter (so "push it to friday" reschedules to Friday).

use std::sync::Arc;

use actors::{Behaviour, CellCtx, Handled, Reply};

use crate::actions::{
    bind_intent, ActionRegistry, ActionRequest, BindContext, BindError, BoundAction, BoundIntent,
};
use crate::replies::matcher::IntentMatch;

pub enum ExecutorMsg {
    BindIntent {
        intent: IntentMatch,
        text: String,
        context: BindContext,
        reply: Reply<Result<BoundIntent, BindError>>,
    },
    Bind {
        requests: Vec<ActionRequest>,
        context: BindContext,
        reply: Reply<Vec<Result<BoundAction, BindError>>>,
    },
}

pub struct ActionExecutor {
    registry: Arc<ActionRegistry>,
}

impl ActionExecutor {
    pub fn new(registry: Arc<ActionRegistry>) -> Self {
        Self { registry }
    }
}

impl Behaviour for ActionExecutor {
    type Msg = ExecutorMsg;

    fn handle(&mut self, message: ExecutorMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            ExecutorMsg::BindIntent {
                intent,
                text,
                context,
                reply,
            } => reply.send(bind_intent(&self.registry, &intent, &text, &context)),
            ExecutorMsg::Bind {
                requests,
                context,
                reply,
            } => reply.send(
                requests
                    .iter()
                    .map(|request| self.registry.bind(request, &context))
                    .collect(),
            ),
        }
        Handled::Done
    }
}
