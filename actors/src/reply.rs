//! Request/response over a durable mailbox: a message carries a `Reply<T>` port.
//!
//! Owns: the one-shot channel between a caller and the handler that answers it.
//! Invariant: if the handler panics or the actor fails before answering, the port is dropped and
//! the caller gets `AskError::NoReply` instead of waiting forever.

use tokio::sync::oneshot;

/// The answering half, carried inside a message.
pub struct Reply<T>(oneshot::Sender<T>);

impl<T> std::fmt::Debug for Reply<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reply")
    }
}

impl<T> Reply<T> {
    /// Creates a port and the receiver the caller awaits.
    pub fn channel() -> (Self, oneshot::Receiver<T>) {
        let (tx, rx) = oneshot::channel();
        (Self(tx), rx)
    }

    /// Answers the caller. A caller that stopped waiting is not an error for the handler.
    pub fn send(self, value: T) {
        let _ = self.0.send(value);
    }

    /// True when the caller no longer waits (the handler may skip work nobody will see).
    pub fn is_abandoned(&self) -> bool {
        self.0.is_closed()
    }
}

/// Why an `ask` got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AskError {
    /// The actor's queue is full; nothing was queued.
    #[error("{actor}: queue full")]
    Full { actor: String },
    /// The actor is gone for good; nothing was queued.
    #[error("{actor}: not running")]
    Closed { actor: String },
    /// The message was accepted but the handler failed (panicked) before answering.
    #[error("{actor}: failed before answering")]
    NoReply { actor: String },
}
