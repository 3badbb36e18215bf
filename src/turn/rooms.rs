//! The room a turn's decision sends its message to (docs/contract.md "A turn"): a click's
//! change to a task goes to `click_layer` with its intent alone; words go to their room with
//! the message's one reading (`Words`: the sentence, the FastPath's analysis, the free-text
//! rules' readings), never with the text to read again; the decisions that need no room
//! (confirm, reject, undo, not yours, a plan gone) are `Work` values built here.
//!
//! Takes: a `Decided` turn's `Next`, its words (None for a click) and its context. Sends:
//! whatever the room sends (the executor, the model, the store reads of the free-text room).
//!
//! Invariant: a click never reaches a words room (`decide_click` sends none there; a words
//! room reached without words changes nothing and says nothing).

use chrono::{DateTime, Utc};

use crate::capture::calendar_asked::{self, CalendarAsk};

use super::apply::Work;
use super::context::TurnContext;
use super::decide::{Next, Words};
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::nudge_group;
use super::pipeline::Pipeline;
use super::result::TurnPath;
use super::Inbound;

impl Pipeline {
    /// The work of the room `next` names, and what happens to the chat's draft.
    pub(super) async fn room(
        &self,
        context: &TurnContext,
        inbound: &Inbound,
        words: Option<Words>,
        next: Next,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        Ok(match next {
            // A restart found this message's escalation cut off: say so, never call again.
            _ if context.interrupted.is_some() => match &context.interrupted {
                Some(reserved) => (self.escalation_interrupted(reserved), DraftStep::Keep),
                None => (Work::NothingToConfirm, DraftStep::Keep),
            },
            Next::ConfirmPlan(plan) if plan.is_escalation_offer() => (
                self.escalation_confirmed(inbound, plan, now).await?,
                DraftStep::Keep,
            ),
            Next::Clicked(intent) => (
                self.click_layer(context, intent, now).await?,
                DraftStep::Keep,
            ),
            next => match words {
                Some(words) => self.words_room(context, inbound, words, next, now).await?,
                None => (plain_work(next), DraftStep::Keep),
            },
        })
    }

    /// The room a message's words were sent to, with its reading.
    async fn words_room(
        &self,
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
            let ask = calendar_asked::read(&said, now, self.settings.timezone);
            if let Some(ask @ CalendarAsk::NextFreeSlot { task: None }) = ask {
                let work = self.calendar_answer(context, ask, now).await?;
                return Ok((work, DraftStep::Keep));
            }
        }
        let work = match next {
            Next::FreeText if nudge_group::asks_which(context, &analysis) => {
                nudge_group::which_one(context)
            }
            Next::FreeText => {
                return self.free_text(context, inbound, &said, readings, now).await;
            }
            // The core of `said` is the reply without the number that picked a task of a
            // grouped nudge.
            Next::Intent(intent) | Next::AnswerNudge(intent) => {
                self.intent_layer(context, inbound, &said, intent, now)
                    .await?
            }
            Next::Closing => self.closing(&said),
            Next::NextLayer => self.model_layer(context, inbound, &said, now).await?,
            next => plain_work(next),
        };
        Ok((work, DraftStep::Keep))
    }
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
