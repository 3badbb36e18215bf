//! `ChildRef`: the address of a supervised actor, valid across its restarts.
//!
//! Owns: nothing but shared handles (the durable mailbox, the health record, the fault switch).
//! Invariants: `tell` and `ask` either queue the message or say why not (full, closed); a
//! refused message is never silently dropped; messages to a closed actor count as dead letters.

use std::sync::Arc;

use crate::fault::FaultSwitch;
use crate::health::{ActorHealth, HealthRegistry};
use crate::mailbox::{Mailbox, PushError};
use crate::reply::{AskError, Reply};

/// The address of a supervised actor. Cheap to clone; survives restarts.
pub struct ChildRef<M> {
    name: Arc<str>,
    mailbox: Arc<Mailbox<M>>,
    health: Arc<ActorHealth>,
    fault: Arc<FaultSwitch>,
    registry: Arc<HealthRegistry>,
}

impl<M> Clone for ChildRef<M> {
    fn clone(&self) -> Self {
        Self {
            name: self.name.clone(),
            mailbox: self.mailbox.clone(),
            health: self.health.clone(),
            fault: self.fault.clone(),
            registry: self.registry.clone(),
        }
    }
}

impl<M> std::fmt::Debug for ChildRef<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChildRef")
            .field("name", &self.name)
            .finish()
    }
}

impl<M: Send + 'static> ChildRef<M> {
    pub(crate) fn new(
        name: String,
        mailbox: Arc<Mailbox<M>>,
        health: Arc<ActorHealth>,
        fault: Arc<FaultSwitch>,
        registry: Arc<HealthRegistry>,
    ) -> Self {
        Self {
            name: name.into(),
            mailbox,
            health,
            fault,
            registry,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn health(&self) -> &Arc<ActorHealth> {
        &self.health
    }

    /// Queues a message without waiting for it to be handled.
    pub fn tell(&self, message: M) -> Result<(), PushError<M>> {
        self.mailbox.push(message).inspect_err(|error| {
            if matches!(error, PushError::Closed { .. }) {
                self.registry.add_dead_letters(1);
            }
        })
    }

    /// Queues a message carrying a reply port (now, not when the future is first polled, so
    /// the order of `ask` calls is the order of the queue) and returns the answer's future.
    pub fn ask<T>(
        &self,
        make: impl FnOnce(Reply<T>) -> M,
    ) -> impl std::future::Future<Output = Result<T, AskError>> {
        let (reply, answer) = Reply::channel();
        let actor = self.name.clone();
        let queued = self.tell(make(reply));
        async move {
            match queued {
                Err(PushError::Full { .. }) => Err(AskError::Full {
                    actor: actor.to_string(),
                }),
                Err(PushError::Closed { .. }) => Err(AskError::Closed {
                    actor: actor.to_string(),
                }),
                Ok(()) => answer.await.map_err(|_| AskError::NoReply {
                    actor: actor.to_string(),
                }),
            }
        }
    }

    /// Messages queued and not yet taken.
    pub fn queue_depth(&self) -> usize {
        self.mailbox.len()
    }

    /// Test hook: the `nth` message from now panics inside the handler boundary.
    #[cfg(feature = "fault-injection")]
    pub fn inject_panic_on_nth(&self, nth: u32) {
        self.fault.panic_on_nth(nth);
    }
}
