//! One model call of a turn with the failure contract (every free-text room's calls: route,
//! parse_task, the planner's steps and answer, the chat room): journaled with the turn, the
//! message made durable before the wait, and any failure answered honestly (`model_down`,
//! path `llm_unavailable`), never "say it again"; and the answer of a free-text turn that
//! cannot ask the model at all (`without_the_model`).
//!
//! A call's outcome is `Called`: the model's answer for the room to go on with, or the turn's
//! answer already settled (the failure contract's), which the room returns as it is.
//!
//! Reaches (of `TurnDeps`): the model, the model's state.

use actors::{ChildRef, Reply};

use crate::llm::LlmError;
use crate::sentence::Sentence;
use crate::subsystems::llm_classifier::{journaled, LlmMsg};

use super::apply::Work;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::receipt;
use super::result::TurnPath;
use super::say::say;
use super::texts;

/// What a model call of a turn came to.
#[derive(Debug)]
pub(super) enum Called<T> {
    /// The model answered: the room goes on with the answer.
    Answered(T),
    /// No usable answer: this is the turn's work and draft step already (the failure
    /// contract's answer, or the honest one without a model); the room returns it as it is.
    /// Boxed: the answer is the rare path, and a room's answer is large.
    Settled(Box<(Work, DraftStep)>),
}

impl<T> Called<T> {
    /// The turn's answer, already settled.
    pub(super) fn settled(answer: (Work, DraftStep)) -> Self {
        Called::Settled(Box::new(answer))
    }
}

/// One model call of a turn, journaled with it; a failure (logged, naming `call`) is the
/// failure contract's answer (`model_down`): the room returns it as the turn's work. The
/// message is made durable before the wait (`receipt`); only that failing fails the turn.
pub(super) async fn ask_model<T: Send + 'static>(
    llm: &ChildRef<LlmMsg>,
    call: &'static str,
    message: impl FnOnce(Reply<Result<T, LlmError>>) -> LlmMsg,
) -> Result<Called<T>, TurnError> {
    receipt::before_waiting().await?;
    Ok(match llm.ask(|reply| journaled(message(reply))).await {
        Ok(Ok(answer)) => Called::Answered(answer),
        Ok(Err(error @ LlmError::Prompt(_))) => {
            tracing::warn!(%error, call, "a model prompt could not be built for this turn");
            Called::settled((
                say(TurnPath::LlmUnavailable, texts::PROMPT_FAILED),
                DraftStep::Keep,
            ))
        }
        Ok(Err(error @ LlmError::InvalidOutput(_))) => {
            tracing::debug!(%error, call, "the model's answer could not be used for this turn");
            Called::settled(model_garbled())
        }
        Ok(Err(error)) => {
            tracing::debug!(%error, call, "a model call failed for this turn");
            Called::settled(model_down())
        }
        Err(error) => {
            tracing::warn!(%error, call, "model actor unavailable for this turn");
            Called::settled(model_down())
        }
    })
}

/// The model answered, but not usably (after the retry): the failure contract, said truly.
pub(super) fn model_garbled() -> (Work, DraftStep) {
    (
        say(TurnPath::LlmUnavailable, &texts::free_text_model_garbled()),
        DraftStep::Keep,
    )
}

pub(super) fn model_down() -> (Work, DraftStep) {
    (
        say(TurnPath::LlmUnavailable, &texts::free_text_model_down()),
        DraftStep::Keep,
    )
}

/// The answer of a free-text turn that cannot ask the model: none configured (the honest
/// `unhandled` list, first naming the words Donna could not read; `no_model` says what
/// becomes of a draft) or one known to be down (`llm_unavailable`). None when the model can
/// be asked.
pub(super) fn without_the_model(
    deps: &TurnDeps,
    no_model: DraftStep,
    said: Option<&Sentence>,
) -> Option<(Work, DraftStep)> {
    if deps.actors.llm.is_none() {
        let unread = said.map(texts::unread).unwrap_or_default();
        let text = format!("{unread} {}", texts::free_text_no_model());
        let answer = say(TurnPath::Unhandled, text.trim_start());
        return Some((answer, no_model));
    }
    deps.actors.model.skips_calls().then(model_down)
}
