//! The durable mailbox: a bounded FIFO queue that lives outside actix's own mailbox.
//!
//! Owns: the messages accepted for one actor (or one keyed worker) that it has not taken yet.
//! Invariants:
//! - A message is either refused at `push` (the caller gets it back inside the error) or kept
//!   until a consumer takes it; a consumer dying does not drop the queue, because the queue is
//!   shared (`Arc`) between the sender handles and whichever actor instance currently consumes.
//! - Order is FIFO for every producer that pushes sequentially.
//! - `close` refuses new messages and hands back the ones still queued, so the owner can count
//!   them as dead letters instead of losing them silently.

use std::collections::VecDeque;

use parking_lot::Mutex;
use tokio::sync::Notify;

/// Why a message was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum PushError<M> {
    /// The queue holds `capacity` messages already; try later (HTTP maps this to 429).
    #[error("mailbox full ({capacity} queued)")]
    Full { message: M, capacity: usize },
    /// The actor is gone for good (failed past its restart limit, or shut down).
    #[error("mailbox closed")]
    Closed { message: M },
}

impl<M> PushError<M> {
    /// Gives the refused message back.
    pub fn into_message(self) -> M {
        match self {
            PushError::Full { message, .. } | PushError::Closed { message } => message,
        }
    }
}

struct State<M> {
    queue: VecDeque<M>,
    closed: bool,
}

/// A bounded multi-producer queue with one consumer at a time.
pub struct Mailbox<M> {
    state: Mutex<State<M>>,
    capacity: usize,
    /// Wakes the consumer; `notify_one` stores a permit when nobody waits, so no wakeup is lost.
    ready: Notify,
}

impl<M> std::fmt::Debug for Mailbox<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailbox")
            .field("len", &self.len())
            .field("capacity", &self.capacity)
            .finish()
    }
}

impl<M> Mailbox<M> {
    pub fn new(capacity: usize) -> Self {
        Self {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                closed: false,
            }),
            capacity: capacity.max(1),
            ready: Notify::new(),
        }
    }

    /// Appends a message, or gives it back when the queue is full or closed.
    pub fn push(&self, message: M) -> Result<(), PushError<M>> {
        {
            let mut state = self.state.lock();
            if state.closed {
                return Err(PushError::Closed { message });
            }
            if state.queue.len() >= self.capacity {
                return Err(PushError::Full {
                    message,
                    capacity: self.capacity,
                });
            }
            state.queue.push_back(message);
        }
        self.ready.notify_one();
        Ok(())
    }

    /// Takes the oldest message without waiting.
    pub fn try_pop(&self) -> Option<M> {
        self.state.lock().queue.pop_front()
    }

    /// Waits for the oldest message; `None` once the mailbox is closed and empty. Cancel-safe:
    /// a message is removed only in the poll that returns it.
    pub async fn recv(&self) -> Option<M> {
        loop {
            {
                let mut state = self.state.lock();
                if let Some(message) = state.queue.pop_front() {
                    return Some(message);
                }
                if state.closed {
                    return None;
                }
            }
            self.ready.notified().await;
        }
    }

    /// Refuses new messages but lets the consumer take what is queued, then end (shutdown).
    pub fn close_after_queued(&self) {
        self.state.lock().closed = true;
        self.ready.notify_one();
    }

    pub fn len(&self) -> usize {
        self.state.lock().queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn is_closed(&self) -> bool {
        self.state.lock().closed
    }

    /// Refuses further messages and returns the ones still queued.
    pub fn close(&self) -> Vec<M> {
        let mut state = self.state.lock();
        state.closed = true;
        state.queue.drain(..).collect()
    }

    /// Runs `f` on the queue while holding its lock (used by keyed routing to decide passivation
    /// atomically with respect to pushes).
    pub(crate) fn with_locked<R>(&self, f: impl FnOnce(&mut VecDeque<M>, &mut bool) -> R) -> R {
        let mut state = self.state.lock();
        let State { queue, closed } = &mut *state;
        f(queue, closed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_past_capacity_and_gives_the_message_back() {
        let mailbox = Mailbox::new(2);
        assert!(mailbox.push(1).is_ok());
        assert!(mailbox.push(2).is_ok());
        match mailbox.push(3) {
            Err(PushError::Full { message, capacity }) => assert_eq!((message, capacity), (3, 2)),
            other => panic!("expected Full, got {other:?}"),
        }
        assert_eq!(mailbox.try_pop(), Some(1));
        assert!(mailbox.push(3).is_ok());
    }

    #[tokio::test]
    async fn closing_after_queued_lets_the_consumer_finish_then_end() {
        let mailbox = Mailbox::new(4);
        assert!(mailbox.push(1).is_ok());
        mailbox.close_after_queued();
        assert!(mailbox.push(2).is_err());
        assert_eq!(mailbox.recv().await, Some(1));
        assert_eq!(mailbox.recv().await, None);
    }

    #[test]
    fn close_returns_what_was_queued_and_refuses_more() {
        let mailbox = Mailbox::new(8);
        for i in 0..3 {
            assert!(mailbox.push(i).is_ok());
        }
        assert_eq!(mailbox.close(), vec![0, 1, 2]);
        assert!(matches!(
            mailbox.push(9),
            Err(PushError::Closed { message: 9 })
        ));
    }

    #[tokio::test]
    async fn recv_wakes_on_push_from_another_task() {
        let mailbox = std::sync::Arc::new(Mailbox::new(4));
        let consumer = {
            let mailbox = mailbox.clone();
            tokio::spawn(async move { (mailbox.recv().await, mailbox.recv().await) })
        };
        tokio::task::yield_now().await;
        assert!(mailbox.push("a").is_ok());
        assert!(mailbox.push("b").is_ok());
        assert_eq!(consumer.await.ok(), Some((Some("a"), Some("b"))));
    }
}
