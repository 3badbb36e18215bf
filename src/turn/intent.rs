//! The nudge-reply keyword room: a FastPath intent ("done", "push it to friday", "busy") bound
//! by the ActionExecutor and run at once, or proposed as a plan for `confirm: true` intents and
//! `plan_only` actions.
//!
//! Also the answer to a nudge delivered into a free thread (`Next::AnswerNudge`): the same
//! binding, on the nudged task.
//!
//! Invariants: the action's time is read once when it is bound; a time the keywords found but
//! cannot use ("move it to tomorrow and today") goes to the model when there is one (in a nudge
//! thread), and is otherwise refused by the handler with the reader's reason; a bind failure is
//! said plainly and changes nothing.

use chrono::{DateTime, Utc};

use crate::actions::BoundIntent;
use crate::replies::matcher::IntentMatch;
use crate::subsystems::action_executor::ExecutorMsg;

use super::apply::Work;
use super::context::TurnContext;
use super::error::TurnError;
use super::pipeline::Pipeline;
use super::result::TurnPath;
use super::Inbound;

impl Pipeline {
    pub(super) async fn intent_layer(
        &self,
        context: &TurnContext,
        inbound: &Inbound,
        intent: IntentMatch,
        now: DateTime<Utc>,
    ) -> Result<Work, TurnError> {
        let (text, bind_context) = (inbound.text.clone(), self.bind_context(context, now));
        let bound = self
            .executor
            .ask(|reply| ExecutorMsg::BindIntent {
                intent,
                text,
                context: bind_context,
                reply,
            })
            .await?;
        Ok(match bound {
            // In a free thread the model room has no thread task to talk about: an answer to a
            // nudge delivered there is refused with the reader's reason, as without a model.
            Ok(bound)
                if bound.action.unusable_time().is_some()
                    && self.llm.is_some()
                    && !context.answering_nudge =>
            {
                return self.model_layer(context, inbound, now).await;
            }
            Ok(BoundIntent {
                action,
                needs_plan: true,
            }) => Work::Propose {
                actions: vec![action],
                preamble: None,
                path: TurnPath::Fast,
            },
            Ok(BoundIntent {
                action,
                needs_plan: false,
            }) => Work::Execute(vec![action]),
            Err(reason) => Work::Say {
                path: TurnPath::Unhandled,
                text: format!("I couldn't do that: {reason}."),
            },
        })
    }
}
