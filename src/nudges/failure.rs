//! Why a nudge could not be opened: `NudgeError` from the store's side (no such task, a closed
//! one, the store failed), `NudgeFailure` as every door answers it (the same, plus the channel
//! that carries the nudge refusing or not answering).
//!
//! Invariant: a store failure stays a store failure through every conversion (Donna's own
//! fault, never reported as the peer's).

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum NudgeError {
    #[error("no task {0}")]
    NoTask(String),
    #[error("'{title}' is {status}; there is nothing to nudge about")]
    Closed { title: String, status: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for NudgeError {
    fn from(error: rusqlite::Error) -> Self {
        NudgeError::Store(error.into())
    }
}

/// Why a nudge asked for (by the API, the console, the Nudger through a `NudgeSink`) could not
/// be opened.
#[derive(Debug, thiserror::Error)]
pub enum NudgeFailure {
    #[error("no task {0}")]
    NoTask(String),
    #[error("{0}")]
    Conflict(String),
    /// Discord refused the nudge or did not answer in time.
    #[error("discord: {0}")]
    Discord(String),
    /// The actor that opens the nudges could not take the request (queue full, not running):
    /// the actor runtime's error is the cause.
    #[error("the nudge sender is unavailable: {0}")]
    Unavailable(#[source] actors::AskError),
    /// Reading the task or recording the nudge failed: Donna's own fault, not the peer's.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<NudgeError> for NudgeFailure {
    fn from(error: NudgeError) -> Self {
        match error {
            NudgeError::NoTask(id) => NudgeFailure::NoTask(id),
            NudgeError::Closed { .. } => NudgeFailure::Conflict(error.to_string()),
            NudgeError::Store(error) => NudgeFailure::Store(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_error_stays_a_store_failure_not_a_discord_one() {
        let failure = NudgeFailure::from(NudgeError::Store(StoreError::Corrupt("bad row".into())));
        assert!(
            matches!(failure, NudgeFailure::Store(StoreError::Corrupt(_))),
            "{failure:?}"
        );
    }

    #[test]
    fn a_closed_task_is_a_conflict_with_the_reason() {
        let failure = NudgeFailure::from(NudgeError::Closed {
            title: "Pay rent".into(),
            status: "done".into(),
        });
        assert!(
            matches!(&failure, NudgeFailure::Conflict(reason)
                if reason == "'Pay rent' is done; there is nothing to nudge about"),
            "{failure:?}"
        );
    }
}
