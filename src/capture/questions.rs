//! The common questions, answered from the database without a model: "list my tasks", "what's
//! overdue", "what's due today / tomorrow / this week", "what are you waiting on?": what each
//! lists (`list`), shown a page at a time by `pages` (and "my agenda" by `agenda`).
//!
//! Days are the person's days (`timezone`); "this week" runs to the end of Sunday. A task is due
//! on a day when its deadline or its scheduled start falls in it; overdue when its deadline has
//! passed. Only open tasks count. A list of tasks holds at most [`MAX_REMEMBERED`], the
//! soonest, and then its heading says how many there are in all. In a group chat a list names
//! only that chat's tasks and counts the asker's others (`group_lists`). Read-only.

use chrono::{DateTime, Datelike, Days, NaiveTime, TimeZone, Utc};
use std::collections::BTreeSet;

use chrono_tz::Tz;
use rusqlite::Connection;

use super::rules::Question;
use crate::conversation::drafts::DraftKind;
use crate::conversation::list_cursors::ListItem;
use crate::conversation::participation::{may_see, visible_threads, Viewer};
use crate::conversation::{drafts, plans};
use crate::store::StoreError;
use crate::tasks::open::{self, Origins, Window};

use super::group_lists;
use crate::tasks::when::{describe, WhenContext};
use crate::tasks::{repo, Task};

/// Most tasks listed in one answer.
pub const MAX_LISTED: usize = 20;

/// Most tasks a list of tasks remembers to page through (the soonest ones; the heading says
/// how many there are in all): as many as one page of the HTTP API, so a list costs the same
/// whatever the store holds.
pub const MAX_REMEMBERED: usize = crate::store::page::MAX_PAGE;

/// What a common question lists: its items (paged by `pages`), or the sentence for none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listed {
    Items {
        /// "Your open tasks", "Overdue", "I'm waiting on".
        heading: String,
        items: Vec<ListItem>,
    },
    Nothing(String),
}

/// What `question`, asked by `viewer` in their chat (None: asked outside any chat, e.g. a
/// Discord slash command, which answers the owner privately), lists. A person is shown only
/// tasks, proposals and questions from chats they take part in (`participation`). SQLite finds
/// only those tasks, and only in the window asked about (`tasks::open`).
pub fn list(
    conn: &Connection,
    question: Question,
    viewer: Option<&Viewer>,
    now: DateTime<Utc>,
    timezone: Tz,
) -> Result<Listed, StoreError> {
    let visible = viewer
        .map(|viewer| visible_threads(conn, viewer))
        .transpose()?;
    // In a group only the group's tasks are named; the asker's others are counted.
    let group = group_lists::group_chat(conn, viewer)?;
    let (window, heading, none) = match question {
        Question::WaitingOn => {
            let shown = group.map(|here| BTreeSet::from([here.to_string()]));
            let visible = shown.as_ref().or(visible.as_ref());
            return waiting_on(conn, (viewer, group.is_some()), visible, now);
        }
        // The agenda is a message of its own (`agenda`), not a list.
        Question::Agenda => return Ok(Listed::Nothing(String::new())),
        Question::ListTasks => (Window::Any, "Your open tasks", "You have no open tasks."),
        Question::Overdue => (Window::Overdue(now), "Overdue", "Nothing is overdue."),
        Question::DueToday => (
            due_window(question, now, timezone),
            "Due today",
            "Nothing is due today.",
        ),
        Question::DueTomorrow => (
            due_window(question, now, timezone),
            "Due tomorrow",
            "Nothing is due tomorrow.",
        ),
        Question::DueThisWeek => (
            due_window(question, now, timezone),
            "Due this week",
            "Nothing is due this week.",
        ),
    };
    let origins = group.map_or(visible.as_ref().into(), Origins::Only);
    let mut ids = open::ids(conn, origins, window, Some(MAX_REMEMBERED + 1))?;
    let elsewhere = group_lists::elsewhere(
        conn,
        (group, visible.as_ref()),
        window,
        (ids.len(), MAX_REMEMBERED + 1),
    )?;
    if ids.is_empty() {
        return Ok(Listed::Nothing(group_lists::nothing(
            group, none, elsewhere,
        )));
    }
    let heading = group_lists::heading(group, heading);
    let heading = if ids.len() > MAX_REMEMBERED {
        // The list is the soonest ones; the heading says how many there are in all.
        ids.truncate(MAX_REMEMBERED);
        let total = open::count(conn, origins, window)?;
        format!("{heading}, the soonest {MAX_REMEMBERED} of {total}")
    } else {
        heading
    };
    let heading = group_lists::with_elsewhere(heading, elsewhere);
    Ok(Listed::Items {
        heading,
        items: ids.into_iter().map(ListItem::Task).collect(),
    })
}

/// The day (or week) `question` is about: tasks whose deadline or scheduled start falls in it
/// (from now on, for today and this week).
fn due_window(question: Question, now: DateTime<Utc>, timezone: Tz) -> Window {
    let (from, to) = day_window(question, now, timezone);
    Window::Between { from, to }
}

/// "Heading (N):" and one numbered line per task with its time, at most [`MAX_LISTED`].
pub fn listing(heading: &str, tasks: &[Task], ctx: &WhenContext) -> String {
    let mut lines = vec![format!("{heading} ({}):", tasks.len())];
    for (index, task) in tasks.iter().take(MAX_LISTED).enumerate() {
        lines.push(format!(
            "{}. {}{}",
            index + 1,
            task.title,
            timing(task, ctx)
        ));
    }
    if tasks.len() > MAX_LISTED {
        lines.push(format!("...and {} more.", tasks.len() - MAX_LISTED));
    }
    lines.join("\n")
}

/// " (due Friday 27 Nov at 09:00)", " (overdue since ...)" or " (Friday 27 Nov at 09:00)".
pub fn timing(task: &Task, ctx: &WhenContext) -> String {
    match (task.deadline, task.scheduled_start) {
        (Some(deadline), _) if deadline <= ctx.now => {
            format!(" (overdue since {})", describe_past(deadline, ctx))
        }
        (Some(deadline), _) => format!(" (due {})", describe(deadline, ctx)),
        (None, Some(start)) if start > ctx.now => format!(" ({})", describe(start, ctx)),
        (None, Some(start)) => format!(" (since {})", describe_past(start, ctx)),
        (None, None) => String::new(),
    }
}

/// The answer to "when's X?" about one task: its time in the person's zone, or that it has
/// none, or that it is closed.
pub fn time_answer(task: &Task, ctx: &WhenContext) -> String {
    let title = &task.title;
    if !task.status.is_open() {
        return format!(
            "'{title}' is already {}.",
            task.status.as_str().replace('_', " ")
        );
    }
    match (task.deadline, task.scheduled_start) {
        (Some(deadline), _) if deadline <= ctx.now => format!(
            "'{title}' was due {}: it's overdue.",
            describe_past(deadline, ctx)
        ),
        (Some(deadline), _) => format!("'{title}' is due {}.", describe(deadline, ctx)),
        (None, Some(start)) if start > ctx.now => {
            format!("'{title}' is set for {}.", describe(start, ctx))
        }
        (None, Some(start)) => format!("'{title}' was set for {}.", describe_past(start, ctx)),
        (None, None) => {
            format!("'{title}' has no time yet. Tell me one, like 'move {title} to friday 3pm'.")
        }
    }
}

/// A past time, as a date and time in the person's zone.
fn describe_past(at: DateTime<Utc>, ctx: &WhenContext) -> String {
    at.with_timezone(&ctx.timezone)
        .format("%a %-d %b %H:%M")
        .to_string()
}

/// [start, end) of the day (or week) a question is about, in UTC.
fn day_window(
    question: Question,
    now: DateTime<Utc>,
    timezone: Tz,
) -> (DateTime<Utc>, DateTime<Utc>) {
    let today = now.with_timezone(&timezone).date_naive();
    let (first, days) = match question {
        Question::DueTomorrow => (today + Days::new(1), 1),
        Question::DueThisWeek => (today, 7 - u64::from(today.weekday().num_days_from_monday())),
        _ => (today, 1),
    };
    let from = if question == Question::DueTomorrow {
        start_of(first, timezone, now)
    } else {
        // From now: what is already past today is overdue, not due.
        now
    };
    (from, start_of(first + Days::new(days), timezone, now))
}

/// [start, end) of today in the person's zone, in UTC: the whole day, also the hours passed.
pub fn whole_day(now: DateTime<Utc>, timezone: Tz) -> (DateTime<Utc>, DateTime<Utc>) {
    let today = now.with_timezone(&timezone).date_naive();
    (
        start_of(today, timezone, now),
        start_of(today + Days::new(1), timezone, now),
    )
}

/// The first instant of `date` in `timezone` (`fallback` if the zone has none, which no real
/// zone does for a whole day).
fn start_of(date: chrono::NaiveDate, timezone: Tz, fallback: DateTime<Utc>) -> DateTime<Utc> {
    timezone
        .from_local_datetime(&date.and_time(NaiveTime::MIN))
        .earliest()
        .map(|at| at.with_timezone(&Utc))
        .unwrap_or(fallback)
}

/// Every live proposal and question waiting for the asker, in the chats they take part in,
/// with where it is and how long it has left, then the nudges not answered (they do not
/// expire). Another member's proposals, and anything from chats the asker is not in, are not
/// theirs to see.
fn waiting_on(
    conn: &Connection,
    (viewer, in_group): (Option<&Viewer>, bool),
    visible: Option<&BTreeSet<String>>,
    now: DateTime<Utc>,
) -> Result<Listed, StoreError> {
    let here = viewer.map(|viewer| viewer.here.as_str());
    let theirs = |thread_id: &str, requester: Option<&str>| match (viewer, visible) {
        (Some(viewer), Some(visible)) => {
            visible.contains(thread_id) && requester.is_none_or(|r| r == viewer.person)
        }
        _ => true,
    };
    let place = |thread_id: &str| {
        if here == Some(thread_id) {
            "here"
        } else {
            "in another chat"
        }
    };
    let mut lines = Vec::new();
    for proposal in plans::live_proposals(conn, now)?
        .into_iter()
        .filter(|p| theirs(&p.thread_id, p.requester_id.as_deref()))
    {
        lines.push(format!(
            "- a yes or no {} ({} left): {}",
            place(&proposal.thread_id),
            time_left(proposal.expires_at - now),
            first_sentence(&proposal.text)
        ));
    }
    for draft in drafts::all_live(conn, now)?
        .into_iter()
        .filter(|d| theirs(&d.thread_id, d.requester_id.as_deref()))
    {
        let about = match draft.kind {
            DraftKind::What => "what to add".to_string(),
            DraftKind::Time => match draft.data.get("title").and_then(|title| title.as_str()) {
                Some(title) => format!("when '{title}' should be"),
                None => "a time".to_string(),
            },
            DraftKind::Clarify => "what you meant".to_string(),
            DraftKind::WhichTask => "which task you meant".to_string(),
        };
        lines.push(format!(
            "- your answer {}: {about} ({} left)",
            place(&draft.thread_id),
            time_left(draft.expires_at - now)
        ));
    }
    for (title, origin) in repo::unanswered_nudge_titles(conn)? {
        // In a group a task of no chat (the HTTP API's) is not the group's.
        if visible.is_some_and(|visible| !may_see(visible, origin.as_deref()))
            || (in_group && origin.is_none())
        {
            continue;
        }
        lines.push(format!("- news about '{title}' (I nudged you)"));
    }
    if lines.is_empty() {
        return Ok(Listed::Nothing(
            "I'm not waiting on anything from you.".to_string(),
        ));
    }
    Ok(Listed::Items {
        heading: "I'm waiting on".to_string(),
        items: lines.into_iter().map(ListItem::Line).collect(),
    })
}

/// How long something still waits, in words: "less than a minute", "14 min", "65 min",
/// "2 h 5 min", "3 days".
pub fn time_left(left: chrono::Duration) -> String {
    let minutes = left.num_minutes();
    match minutes {
        ..=0 => "less than a minute".to_string(),
        1..=119 => format!("{minutes} min"),
        120..=2879 => match minutes % 60 {
            0 => format!("{} h", minutes / 60),
            rest => format!("{} h {rest} min", minutes / 60),
        },
        _ => format!("{} days", minutes / (24 * 60)),
    }
}

pub fn first_sentence(text: &str) -> String {
    text.split(". Reply")
        .next()
        .unwrap_or(text)
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::time_left;
    use chrono::Duration;

    #[test]
    fn time_left_in_words() {
        for (minutes, words) in [
            (0, "less than a minute"),
            (-3, "less than a minute"),
            (1, "1 min"),
            (65, "65 min"),
            (120, "2 h"),
            (125, "2 h 5 min"),
            (2879, "47 h 59 min"),
            (2880, "2 days"),
            (4400, "3 days"),
        ] {
            assert_eq!(time_left(Duration::minutes(minutes)), words, "{minutes}");
        }
    }
}
