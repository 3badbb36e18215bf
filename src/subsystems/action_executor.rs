//! The ActionExecutor actor: the action registry (config/reply_actions.yaml).
//!
//! Owns: the checked registry. Takes: `BindIntent` (a keyword intent) and `Bind` (proposed
//! actions), answering with validated, context-bound actions; the bound actions then run inside
//! the turn's transaction on the store writer (`actions::execute_all`).
//! Invariants: only registered, valid actions come out; context parameters come from the
//! thread; for a keyword intent, the reply's own words fill an action's optional `when`
//! parameter (so "push it to friday" reschedules to Friday).

use std::sync::Arc;

use actors::{Behaviour, CellCtx, Handled, Reply};
use serde_json::{Map, Value};

use crate::actions::{ActionRegistry, ActionRequest, BindContext, BoundAction};
use crate::replies::matcher::IntentMatch;

pub enum ExecutorMsg {
    BindIntent {
        intent: IntentMatch,
        text: String,
        context: BindContext,
        /// The bound action, and whether it must go through a plan (`confirm: true` on the
        /// intent, or `plan_only` on the action).
        reply: Reply<Result<(BoundAction, bool), String>>,
    },
    Bind {
        requests: Vec<ActionRequest>,
        context: BindContext,
        reply: Reply<Vec<Result<BoundAction, String>>>,
    },
}

pub struct ActionExecutor {
    registry: Arc<ActionRegistry>,
}

impl ActionExecutor {
    pub fn new(registry: Arc<ActionRegistry>) -> Self {
        Self { registry }
    }

    fn bind_intent(
        &self,
        intent: &IntentMatch,
        text: &str,
        context: &BindContext,
    ) -> Result<(BoundAction, bool), String> {
        let mut params = Map::new();
        for (name, value) in &intent.params {
            let value = serde_json::to_value(value)
                .map_err(|e| format!("intent {}: {e}", intent.intent))?;
            params.insert(name.clone(), value);
        }
        let takes_when = self
            .registry
            .get(&intent.action)
            .is_some_and(|def| def.params.contains_key("when"));
        if takes_when && !params.contains_key("when") {
            params.insert("when".into(), Value::String(text.to_string()));
        }
        let request = ActionRequest {
            name: intent.action.clone(),
            params,
        };
        let needs_plan = intent.confirm || self.registry.is_plan_only(&intent.action);
        self.registry
            .bind(&request, context)
            .map(|bound| (bound, needs_plan))
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
            } => reply.send(self.bind_intent(&intent, &text, &context)),
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
