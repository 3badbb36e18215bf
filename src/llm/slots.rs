//! The cap on model calls in flight (`llm.max_concurrency`), fair to turns already under way:
//! a turn's later call (the room's call after `route`, the planner's next step) is served
//! before any turn's first call. With a plain FIFO queue, 60 chats arriving at once all ask
//! `route` first, and every second call waits behind all of them: each person waits for
//! everyone. Served this way, the first turns finish while later ones are still starting.
//!
//! Owns: the free slots and two queues of waiting calls (later calls, first calls), each first
//! come, first served. A permit is a slot; dropping it hands the slot to the next waiter, a
//! later call first.
//!
//! Invariants: at most `capacity` permits exist at once; a waiter that gave up (its future
//! dropped) never holds a slot; a slot is never lost (a hand-over to a waiter that gave up
//! goes to the next one, or back to the free count); after `close`, every waiter and every
//! new acquire is refused.

use std::collections::VecDeque;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::oneshot;

/// Which queue a call waits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// The turn's first model call.
    First,
    /// A later call of a turn that has already asked the model.
    Later,
}

#[derive(Debug, Default)]
struct State {
    free: usize,
    closed: bool,
    later: VecDeque<oneshot::Sender<Permit>>,
    first: VecDeque<oneshot::Sender<Permit>>,
}

/// The shared slots; clones share them.
#[derive(Debug, Clone)]
pub struct ModelSlots(Arc<Mutex<State>>);

/// One slot, held while a call is in flight.
#[derive(Debug)]
pub struct Permit {
    slots: Option<ModelSlots>,
}

/// The slots are closed (shutting down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the model slots are closed")]
pub struct Closed;

impl ModelSlots {
    pub fn new(capacity: usize) -> Self {
        Self(Arc::new(Mutex::new(State {
            free: capacity,
            ..State::default()
        })))
    }

    /// Waits for a slot in `turn`'s queue.
    pub async fn acquire(&self, turn: Turn) -> Result<Permit, Closed> {
        let receiver = {
            let mut state = self.0.lock();
            if state.closed {
                return Err(Closed);
            }
            if state.free > 0 {
                state.free -= 1;
                return Ok(self.permit());
            }
            let (sender, receiver) = oneshot::channel();
            match turn {
                Turn::Later => state.later.push_back(sender),
                Turn::First => state.first.push_back(sender),
            }
            receiver
        };
        receiver.await.map_err(|_| Closed)
    }

    /// Refuses every waiter and every later acquire.
    pub fn close(&self) {
        let mut state = self.0.lock();
        state.closed = true;
        state.later.clear();
        state.first.clear();
    }

    /// Slots free right now (for tests and metrics).
    pub fn available(&self) -> usize {
        self.0.lock().free
    }

    fn permit(&self) -> Permit {
        Permit {
            slots: Some(self.clone()),
        }
    }

    /// A slot came free: to the next waiter still waiting (later calls first), else free.
    fn release(&self) {
        let mut state = self.0.lock();
        loop {
            let next = match state.later.pop_front() {
                Some(next) => next,
                None => match state.first.pop_front() {
                    Some(next) => next,
                    None => {
                        state.free += 1;
                        return;
                    }
                },
            };
            match next.send(self.permit()) {
                Ok(()) => return,
                // The waiter gave up. The permit it did not take comes back here through its
                // drop, which must not run while the lock is held: forget it instead and try the
                // next waiter with the same slot.
                Err(mut unsent) => {
                    unsent.slots = None;
                }
            }
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some(slots) = self.slots.take() {
            slots.release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_later_call_is_served_before_every_first_call_waiting() {
        let slots = ModelSlots::new(1);
        let held = slots.acquire(Turn::First).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut waiters = Vec::new();
        for (name, turn) in [
            ("first-a", Turn::First),
            ("first-b", Turn::First),
            ("later", Turn::Later),
        ] {
            let (slots, order) = (slots.clone(), order.clone());
            waiters.push(tokio::spawn(async move {
                let permit = slots.acquire(turn).await;
                order.lock().push(name);
                drop(permit);
            }));
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        drop(held);
        for waiter in waiters {
            let _ = waiter.await;
        }
        assert_eq!(*order.lock(), vec!["later", "first-a", "first-b"]);
        assert_eq!(slots.available(), 1);
    }

    #[tokio::test]
    async fn a_waiter_that_gave_up_never_keeps_a_slot() {
        let slots = ModelSlots::new(1);
        let held = slots.acquire(Turn::First).await;
        let gave_up = {
            let slots = slots.clone();
            tokio::spawn(async move { slots.acquire(Turn::Later).await.is_ok() })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        gave_up.abort();
        let _ = gave_up.await;
        drop(held);
        assert_eq!(slots.available(), 1);
        let again = tokio::time::timeout(Duration::from_secs(1), slots.acquire(Turn::First)).await;
        assert!(matches!(again, Ok(Ok(_))));
    }

    #[tokio::test]
    async fn closed_slots_refuse_waiters_and_new_calls() {
        let slots = ModelSlots::new(1);
        let held = slots.acquire(Turn::First).await;
        let waiting = {
            let slots = slots.clone();
            tokio::spawn(async move { slots.acquire(Turn::First).await.is_err() })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        slots.close();
        assert!(matches!(waiting.await, Ok(true)));
        assert!(slots.acquire(Turn::Later).await.is_err());
        drop(held);
    }
}
