//! Nudge metrics: nudges sent, by what triggered them.
//!
//! Recorded by the Nudger (each scheduled nudge opened) and by `POST /api/nudges`; read by the
//! exposition at scrape time. Invariant: lock-free (atomics).

use std::sync::atomic::{AtomicU64, Ordering};

/// Counts of nudges opened (a nudge thread created or a nudge recorded in its chat).
#[derive(Debug, Default)]
pub struct NudgeMetrics {
    /// Opened by the schedule (due or overdue tasks).
    pub scheduled: AtomicU64,
    /// Opened on request (`POST /api/nudges`).
    pub requested: AtomicU64,
}

impl NudgeMetrics {
    pub fn record_scheduled(&self, count: usize) {
        self.scheduled
            .fetch_add(u64::try_from(count).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    pub fn record_requested(&self) {
        self.requested.fetch_add(1, Ordering::Relaxed);
    }
}
