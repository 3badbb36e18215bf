//! One model call of a turn with the failure contract (every free-text room's calls: route,
//! parse_task, the planner's steps and answer, the chat room): journaled with the turn, the
//! message made durable before the wait, and any failure answered honestly (`model_down`,
//! path `llm_unavailable`), never "say it again"; and the answer of a free-text turn that
//! cannot ask the model at all (`Pipeline::without_the_model`).

use actors::{ChildRef, Reply};

use crate::llm::LlmError;
use crate::sentence::Sentence;
use crate::subsystems::llm_classifier::{journaled, LlmMsg};

use super::apply::Work;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::free_text::say;
use super::pipeline::Pipeline;
use super::receipt;
use super::result::TurnPath;
use super::texts;

/// One model call of a turn, journaled with it; a failure (logged, naming `call`) is the
/// failure contract's answer (`model_down`): the room returns it as the turn's work. The
/// message is made durable before the wait (`receipt`); only that failing fails the turn.
pub(super) async fn ask_model<T: Send + 'static>(
    llm: &ChildRef<LlmMsg>,
    call: &'static str,
    message: impl FnOnce(Reply<Result<T, LlmError>>) -> LlmMsg,
) -> Result<Result<T, (Work, DraftStep)>, TurnError> {
    receipt::before_waiting().await?;
    Ok(match llm.ask(|reply| journaled(message(reply))).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(error @ LlmError::Prompt(_))) => {
            tracing::warn!(%error, call, "a model prompt could not be built for this turn");
            Err((
                say(TurnPath::LlmUnavailable, texts::PROMPT_FAILED),
                DraftStep::Keep,
            ))
        }
        Ok(Err(error @ LlmError::InvalidOutput(_))) => {
            tracing::debug!(%error, call, "the model's answer could not be used for this turn");
            Err(model_garbled())
        }
        Ok(Err(error)) => {
            tracing::debug!(%error, call, "a model call failed for this turn");
            Err(model_down())
        }
        Err(error) => {
            tracing::warn!(%error, call, "model actor unavailable for this turn");
            Err(model_down())
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

impl Pipeline {
    /// The answer of a free-text turn that cannot ask the model: none configured (the honest
    /// `unhandled` list, first naming the words Donna could not read; `no_model` says what
    /// becomes of a draft) or one known to be down (`llm_unavailable`). None when the model can
    /// be asked.
    pub(super) fn without_the_model(
        &self,
        no_model: DraftStep,
        said: Option<&Sentence>,
    ) -> Option<(Work, DraftStep)> {
        if self.llm.is_none() {
            let unread = said.map(texts::unread).unwrap_or_default();
            let text = format!("{unread} {}", texts::free_text_no_model());
            let answer = say(TurnPath::Unhandled, text.trim_start());
            return Some((answer, no_model));
        }
        self.model.skips_calls().then(model_down)
    }
}
