//! The Nudger actor: proactive nudges about due and overdue tasks.
//!
//! Owns: the nudge schedule (every `nudges.interval`). Takes: `Tick` (also its own timer).
//! Rules: a task is nudged when its deadline has passed (overdue) or its scheduled start has
//! passed (check-in); not when it is done or cancelled, snoozed, rescheduled to a later time,
//! inside `nudges.quiet_hours` (local time), or nudged too recently. The gap starts at
//! `nudges.min_gap` and doubles with each unanswered nudge, up to 24 hours; any answer in the
//! thread resets it. A task captured in a chat that is still an open free thread is nudged in
//! that chat (`nudges::open_in_origin`); otherwise a task with an open thread is nudged in that
//! thread. With a `NudgeSink` (Discord is on) the other nudges go to it, one task at a time;
//! otherwise to the local channel.
//! Every nudge opened is published on the event bus (`nudge`, then `message`) once committed.
//! Invariant: choosing the tasks and recording their nudges is one unit of work, so two ticks
//! can never nudge a task twice.

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
use crate::nudges::{self, NudgeFailure, NudgeOpened, NudgeSink, NudgeTime};
use crate::store::{Store, StoreError};
use crate::tasks::{repo, Task};

/// Longest gap between nudges of one task, however many went unanswered.
pub const MAX_GAP: Duration = Duration::from_secs(24 * 3600);

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
}

impl Nudger {
    pub fn new(
        store: Store,
        clock: SharedClock,
        rules: NudgeRules,
        sink: Option<Arc<dyn NudgeSink>>,
        metrics: Arc<NudgeMetrics>,
        events: EventBus,
    ) -> Self {
        Self {
            store,
            clock,
            rules,
            sink,
            metrics,
            events,
        }
    }
}

/// The gap required after `unanswered` unanswered nudges.
pub fn gap(min_gap: Duration, unanswered: i64) -> Duration {
    let doublings = u32::try_from(unanswered.saturating_sub(1).max(0))
        .unwrap_or(u32::MAX)
        .min(16);
    min_gap.saturating_mul(1u32 << doublings).min(MAX_GAP)
}

/// Whether `task` is due for a nudge at `now`.
pub fn is_due(task: &Task, now: DateTime<Utc>, min_gap: Duration) -> bool {
    if !task.status.is_open() {
        return false;
    }
    if task.snoozed_until.is_some_and(|until| until > now) {
        return false;
    }
    // Rescheduled to a later time: wait for it.
    if task.scheduled_start.is_some_and(|start| start > now) {
        return false;
    }
    let overdue = task.deadline.is_some_and(|deadline| deadline <= now);
    let started = task.scheduled_start.is_some_and(|start| start <= now);
    if !overdue && !started {
        return false;
    }
    match task.last_nudged_at {
        None => true,
        Some(last) => {
            let required = chrono::Duration::from_std(gap(min_gap, task.unanswered_nudges))
                .unwrap_or(chrono::Duration::MAX);
            now - last >= required
        }
    }
}

/// The tasks due for a nudge at `now`, most overdue first.
pub fn due_tasks(
    conn: &Connection,
    now: DateTime<Utc>,
    min_gap: Duration,
) -> Result<Vec<Task>, StoreError> {
    let candidates = repo::nudge_candidate_ids(conn, now)?;
    let mut due = Vec::new();
    for id in candidates {
        if let Some(task) = repo::get(conn, &id)? {
            if is_due(&task, now, min_gap) {
                due.push(task);
            }
        }
    }
    Ok(due)
}

/// Finds the due tasks and nudges them, in one unit of work: in the chat each was captured in,
/// else in its thread on `channel` (Discord is off here, so a Discord chat is not used).
pub fn nudge_due(
    conn: &Connection,
    at: NudgeTime,
    min_gap: Duration,
    channel: Channel,
) -> Result<Vec<NudgeOpened>, StoreError> {
    let mut opened = Vec::new();
    for task in due_tasks(conn, at.now, min_gap)? {
        match nudges::open_where_it_belongs(
            conn,
            &task.id,
            None,
            channel,
            false,
            || crate::ids::new_id("thr"),
            at,
        ) {
            Ok(nudge) => opened.push(nudge),
            Err(nudges::NudgeError::Store(error)) => return Err(error),
            Err(other) => tracing::debug!(task = %task.id, %other, "not nudged"),
        }
    }
    Ok(opened)
}

impl Behaviour for Nudger {
    type Msg = NudgerMsg;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(self.rules.interval, || NudgerMsg::Tick { reply: None });
    }

    fn handle(&mut self, message: NudgerMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        let NudgerMsg::Tick { reply } = message;
        let now = self.clock.now();
        let local = now.with_timezone(&self.rules.timezone).time();
        if self.rules.quiet_hours.contains(local) {
            if let Some(reply) = reply {
                reply.send(Ok(Vec::new()));
            }
            return Handled::Done;
        }
        let min_gap = self.rules.min_gap;
        let at = NudgeTime::new(now, self.rules.timezone);
        let metrics = self.metrics.clone();
        if let Some(sink) = self.sink.clone() {
            // The sink first creates the thread (Discord: REST), then records the nudge; one task
            // at a time. A task captured in a chat is nudged there instead, without the sink
            // (a Discord chat's nudge leaves through the outbox like any reply).
            let due = self.store.read(move |conn| due_tasks(conn, now, min_gap));
            let events = self.events.clone();
            let store = self.store.clone();
            return Handled::wait(async move {
                let result = match due.await {
                    Ok(tasks) => {
                        let mut opened = Vec::new();
                        for task in tasks {
                            let id = task.id.clone();
                            let here = match task.origin_thread_id {
                                Some(_) => {
                                    store
                                        .write(move |conn| {
                                            Ok(nudges::open_in_origin(conn, &id, None, true, at))
                                        })
                                        .await
                                }
                                None => Ok(Ok(None)),
                            };
                            match here {
                                Ok(Ok(Some(nudge))) => {
                                    nudge.publish(&events);
                                    opened.push(nudge);
                                    continue;
                                }
                                Ok(Ok(None)) => {}
                                Ok(Err(nudges::NudgeError::Store(error))) | Err(error) => {
                                    tracing::warn!(task = %task.id, %error, "nudge not recorded");
                                    continue;
                                }
                                Ok(Err(error)) => {
                                    tracing::debug!(task = %task.id, %error, "not nudged");
                                    continue;
                                }
                            }
                            match sink.open_nudge(task.id.clone(), None).await {
                                Ok(nudge) => {
                                    nudge.publish(&events);
                                    opened.push(nudge)
                                }
                                Err(NudgeFailure::Unavailable(error)) => {
                                    tracing::warn!(task = %task.id, %error, "nudge sink unavailable")
                                }
                                Err(error) => {
                                    tracing::warn!(task = %task.id, %error, "nudge not opened")
                                }
                            }
                        }
                        metrics.record_scheduled(opened.len());
                        Ok(opened)
                    }
                    Err(error) => Err(error),
                };
                if let Some(reply) = reply {
                    reply.send(result);
                }
            });
        }
        let nudged = self
            .store
            .write(move |conn| nudge_due(conn, at, min_gap, Channel::Local));
        let events = self.events.clone();
        Handled::wait(async move {
            let result = nudged.await;
            if let Ok(opened) = &result {
                metrics.record_scheduled(opened.len());
            }
            match &result {
                Ok(opened) if !opened.is_empty() => {
                    // Committed: now the console and /api/events may show them.
                    for nudge in opened {
                        nudge.publish(&events);
                    }
                    tracing::info!(count = opened.len(), "nudged")
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "nudge tick failed"),
            }
            if let Some(reply) = reply {
                reply.send(result);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gap_doubles_with_each_unanswered_nudge_up_to_a_day() {
        let hour = Duration::from_secs(3600);
        let gaps: Vec<u64> = (0..=6).map(|n| gap(4 * hour, n).as_secs() / 3600).collect();
        assert_eq!(gaps, vec![4, 4, 8, 16, 24, 24, 24]);
    }
}
