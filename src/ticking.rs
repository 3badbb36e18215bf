//! The one shape of a scheduled actor (the Nudger, the automation runner, the digest runner):
//! a tick every `interval` on its own timer, or when asked by message.
//!
//! Owns: the timer and the tick's answer. Takes: `TickMsg::Tick` (its timer's carries no
//! reply; the app and the tests ask with one and hear what the tick did, or why it failed).
//! Invariants: one tick at a time (the mailbox waits for a tick's work, so two ticks never
//! overlap and each sees what the one before it committed); the time of a tick is read from
//! the test-controllable clock when it starts; a failed tick is logged and answered, and the
//! next tick runs as usual. Supervision (restarts) is the `ChildSpec`'s, as for any actor.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};
use chrono::{DateTime, Utc};

use crate::clock::SharedClock;

/// The message of a ticking actor whose ticks answer `Result<T, E>`.
pub enum TickMsg<T, E> {
    Tick { reply: Option<Reply<Result<T, E>>> },
}

/// What a ticking actor does at each tick.
pub trait Tick: Unpin + 'static {
    /// What a tick did, as its answer.
    type Done: Send + 'static;
    type Error: std::fmt::Display + Send + 'static;
    /// What ticks, for the log ("nudge" → "nudge tick failed").
    const WHAT: &'static str;

    /// One tick at `now`; the returned work runs before the next message is taken.
    fn tick(&mut self, now: DateTime<Utc>) -> TickWork<Self::Done, Self::Error>;
}

/// A tick's work: boxed, so each actor's `tick` is one line to declare (a tick a minute makes
/// the allocation nothing).
pub type TickWork<T, E> = Pin<Box<dyn Future<Output = Result<T, E>> + 'static>>;

/// A supervised actor running `W` every `interval` of `clock`.
pub struct Ticking<W> {
    clock: SharedClock,
    interval: Duration,
    work: W,
}

impl<W: Tick> Ticking<W> {
    pub fn new(clock: SharedClock, interval: Duration, work: W) -> Self {
        Self {
            clock,
            interval,
            work,
        }
    }
}

impl<W: Tick> Behaviour for Ticking<W> {
    type Msg = TickMsg<W::Done, W::Error>;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(self.interval, || TickMsg::Tick { reply: None });
    }

    fn handle(&mut self, message: Self::Msg, _ctx: &mut CellCtx<Self>) -> Handled {
        let TickMsg::Tick { reply } = message;
        let ticked = self.work.tick(self.clock.now());
        Handled::wait(async move {
            let result = ticked.await;
            if let Err(error) = &result {
                tracing::warn!(%error, "{} tick failed", W::WHAT);
            }
            if let Some(reply) = reply {
                reply.send(result);
            }
        })
    }
}
