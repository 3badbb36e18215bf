//! Fault injection for tests: make an actor panic on its Nth message from now.
//!
//! The switch exists in every build (checking it is one atomic load); arming it is only
//! possible with the `fault-injection` feature, which only tests enable.

use std::sync::atomic::{AtomicI64, Ordering};

/// A countdown: disarmed at -1; when it reaches 0 on a message, that message panics.
#[derive(Debug)]
pub struct FaultSwitch {
    countdown: AtomicI64,
}

impl Default for FaultSwitch {
    fn default() -> Self {
        Self {
            countdown: AtomicI64::new(-1),
        }
    }
}

impl FaultSwitch {
    /// Panics with an "injected fault" message when armed and due. Called inside the
    /// panic-capture boundary, just before the handler.
    pub(crate) fn check(&self, actor: &str) {
        if self.countdown.load(Ordering::Relaxed) < 0 {
            return;
        }
        if self.countdown.fetch_sub(1, Ordering::AcqRel) == 1 {
            panic!("injected fault in {actor}");
        }
    }

    /// Arms the switch: the `nth` message from now (1 = the next one) panics.
    #[cfg(feature = "fault-injection")]
    pub fn panic_on_nth(&self, nth: u32) {
        self.countdown
            .store(i64::from(nth.max(1)), Ordering::Release);
    }
}
