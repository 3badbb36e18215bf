//! The trait an actor's logic implements, and the context it gets while handling a message.
//!
//! An actor here is a `Behaviour` (its state and handler) run by a `Cell` (the actix actor that
//! feeds it messages from a durable mailbox and captures its panics). Keeping the logic behind
//! this trait is what lets the runtime restart an actor from a factory with fresh state while the
//! queue, the address and the health record survive.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::LocalBoxFuture;

use crate::ActorHealth;

/// What a handler returns.
pub enum Handled {
    /// Finished; the next message may start.
    Done,
    /// Still working: the next message starts only after this future completes, so messages are
    /// handled one at a time in arrival order even when a handler awaits. The future must not
    /// borrow the actor; clone what it needs. A panic inside it is captured like a sync panic.
    Wait(LocalBoxFuture<'static, ()>),
}

impl std::fmt::Debug for Handled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Handled::Done => f.write_str("Done"),
            Handled::Wait(_) => f.write_str("Wait(..)"),
        }
    }
}

impl Handled {
    /// Wraps a future as `Handled::Wait`.
    pub fn wait(future: impl std::future::Future<Output = ()> + 'static) -> Self {
        Handled::Wait(Box::pin(future))
    }
}

/// An actor's logic. `Msg` is usually an enum whose variants carry `Reply` ports.
pub trait Behaviour: Sized + Unpin + 'static {
    type Msg: Send + 'static;

    /// Runs once per (re)start, before the first message. Timers are set up here.
    fn started(&mut self, _ctx: &mut CellCtx<Self>) {}

    /// Handles one message.
    fn handle(&mut self, message: Self::Msg, ctx: &mut CellCtx<Self>) -> Handled;

    /// Runs once when the actor ends normally because its host has nothing more for it (its
    /// queue was closed and everything queued was handled, or it was passivated), on the
    /// actor's own thread: the place for a last step that must follow all of its work (the
    /// store writer checkpoints its database here). Not called after a panic or `fail`. A
    /// panic here is caught and recorded; the actor still ends normally.
    fn stopping(&mut self) {}
}

type MakeMessage<M> = Box<dyn Fn() -> M>;

/// What a handler may ask of the runtime. Timers and `fail` are applied after the handler
/// returns; `degraded` at once, so a reply the handler sends afterwards is never seen before
/// the health it reports.
pub struct CellCtx<B: Behaviour> {
    pub(crate) timers: Vec<(Duration, MakeMessage<B::Msg>)>,
    pub(crate) queued: Box<dyn FnMut() -> Option<B::Msg>>,
    /// Set by `fail`: the actor ends for good with this reason after the handler.
    pub(crate) fatal: Option<String>,
    /// The actor's name and health record, for `degraded`.
    name: String,
    health: Arc<ActorHealth>,
}

impl<B: Behaviour> CellCtx<B> {
    pub(crate) fn new(
        queued: Box<dyn FnMut() -> Option<B::Msg>>,
        name: &str,
        health: Arc<ActorHealth>,
    ) -> Self {
        Self {
            timers: Vec::new(),
            queued,
            fatal: None,
            name: name.to_string(),
            health,
        }
    }

    /// This actor cannot go on and a restart would not help (e.g. the file it owns is damaged).
    /// Once the handler (and its future) finished, a supervised child is marked `failed` for good
    /// with `reason` as its last failure, whatever its restart policy: its queue is closed
    /// (what is left counts as dead letters) and a critical child raises the supervisor's
    /// critical failure. (A keyed worker is rebuilt, as after a panic.)
    pub fn fail(&mut self, reason: impl Into<String>) {
        self.fatal = Some(reason.into());
    }

    /// The actor runs but cannot do all of its work (`Some(reason)`: recorded as its last
    /// failure and shown as degraded in health), or can again (`None`). Not a failure state:
    /// nothing restarts. Recorded at once: whoever the handler answers next sees it in health.
    pub fn degraded(&mut self, reason: Option<String>) {
        match reason {
            Some(reason) => {
                if self.health.degraded().is_none() {
                    tracing::warn!(actor = %self.name, %reason, "actor degraded");
                }
                self.health.record_failure(reason.clone());
                self.health.set_degraded(Some(reason));
            }
            None => {
                if self.health.degraded().is_some() {
                    tracing::info!(actor = %self.name, "actor no longer degraded");
                    self.health.set_degraded(None);
                }
            }
        }
    }

    /// Puts `make()` into this actor's own mailbox every `period` (dropped when the mailbox is
    /// full: a tick is idempotent). Timers end when the actor instance stops.
    pub fn every(&mut self, period: Duration, make: impl Fn() -> B::Msg + 'static) {
        self.timers.push((period, Box::new(make)));
    }

    /// Takes the next already-queued message without waiting, so a handler can work on a batch
    /// (the store writer commits many units of work in one transaction).
    pub fn take_queued(&mut self) -> Option<B::Msg> {
        (self.queued)()
    }
}
