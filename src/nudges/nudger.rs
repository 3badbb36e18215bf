//! The Nudger: the ticking actor (`ticking::Ticking`) that sends proactive nudges about due and
//! overdue tasks, every `nudges.interval`.
//!
//! Takes: `NudgerMsg::Tick` (also its own timer), answered with the nudges it opened.
//! A tick: `due` chooses the tasks and `round` records their nudges, one message per chat, in
//! ONE unit of work on the store writer; then, with a `NudgeSink` (Discord is on), the nudges
//! that need a thread of their own go to it, one task at a time, in order. Every nudge opened
//! is published on the event bus (`nudge`, then `message`) once committed, and counted
//! (`metrics::NudgeMetrics`, shared across restarts).
//! Invariants: two ticks can never nudge a task twice (ticks wait for each other in the
//! mailbox); a task that cannot be read or nudged is skipped and reported (`skipped_rows`), the
//! others still are.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::due::{self, DueNudge, DueRules};
use super::round::{self, Round};
use super::{NudgeFailure, NudgeOpened, NudgeSink, NudgeTime};
use crate::config::QuietHours;
use crate::conversation::Channel;
use crate::events::EventBus;
use crate::metrics::NudgeMetrics;
use crate::skipped_rows::SkippedRows;
use crate::store::{Store, StoreError};
use crate::ticking::{Tick, TickMsg, TickWork};

pub type NudgerMsg = TickMsg<Vec<NudgeOpened>, StoreError>;

#[derive(Debug, Clone)]
pub struct NudgeRules {
    pub interval: Duration,
    pub min_gap: Duration,
    pub quiet_hours: QuietHours,
    pub timezone: chrono_tz::Tz,
}

/// What the Nudger's ticks use (run by `ticking::Ticking` every `rules.interval`).
pub struct Nudger {
    pub store: Store,
    pub rules: NudgeRules,
    /// The chat service that opens nudge threads itself (Discord, when it is on).
    pub sink: Option<Arc<dyn NudgeSink>>,
    /// Nudges sent, for /metrics (shared across restarts).
    pub metrics: Arc<NudgeMetrics>,
    pub events: EventBus,
    /// Tasks a tick went past, reported (shared across restarts).
    pub skipped: Arc<SkippedRows>,
}

/// Finds the due tasks and records their nudges, in one unit of work (see `round`); the
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
    round::open_round(conn, due, channel, sink_on, at, skipped)
}

impl Tick for Nudger {
    type Done = Vec<NudgeOpened>;
    type Error = StoreError;
    const WHAT: &'static str = "nudge";

    fn tick(&mut self, now: DateTime<Utc>) -> TickWork<Vec<NudgeOpened>, StoreError> {
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
        Box::pin(async move {
            let round = round.await?;
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
