//! Turn metrics: counts and latency histograms per path, recorded by the turn pipeline and
//! read by the exposition at scrape time.
//!
//! Invariant: lock-free (atomics), so recording never slows a turn.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::turn_path::TurnPath;

/// Upper bounds of the latency buckets, in seconds (Prometheus `le`).
pub const LATENCY_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0, 30.0,
];

#[derive(Debug, Default)]
pub struct PathStats {
    pub count: AtomicU64,
    pub sum_micros: AtomicU64,
    pub buckets: [AtomicU64; LATENCY_BUCKETS.len()],
}

#[derive(Debug, Default)]
pub struct TurnMetrics {
    paths: [PathStats; TurnPath::ALL.len()],
    /// Turns that failed with an internal error (store, actor down).
    pub errors: AtomicU64,
    /// Messages refused because their thread's queue was full.
    pub overflows: AtomicU64,
    /// Store writes made for messages: the inbox row written at intake, and each turn's own
    /// (`store::write_count`; background work is not counted).
    pub store_writes: AtomicU64,
    /// Messages parked after failing every try (in the database: counted at the start by
    /// `App::recover`, then as they are parked).
    pub parked: AtomicU64,
}

impl TurnMetrics {
    pub fn record(&self, path: TurnPath, elapsed: Duration) {
        let stats = &self.paths[path.index()];
        stats.count.fetch_add(1, Ordering::Relaxed);
        stats.sum_micros.fetch_add(
            u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
        let seconds = elapsed.as_secs_f64();
        for (bound, bucket) in LATENCY_BUCKETS.iter().zip(&stats.buckets) {
            if seconds <= *bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    pub fn path(&self, path: TurnPath) -> &PathStats {
        &self.paths[path.index()]
    }

    pub fn count(&self, path: TurnPath) -> u64 {
        self.path(path).count.load(Ordering::Relaxed)
    }
}
