//! When a message's inbox row is written (RELIABILITY.md "One write for a turn that
//! awaits nothing"). Intake writes it before the turn (durable first) unless the message can
//! take the one-write path: no message id of its own (so no retry can repeat it), and its
//! thread has nothing in flight or queued. Then the row is written late:
//! - inside the turn's own commit, with its effects, when the turn awaits no model (one
//!   transaction, one fsync: FastPath replies, rules, plan answers, undo);
//! - before the first model call ([`before_waiting`]), when the turn waits for one: a message
//!   that may wait seconds must survive a crash meanwhile, exactly as at intake;
//! - after a turn that failed before its commit ([`after_failure`]), so the next start
//!   retries it like any unfinished message.
//!
//! The row keeps the time intake received the message. Its `seq` is taken when it is written;
//! that is still after every plan this message may confirm, because its thread was idle when it
//! arrived (every plan of the thread had committed) and a plan of another thread is not its to
//! confirm.
//!
//! How it travels: the turn runs inside [`within`] (a tokio task-local, like the turn's
//! journal), so the model-calling code only says "about to wait" and knows nothing else.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::conversation::inbox::{self, Inbound};
use crate::store::{Store, StoreError};

tokio::task_local! {
    static CURRENT: Arc<LateReceipt>;
}

/// A message whose inbox row is not written yet.
#[derive(Debug)]
pub struct LateReceipt {
    store: Store,
    inbound: Inbound,
    received_at: DateTime<Utc>,
    written: AtomicBool,
}

impl LateReceipt {
    pub fn new(store: Store, inbound: Inbound, received_at: DateTime<Utc>) -> Self {
        Self {
            store,
            inbound,
            received_at,
            written: AtomicBool::new(false),
        }
    }

    async fn write(&self) -> Result<(), StoreError> {
        if self.written.load(Ordering::Acquire) {
            return Ok(());
        }
        let (row, at) = (self.inbound.clone(), self.received_at);
        self.store
            .write(move |conn| inbox::accept(conn, &row, at).map(|_| ()))
            .await?;
        self.written.store(true, Ordering::Release);
        Ok(())
    }
}

/// Runs a turn with its late receipt (None: the row was written at intake).
pub async fn within<F: Future>(late: Option<Arc<LateReceipt>>, future: F) -> F::Output {
    match late {
        Some(late) => CURRENT.scope(late, future).await,
        None => future.await,
    }
}

/// The turn is about to wait (for a model): its message must be durable first.
pub async fn before_waiting() -> Result<(), StoreError> {
    match CURRENT.try_with(Clone::clone) {
        Ok(late) => late.write().await,
        Err(_) => Ok(()),
    }
}

/// The turn failed before its commit: write the row so the next start retries the message.
pub async fn after_failure() {
    if let Err(error) = before_waiting().await {
        tracing::warn!(%error, "a failed turn's message could not be kept for a retry");
    }
}

/// When the turn's commit must write the row itself: the time it was received, if it is not
/// written yet.
pub fn still_to_write() -> Option<DateTime<Utc>> {
    CURRENT
        .try_with(|late| (!late.written.load(Ordering::Acquire)).then_some(late.received_at))
        .ok()
        .flatten()
}
