//! The ActionExecutor actor: the action registry (config/reply_actions.yaml).
//!
//! Owns: the checked registry. Takes: `BindIntent` (a keyword intent), `BindButton` (a button's
//! intent, bound without reading words) and `Propose` (a model's
//! proposed actions), answering with validated, context-bound actions whose times are already
//! read (`actions::bind`), a proposal also reviewed as a whole (`actions::review`: evidence,
//! titles, contradictions); the bound actions then run inside the turn's transaction on the
//! store writer (`actions::execute_all`).
//! Invariants: only registered, valid actions come out, and of a proposal only those the review
//! kept; context parameters come from the thread; for a keyword intent, the reply's own words
//! fill an action's optional `when` parameter (so "push it to friday" reschedules to Friday).
//! The one action no file registers is a reply's estimate (`actions::estimate`): Donna's own,
//! bound from the minutes its rule read to the thread's task.

use std::sync::Arc;

use crate::live::Live;

use actors::{Behaviour, CellCtx, Handled, Reply};

use crate::actions::estimate;
use crate::actions::review::{review_plan, Review, ReviewInput};
use crate::actions::{
    bind_button, bind_intent, ActionRegistry, ActionRequest, BindContext, BindError, BoundIntent,
    Intent,
};
use crate::replies::matcher::IntentMatch;
use crate::sentence::Sentence;
use crate::tasks::when::find_when;

/// What the review of a proposal is told besides the actions.
#[derive(Debug, Clone)]
pub struct ProposalFacts {
    /// The reply the model answered, read once.
    pub reply: Arc<Sentence>,
    /// The thread task's title.
    pub task_title: Option<String>,
    /// `llm.require_evidence`.
    pub require_evidence: bool,
}

/// A proposal after binding and review.
#[derive(Debug, Clone)]
pub struct Proposal {
    /// Why each action that could not be bound was refused.
    pub invalid: Vec<BindError>,
    pub review: Review,
}

pub enum ExecutorMsg {
    BindIntent {
        intent: IntentMatch,
        text: String,
        context: BindContext,
        reply: Reply<Result<BoundIntent, BindError>>,
    },
    /// A button's task intent (`actions::intent`): bound without reading any words.
    BindButton {
        intent: Intent,
        context: BindContext,
        reply: Reply<Result<BoundIntent, BindError>>,
    },
    Propose {
        requests: Vec<ActionRequest>,
        context: BindContext,
        facts: ProposalFacts,
        reply: Reply<Proposal>,
    },
}

pub struct ActionExecutor {
    /// The registry in force (replaced by a hot reload of the actions file).
    registry: Live<ActionRegistry>,
}

impl ActionExecutor {
    pub fn new(registry: Live<ActionRegistry>) -> Self {
        Self { registry }
    }
}

impl ActionExecutor {
    fn propose(
        &self,
        requests: &[ActionRequest],
        context: &BindContext,
        facts: &ProposalFacts,
    ) -> Proposal {
        let registry = self.registry.get();
        let mut invalid = Vec::new();
        let mut bound = Vec::new();
        for request in requests {
            match registry.bind(request, context) {
                Ok(action) => bound.push(action),
                Err(error) => invalid.push(error),
            }
        }
        let input = ReviewInput {
            reply: &facts.reply,
            task_title: facts.task_title.as_deref(),
            require_evidence: facts.require_evidence,
        };
        // A usable time only: "yesterday" or "feb 30" is no ground for moving a task.
        let names_a_time = || matches!(find_when(facts.reply.text(), &context.when), Ok(Some(_)));
        let review = review_plan(&registry, bound, input, names_a_time);
        Proposal { invalid, review }
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
            } => reply.send(if intent.action == estimate::ACTION {
                // Built from the minutes the rule read, never from an actions file.
                estimate::bind(&intent, &context)
            } else {
                bind_intent(&self.registry.get(), &intent, &text, &context)
            }),
            ExecutorMsg::BindButton {
                intent,
                context,
                reply,
            } => reply.send(bind_button(&self.registry.get(), &intent, &context)),
            ExecutorMsg::Propose {
                requests,
                context,
                facts,
                reply,
            } => reply.send(self.propose(&requests, &context, &facts)),
        }
        Handled::Done
    }
}
