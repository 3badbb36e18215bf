//! The clock every time-dependent rule reads (plan expiry, retention, undo window, nudges,
//! rate windows), so tests can move time instead of waiting for it.
//!
//! Also the one way to move a time by a duration that comes from outside the code (a config
//! key, a stored value): [`add`] and [`after`] saturate at the range Donna stores (years 0000 to
//! 9999) instead of panicking, so no duration can make a turn fail.
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

/// The latest instant Donna stores: the end of the year 9999, UTC.
pub fn latest() -> DateTime<Utc> {
    DateTime::<Utc>::from_timestamp(253_402_300_799, 0).unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// The earliest instant Donna stores: the start of the year 0000, UTC.
pub fn earliest() -> DateTime<Utc> {
    DateTime::<Utc>::from_timestamp(-62_167_219_200, 0).unwrap_or(DateTime::<Utc>::MIN_UTC)
}

/// `at` moved by `delta`, kept within [`earliest`]..=[`latest`]; never panics.
pub fn add(at: DateTime<Utc>, delta: Duration) -> DateTime<Utc> {
    match at.checked_add_signed(delta) {
        Some(moved) => moved.clamp(earliest(), latest()),
        None if delta > Duration::zero() => latest(),
        None => earliest(),
    }
}

/// `at` plus a std duration (a config key), saturating like [`add`].
pub fn after(at: DateTime<Utc>, duration: std::time::Duration) -> DateTime<Utc> {
    add(at, Duration::from_std(duration).unwrap_or(Duration::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_a_time_by_any_duration_saturates_instead_of_panicking() {
        let now = DateTime::<Utc>::from_timestamp(1_795_000_000, 0).unwrap_or_default();
        assert_eq!(add(now, Duration::MAX), latest());
        assert_eq!(add(now, Duration::MIN), earliest());
        assert_eq!(after(now, std::time::Duration::MAX), latest());
        let a_hundred_million_days = std::time::Duration::from_secs(100_000_000 * 86_400);
        assert_eq!(after(now, a_hundred_million_days), latest());
        assert_eq!(add(now, Duration::hours(1)), now + Duration::hours(1));
        assert_eq!(latest().to_rfc3339(), "9999-12-31T23:59:59+00:00");
        assert_eq!(earliest().to_rfc3339(), "0000-01-01T00:00:00+00:00");
    }
}
