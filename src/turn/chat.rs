//! The chat room (docs/contract.md "Free text" step 8, "Chat engine"): a message `route` calls chat
//! (small talk, venting, a greeting the rules did not take) gets one `chat` call whose prompt is
//! the persona, the pinned task, the summaries of the chat's last `chat_memory::SUMMARIES_SHOWN`
//! earlier sessions and the newest messages of the current session that fit
//! `chat.context_budget_tokens` (`llm::chat_prompt`); path `chat`, the reply the model's
//! `reply_to_user`.
//!
//! Sessions (`conversation::chat_sessions`): the thread's newest session is live while its last
//! chat turn is at most `chat.session_ttl` old; otherwise this turn opens a new one, after
//! closing the expired one with its summary if the sweeper has not yet (`chat_memory`). The commit
//! slides the live session or opens the new one in the turn's transaction (`Work::Chat`).
//! The system message lists the chat actions (config/chat_actions.yaml); a message `route`
//! calls task talk (`task_action`, `Talk::Tasks`) also shows the open tasks as quoted data.
//! An answer that proposes actions goes to `turn::chat_actions` (consent, tasks named in chat).
//!
//! Reaches (of `TurnDeps`): "thinking", the bigger model, the model; and what `chat_actions`,
//! `chat_memory`, `chat_prompt`, `escalation`, `model_call` reach.
//!
//! Invariants:
//! - Any model call failing: `llm_unavailable` (the failure contract), and the turn stores
//!   nothing but its memory rows: no session is opened or slid.
//! - Earlier sessions reach the prompt only as summaries, never as their messages.

use chrono::{DateTime, Utc};

use crate::subsystems::llm_classifier::LlmMsg;

use super::apply::Work;
use super::chat_actions::{chat_actions, Proposed};
use super::chat_memory::Talk;
use super::chat_prompt::{chat_prompt, ChatPrompt};
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::escalation::offer_escalation;
use super::model_call::{ask_model, model_down, Called};
use super::Inbound;
use crate::sentence::Sentence;

/// The chat room: small talk, venting (`route` said chat: `Talk::Chat`), or changing tasks in
/// plain words (`route` said task_action, or the words ask for a change: `Talk::Tasks`, the
/// open tasks shown).
pub(super) async fn chat(
    deps: &TurnDeps,
    turn: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    now: DateTime<Utc>,
    talk: Talk,
) -> Result<(Work, DraftStep), TurnError> {
    let Some(llm) = &deps.actors.llm else {
        return Ok(model_down());
    };
    let ChatPrompt {
        context,
        session,
        pinned,
    } = chat_prompt(deps, inbound, &inbound.text, now, talk).await?;
    deps.actors.thinking.notify(inbound);
    let asked = context.clone();
    let call = |reply| LlmMsg::Converse {
        context: Box::new(context),
        reply,
    };
    let answer = match ask_model(llm, "chat", call).await? {
        Called::Answered(answer) => answer,
        Called::Settled(answer) => return Ok(*answer),
    };
    if answer.needs_escalation && deps.actors.escalation.is_some() {
        // The local model says it is out of its depth: offer the bigger one.
        return offer_escalation(deps, inbound, answer, asked, session, now).await;
    }
    if !answer.actions.is_empty() {
        let proposed = Proposed {
            actions: answer.actions,
            planner: None,
            session,
            pinned,
        };
        return chat_actions(deps, turn, said, proposed, now).await;
    }
    Ok((
        Work::Chat {
            text: answer.reply_to_user,
            session,
        },
        DraftStep::Keep,
    ))
}
