//! "Donna is thinking": who is told that a turn is about to wait for the model, so a channel
//! can show it (Discord: the typing indicator; the event stream: a `thinking` event, which the
//! web page and the console show until Donna's answer). Instant turns (the FastPath, the rules)
//! never reach this; only a turn that is about to call the model does.
//!
//! Invariant: telling never blocks or fails a turn: each sink only starts its work and returns.

use std::sync::Arc;

use parking_lot::RwLock;

use super::Inbound;
use crate::events::{EventBus, Payload};

/// A channel that shows that Donna is thinking (it spawns its own work; it must not block).
pub trait ThinkingSink: Send + Sync {
    fn thinking(&self, inbound: &Inbound);
}

/// Where the pipeline tells it; each channel that shows it adds its sink at startup.
#[derive(Clone, Default)]
pub struct Thinking(Arc<RwLock<Vec<Arc<dyn ThinkingSink>>>>);

impl Thinking {
    /// Adds a sink: every later turn that waits for the model tells it too.
    pub fn add(&self, sink: Arc<dyn ThinkingSink>) {
        self.0.write().push(sink);
    }

    /// The turn of `inbound` is about to wait for the model.
    pub fn notify(&self, inbound: &Inbound) {
        for sink in self.0.read().iter() {
            sink.thinking(inbound);
        }
    }
}

impl std::fmt::Debug for Thinking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Thinking")
            .field(&self.0.read().len())
            .finish()
    }
}

/// The event stream shows it: a `thinking` event in the turn's thread (publishing never
/// blocks).
impl ThinkingSink for EventBus {
    fn thinking(&self, inbound: &Inbound) {
        self.publish(Payload::Thinking {
            thread_id: inbound.thread_id.clone(),
        });
    }
}
