//! "Donna is thinking": who is told that a turn is about to wait for the model, so a channel
//! can show it (Discord: the typing indicator). Instant turns (the FastPath, the rules) never
//! reach this; only a turn that is about to call the model does.
//!
//! Invariant: telling never blocks or fails a turn: the sink only starts its work and returns.

use std::sync::{Arc, OnceLock};

use super::Inbound;

/// A channel that shows that Donna is thinking (it spawns its own work; it must not block).
pub trait ThinkingSink: Send + Sync {
    fn thinking(&self, inbound: &Inbound);
}

/// Where the pipeline tells it; set once at startup when a channel that shows it is on.
#[derive(Clone, Default)]
pub struct Thinking(Arc<OnceLock<Arc<dyn ThinkingSink>>>);

impl Thinking {
    /// Sets the sink (the first one set stays).
    pub fn set(&self, sink: Arc<dyn ThinkingSink>) {
        let _ = self.0.set(sink);
    }

    /// The turn of `inbound` is about to wait for the model.
    pub fn notify(&self, inbound: &Inbound) {
        if let Some(sink) = self.0.get() {
            sink.thinking(inbound);
        }
    }
}

impl std::fmt::Debug for Thinking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Thinking")
            .field(&self.0.get().is_some())
            .finish()
    }
}
