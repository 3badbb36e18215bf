//! The nudge-reply keyword room: a FastPath intent ("done", "push it to friday", "busy") bound
//! by the ActionExecutor and run at once, or proposed as a plan for `confirm: true` intents and
//! `plan_only` actions.
//!
//! Also the answer to a nudge delivered into a free thread (`Next::AnswerNudge`): the same
//! binding, on the nudged task; and a button's change to one task (`Next::Clicked`, the
//! `click_layer`), bound from its intent alone and answered the same way.
//!
//! Reaches (of `TurnDeps`): the ActionExecutor, the model; and what `model` reaches.
//!
//! Invariants: the action's time is read once when it is bound. A time that cannot be used
//! changes nothing and is never replaced by "later": an impossible one ("feb 30", "25:00") is
//! answered with the reader's own reason, with or without a model; one the words leave unclear
//! ("move it to tomorrow and today", "postpone a fortnight") goes to the model when there is
//! one (in a nudge thread), and is otherwise asked about (path `clarify`). A bind failure is said
//! plainly and changes nothing.

use chrono::{DateTime, Utc};

use crate::actions::handlers::unusable_time;
use crate::actions::reply_time::UNCLEAR_TIME;
use crate::actions::{BindError, BoundIntent, Intent};
use crate::replies::matcher::IntentMatch;
use crate::sentence::Sentence;
use crate::subsystems::action_executor::ExecutorMsg;

use super::apply::Work;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::error::TurnError;
use super::model::model_layer;
use super::result::TurnPath;
use super::texts;
use super::Inbound;

pub(super) async fn intent_layer(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    intent: IntentMatch,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    // The core of the reply: its wrapper ("ok,", "thanks!") and a grouped nudge's number
    // set aside, so "ok, remind me at 7" reads its time from "remind me at 7".
    let text = said.core_text().to_string();
    let bound = deps
        .bind_and_ask(context, now, |context, reply| ExecutorMsg::BindIntent {
            intent,
            text,
            context,
            reply,
        })
        .await?;
    if let Ok(bound) = &bound {
        // In a free thread the model room has no thread task to talk about: an answer to a
        // nudge delivered there is asked about, as without a model.
        if bound.action.time_is_unclear() && deps.actors.llm.is_some() && !context.answering_nudge {
            return model_layer(deps, context, inbound, said, now).await;
        }
    }
    Ok(answer_bound(context, bound))
}

/// A button's change to one task (`Next::Clicked`): bound from the intent alone, then
/// answered as a keyword reply's action is.
pub(super) async fn click_layer(
    deps: &TurnDeps,
    context: &TurnContext,
    intent: Intent,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    let bound = deps
        .bind_and_ask(context, now, |context, reply| ExecutorMsg::BindButton {
            intent,
            context,
            reply,
        })
        .await?;
    Ok(answer_bound(context, bound))
}

/// The work of a bound intent: run at once, proposed (a `confirm: true` intent, a `plan_only`
/// action), or why nothing changes.
fn answer_bound(context: &TurnContext, bound: Result<BoundIntent, BindError>) -> Work {
    let title = context
        .acting_task()
        .map_or_else(|| "the task".to_string(), |task| task.title.clone());
    match bound {
        Ok(bound) if bound.action.unusable_time().is_some() => {
            let reason = bound.action.unusable_time().unwrap_or_default();
            Work::Say {
                path: TurnPath::Clarify,
                text: if reason == UNCLEAR_TIME {
                    texts::time_unclear(&title)
                } else {
                    unusable_time(reason, &title)
                },
            }
        }
        Ok(BoundIntent {
            action,
            needs_plan: true,
        }) => Work::Propose {
            actions: vec![action],
            preamble: None,
            path: TurnPath::Fast,
            steps: Vec::new(),
        },
        Ok(BoundIntent {
            action,
            needs_plan: false,
        }) => Work::Execute(vec![action]),
        // The reply's own words asked for what the action cannot do ("snooze 3 weeks").
        Err(BindError::Unusable(text)) => Work::Say {
            path: TurnPath::Clarify,
            text,
        },
        Err(reason) => Work::Say {
            path: TurnPath::Unhandled,
            text: format!("I couldn't do that: {reason}."),
        },
    }
}
