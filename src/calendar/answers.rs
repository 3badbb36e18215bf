//! The words of the answers about a person's own time (the calendar room, `turn::calendar_answers`):
//! what they have in a window, whether they are free (the event in the way named), a slot
//! found for a task or why none, that calendars are private in a group, and how to add one.
//! Also the first slot for a task: clear of their busy events and their other tasks' times,
//! inside working hours, outside quiet hours, on a quarter hour.
//!
//! Invariant (pure): everything comes in (`Seen`: the person's day, events and tasks).

use chrono::{DateTime, Duration};
use chrono_tz::Tz;

use super::free_slots::{free_slots, Hours, Slot};
use super::placing;
use super::CalendarEvent;
use crate::capture::calendar_asked::Window;
use crate::people::WorkDay;
use crate::tasks::Task;

/// What the room reads once per question.
pub struct Seen {
    pub day: WorkDay,
    pub events: Vec<CalendarEvent>,
    pub tasks: Vec<Task>,
    pub has_calendar: bool,
}

/// Said to a question about someone's calendar in a group chat.
pub const CALENDARS_ARE_PRIVATE: &str =
    "Calendars are private: ask me about yours in a direct message and I'll answer there.";

/// Said when Donna reads no calendar of the sender's.
pub const NO_CALENDAR: &str = "I don't read a calendar of yours. To add one, give your calendar app's secret iCal address to Donna's operator (PUT /api/people/{your id} with `calendars`), never in a chat: it is a secret.";

/// Said to "find me an hour tomorrow" with no task named.
pub const WHICH_TASK_FOR_TIME: &str =
    "Which task is the time for? Say it like \"find me an hour tomorrow for the taxes\".";

/// No open task has these words.
pub fn no_task_named(named: &str) -> String {
    format!("I have no open task called \"{named}\". Add it first (\"add {named}\"), then ask me for time again.")
}

/// Several open tasks have these words.
pub fn several_named(tasks: &[Task]) -> String {
    let titles: Vec<String> = tasks
        .iter()
        .take(5)
        .map(|task| format!("'{}'", task.title))
        .collect();
    format!(
        "Several tasks match: {}. Which one? Name it in full.",
        titles.join(", ")
    )
}

/// No slot of `minutes` in the window.
pub fn no_free_slot(minutes: i64, window: &str, has_calendar: bool) -> String {
    let seen = if has_calendar {
        "your calendar, your tasks"
    } else {
        "your tasks (I don't read a calendar of yours)"
    };
    format!("I found no free {minutes} minutes {window}: {seen}, your working hours and your quiet hours leave none. Try another day.")
}

/// The slot found, before the plan's own words.
pub fn slot_found(
    title: &str,
    (start, end): (DateTime<Tz>, DateTime<Tz>),
    has_calendar: bool,
) -> String {
    let clear = if has_calendar {
        "nothing on your calendar or your tasks then, inside your working hours"
    } else {
        "I don't read a calendar of yours, so I kept clear of your other tasks, inside your working hours and outside your quiet hours"
    };
    format!(
        "{} {}-{} is free for '{title}' ({clear}).",
        start.format("%a %-d %b"),
        start.format("%H:%M"),
        end.format("%H:%M"),
    )
}

/// The first slot of `length` on a quarter hour in `window`, clear of the events and the
/// tasks' own times, inside working hours and outside quiet hours.
pub fn first_slot(seen: &Seen, window: &Window, length: Duration) -> Option<Slot> {
    let mut busy = seen.events.clone();
    busy.extend(seen.tasks.iter().filter_map(task_time));
    let hours = Hours {
        working: seen.day.working_hours,
        quiet: seen.day.day.quiet_hours,
    };
    let zone = seen.day.day.zone;
    free_slots(&busy, (window.from, window.to), length, &hours, zone)
        .into_iter()
        .find_map(|free| {
            let start = placing::on_a_quarter_hour(free.start);
            let end = start + length;
            (end <= free.end).then_some(Slot { start, end })
        })
}

/// A task's scheduled time as a busy stretch (its estimate, else half an hour).
fn task_time(task: &Task) -> Option<CalendarEvent> {
    let start = task.scheduled_start?;
    let minutes = task.estimated_duration_minutes.filter(|m| *m > 0);
    Some(CalendarEvent {
        calendar: "Donna".into(),
        uid: task.id.clone(),
        title: task.title.clone(),
        start,
        end: start + Duration::minutes(minutes.unwrap_or(30)),
        all_day: false,
        busy: true,
    })
}

/// "Yes, you're free ..." / "No: Dentist 14:00-15:00 is then."
pub fn free_words(window: &Window, seen: &Seen, busy_asked: bool) -> String {
    let zone = seen.day.day.zone;
    let busy: Vec<&CalendarEvent> = seen.events.iter().filter(|event| event.busy).collect();
    let in_the_way: Vec<String> = busy
        .iter()
        .map(|event| event_line(event, zone, false))
        .chain(seen.tasks.iter().filter_map(task_time).map(|task| {
            format!(
                "{} (a task set for {})",
                task.title,
                task.start.with_timezone(&zone).format("%H:%M")
            )
        }))
        .collect();
    let answer = match (in_the_way.is_empty(), busy_asked) {
        (true, false) => format!("Yes, you're free {}.", window.said),
        (true, true) => format!("No, you're free {}.", window.said),
        (false, false) => format!("No, {} you have: {}.", window.said, in_the_way.join("; ")),
        (false, true) => format!("Yes, {} you have: {}.", window.said, in_the_way.join("; ")),
    };
    if seen.has_calendar {
        answer
    } else {
        format!(
            "{answer} I only see your tasks, not a calendar. {}",
            NO_CALENDAR
        )
    }
}

/// "10:00-11:00 Dentist", "all day Trip", with the day first when the window has several.
pub fn event_line(event: &CalendarEvent, zone: Tz, with_day: bool) -> String {
    let (start, end) = (
        event.start.with_timezone(&zone),
        event.end.with_timezone(&zone),
    );
    let day = if with_day {
        format!("{} ", start.format("%a %-d %b"))
    } else {
        String::new()
    };
    let free = if event.busy { "" } else { " (free)" };
    if event.all_day {
        return format!("{day}all day {}{free}", event.title);
    }
    format!(
        "{day}{}-{} {}{free}",
        start.format("%H:%M"),
        end.format("%H:%M"),
        event.title
    )
}

/// "tomorrow" -> "Tomorrow".
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
