//! Why a turn could not finish. The message stays in the inbox (not done) and is run again at
//! the next start, so every variant here is an internal failure, never a person's mistake.

use actors::AskError;

use super::context::ContextError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    #[error("no thread {0}")]
    NoThread(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Actor(#[from] AskError),
    /// Donna could not build a model prompt (a template failed to render).
    #[error(transparent)]
    Prompt(#[from] crate::llm::prompts::PromptError),
    #[error("stored result is unreadable: {0}")]
    BadStoredResult(#[source] serde_json::Error),
    /// The message failed every try and was set aside (`parking`): it is not run again.
    #[error(
        "this message failed every time it was tried and was set aside; it will not be run again"
    )]
    Parked,
}

impl TurnError {
    /// Whether this failure counts as a try of the message (a missing thread or a parked
    /// message is no try: nothing was attempted).
    pub fn is_a_failed_try(&self) -> bool {
        !matches!(self, TurnError::NoThread(_) | TurnError::Parked)
    }
}

impl From<ContextError> for TurnError {
    fn from(error: ContextError) -> Self {
        match error {
            ContextError::NoThread(id) => TurnError::NoThread(id),
            ContextError::Store(error) => TurnError::Store(error),
        }
    }
}
