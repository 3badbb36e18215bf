//! The calendar room: questions about the sender's own time answered by the rules
//! (`capture::calendar_asked`): what is on their calendar (events and tasks together), whether
//! they are free, and a free slot found for a task, proposed as a plan.
//!
//! Takes: the question, the chat, now. Reads: the sender's own calendars (`CalendarBook`), the
//! open tasks they may see, their zone, quiet and working hours (`people::work_day_of`). Sends:
//! an answer, or a plan whose one step moves the task to the slot after a yes.
//!
//! Reaches (of `TurnDeps`): the calendars, the settings, the store.
//!
//! Invariants: only the sender's own events, and never in a group chat (there: that calendars
//! are private); nothing moves before a yes (a slot is a proposal, `Work::Propose`); a slot
//! proposed overlaps none of the sender's busy events and none of their other tasks' times,
//! lies inside their working hours and outside their quiet hours, and starts on a quarter hour
//! after now; with no calendar, a slot still keeps clear of their tasks and hours, and the
//! answer says the calendar was not seen.

use chrono::{DateTime, Duration, Utc};

use crate::calendar::answers::{self, capitalized, event_line, first_slot, free_words, Seen};
use crate::calendar::placing::{self, Placing};
use crate::capture::calendar_asked::{CalendarAsk, Window};
use crate::capture::questions::timing;
use crate::conversation::participation::{may_see, visible_threads};
use crate::people::{self, OwnDay};
use crate::sentence::tokens::{words, Join};
use crate::tasks::named::{best_named, candidates, Among};
use crate::tasks::open::{self, Window as Between};
use crate::tasks::when::WhenContext;
use crate::tasks::Task;

use super::apply::Work;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::error::TurnError;
use super::result::TurnPath;
use super::say::say;
use super::settings::TurnSettings;

/// A length asked for no length, of a task with none.
const DEFAULT_MINUTES: i64 = 60;
/// How far "my next free slot" looks.
const NEXT_SLOT_DAYS: i64 = 14;
/// Most tasks shown beside the events.
const MAX_TASKS: usize = 20;

/// The answer to a question about the sender's own time (see the module header).
pub(super) async fn calendar_answer(
    deps: &TurnDeps,
    context: &TurnContext,
    ask: CalendarAsk,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    if context.thread.is_group {
        return Ok(say(TurnPath::Answer, answers::CALENDARS_ARE_PRIVATE));
    }
    Ok(match ask {
        CalendarAsk::Unreadable(text) => say(TurnPath::Clarify, &text),
        CalendarAsk::Show(window) => {
            let seen = seen(deps, context, &window, None).await?;
            say(
                TurnPath::Answer,
                &shown(&deps.settings, &window, &seen, now),
            )
        }
        CalendarAsk::Free { window, busy_asked } => {
            let seen = seen(deps, context, &window, None).await?;
            say(TurnPath::Answer, &free_words(&window, &seen, busy_asked))
        }
        CalendarAsk::FindTime {
            minutes,
            window,
            task,
        } => find_slot(deps, context, minutes, window, task, now).await?,
        CalendarAsk::NextFreeSlot { task } => {
            let window = Window {
                from: now,
                to: now + Duration::days(NEXT_SLOT_DAYS),
                said: "in the next two weeks".into(),
            };
            let task = task.or_else(|| context.thread.task_id.clone());
            find_slot(deps, context, None, window, task, now).await?
        }
    })
}

/// The sender's day, events and visible open tasks in `window` (all of them, the one
/// `leaving` aside).
async fn seen(
    deps: &TurnDeps,
    context: &TurnContext,
    window: &Window,
    leaving: Option<String>,
) -> Result<Seen, TurnError> {
    let person = context.author_id.clone();
    let viewer = super::lists::viewer(context);
    let defaults = OwnDay {
        zone: deps.settings.default_timezone,
        quiet_hours: deps.settings.quiet_hours,
    };
    let (working, span) = (deps.settings.working_hours, (window.from, window.to));
    let (day, tasks) = deps
        .store
        .read(move |conn| {
            let day = people::work_day_of(conn, &viewer.person, defaults, working)?;
            let visible = visible_threads(conn, &viewer)?;
            let between = Between::Between {
                from: span.0,
                to: span.1,
            };
            let tasks = open::tasks(conn, Some(&visible), between, Some(MAX_TASKS))?;
            Ok((day, tasks))
        })
        .await?;
    let tasks = tasks
        .into_iter()
        .filter(|task| Some(&task.id) != leaving.as_ref())
        .collect();
    Ok(Seen {
        day,
        events: deps
            .actors
            .calendars
            .events_of(&person, window.from, window.to),
        tasks,
        has_calendar: deps.actors.calendars.has_calendar(&person),
    })
}

/// "Tomorrow: - 10:00-11:00 Dentist ... Tasks: - Pay rent (due ...)".
fn shown(settings: &TurnSettings, window: &Window, seen: &Seen, now: DateTime<Utc>) -> String {
    let zone = seen.day.day.zone;
    let ctx = WhenContext {
        now,
        timezone: zone,
        current_start: None,
        later: settings.later,
    };
    let several_days = window.to - window.from > Duration::days(1);
    let mut lines = vec![format!("{}:", capitalized(&window.said))];
    for event in &seen.events {
        lines.push(format!("- {}", event_line(event, zone, several_days)));
    }
    if seen.has_calendar && seen.events.is_empty() {
        lines.push("- nothing on your calendar".into());
    }
    if !seen.tasks.is_empty() {
        lines.push("Tasks:".into());
        for task in &seen.tasks {
            lines.push(format!("- {}{}", task.title, timing(task, &ctx)));
        }
    } else if !seen.has_calendar {
        lines.push("- no tasks".into());
    }
    if !seen.has_calendar {
        lines.push(answers::NO_CALENDAR.into());
    }
    lines.join("\n")
}

/// A slot for the task `named` in `window`, proposed as a plan; or why there is none.
async fn find_slot(
    deps: &TurnDeps,
    context: &TurnContext,
    minutes: Option<i64>,
    window: Window,
    named: Option<String>,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    let Some(named) = named else {
        return Ok(say(TurnPath::Clarify, answers::WHICH_TASK_FOR_TIME));
    };
    let (wanted, viewer) = (named.clone(), super::lists::viewer(context));
    let found = deps
        .store
        .read(move |conn| {
            // Only the tasks the person may see (chats they take part in).
            let visible = visible_threads(conn, &viewer)?;
            let seen = |task: &Task| may_see(&visible, task.origin_thread_id.as_deref());
            let named: Vec<Task> = candidates(conn, &wanted, Among::Open)?
                .into_iter()
                .filter(seen)
                .collect();
            if !named.is_empty() {
                return Ok(named);
            }
            // "the taxes" for "File taxes": the open titles its words name best.
            let open = open::tasks(conn, Some(&visible), Between::Any, None)?;
            Ok(best_named(open, &words(&wanted, Join::Nothing), |task| {
                &task.title
            }))
        })
        .await?;
    let task = match found.as_slice() {
        [one] => one.clone(),
        [] => return Ok(say(TurnPath::Clarify, &answers::no_task_named(&named))),
        several => return Ok(say(TurnPath::Clarify, &answers::several_named(several))),
    };
    let length = minutes
        .or(task.estimated_duration_minutes.filter(|m| *m > 0))
        .unwrap_or(DEFAULT_MINUTES);
    // The person needs a moment to say yes: a slot starts a quarter hour from now at least.
    let from = placing::on_a_quarter_hour(window.from.max(now + Duration::minutes(15)));
    let searched = Window { from, ..window };
    let seen = seen(deps, context, &searched, Some(task.id.clone())).await?;
    let Some(slot) = first_slot(&seen, &searched, Duration::minutes(length)) else {
        return Ok(say(
            TurnPath::Answer,
            &answers::no_free_slot(length, &searched.said, seen.has_calendar),
        ));
    };
    let placing = Placing { task, slot };
    let zone = seen.day.day.zone;
    let preamble = answers::slot_found(
        &placing.task.title,
        (
            slot.start.with_timezone(&zone),
            slot.end.with_timezone(&zone),
        ),
        seen.has_calendar,
    );
    Ok(Work::Propose {
        actions: vec![placing::step(&placing)],
        preamble: Some(preamble),
        path: TurnPath::Answer,
        steps: Vec::new(),
    })
}
