//! Placing deadline tasks: a task with a deadline and an estimate but no start is offered ONE
//! slot of free time before its deadline, as a plan the person answers with yes or no (the
//! digest carries it: `subsystems::digest`).
//!
//! Owns: which task is placed (open, deadline ahead, an estimate, no start, never declined,
//! no proposal of it still waiting; the soonest deadline first) and where (the first free slot
//! between now and its deadline as long as the estimate, inside the person's working hours
//! and outside their quiet hours, over their own busy events: `CalendarBook::free_slots_of`;
//! its start on a quarter hour), and the plan step that moves it there after a yes.
//! Invariants: nothing here writes a task: the move is a `reschedule` step of a plan, run only
//! after the person's yes; a slot ends at or before the task's deadline, overlaps none of the
//! person's busy events and lies inside their working hours, outside their quiet hours; a
//! task whose proposal was declined is never proposed again (`repo::placing_of`).

use chrono::{DateTime, Duration, DurationRound, Utc};
use serde_json::{Map, Value};

use super::book::CalendarBook;
use super::free_slots::Slot;
use crate::actions::{BoundAction, HandlerKind, TimeReading};
use crate::people::WorkDay;
use crate::tasks::Task;

/// The name of the plan step (the chat's own reschedule, so a yes runs what it always runs).
pub const STEP: &str = "reschedule_task";

/// Where a slot may start: on a quarter hour.
const STEP_MINUTES: i64 = 15;

/// A task and the slot proposed for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Placing {
    pub task: Task,
    pub slot: Slot,
}

/// Whether `task` is one to place at `now`: open, deadline ahead, an estimate, no start.
pub fn wants_a_slot(task: &Task, now: DateTime<Utc>) -> bool {
    task.status.is_open()
        && task.scheduled_start.is_none()
        && task.deadline.is_some_and(|deadline| deadline > now)
        && task
            .estimated_duration_minutes
            .is_some_and(|minutes| minutes > 0)
}

/// The first task of `tasks` (soonest deadline first) that wants a slot and has one, with its
/// slot. `passed`: tasks never to place (declined, or a proposal still waiting).
/// `earliest`: where a slot may start at the soonest (the person needs time to answer).
pub fn choose(
    tasks: &[Task],
    passed: &dyn Fn(&Task) -> bool,
    (book, person, day): (&CalendarBook, &str, &WorkDay),
    (now, earliest): (DateTime<Utc>, DateTime<Utc>),
) -> Option<Placing> {
    let mut wanting: Vec<&Task> = tasks
        .iter()
        .filter(|task| wants_a_slot(task, now) && !passed(task))
        .collect();
    wanting.sort_by_key(|task| (task.deadline, task.created_at));
    wanting.into_iter().find_map(|task| {
        let (deadline, minutes) = (task.deadline?, task.estimated_duration_minutes?);
        let length = Duration::minutes(minutes);
        let free = book.free_slots_of(person, (earliest, deadline), length, day);
        let slot = free.iter().find_map(|free| {
            let start = on_a_quarter_hour(free.start);
            let end = start + length;
            (end <= free.end).then_some(Slot { start, end })
        })?;
        Some(Placing {
            task: task.clone(),
            slot,
        })
    })
}

/// `at`, or the next quarter hour after it.
pub fn on_a_quarter_hour(at: DateTime<Utc>) -> DateTime<Utc> {
    let step = Duration::minutes(STEP_MINUTES);
    match at.duration_trunc(step) {
        Ok(down) if down == at => at,
        Ok(down) => down + step,
        Err(_) => at,
    }
}

/// The plan step that moves the task to its slot after a yes.
pub fn step(placing: &Placing) -> BoundAction {
    let start = placing.slot.start;
    let mut params = Map::new();
    params.insert("task_id".into(), Value::String(placing.task.id.clone()));
    params.insert("when".into(), Value::String(start.to_rfc3339()));
    BoundAction {
        name: STEP.to_string(),
        handler: HandlerKind::Reschedule,
        params,
        times: [("when".to_string(), TimeReading::At(start))].into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_slot_starts_on_the_quarter_hour_at_or_after_the_free_time() {
        let at = |h, m, s| {
            Utc.with_ymd_and_hms(2026, 11, 24, h, m, s)
                .single()
                .unwrap_or_default()
        };
        // (free from, slot start)
        let table = [
            (at(9, 0, 0), at(9, 0, 0)),
            (at(9, 0, 1), at(9, 15, 0)),
            (at(9, 7, 0), at(9, 15, 0)),
            (at(9, 45, 0), at(9, 45, 0)),
            (at(9, 59, 59), at(10, 0, 0)),
            (at(23, 50, 0), at(0, 0, 0) + Duration::days(1)),
        ];
        for (free, start) in table {
            assert_eq!(on_a_quarter_hour(free), start, "{free}");
        }
    }
}
