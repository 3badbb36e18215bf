//! Offering a slot for a deadline task (`placing`) in a chat of the person's own: the plan is
//! saved (its one step moves the task to the slot after a yes) with the slot it proposes, and
//! the words of the offer are returned for the message that carries it (the digest).
//!
//! Takes: the chat, the person, now and `OfferRules` (their calendars, the default working
//! hours and how long a plan waits at the least). Writes: one plan and one `task_placing` row,
//! or nothing.
//! Invariants: only in a chat that is not a group (a person's free time is theirs); never when
//! the chat already has a live plan (one plan per chat: an offer never cancels a question
//! waiting for the person); only the person's own tasks (made by them, or not in a chat by
//! anyone) they can see; a task with a live offer or a declined one is passed over; the plan
//! is answerable only by the person and only by a message after it; it waits at least
//! `plans.expiry` (the slot starts no sooner) and ends when the slot starts, or a day after
//! the offer, whichever is sooner. Reads only the open tasks due after that earliest start (the
//! only ones a slot can be found for), never every open task.

use std::collections::HashSet;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use rusqlite::Connection;

use super::book::CalendarBook;
use super::placing::{self, Placing};
use super::repo;
use crate::config::WorkingHours;
use crate::conversation::participation::{visible_threads, Viewer};
use crate::conversation::plans::{self, Plan, PlanStatus};
use crate::conversation::{inbox, Thread};
use crate::people::{self, OwnDay};
use crate::store::StoreError;
use crate::tasks::open::{self, Window};
use crate::tasks::when::{describe, WhenContext};

/// What an offer is made with.
#[derive(Debug, Clone)]
pub struct OfferRules {
    pub book: Arc<CalendarBook>,
    /// The config's `scheduling.working_hours`: a person who set none.
    pub working_hours: WorkingHours,
    /// The config's `plans.expiry`: the least time an offer waits for its answer.
    pub answer_time: Duration,
}

/// Offers one slot for one of `person`'s deadline tasks in `chat`, if there is one to offer;
/// the offer's words.
pub fn offer(
    conn: &Connection,
    chat: &Thread,
    person: &str,
    (now, defaults): (DateTime<Utc>, OwnDay),
    rules: &OfferRules,
) -> Result<Option<String>, StoreError> {
    if chat.is_group || plans::latest(conn, &chat.id)?.is_some_and(|plan| plan.is_live(now)) {
        return Ok(None);
    }
    let viewer = Viewer {
        person: person.to_string(),
        here: chat.id.clone(),
    };
    let visible = visible_threads(conn, &viewer)?;
    // A slot starts no sooner than `earliest` and ends by the deadline: only the tasks due
    // after it can be placed, so only they are read (not every open task of the person).
    let earliest = now + rules.answer_time;
    let tasks: Vec<_> = open::tasks(conn, Some(&visible), Window::DueAfter(earliest), None)?
        .into_iter()
        .filter(|task| task.created_by.as_deref().is_none_or(|by| by == person))
        .collect();
    let mut passed = HashSet::new();
    for task in tasks.iter().filter(|task| placing::wants_a_slot(task, now)) {
        let asked = repo::placing_of(conn, &task.id)?;
        let declined_or_waiting = asked.iter().any(|proposed| {
            proposed.plan_status == PlanStatus::Rejected.as_str()
                || (proposed.plan_status == PlanStatus::Pending.as_str()
                    && proposed.plan_expires_at > now)
        });
        if declined_or_waiting {
            passed.insert(task.id.clone());
        }
    }
    let day = people::work_day_of(conn, person, defaults, rules.working_hours)?;
    let Some(placing) = placing::choose(
        &tasks,
        &|task| passed.contains(&task.id),
        (&rules.book, person, &day),
        (now, earliest),
    ) else {
        return Ok(None);
    };
    let text = words(&placing, now, day.day.zone);
    let plan = Plan {
        id: crate::ids::new_id("pln"),
        thread_id: chat.id.clone(),
        actions: vec![placing::step(&placing)],
        reply_text: text.clone(),
        status: PlanStatus::Pending,
        created_at: now,
        expires_at: placing.slot.start.min(now + Duration::days(1)),
        resolved_at: None,
        proposed_after_seq: inbox::last_seq(conn)?,
        requester_id: Some(person.to_string()),
    };
    plans::save(conn, &plan)?;
    let slot = (placing.slot.start, placing.slot.end);
    repo::keep_placing(conn, &plan.id, &placing.task.id, slot, now)?;
    Ok(Some(text))
}

/// "I could set aside Wednesday 25 Nov at 09:00 (until 10:30) for 'File taxes', before it is
/// due Friday 27 Nov at 17:00: your calendar is free then. Shall I put it there? (yes or no)"
fn words(placing: &Placing, now: DateTime<Utc>, zone: chrono_tz::Tz) -> String {
    let ctx = WhenContext {
        now,
        timezone: zone,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    };
    let (slot, task) = (placing.slot, &placing.task);
    let due = task
        .deadline
        .map(|deadline| format!(", before it is due {}", describe(deadline, &ctx)))
        .unwrap_or_default();
    format!(
        "I could set aside {} (until {}) for '{}'{due}: your calendar is free then. Shall I put it there? (yes or no)",
        describe(slot.start, &ctx),
        slot.end.with_timezone(&zone).format("%H:%M"),
        task.title,
    )
}
