//! The room a turn's decision sends its message to (docs/contract.md "A turn"): a click's
//! change to a task goes to `click_layer` with its intent alone; words go to their room with
//! the message's one reading (`Words`: the sentence, the FastPath's analysis, the free-text
//! rules' readings), never with the text to read again; the decisions that need no room
//! (confirm, reject, undo, not yours, a plan gone) are `Work` values built here.
//!
//! The rooms and their entry points (each a function of the handles, the context and the
//! reading; the room's file says what else it reaches):
//! - `Next::FreeText` → `free_text::free_text`: rules first (`capture::capture_words`; `lists`;
//!   `timezone`; `calendar_answers`; `which_one::answer_which`), then `free_model`, which
//!   routes to `planner`, `chat` and its writes (`chat_actions`, settled in
//!   `waiting_actions`), `routed`, or `parse_and_capture`.
//! - `Next::Intent` / `Next::AnswerNudge` → `intent::intent_layer`; `Next::Clicked` (a
//!   button's change to one task) → `intent::click_layer`.
//! - `Next::NextLayer` → `model::model_layer`.
//! - `Next::ConfirmPlan` of an escalation offer → `escalation::escalation_confirmed`; a
//!   restart that found one cut off → `escalation::escalation_interrupted`.
//! - a keyword answering a grouped nudge without a number → `nudge_group::which_one`.
//! - the others (confirm, reject, undo, not yours) are `Work` values built here.
//!
//! Takes: a `Decided` turn's `Next`, its words (None for a click) and its context. Sends:
//! whatever the room sends (the executor, the model, the store reads of the free-text room).
//!
//! Reaches (of `TurnDeps`): the settings; and what `calendar_answers`, `escalation`, `free_text`,
//! `intent`, `model` reach.
//!
//! Invariant: a click never reaches a words room (`decide_click` sends none there; a words
//! room reached without words changes nothing and says nothing).

use chrono::{DateTime, Utc};

use crate::capture::calendar_asked::{self, CalendarAsk};

use super::apply::Work;
use super::calendar_answers::calendar_answer;
use super::context::TurnContext;
use super::decide::{Next, Words};
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::escalation::{escalation_confirmed, escalation_interrupted};
use super::free_text::{closing, free_text};
use super::intent::{click_layer, intent_layer};
use super::model::model_layer;
use super::nudge_group;
use super::result::TurnPath;
use super::Inbound;

/// The work of the room `next` names, and what happens to the chat's draft.
pub(super) async fn room(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    words: Option<Words>,
    next: Next,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    Ok(match next {
        // A restart found this message's escalation cut off: say so, never call again.
        _ if context.interrupted.is_some() => match &context.interrupted {
            Some(reserved) => (escalation_interrupted(reserved), DraftStep::Keep),
            None => (Work::NothingToConfirm, DraftStep::Keep),
        },
        Next::ConfirmPlan(plan) if plan.is_escalation_offer() => (
            escalation_confirmed(deps, inbound, plan, now).await?,
            DraftStep::Keep,
        ),
        Next::Clicked(intent) => (
            click_layer(deps, context, intent, now).await?,
            DraftStep::Keep,
        ),
        next => match words {
            Some(words) => words_room(deps, context, inbound, words, next, now).await?,
            None => (plain_work(next), DraftStep::Keep),
        },
    })
}

/// The room a message's words were sent to, with its reading.
async fn words_room(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    words: Words,
    next: Next,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let Words {
        said,
        analysis,
        readings,
    } = words;
    // "move it to my next free slot" in a task's own thread: a slot for that task.
    if context.thread.task_id.is_some() && matches!(next, Next::Intent(_) | Next::NextLayer) {
        let ask = calendar_asked::read(&said, now, deps.settings.timezone);
        if let Some(ask @ CalendarAsk::NextFreeSlot { task: None }) = ask {
            let work = calendar_answer(deps, context, ask, now).await?;
            return Ok((work, DraftStep::Keep));
        }
    }
    let work = match next {
        Next::FreeText if nudge_group::asks_which(context, &analysis) => {
            nudge_group::which_one(context)
        }
        Next::FreeText => {
            return free_text(deps, context, inbound, &said, readings, now).await;
        }
        // The core of `said` is the reply without the number that picked a task of a
        // grouped nudge.
        Next::Intent(intent) | Next::AnswerNudge(intent) => {
            intent_layer(deps, context, inbound, &said, intent, now).await?
        }
        Next::Closing => closing(&said),
        Next::NextLayer => model_layer(deps, context, inbound, &said, now).await?,
        next => plain_work(next),
    };
    Ok((work, DraftStep::Keep))
}

/// The work of a decision that needs no room: a plan confirmed, rejected, replaced or gone,
/// nothing to confirm, not yours, undo. A room's decision reached without words (none: a click
/// is decided by `decide_click`, which sends none there) changes nothing.
fn plain_work(next: Next) -> Work {
    match next {
        Next::ConfirmPlan(plan) => Work::ConfirmPlan(plan),
        Next::RejectPlan(plan) => Work::RejectPlan(plan),
        Next::PlanReplaced(plan) => Work::PlanReplaced(plan),
        Next::PlanGone { expired } => Work::PlanGone { expired },
        Next::NothingToConfirm => Work::NothingToConfirm,
        Next::NotYours(_) => Work::Say {
            path: TurnPath::Unhandled,
            text: super::texts::NOT_YOUR_PROPOSAL.to_string(),
        },
        Next::Undo => Work::Undo,
        Next::FreeText
        | Next::Intent(_)
        | Next::AnswerNudge(_)
        | Next::Closing
        | Next::NextLayer
        | Next::Clicked(_) => Work::Silent {
            path: TurnPath::Unhandled,
        },
    }
}
