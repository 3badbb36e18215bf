//! The clock every time-dependent rule reads (plan expiry, retention, undo window, nudges,
//! rate windows), so tests can move time instead of waiting for it.
//!
//! Invariant: domain code never calls `Utc::now()` directly; it asks a `Clock`.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use parking_lot::Mutex;

/// A source of "now".
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> DateTime<Utc>;
}

/// Wall-clock time.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that only moves when told to (tests).
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Arc<Mutex<DateTime<Utc>>>,
}

impl ManualClock {
    pub fn new(start: DateTime<Utc>) -> Self {
        Self {
            now: Arc::new(Mutex::new(start)),
        }
    }

    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock();
        *now += by;
    }

    pub fn set(&self, to: DateTime<Utc>) {
        *self.now.lock() = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock()
    }
}

/// The clock handle passed around.
pub type SharedClock = Arc<dyn Clock>;
