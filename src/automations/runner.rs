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
//! How: the running reminders are read (the read pool), their due occurrences searched on the
//! blocking pool (`due::DueSearch`: bounded, and only for the automations whose next
//! occurrence can have come), then the tasks written; no recurrence search runs on the store
//! writer, so a turn never waits behind one.
//! Invariants: the tick's writes are ONE unit of work on the store writer (the task instances
//! and every `last_occurrence_at`), made only for an automation still exactly as the search
//! read it, and an occurrence already a task is never inserted again (the unique index
//! `task_one_per_occurrence` backs this), so an occurrence fires exactly once across ticks,
//! restarts and crashes. Created tasks are published on the event bus only after the commit.
//! An automation whose rule cannot be searched, or whose task cannot be written, is skipped and
//! reported (`skipped_rows`); the others still run.

use std::sync::Arc;
use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};
use chrono::{DateTime, Utc};
use parking_lot::Mutex;
use rusqlite::Connection;

use super::due::{Due, DueSearch};
use super::repo::{self, AutomationKind};
use crate::clock::SharedClock;
use crate::events::{EventBus, Payload, TaskChange};
use crate::skipped_rows::{Runner, SkippedRows};
use crate::store::{isolated, Store, StoreError};
use crate::tasks::model::{NewTask, TaskSource};
use crate::tasks::{repo as tasks, Task};

pub use super::due::due_occurrence;

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
    skipped: Arc<SkippedRows>,
    /// When each automation is next due (fresh after a restart: searched once again).
    search: Arc<Mutex<DueSearch>>,
}

impl AutomationRunner {
    pub fn new(
        store: Store,
        clock: SharedClock,
        interval: Duration,
        events: EventBus,
        skipped: Arc<SkippedRows>,
    ) -> Self {
        Self {
            store,
            clock,
            interval,
            events,
            skipped,
            search: Arc::default(),
        }
    }
}

/// The row-writing step of a runner: the due automations, written in one unit of work, each
/// row on its own, the ones that fail reported.
pub type WriteDue<T> =
    fn(&Connection, &[Due], DateTime<Utc>, &SkippedRows) -> Result<Vec<T>, StoreError>;

/// One tick of the runner of `kind`: the running automations read from the pool, their due
/// occurrences searched on the blocking pool (never on the store writer; the ones whose rule
/// cannot be searched are reported), then `write` in one unit of work on the store writer,
/// which is not asked at all when nothing is due.
pub async fn tick_of<T: Send + 'static>(
    store: &Store,
    search: &Arc<Mutex<DueSearch>>,
    skipped: Arc<SkippedRows>,
    (kind, runner): (AutomationKind, Runner),
    now: DateTime<Utc>,
    write: WriteDue<T>,
) -> Result<Vec<T>, StoreError> {
    let automations = store.read(move |conn| repo::list_of(conn, kind)).await?;
    let search = search.clone();
    let (due, unusable) =
        tokio::task::spawn_blocking(move || search.lock().due(automations, now)).await?;
    for rule in unusable {
        skipped.report(runner, &rule.automation_id, &rule.error);
    }
    if due.is_empty() {
        return Ok(Vec::new());
    }
    store
        .write(move |conn| write(conn, &due, now, &skipped))
        .await
}

/// Whether the automation is still exactly as the search read it (not stopped, removed,
/// changed or fired meanwhile), in the writer's transaction.
pub fn still_as_read(conn: &Connection, due: &Due) -> Result<bool, StoreError> {
    Ok(repo::get(conn, &due.automation.id)?.is_some_and(|stored| stored == due.automation))
}

/// Creates the task of each due occurrence, in the caller's transaction; one that cannot be
/// written is reported and the others go on.
pub fn fire(
    conn: &Connection,
    due: &[Due],
    now: DateTime<Utc>,
    skipped: &SkippedRows,
) -> Result<Vec<Task>, StoreError> {
    let mut created = Vec::new();
    for due in due {
        match isolated(conn, |conn| fire_one(conn, due, now))? {
            Ok(task) => created.extend(task),
            Err(why) => skipped.report(Runner::Automations, &due.automation.id, &why),
        }
    }
    Ok(created)
}

fn fire_one(conn: &Connection, due: &Due, now: DateTime<Utc>) -> Result<Option<Task>, StoreError> {
    if !still_as_read(conn, due)? {
        return Ok(None);
    }
    let (automation, at) = (&due.automation, due.at);
    let mut created = None;
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
        created = Some(tasks::insert(conn, &id, &new, now)?);
    }
    repo::set_last_occurrence(conn, &automation.id, at)?;
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
        let (store, search, skipped) = (
            self.store.clone(),
            self.search.clone(),
            self.skipped.clone(),
        );
        let fired = async move {
            let kind = (AutomationKind::Reminder, Runner::Automations);
            tick_of(&store, &search, skipped, kind, now, fire).await
        };
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
