//! The chat's actions in a turn (docs/contract.md "Consent", "Tasks named in chat"): the
//! actions a `chat` answer proposes (in the chat room, or composed by the planner) are checked
//! against config/chat_actions.yaml, the tasks they name resolved by Donna, reads answered, and
//! the writes either run at once (what the person plainly asked for) or become ONE plan that
//! waits for a yes. What runs at once is what the person's own message asked for, on the one
//! task their words name (`chat_actions::consent`, `replies::grounding`). A task Donna cannot
//! settle on is asked about ("which one should I mark done?", a `which_task` draft keeping the
//! actions); the answer (`turn::which_one`) picks it and the actions go on. A new task goes
//! through the capture path (validation, time words, duplicates); one whose title shares no
//! word with the message is the model's invention and is dropped.
//!
//! The waiting actions are settled in `waiting_actions` (asked about, refused, run or
//! proposed).
//!
//! Reaches (of `TurnDeps`): the chat actions; and what `waiting_actions` reaches.
//!
//! Invariants:
//! - Nothing runs that the registry does not have, whose parameters do not check, or whose task
//!   is not exactly one task Donna resolved; a question or a refusal changes nothing.
//! - When actions are proposed, the reply is Donna's own words (what ran, the plan, the
//!   question): the model's text, written before anything ran, never claims a result. The
//!   planner's composed answer is kept before them: it is the answer to the question.
//! - Writes after planner tools are always a plan (`chat_actions::consent`).

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::actions::ActionRequest;
use crate::chat_actions::Picked;
use crate::sentence::Sentence;

use super::apply::Work;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::result::{PlannerStep, TurnPath};
use super::say::say;
use super::texts;
use super::waiting_actions::{settle_waiting_actions, Settling, Waiting};

/// A chat answer's actions and what the turn knows around them.
#[derive(Debug, Clone)]
pub(super) struct Proposed {
    /// The actions exactly as the model gave them.
    pub actions: Vec<Value>,
    /// The planner's composed answer and tool calls; None for the chat room.
    pub planner: Option<(String, Vec<PlannerStep>)>,
    /// The chat session the turn slides (the chat room's).
    pub session: Option<i64>,
    /// The task the chat is pinned to.
    pub pinned: Option<String>,
}

/// The turn's work for a chat answer that proposed actions.
pub(super) async fn chat_actions(
    deps: &TurnDeps,
    context: &TurnContext,
    said: &Sentence,
    proposed: Proposed,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let mut requests = Vec::new();
    let mut refused = Vec::new();
    for value in proposed.actions {
        match serde_json::from_value::<ActionRequest>(value) {
            Ok(request) => match deps.actors.chat_actions.get().check_request(&request) {
                Ok(_) => requests.push(request),
                Err(reason) => refused.push(reason.to_string()),
            },
            Err(error) => refused.push(format!("an action that is not {{name, params}}: {error}")),
        }
    }
    for reason in &refused {
        tracing::info!(%reason, "dropped a chat action the model proposed");
    }
    if requests.is_empty() {
        // The reasons are the model's mistakes (an action it made up, a parameter it got
        // wrong): logged above, never shown to the person, whose words were not at fault.
        return Ok((say(TurnPath::Clarify, texts::CLARIFY), DraftStep::Keep));
    }
    let planner_ran = proposed
        .planner
        .as_ref()
        .is_some_and(|(_, steps)| !steps.is_empty());
    let waiting = Waiting {
        requests,
        picked: Picked::new(),
        message: said.text().to_string(),
        reading: Some(said.clone()),
        planner_ran,
        pinned: proposed.pinned,
        index: 0,
        automation: false,
        candidates: Vec::new(),
        question: String::new(),
    };
    let settling = Settling {
        planner: proposed.planner,
        session: proposed.session,
        questions: 0,
    };
    settle_waiting_actions(deps, context, waiting, settling, now).await
}
