//! Why a message was not handled, as its channel tells the person (the HTTP status, the
//! console line, Discord's reply).
//!
//! Invariant: a failure on Donna's side ([`IntakeError::Failed`]) says what failed in plain
//! words (`plain`: what the person reads) and keeps the error itself apart (`detail`: for the
//! log), so no answer ever carries SQL, a panic message or a Rust type name.

use super::error::TurnError;
use crate::store::StoreError;

/// Why a message was not handled.
#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    #[error("{0}")]
    Invalid(String),
    #[error("no thread {0}")]
    NoThread(String),
    #[error("too many messages are waiting; try again shortly")]
    Busy,
    #[error("shutting down")]
    ShuttingDown,
    #[error("this message failed every time it was tried and was set aside; it will not be run again (send it with a new message_id to try once more)")]
    Parked,
    /// Something failed on Donna's side.
    #[error("{plain}")]
    Failed { plain: String, detail: String },
}

impl IntakeError {
    /// The message's turn failed: it stays in the inbox and is tried again at the next start.
    pub fn turn_failed(error: &TurnError) -> Self {
        let what = match error {
            TurnError::Store(store) => store.in_plain_words(),
            _ => "a part of Donna stopped while handling it",
        };
        IntakeError::Failed {
            plain: format!(
                "Donna could not finish this message ({what}); nothing it asked for was \
                 changed, and it is tried again at the next start"
            ),
            detail: error.to_string(),
        }
    }

    /// The conversation stopped (a panic) while handling the message, which stays in the inbox.
    pub fn conversation_lost() -> Self {
        IntakeError::Failed {
            plain: "Donna could not finish this message (a part of her stopped while handling \
                    it); nothing it asked for was changed, and it is tried again at the next start"
                .into(),
            detail: "the conversation sent no answer (it panicked)".into(),
        }
    }

    /// What the log keeps of a failure (the plain words for the others).
    pub fn detail(&self) -> String {
        match self {
            IntakeError::Failed { detail, .. } => detail.clone(),
            other => other.to_string(),
        }
    }
}

impl From<StoreError> for IntakeError {
    /// The store failed before the message was accepted: nothing of it was kept.
    fn from(error: StoreError) -> Self {
        IntakeError::Failed {
            plain: format!(
                "the message could not be taken ({}); nothing was recorded: send it again",
                error.in_plain_words()
            ),
            detail: error.to_string(),
        }
    }
}
