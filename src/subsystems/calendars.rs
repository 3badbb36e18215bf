//! The Calendars actor: keeps every calendar Donna reads current (`calendar::refresh`), into
//! the shared `CalendarBook` that answers "what is on P's calendar" and /health.
//!
//! Owns: the refresh tick (every `TICK`, on the real timer; which sources are due is read
//! from the test-controllable clock). Takes: `Refresh` (also its own timer, and sent by
//! `PUT /api/people/{user_id}` when a person's calendars change), which answers every source's
//! state after the round.
//! Invariants: one round at a time (a round finishes before the next message); a round that
//! cannot read the store is logged and retried at the next tick, the book untouched; a restart
//! keeps the book (it is shared) and the stored copies.

use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};

use crate::calendar::book::SourceStatus;
use crate::calendar::refresh::Refresher;
use crate::clock::SharedClock;
use crate::store::StoreError;

/// How often due sources are looked for (the shortest `refresh` is a minute).
pub const TICK: Duration = Duration::from_secs(15);

pub enum CalendarsMsg {
    Refresh {
        reply: Option<Reply<Result<Vec<SourceStatus>, StoreError>>>,
    },
}

/// The actor and the book it keeps, as the app holds them.
#[derive(Debug, Clone)]
pub struct CalendarParts {
    pub actor: actors::ChildRef<CalendarsMsg>,
    /// Every calendar's events and state: "what is on P's calendar", /health.
    pub book: std::sync::Arc<crate::calendar::book::CalendarBook>,
}

pub struct Calendars {
    refresher: Refresher,
    clock: SharedClock,
}

impl Calendars {
    pub fn new(refresher: Refresher, clock: SharedClock) -> Self {
        Self { refresher, clock }
    }
}

impl Behaviour for Calendars {
    type Msg = CalendarsMsg;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(TICK, || CalendarsMsg::Refresh { reply: None });
    }

    fn handle(&mut self, message: CalendarsMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        let CalendarsMsg::Refresh { reply } = message;
        let (refresher, now) = (self.refresher.clone(), self.clock.now());
        Handled::wait(async move {
            let result = refresher.round(now).await;
            if let Err(error) = &result {
                tracing::warn!(%error, "calendar round failed");
            }
            if let Some(reply) = reply {
                reply.send(result);
            }
        })
    }
}
