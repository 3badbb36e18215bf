//! The Cell: the actix actor that runs a `Behaviour`.
//!
//! Owns: one behaviour instance and the loop that feeds it messages from a durable mailbox.
//! Takes: nothing through actix's own mailbox; work arrives through the `Host`'s queue, which
//! outlives this instance.
//! Invariants:
//! - One message at a time, in queue order: the next message is taken only after the handler
//!   (and the future it returned, if any) has finished.
//! - A panic in `started`, `handle` or a handler's future is caught here, recorded in the health
//!   record, and handed to the host, which either restarts the behaviour in place (keyed
//!   workers) or stops this cell so its supervisor restarts it from the factory.
//! - When the instance goes away for any reason (stop, passivation, an escaped panic unwinding
//!   the arbiter task), the host is told exactly once, from `Drop`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use actix::{Actor, ActorContext, ActorFutureExt, AsyncContext, Context, WrapFuture};
use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;

use crate::behaviour::{Behaviour, CellCtx, Handled};
use crate::fault::FaultSwitch;
use crate::health::ActorHealth;
use crate::mailbox::Mailbox;
use crate::panic::panic_message;

/// What the host wants after a caught panic.
pub(crate) enum AfterPanic<B> {
    /// Keep going with this fresh instance and the same queue.
    ContinueWith(B),
    /// Stop this cell; the host's `exited` decides about a restart.
    Stop,
}

/// How the cell ended, as reported to the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Exit {
    /// The host asked for it (passivation, shutdown).
    Normal,
    /// A captured panic or an unexpected stop, with its message.
    Failed(String),
    /// The behaviour said it cannot go on (`CellCtx::fail`): no restart would help.
    Fatal(String),
}

/// The environment a cell runs in: its queue, its record, and its lifecycle policy.
pub(crate) trait Host<B: Behaviour>: 'static {
    fn name(&self) -> &str;
    fn mailbox(&self) -> &Arc<Mailbox<B::Msg>>;
    fn health(&self) -> &Arc<ActorHealth>;
    fn fault(&self) -> &FaultSwitch;
    /// The next message, or `None` when the cell should stop normally (e.g. passivated).
    fn next(self: Arc<Self>) -> LocalBoxFuture<'static, Option<B::Msg>>;
    fn after_panic(&self, message: &str) -> AfterPanic<B>;
    /// Called once, when the instance is dropped.
    fn exited(self: Arc<Self>, exit: Exit);
}

pub(crate) struct Cell<B: Behaviour, H: Host<B>> {
    behaviour: B,
    host: Arc<H>,
    exit: Exit,
    /// Set by a handler's `CellCtx::fail`; acted on once the handler finished.
    fatal: Option<String>,
}

impl<B: Behaviour, H: Host<B>> Cell<B, H> {
    pub(crate) fn new(behaviour: B, host: Arc<H>) -> Self {
        Self {
            behaviour,
            host,
            // Until the cell says otherwise, going away is a failure (e.g. an escaped panic).
            exit: Exit::Failed("actor stopped unexpectedly".to_string()),
            fatal: None,
        }
    }

    fn new_ctx(&self) -> CellCtx<B> {
        let mailbox = self.host.mailbox().clone();
        CellCtx::new(
            Box::new(move || mailbox.try_pop()),
            self.host.name(),
            self.host.health().clone(),
        )
    }

    /// Applies what a handler asked for: timers, a fatal failure.
    fn apply(&mut self, requests: CellCtx<B>, ctx: &mut Context<Self>) {
        if requests.fatal.is_some() {
            self.fatal = requests.fatal;
        }
        for (period, make) in requests.timers {
            ctx.run_interval(period, move |cell, _| {
                // A full mailbox drops the tick: ticks are idempotent.
                let _ = cell.host.mailbox().push(make());
            });
        }
    }

    fn run_started(&mut self, ctx: &mut Context<Self>) {
        let mut requests = self.new_ctx();
        let behaviour = &mut self.behaviour;
        match catch_unwind(AssertUnwindSafe(|| behaviour.started(&mut requests))) {
            Ok(()) => {
                self.apply(requests, ctx);
                self.proceed(ctx);
            }
            Err(payload) => self.panicked(panic_message(&*payload), ctx),
        }
    }

    fn pull_next(&mut self, ctx: &mut Context<Self>) {
        let next = self.host.clone().next();
        ctx.spawn(
            next.into_actor(self)
                .map(|message, cell, ctx| match message {
                    Some(message) => cell.dispatch(message, ctx),
                    None => cell.stop_normally(ctx),
                }),
        );
    }

    fn dispatch(&mut self, message: B::Msg, ctx: &mut Context<Self>) {
        self.host.health().begin();
        let mut requests = self.new_ctx();
        let (behaviour, host) = (&mut self.behaviour, &self.host);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            host.fault().check(host.name());
            behaviour.handle(message, &mut requests)
        }));
        self.apply(requests, ctx);
        match outcome {
            Ok(Handled::Done) => {
                self.host.health().end();
                self.proceed(ctx);
            }
            Ok(Handled::Wait(future)) => {
                let guarded = AssertUnwindSafe(future).catch_unwind();
                ctx.spawn(guarded.into_actor(self).map(|result, cell, ctx| {
                    cell.host.health().end();
                    match result {
                        Ok(()) => cell.proceed(ctx),
                        Err(payload) => cell.panicked(panic_message(&*payload), ctx),
                    }
                }));
            }
            Err(payload) => {
                self.host.health().end();
                self.panicked(panic_message(&*payload), ctx);
            }
        }
    }

    /// After a handler: the next message, or the end the handler asked for with `fail`.
    fn proceed(&mut self, ctx: &mut Context<Self>) {
        match self.fatal.take() {
            None => self.pull_next(ctx),
            Some(reason) => {
                tracing::error!(actor = %self.host.name(), %reason, "actor cannot go on");
                self.host.health().record_failure(reason.clone());
                self.exit = Exit::Fatal(reason);
                ctx.stop();
            }
        }
    }

    /// The host has nothing more for this instance: its last step, then a normal end.
    fn stop_normally(&mut self, ctx: &mut Context<Self>) {
        let behaviour = &mut self.behaviour;
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| behaviour.stopping())) {
            let message = panic_message(&*payload);
            tracing::warn!(actor = %self.host.name(), panic = %message, "stopping step panicked");
            self.host.health().record_failure(message);
        }
        self.exit = Exit::Normal;
        ctx.stop();
    }

    fn panicked(&mut self, message: String, ctx: &mut Context<Self>) {
        tracing::warn!(actor = %self.host.name(), panic = %message, "handler panicked");
        self.host.health().record_failure(message.clone());
        match self.host.after_panic(&message) {
            AfterPanic::ContinueWith(fresh) => {
                self.behaviour = fresh;
                self.run_started(ctx);
            }
            AfterPanic::Stop => {
                self.exit = Exit::Failed(message);
                ctx.stop();
            }
        }
    }
}

impl<B: Behaviour, H: Host<B>> Actor for Cell<B, H> {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        self.run_started(ctx);
    }
}

impl<B: Behaviour, H: Host<B>> Drop for Cell<B, H> {
    fn drop(&mut self) {
        let exit = std::mem::replace(&mut self.exit, Exit::Normal);
        self.host.clone().exited(exit);
    }
}
