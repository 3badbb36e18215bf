//! A person's agenda: their calendar's events today (when the caller may show them), what is
//! overdue, what is due today, and which proposals wait for their answer, as one message. The daily digest sends it (`subsystems::digest`); "send me my agenda"
//! asks for it once, now.
//!
//! Owns: choosing the items (open tasks only; due today = a deadline or scheduled start on
//! today's date in the person's zone, overdue ones not repeated; waiting = live
//! proposals made for that person, in any chat; tasks only from chats the person takes part in;
//! in a group chat only that chat's tasks and proposals, `group_lists`)
//! and the message (at most
//! [`PER_SECTION`] items a section, each section pointing to its full list, within
//! [`MAX_PAGE_CHARS`]).
//! Invariant: read-only; an empty agenda is `None`, so a digest with nothing to say sends
//! nothing.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rusqlite::Connection;

use super::group_lists;
use super::pages::{fit, Part, MAX_PAGE_CHARS};
use super::questions::{self, first_sentence, time_left, timing};
use crate::conversation::participation::{visible_threads, Viewer};
use crate::conversation::plans;
use crate::store::StoreError;
use crate::tasks::open::{self, Origins, Window};
use crate::tasks::when::WhenContext;
use crate::tasks::Task;

/// Most items shown per section; the rest are counted, with the question that lists them all.
pub const PER_SECTION: usize = 5;

/// Said when the agenda asked for now is empty.
pub const NOTHING_TODAY: &str =
    "Nothing is overdue or due today, and I'm not waiting on you for anything.";

/// The agenda of `viewer` (the person, in the chat it is shown in) at `now` in `timezone`, with
/// today's `events` of their calendar as (time, title) (`calendar::today`; none where they
/// may not be shown); None when every section is empty. Only tasks from chats the person takes
/// part in.
pub fn compose(
    conn: &Connection,
    viewer: &Viewer,
    now: DateTime<Utc>,
    timezone: Tz,
    events: &[(String, String)],
) -> Result<Option<String>, StoreError> {
    let (person, here) = (viewer.person.as_str(), Some(viewer.here.as_str()));
    let visible = visible_threads(conn, viewer)?;
    // In a group only the group's tasks and questions are named (`group_lists`).
    let group = group_lists::group_chat(conn, Some(viewer))?;
    let origins = group.map_or(Origins::Visible(&visible), Origins::Only);
    let overdue = open::tasks(conn, origins, Window::Overdue(now), None)?;
    let (from, to) = questions::whole_day(now, timezone);
    let late: HashSet<&str> = overdue.iter().map(|task| task.id.as_str()).collect();
    let today: Vec<Task> = open::tasks(conn, origins, Window::Between { from, to }, None)?
        .into_iter()
        .filter(|task| !late.contains(task.id.as_str()))
        .collect();
    let waiting: Vec<_> = plans::live_proposals_for(conn, person, now)?
        .into_iter()
        .filter(|proposal| group.is_none_or(|here| proposal.thread_id == here))
        .collect();
    if events.is_empty() && overdue.is_empty() && today.is_empty() && waiting.is_empty() {
        return Ok(None);
    }
    let ctx = WhenContext {
        now,
        timezone,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    };
    let date = now.with_timezone(&timezone).format("%A %-d %b");
    let mut parts = vec![Part::Fixed(format!("Your agenda for {date}:"))];
    events_section(&mut parts, events);
    tasks_section(&mut parts, "Overdue", &overdue, "what's overdue", &ctx);
    tasks_section(&mut parts, "Due today", &today, "what's due today", &ctx);
    if !waiting.is_empty() {
        parts.push(Part::Fixed(format!(
            "Waiting for your answer ({}):",
            waiting.len()
        )));
        for proposal in waiting.iter().take(PER_SECTION) {
            let place = if here == Some(proposal.thread_id.as_str()) {
                "here"
            } else {
                "in another chat"
            };
            parts.push(Part::Line {
                prefix: format!(
                    "- a yes or no {place} ({} left): ",
                    time_left(proposal.expires_at - now)
                ),
                title: first_sentence(&proposal.text),
                suffix: String::new(),
            });
        }
        more(&mut parts, waiting.len(), "what are you waiting on?");
    }
    Ok(Some(fit(parts, MAX_PAGE_CHARS)))
}

fn events_section(parts: &mut Vec<Part>, events: &[(String, String)]) {
    if events.is_empty() {
        return;
    }
    parts.push(Part::Fixed(format!("On your calendar ({}):", events.len())));
    for (when, title) in events.iter().take(PER_SECTION) {
        parts.push(Part::Line {
            prefix: format!("- {when} "),
            title: title.clone(),
            suffix: String::new(),
        });
    }
    more(parts, events.len(), "what's on my calendar today?");
}

fn tasks_section(
    parts: &mut Vec<Part>,
    heading: &str,
    tasks: &[Task],
    full_list: &str,
    ctx: &WhenContext,
) {
    if tasks.is_empty() {
        return;
    }
    parts.push(Part::Fixed(format!("{heading} ({}):", tasks.len())));
    for (index, task) in tasks.iter().take(PER_SECTION).enumerate() {
        parts.push(Part::Line {
            prefix: format!("{}. ", index + 1),
            title: task.title.clone(),
            suffix: timing(task, ctx),
        });
    }
    more(parts, tasks.len(), full_list);
}

fn more(parts: &mut Vec<Part>, total: usize, full_list: &str) {
    if total > PER_SECTION {
        parts.push(Part::Fixed(format!(
            "...and {} more: ask me \"{full_list}\".",
            total - PER_SECTION
        )));
    }
}
