//! Rows a scheduled tick could not handle and went past: a task the Nudger cannot read or
//! nudge, an automation whose rule cannot be searched, a digest that cannot be composed. The
//! tick goes on with the other rows; the row is reported here (a warning naming it and why, and
//! `donna_rows_skipped_total{runner}` on /metrics), so a stored value never stops a tick for
//! everyone and never goes unnoticed.
//!
//! Owns: the counts, by runner. Taken by the Nudger, the automation runner and the digest
//! runner; read by the metrics exposition at scrape time.
//! Invariant: reporting never fails and never awaits (atomics and a log line).

use std::sync::atomic::{AtomicU64, Ordering};

/// The ticks that go past rows they cannot handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    Nudger,
    Automations,
    Digests,
}

impl Runner {
    pub const ALL: [Runner; 3] = [Runner::Nudger, Runner::Automations, Runner::Digests];

    /// The label on /metrics and in the log.
    pub fn as_str(self) -> &'static str {
        match self {
            Runner::Nudger => "nudger",
            Runner::Automations => "automations",
            Runner::Digests => "digests",
        }
    }
}

/// Rows skipped since the start, by runner.
#[derive(Debug, Default)]
pub struct SkippedRows {
    nudger: AtomicU64,
    automations: AtomicU64,
    digests: AtomicU64,
}

impl SkippedRows {
    fn counter(&self, runner: Runner) -> &AtomicU64 {
        match runner {
            Runner::Nudger => &self.nudger,
            Runner::Automations => &self.automations,
            Runner::Digests => &self.digests,
        }
    }

    /// Reports the row `id` that `runner` went past, and why.
    pub fn report(&self, runner: Runner, id: &str, why: &dyn std::fmt::Display) {
        self.counter(runner).fetch_add(1, Ordering::Relaxed);
        tracing::warn!(
            runner = runner.as_str(),
            row = %id.escape_debug(),
            error = %why,
            "a row this tick cannot handle was skipped; the others go on"
        );
    }

    /// How many rows `runner` went past.
    pub fn count(&self, runner: Runner) -> u64 {
        self.counter(runner).load(Ordering::Relaxed)
    }
}
