//! The event stream: what Donna did, for anyone watching (`GET /api/events`, the console).
//!
//! Owns: the [`EventBus`] (`bus`: a ring of the last events and a broadcast channel for live
//! subscribers, a [`Subscription`] that resumes after a `Last-Event-ID`) and the shapes of the
//! events (`payload`: `nudge`, `message`, `task`, `thinking`, and the `reset` a subscriber gets
//! when it missed some).
//! Taken: `publish` from whoever committed the change (the turn after its commit, the Nudger,
//! the HTTP API, the console). Sent: each event to every live subscription.
//! Invariants: an event is published only after the change it reports is committed (`thinking`
//! reports none: it says a turn is waiting for the model, `turn::thinking`); publishing
//! never blocks and never fails (nobody listening is fine; a slow subscriber lags and then
//! resumes from the ring, or is told with a `reset` what it missed); ids increase within a run
//! and carry the run, so an id from another run is never mistaken for one of this run.

mod bus;
mod payload;

pub use bus::{EventBus, Next, Subscription, LIVE_CAPACITY, RING_CAPACITY};
pub use payload::{Event, Payload, ResetReason, TaskChange};
