//! The PendingPlans actor: plan expiry on a schedule, and plan reads.
//!
//! Owns: the expiry sweep (every `plans.sweep_interval`). Takes: `Sweep` (also its own timer),
//! `Latest` (a thread's latest plan).
//! Invariants: plans live in the database, so they survive restarts; a plan past its expiry is
//! never confirmable even before the sweep marks it (the turn checks `expires_at` itself).

use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};

use crate::clock::SharedClock;
use crate::conversation::plans::{self, Plan};
use crate::store::{Store, StoreError};

pub enum PlansMsg {
    Sweep {
        reply: Option<Reply<Result<usize, StoreError>>>,
    },
    Latest {
        thread_id: String,
        reply: Reply<Result<Option<Plan>, StoreError>>,
    },
}

pub struct PendingPlans {
    store: Store,
    clock: SharedClock,
    sweep_interval: Duration,
}

impl PendingPlans {
    pub fn new(store: Store, clock: SharedClock, sweep_interval: Duration) -> Self {
        Self {
            store,
            clock,
            sweep_interval,
        }
    }
}

impl Behaviour for PendingPlans {
    type Msg = PlansMsg;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(self.sweep_interval, || PlansMsg::Sweep { reply: None });
    }

    fn handle(&mut self, message: PlansMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            PlansMsg::Sweep { reply } => {
                let now = self.clock.now();
                let swept = self.store.write(move |conn| plans::expire_stale(conn, now));
                Handled::wait(async move {
                    let result = swept.await;
                    match &result {
                        Ok(0) => {}
                        Ok(count) => tracing::info!(count, "expired stale plans"),
                        Err(error) => tracing::warn!(%error, "plan expiry sweep failed"),
                    }
                    if let Some(reply) = reply {
                        reply.send(result);
                    }
                })
            }
            PlansMsg::Latest { thread_id, reply } => {
                let read = self.store.read(move |conn| plans::latest(conn, &thread_id));
                actix_rt::spawn(async move { reply.send(read.await) });
                Handled::Done
            }
        }
    }
}
