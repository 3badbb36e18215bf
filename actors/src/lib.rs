//! A small supervised actor runtime on actix. It knows nothing about Donna.
//!
//! actix 0.13 alone loses work when a handler panics (the actor dies silently and the messages
//! queued for it fail) and does not bound `do_send`. This crate adds what a long-running bot
//! needs on top of it:
//! - [`Supervisor`] starts children from factories and restarts them with backoff and an
//!   intensity limit; a child's [`ChildRef`] and its queued messages outlive every restart.
//! - [`Behaviour`] is an actor's logic; the runtime's `Cell` (an actix actor) feeds it from a
//!   durable [`Mailbox`] one message at a time and captures its panics.
//! - [`KeyedRouter`] gives every key (a conversation thread) its own ordered, bounded queue and
//!   worker, created on demand and passivated when idle.
//! - [`HealthRegistry`] holds what `/health` reports.
//!
//! The guarantees are written down in `RUNTIME.md` beside this crate.

mod behaviour;
mod cell;
mod child;
mod fault;
mod health;
mod keyed;
mod mailbox;
mod panic;
mod reply;
mod supervisor;

pub use behaviour::{Behaviour, CellCtx, Handled};
pub use child::ChildRef;
pub use fault::FaultSwitch;
pub use health::{
    ActorHealth, ActorSnapshot, ActorState, Failure, HealthRegistry, HealthSnapshot, KeyedGauges,
};
pub use keyed::{KeyedConfig, KeyedRouter, RouteKey};
pub use mailbox::{Mailbox, PushError};
pub use reply::{AskError, Reply};
pub use supervisor::{ChildSpec, RestartLimits, RestartPolicy, Supervisor};
