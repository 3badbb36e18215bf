//! Messages whose turn keeps failing: each failed try is counted on its inbox row with its
//! reason, and the [`MAX_TRIES`]-th parks it (never run again; `App::recover` skips it). A turn
//! that fails the same way at every start (a poisoned row, a setting that breaks every
//! proposal) would otherwise be retried at every start forever, ahead of its thread's new
//! messages.
//!
//! Takes: the failed message and its error, from `Pipeline::run` (an error the turn returned)
//! and from `intake` (the conversation panicked and sent no answer). Sends: one inbox write; the
//! `parked` count of /health and /metrics.
//! Invariants: a try is counted only for a pending row (a message finished or never written is
//! left alone); the log names the thread and the message id and the reason, never the text.

use std::sync::atomic::Ordering;

use super::error::TurnError;
use super::receipt;
use crate::conversation::inbox::{self, Failed, Inbound, MAX_TRIES};
use crate::metrics::TurnMetrics;
use crate::sentence::tokens::{pieces, Join};
use crate::store::Store;

/// The reason as it is logged and stored: the error's own words, with every word of the
/// message's text that is four characters or longer replaced (a panic message may quote the
/// text it choked on; the text stays in its row, never in the log).
pub fn reason_without_text(reason: &str, text: &str) -> String {
    let mut reason = reason.replace(text.trim(), "(the message)");
    let mut words: Vec<&str> = pieces(text, Join::Nothing)
        .into_iter()
        .filter_map(|piece| text.get(piece.at))
        .filter(|word| word.chars().count() >= 4)
        .collect();
    // Longest first, so a word inside a longer one is not replaced half.
    words.sort_by_key(|word| std::cmp::Reverse(word.len()));
    for word in words {
        reason = reason.replace(word, "…");
    }
    reason
}

/// After a turn returned `error`: a failed try keeps its message for the next start (written
/// now if it was not yet, `receipt`) and is counted.
pub async fn after_error(
    store: &Store,
    metrics: &TurnMetrics,
    message: &Inbound,
    error: &TurnError,
) {
    if error.is_a_failed_try() {
        receipt::after_failure().await;
        failed(store, metrics, message, &error.to_string()).await;
    }
}

/// The conversation stopped (panicked) while handling `message`, with no answer: a failed try,
/// unless Donna is stopping (`stopping`: the router is closed), which is no fault of the
/// message.
pub async fn conversation_lost(
    store: &Store,
    metrics: &TurnMetrics,
    message: &Inbound,
    stopping: bool,
) {
    if !stopping {
        let reason = "the conversation stopped while handling this message";
        failed(store, metrics, message, reason).await;
    }
}

/// Counts a failed try of `message` and parks it at the last one.
pub async fn failed(store: &Store, metrics: &TurnMetrics, message: &Inbound, error: &str) {
    let reason = reason_without_text(error, &message.text);
    let row = message.clone();
    let stored = reason.clone();
    let outcome = store
        .write(move |conn| inbox::record_failure(conn, &row, &stored))
        .await;
    let (thread_id, message_id) = (&message.thread_id, &message.message_id);
    match outcome {
        Ok(Failed::Parked) => {
            metrics.parked.fetch_add(1, Ordering::Relaxed);
            tracing::error!(
                %thread_id, %message_id, tries = MAX_TRIES, %reason,
                "message parked: its turn failed every time it was tried; it will not be run again"
            );
        }
        Ok(Failed::Counted(tries)) => {
            tracing::warn!(%thread_id, %message_id, tries, %reason, "failed try counted");
        }
        Ok(Failed::NotPending) => {}
        Err(error) => {
            tracing::warn!(%thread_id, %message_id, %error, "a failed try could not be counted");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_never_carries_the_text() {
        let text = "call Alice about the passport 4417";
        let panic = "byte index 3 is not a char boundary; it is inside 'é' of `call Alice about the passport 4417`";
        let reason = reason_without_text(panic, text);
        for word in ["Alice", "passport", "4417", "about"] {
            assert!(!reason.contains(word), "{reason}");
        }
        assert!(reason.contains("not a char boundary"), "{reason}");
        let partial = reason_without_text("cannot parse `passport 44`", text);
        assert!(!partial.contains("passport"), "{partial}");
    }
}
