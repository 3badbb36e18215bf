//! The operator's line for a finished turn: thread (from the turn's span), path, actions,
//! latency; INFO with `log.turns`, else DEBUG. Written by `Pipeline::run` once a turn is done.

use super::result::TurnResult;

/// The operator's line for a finished turn (`log.turns`; DEBUG when it is off).
pub(super) fn log_turn(log_turns: bool, result: &TurnResult, took: std::time::Duration) {
    let actions = result
        .actions
        .iter()
        .map(|action| action.name.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let latency_ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
    let path = result.path.as_str();
    if log_turns {
        tracing::info!(path, actions = %actions, latency_ms, "turn done");
    } else {
        tracing::debug!(path, actions = %actions, latency_ms, "turn done");
    }
}
