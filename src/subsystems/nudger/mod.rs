//! The Nudger actor: proactive nudges about due and overdue tasks.
//!
//! Owns: the nudge schedule (every `nudges.interval`). Takes: `Tick` (also its own timer).
//! Split by concept: `due` (which tasks are due and which nudge each gets: overdue, check-in,
//! the backoff), `completion` (the completion check-in), `quiet` (quiet hours and the explicit
//! times that fire in them), `grouped` (one message per chat for everything due at once).
//! Where nudges go: a task captured in a chat that is still an open free thread is nudged in
//! that chat; otherwise a task with an open thread is nudged in that thread. With a
//! `NudgeSink` (Discord is on) the nudges that need a thread of their own go to it, one task
//! at a time, after the unit of work that recorded the others; otherwise to the local channel.
//! Every nudge opened is published on the event bus (`nudge`, then `message`) once committed.
//! Invariants: choosing the tasks and recording their nudges is one unit of work, so two ticks
//! can never nudge a task twice (ticks wait for each other in the mailbox); a task that cannot
//! be read or nudged is skipped and reported (`skipped_rows`), the others still are.

use std::sync::Arc;
use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::clock::SharedClock;
use crate::config::QuietHours;
use crate::conversation::Channel;
use crate::events::EventBus;
use crate::metrics::NudgeMetrics;
use crate::nudges::{NudgeFailure, NudgeOpened, NudgeSink, NudgeTime};
use crate::skipped_rows::SkippedRows;
use crate::store::{Store, StoreError};

pub mod completion;
pub mod due;
pub mod grouped;
pub mod quiet;

pub use due::{gap, is_due, DueNudge, DueRules, MAX_GAP};
use grouped::Round;

pub enum NudgerMsg {
    Tick {
        reply: Option<Reply<Result<Vec<NudgeOpened>, StoreError>>>,
    },
}

#[derive(Debug, Clone)]
pub struct NudgeRules {
    pub interval: Duration,
    pub min_gap: Duration,
    pub quiet_hours: QuietHours,
    pub timezone: chrono_tz::Tz,
}

pub struct Nudger {
    store: Store,
    clock: SharedClock,
    rules: NudgeRules,
    /// The chat service that opens nudge threads itself (Discord, when it is on).
    sink: Option<Arc<dyn NudgeSink>>,
    /// Nudges sent, for /metrics (shared across restarts).
    metrics: Arc<NudgeMetrics>,
    events: EventBus,
    /// Tasks a tick went past, reported (shared across restarts).
    skipped: Arc<SkippedRows>,
}

impl Nudger {
    pub fn new(
        store: Store,
        clock: SharedClock,
        rules: NudgeRules,
        sink: Option<Arc<dyn NudgeSink>>,
        metrics: Arc<NudgeMetrics>,
        events: EventBus,
        skipped: Arc<SkippedRows>,
    ) -> Self {
        Self {
            store,
            clock,
            rules,
            sink,
            metrics,
            events,
            skipped,
        }
    }
}

/// Finds the due tasks and records their nudges, in one unit of work (see `grouped`); the
/// tasks left for a sink are returned with what was opened.
pub fn nudge_due(
    conn: &Connection,
    now: DateTime<Utc>,
    rules: &DueRules,
    channel: Channel,
    sink_on: bool,
    skipped: &SkippedRows,
) -> Result<Round, StoreError> {
    let due = due::due_nudges(conn, now, rules, skipped)?;
    let at = NudgeTime::new(now, rules.timezone);
    grouped::open_round(conn, due, channel, sink_on, at, skipped)
}

impl Behaviour for Nudger {
    type Msg = NudgerMsg;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(self.rules.interval, || NudgerMsg::Tick { reply: None });
    }

    fn handle(&mut self, message: NudgerMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        let NudgerMsg::Tick { reply } = message;
        let now = self.clock.now();
        let rules = DueRules {
            min_gap: self.rules.min_gap,
            quiet_hours: self.rules.quiet_hours,
            timezone: self.rules.timezone,
        };
        let sink = self.sink.clone();
        let sink_on = sink.is_some();
        let skipped = self.skipped.clone();
        let round = self
            .store
            .write(move |conn| nudge_due(conn, now, &rules, Channel::Local, sink_on, &skipped));
        let (events, metrics) = (self.events.clone(), self.metrics.clone());
        Handled::wait(async move {
            let result = match round.await {
                Ok(round) => {
                    let mut opened = Vec::new();
                    // Committed: now the console and /api/events may show them.
                    for nudge in &round.opened {
                        nudge.publish(&events);
                        opened.extend(nudge.nudges().iter().cloned());
                    }
                    if let Some(sink) = sink {
                        opened.extend(through_sink(sink.as_ref(), round.for_sink, &events).await);
                    }
                    metrics.record_scheduled(opened.len());
                    if !opened.is_empty() {
                        tracing::info!(count = opened.len(), "nudged");
                    }
                    Ok(opened)
                }
                Err(error) => {
                    tracing::warn!(%error, "nudge tick failed");
                    Err(error)
                }
            };
            if let Some(reply) = reply {
                reply.send(result);
            }
        })
    }
}

/// The nudges that need a thread of their own, through the sink (Discord creates the thread,
/// then records the nudge), one task at a time, in order.
async fn through_sink(
    sink: &dyn NudgeSink,
    due: Vec<DueNudge>,
    events: &EventBus,
) -> Vec<NudgeOpened> {
    let mut opened = Vec::new();
    for nudge in due {
        match sink
            .open_nudge(nudge.task.id.clone(), Some(nudge.context))
            .await
        {
            Ok(done) => {
                done.publish(events);
                opened.push(done);
            }
            Err(NudgeFailure::Unavailable(error)) => {
                tracing::warn!(task = %nudge.task.id, %error, "nudge sink unavailable")
            }
            Err(error) => tracing::warn!(task = %nudge.task.id, %error, "nudge not opened"),
        }
    }
    opened
}
