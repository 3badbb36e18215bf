//! Counting the store writes made for one piece of work (a message: its inbox row at intake,
//! its turn's own writes), whatever else the writer commits meanwhile (the Nudger's ticks, the
//! sweeps): a task-local counter that `Store::write` adds to while the work runs inside
//! [`counting`]. The turn metrics sum it (`donna_turn_store_writes_total`), so "one store write
//! per turn that awaits nothing" can be checked exactly, also under load.
//!
//! Invariant: counting never changes a write; outside a counting scope nothing is counted.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

tokio::task_local! {
    static WRITES: Arc<AtomicU64>;
}

/// Runs `work`, counting in `counter` every store write it submits (in its own task).
pub async fn counting<F: Future>(counter: Arc<AtomicU64>, work: F) -> F::Output {
    WRITES.scope(counter, work).await
}

/// One write submitted: counted when inside a counting scope.
pub(super) fn submitted() {
    let _ = WRITES.try_with(|counter| counter.fetch_add(1, Ordering::Relaxed));
}
