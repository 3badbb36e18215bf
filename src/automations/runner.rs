//! The automation runner: a supervised actor that turns each reminder automation's occurrences
//! into tasks (a digest's occurrences are `subsystems::digest`'s).
//!
//! Owns: the tick (a `ticking::Ticking` actor: every `nudges.interval`, on the
//! test-controllable clock). Takes: `Tick` (also its own timer), which answers with the tasks it
//! created.
//! Rules: for each automation, the latest occurrence in (`last_occurrence_at`, or its creation
//! when it never fired, up to now] becomes one task (`source: automation`, `scheduled_start` =
//! the occurrence, its origin thread, `automation_id`, `occurrence_at`); after downtime only
//! that latest missed occurrence fires, the ones before it are passed over. One that repeats
//! from completion has one occurrence at a time: its next is due the rule's interval after the
//! last was closed (`completion`; read with the automations, no recurrence search). The Nudger
//! then nudges the task like any other whose start has come; when the person stated the time
//! of day (`time_stated`), the occurrence is marked explicit (`tasks::nudge_marks`), so it
//! fires at that time even in quiet hours, as a one-shot "remind me at 23:00" does.
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

use chrono::{DateTime, Utc};
use parking_lot::Mutex;
use rusqlite::Connection;

use super::completion::{self, Progress};
use super::due::{Due, DueSearch, Unusable};
use super::repeat_from::RepeatFrom;
use super::repo::{self, Automation, AutomationKind};
use crate::events::{EventBus, Payload, TaskChange};
use crate::skipped_rows::{Runner, SkippedRows};
use crate::store::{isolated, Store, StoreError};
use crate::tasks::model::{NewTask, TaskSource};
use crate::tasks::{nudge_marks, repo as tasks, Task};
use crate::ticking::{Tick, TickMsg, TickWork};

pub use super::due::due_occurrence;

pub type AutomationsMsg = TickMsg<Vec<Task>, StoreError>;

/// What the automation runner's ticks use (run by `ticking::Ticking`).
pub struct AutomationRunner {
    occurrences: Occurrences,
}

impl AutomationRunner {
    pub fn new(store: Store, events: EventBus, skipped: Arc<SkippedRows>) -> Self {
        let kind = (AutomationKind::Reminder, Runner::Automations);
        Self {
            occurrences: Occurrences::new(store, events, skipped, kind),
        }
    }
}

/// What a runner of the automations of one kind (reminders, digests) keeps across its ticks.
#[derive(Clone)]
pub struct Occurrences {
    store: Store,
    /// Where what a tick did is published, once committed.
    pub events: EventBus,
    skipped: Arc<SkippedRows>,
    /// When each automation is next due (fresh after a restart: searched once again).
    search: Arc<Mutex<DueSearch>>,
    kind: (AutomationKind, Runner),
}

/// Where `automation` stands when it repeats from completion (`completion::Progress`): its
/// latest occurrence's task and how many there were, read from the store.
pub fn progress(conn: &Connection, automation: &Automation) -> Result<Progress, StoreError> {
    let latest = match automation.last_occurrence_at {
        Some(at) => repo::occurrence_task(conn, &automation.id, at)?,
        None => None,
    };
    let fired = repo::occurrences_fired(conn, &automation.id)?;
    Ok(Progress::of(automation, latest.as_ref(), fired))
}

/// The occurrence of `automation` (repeating from completion) due at `now`, if one is.
fn due_from_completion(
    conn: &Connection,
    automation: &Automation,
    now: DateTime<Utc>,
) -> Result<Result<Option<DateTime<Utc>>, super::schedule::ScheduleError>, StoreError> {
    let next = completion::next_occurrence(automation, progress(conn, automation)?);
    Ok(next.map(|next| next.filter(|at| *at <= now)))
}

/// What a tick reads: the running automations to search (those on their schedule), and the
/// due occurrences of those that repeat from completion (no search: the step after the last one
/// was closed), with the ones whose rule cannot step.
#[derive(Debug, Default)]
struct Running {
    scheduled: Vec<Automation>,
    due: Vec<Due>,
    unusable: Vec<Unusable>,
}

fn read_running(
    conn: &Connection,
    kind: AutomationKind,
    now: DateTime<Utc>,
) -> Result<Running, StoreError> {
    let mut running = Running::default();
    let Running {
        scheduled,
        due,
        unusable,
    } = &mut running;
    for automation in repo::list_of(conn, kind)? {
        if automation.repeat_from == RepeatFrom::Schedule {
            scheduled.push(automation);
            continue;
        }
        match due_from_completion(conn, &automation, now)? {
            Ok(Some(at)) => due.push(Due { automation, at }),
            Ok(None) => {}
            Err(error) => unusable.push(Unusable {
                automation_id: automation.id,
                error,
            }),
        }
    }
    Ok(running)
}

impl Occurrences {
    pub fn new(
        store: Store,
        events: EventBus,
        skipped: Arc<SkippedRows>,
        kind: (AutomationKind, Runner),
    ) -> Self {
        Self {
            store,
            events,
            skipped,
            search: Arc::default(),
            kind,
        }
    }

    /// One tick: the running automations of this kind read from the pool, their due
    /// occurrences searched on the blocking pool (never on the store writer; the ones whose
    /// rule cannot be searched are reported), then `write` in one unit of work on the store
    /// writer, which is not asked at all when nothing is due.
    pub async fn tick<T, W>(self, now: DateTime<Utc>, write: W) -> Result<Vec<T>, StoreError>
    where
        T: Send + 'static,
        W: FnOnce(&Connection, &[Due], DateTime<Utc>, &SkippedRows) -> Result<Vec<T>, StoreError>
            + Send
            + 'static,
    {
        let (kind, runner) = self.kind;
        let running = self
            .store
            .read(move |conn| read_running(conn, kind, now))
            .await?;
        let (search, scheduled) = (self.search, running.scheduled);
        let (mut due, mut unusable) =
            tokio::task::spawn_blocking(move || search.lock().due(scheduled, now)).await?;
        due.extend(running.due);
        unusable.extend(running.unusable);
        for rule in unusable {
            self.skipped
                .report(runner, &rule.automation_id, &rule.error);
        }
        if due.is_empty() {
            return Ok(Vec::new());
        }
        let skipped = self.skipped;
        self.store
            .write(move |conn| write(conn, &due, now, &skipped))
            .await
    }
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
    if !still_as_read(conn, due)? || !still_due_from_completion(conn, due, now)? {
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
        if automation.time_stated {
            // The person said this time of day: it fires then, quiet hours or not.
            nudge_marks::set_explicit(conn, &id, Some(at))?;
        }
    }
    repo::set_last_occurrence(conn, &automation.id, at)?;
    Ok(created)
}

/// For one that repeats from completion, whether its last occurrence is still closed as the
/// read found it (not reopened meanwhile), in the writer's transaction; true for the others.
fn still_due_from_completion(
    conn: &Connection,
    due: &Due,
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    if due.automation.repeat_from == RepeatFrom::Schedule {
        return Ok(true);
    }
    Ok(due_from_completion(conn, &due.automation, now)?.ok() == Some(Some(due.at)))
}

impl Tick for AutomationRunner {
    type Done = Vec<Task>;
    type Error = StoreError;
    const WHAT: &'static str = "automation";

    fn tick(&mut self, now: DateTime<Utc>) -> TickWork<Vec<Task>, StoreError> {
        let occurrences = self.occurrences.clone();
        Box::pin(async move {
            let events = occurrences.events.clone();
            let created = occurrences.tick(now, fire).await?;
            // Committed: the console and /api/events may show them now.
            for task in &created {
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
            Ok(created)
        })
    }
}
