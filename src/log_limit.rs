//! Rate-limited warnings: under a flood of bad input (a misbehaving client, a model answering
//! garbage, a channel spamming), the log keeps its head: at most `per_minute` warnings of one
//! kind per minute, then one line saying how many were suppressed.
//!
//! Invariant: lock-free and allocation-free on the hot path.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// One kind of warning's budget.
#[derive(Debug)]
pub struct WarnLimiter {
    per_minute: u64,
    /// The minute (since the process epoch) the counts belong to.
    minute: AtomicU64,
    count: AtomicU64,
    suppressed: AtomicU64,
}

fn minute_now() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_secs() / 60
}

/// What the caller should log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Log it; `suppressed_before` warnings of this kind were dropped in the previous minute.
    Log {
        suppressed_before: u64,
    },
    Suppress,
}

impl WarnLimiter {
    pub const fn new(per_minute: u64) -> Self {
        Self {
            per_minute,
            minute: AtomicU64::new(0),
            count: AtomicU64::new(0),
            suppressed: AtomicU64::new(0),
        }
    }

    pub fn check(&self) -> Verdict {
        self.check_at(minute_now())
    }

    fn check_at(&self, minute: u64) -> Verdict {
        let seen = self.minute.load(Ordering::Acquire);
        let mut suppressed_before = 0;
        if minute != seen
            && self
                .minute
                .compare_exchange(seen, minute, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            self.count.store(0, Ordering::Release);
            suppressed_before = self.suppressed.swap(0, Ordering::AcqRel);
        }
        if self.count.fetch_add(1, Ordering::AcqRel) < self.per_minute {
            Verdict::Log { suppressed_before }
        } else {
            self.suppressed.fetch_add(1, Ordering::Relaxed);
            Verdict::Suppress
        }
    }
}

/// `warn!` through a limiter: `limited_warn!(LIMITER, %field, "message")`.
#[macro_export]
macro_rules! limited_warn {
    ($limiter:expr, $($rest:tt)+) => {
        match $limiter.check() {
            $crate::log_limit::Verdict::Log { suppressed_before } => {
                if suppressed_before > 0 {
                    tracing::warn!(suppressed = suppressed_before, "similar warnings were suppressed in the last minute");
                }
                tracing::warn!($($rest)+);
            }
            $crate::log_limit::Verdict::Suppress => {}
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_cut_to_the_budget_and_the_rest_is_counted() {
        let limiter = WarnLimiter::new(3);
        let logged = (0..1_000)
            .filter(|_| limiter.check_at(1) != Verdict::Suppress)
            .count();
        assert_eq!(logged, 3);
        assert_eq!(
            limiter.check_at(2),
            Verdict::Log {
                suppressed_before: 997
            }
        );
    }
}
