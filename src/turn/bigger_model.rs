//! The person asks for the bigger model in words ("ask the bigger model", "think harder about
//! this", "ask the big model: what are the tax rules in France?"; `capture::bigger_model`):
//! the same offer as when the local model asks for it (`turn::escalation`: the cost estimate,
//! a plan only the requester's yes answers, the day's budget, auto-approve), for the question
//! they named or, with none named, their previous message in this chat.
//!
//! Without the bigger model configured Donna says so (path `unhandled`, nothing changes); with
//! no earlier message to ask about she asks for the question (`clarify`, no draft: the next
//! message is read on its own, and "ask the bigger model" after it works).
//!
//! Reaches (of `TurnDeps`): the bigger model, the store; and what `chat_memory`, `chat_prompt`,
//! `escalation` reach.
//!
//! Invariant: nothing is sent to the bigger model here; the offer is committed first.

use chrono::{DateTime, Utc};

use crate::capture::bigger_model::{self, BiggerModel};
use crate::conversation::memory::{self, Role};
use crate::llm::planner::ChatAnswer;
use crate::store::Store;

use super::apply::Work;
use super::chat_memory::Talk;
use super::chat_prompt::{chat_prompt, ChatPrompt};
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::escalation::offer_escalation;
use super::result::TurnPath;
use super::say::say;
use super::texts;
use super::Inbound;

/// How far back the previous question is looked for, in messages of the chat.
const LOOK_BACK: usize = 20;

pub(super) async fn bigger_model_asked(
    deps: &TurnDeps,
    inbound: &Inbound,
    asked: BiggerModel,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    if deps.actors.escalation.is_none() {
        return Ok((
            say(TurnPath::Unhandled, texts::ESCALATION_NOT_SET_UP),
            DraftStep::Keep,
        ));
    }
    let question = match asked {
        BiggerModel::Ask(question) => Some(question),
        BiggerModel::Previous => previous_question(&deps.store, inbound).await?,
    };
    let Some(question) = question else {
        return Ok((
            say(TurnPath::Clarify, texts::ASK_BIGGER_WHAT),
            DraftStep::Keep,
        ));
    };
    let ChatPrompt {
        context, session, ..
    } = chat_prompt(deps, inbound, &question, now, Talk::Chat).await?;
    // The offer carries the question as the message the bigger model answers.
    let on_behalf = Inbound {
        text: question,
        ..inbound.clone()
    };
    let asked_for = ChatAnswer {
        reply_to_user: String::new(),
        actions: Vec::new(),
        needs_escalation: true,
        escalation_reason: Some(texts::ESCALATION_ASKED_FOR.to_string()),
    };
    offer_escalation(deps, &on_behalf, asked_for, context, session, now).await
}

/// The sender's last message in this chat before this one that was not itself a request
/// for the bigger model.
async fn previous_question(store: &Store, inbound: &Inbound) -> Result<Option<String>, TurnError> {
    let (thread_id, author) = (inbound.thread_id.clone(), inbound.user_id.clone());
    let recent = store
        .read(move |conn| memory::recent(conn, &thread_id, Some(LOOK_BACK)))
        .await?;
    Ok(recent
        .into_iter()
        .rev()
        .filter(|entry| entry.role == Role::User)
        .filter(|entry| entry.author_id.as_deref().is_none_or(|id| id == author))
        .map(|entry| entry.content)
        .find(|text| !text.trim().is_empty() && !bigger_model::asked_for_it(text)))
}
