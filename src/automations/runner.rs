//! The automation runner: a supervised actor that turns each reminder automation's occurrences
//! into tasks (a digest's occurrences are `subsystems::digest`'s).
//!
//! Owns: the tick (every `nudges.interval`, on the test-controllable clock). Takes: `Tick` (also
//! its own timer), which answers with the tasks it created.
//! Rules: for each automation, the latest occurrence in (`last_occurrence_at`, or its creation
//! when it never fired, up to now] becomes one task (`source: automation`, `scheduled_start` =
//! the occurrence, its origin thread, `automation_id`, `occurrence_at`); after downtime only
//! that latest missed occurrence fires, the ones before it are passed over. The Nudger then
//! nudges the task like any other whose start has come.
//! Invariants: the whole tick is ONE unit of work on the store writer (the task instances and
//! every `last_occurrence_at`), and an occurrence already a task is never inserted again (the
//! unique index `task_one_per_occurrence` backs this), so an occurrence fires exactly once
//! across ticks, restarts and crashes. Created tasks are published on the event bus only after
//! the commit. One automation whose rule cannot be expanded is logged and skipped; the others
//! still run.

use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};
use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::repo::{self, Automation, AutomationKind};
use crate::clock::SharedClock;
use crate::events::{EventBus, Payload, TaskChange};
use crate::store::{Store, StoreError};
use crate::tasks::model::{NewTask, TaskSource};
use crate::tasks::{repo as tasks, Task};

pub enum AutomationsMsg {
    Tick {
        reply: Option<Reply<Result<Vec<Task>, StoreError>>>,
    },
}

pub struct AutomationRunner {
    store: Store,
    clock: SharedClock,
    interval: Duration,
    events: EventBus,
}

impl AutomationRunner {
    pub fn new(store: Store, clock: SharedClock, interval: Duration, events: EventBus) -> Self {
        Self {
            store,
            clock,
            interval,
            events,
        }
    }
}

/// The occurrence of `automation` due at `now`, if one is: the latest in (last fired or
/// created, now].
pub fn due_occurrence(
    automation: &Automation,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, super::schedule::ScheduleError> {
    let after = automation
        .last_occurrence_at
        .unwrap_or(automation.created_at);
    automation.schedule.latest_occurrence_in(Some(after), now)
}

/// Creates the task of each automation's due occurrence, in the caller's transaction.
pub fn fire_due(conn: &Connection, now: DateTime<Utc>) -> Result<Vec<Task>, StoreError> {
    let mut created = Vec::new();
    for automation in repo::list_of(conn, AutomationKind::Reminder)? {
        let at = match due_occurrence(&automation, now) {
            Ok(Some(at)) => at,
            Ok(None) => continue,
            Err(error) => {
                tracing::warn!(automation = %automation.id, %error, "automation skipped");
                continue;
            }
        };
        if !repo::occurrence_exists(conn, &automation.id, at)? {
            let new = NewTask {
                domain: automation.domain.clone(),
                priority: automation.priority,
                scheduled_start: Some(at),
                source: TaskSource::Automation,
                origin_thread_id: automation.origin_thread_id.clone(),
                automation_id: Some(automation.id.clone()),
                occurrence_at: Some(at),
                created_by: automation.created_by.clone(),
                ..NewTask::titled(automation.title.clone())
            };
            let id = crate::ids::new_id("tsk");
            created.push(tasks::insert(conn, &id, &new, now)?);
        }
        repo::set_last_occurrence(conn, &automation.id, at)?;
    }
    Ok(created)
}

impl Behaviour for AutomationRunner {
    type Msg = AutomationsMsg;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(self.interval, || AutomationsMsg::Tick { reply: None });
    }

    fn handle(&mut self, message: AutomationsMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        let AutomationsMsg::Tick { reply } = message;
        let now = self.clock.now();
        let fired = self.store.write(move |conn| fire_due(conn, now));
        let events = self.events.clone();
        Handled::wait(async move {
            let result = fired.await;
            match &result {
                Ok(created) => {
                    // Committed: the console and /api/events may show them now.
                    for task in created {
                        events.publish(Payload::Task {
                            task_id: task.id.clone(),
                            change: TaskChange::Created,
                            status: task.status.to_string(),
                            title: task.title.clone(),
                        });
                    }
                    if !created.is_empty() {
                        tracing::info!(count = created.len(), "automation tasks created");
                    }
                }
                Err(error) => tracing::warn!(%error, "automation tick failed"),
            }
            if let Some(reply) = reply {
                reply.send(result);
            }
        })
    }
}
