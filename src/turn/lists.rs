//! The list room: the common questions that list things ("list my tasks", "what's overdue",
//! "what's due this week", "what are you waiting on?") answered a page at a time, "more" /
//! "next" / "show more" / "continue", which shows the next page of the chat's last list, and
//! "send me my agenda", and "when's X?" (the time of one task, named in the person's words). A
//! person is shown only what comes from chats they take part in.
//!
//! Where the cursor lives: one per chat (`conversation::list_cursors`), saved with the turn
//! that answered the list, replaced by the next list answer (or cleared when that one fits one
//! page), expiring like a draft (`plans.expiry`). "more" with no live cursor gets an honest
//! answer and goes no further (not to the model). The cursor belongs to the person who asked:
//! another member's "more" gets a plain answer, never the next page of someone else's list.
//! In a group chat a list names only that chat's tasks (`capture::group_lists`).
//!
//! Reaches (of `TurnDeps`): the calendars, the settings, the store.
//!
//! Invariants: nothing here writes; the page and the cursor step are committed with the turn.

use chrono::{DateTime, Utc};

use crate::capture::agenda;
use crate::capture::pages::{self, MoreHint};
use crate::capture::questions;
use crate::capture::rules::Question;
use crate::conversation::list_cursors;
use crate::conversation::participation::Viewer;
use crate::tasks::when::WhenContext;

use super::apply::Work;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::error::TurnError;
use super::list_step::ListStep;
use super::result::TurnPath;
use super::settings::{chrono_duration, TurnSettings};

/// Said to "more" when the chat has no list to continue.
pub const NOTHING_TO_CONTINUE: &str = "There's no list to continue here. Ask me \"list my tasks\", \"what's overdue\", \"what's due this week\" or \"what are you waiting on?\" and say \"more\" after it.";

/// Said to "more" when the chat's last list was asked for by someone else.
pub const NOT_YOUR_LIST: &str = "That list was asked for by someone else, so it's theirs to page through. Ask me \"list my tasks\" for yours.";

/// Said to "more" after the last page.
pub fn whole_list_shown(total: usize) -> String {
    format!("That was the whole list: all {total} shown. Ask again for a fresh one.")
}

/// The answer to "when's X?": the time of the task `reference` names (open ones first);
/// None when it names no task (the message goes on to the model).
pub(super) async fn task_time(
    deps: &TurnDeps,
    reference: &str,
    now: DateTime<Utc>,
) -> Result<Option<String>, TurnError> {
    use crate::sentence::tokens::{words, Join};
    use crate::tasks::named::{best_named, candidates, Among};
    let wanted = reference.to_string();
    let found = deps
        .store
        .read(move |conn| {
            let named = candidates(conn, &wanted, Among::All)?;
            if !named.is_empty() {
                return Ok(named);
            }
            // "the passport renewal" for "Renew passport": the title its words name best.
            let all = crate::tasks::repo::list(conn, None)?;
            Ok(best_named(all, &words(&wanted, Join::Nothing), |task| {
                &task.title
            }))
        })
        .await?;
    let open: Vec<_> = found.iter().filter(|task| task.status.is_open()).collect();
    let shown = if open.is_empty() {
        found.iter().collect()
    } else {
        open
    };
    let ctx = WhenContext {
        now,
        timezone: deps.settings.timezone,
        current_start: None,
        later: deps.settings.later,
    };
    Ok(match shown.as_slice() {
        [] => None,
        [one] => Some(questions::time_answer(one, &ctx)),
        several => Some(
            several
                .iter()
                .take(5)
                .map(|task| questions::time_answer(task, &ctx))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    })
}

/// The first page of what `question` lists; the chat's cursor follows it.
pub(super) async fn list_answer(
    deps: &TurnDeps,
    context: &TurnContext,
    question: Question,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    let ctx = list_context(&deps.settings, now);
    let expires_at = now + chrono_duration(deps.settings.plan_expiry);
    let viewer = viewer(context);
    let answer = deps
        .store
        .read(move |conn| {
            let listed = questions::list(conn, question, Some(&viewer), now, ctx.timezone)?;
            let here = Some(viewer.here.as_str());
            let mut answer =
                pages::first_page(conn, listed, here, &ctx, expires_at, MoreHint::Say)?;
            if let Some(cursor) = &mut answer.cursor {
                cursor.asked_by = Some(viewer.person.clone());
            }
            Ok(answer)
        })
        .await?;
    Ok(Work::List {
        path: TurnPath::Answer,
        text: answer.text,
        step: answer.cursor.map_or(ListStep::Clear, ListStep::Save),
    })
}

/// "more": the next page of the chat's last list, or why there is none.
pub(super) async fn next_page(
    deps: &TurnDeps,
    context: &TurnContext,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    let ctx = list_context(&deps.settings, now);
    let here = context.thread.id.clone();
    let asker = context.author_id.clone();
    let next = deps
        .store
        .read(move |conn| {
            let Some(cursor) =
                list_cursors::for_thread(conn, &here)?.filter(|cursor| cursor.is_live(now))
            else {
                return Ok(None);
            };
            if !cursor.belongs_to(&asker) {
                // Another member's list: theirs to page through, not this person's.
                return Ok(Some((NOT_YOUR_LIST.to_string(), ListStep::Keep)));
            }
            if cursor.shown >= cursor.items.len() {
                return Ok(Some((whole_list_shown(cursor.items.len()), ListStep::Keep)));
            }
            let page = pages::page(
                conn,
                &cursor.heading,
                &cursor.items,
                cursor.shown,
                &ctx,
                MoreHint::Say,
            )?;
            let step = ListStep::Advance {
                id: cursor.id,
                shown: page.shown,
            };
            Ok(Some((page.text, step)))
        })
        .await?;
    Ok(match next {
        Some((text, step)) => Work::List {
            path: TurnPath::Answer,
            text,
            step,
        },
        None => Work::List {
            path: TurnPath::Unhandled,
            text: NOTHING_TO_CONTINUE.to_string(),
            step: ListStep::Keep,
        },
    })
}

/// "send me my agenda": what is overdue, due today and waiting for the asker, now.
pub(super) async fn agenda_answer(
    deps: &TurnDeps,
    context: &TurnContext,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    let (timezone, viewer) = (deps.settings.timezone, viewer(context));
    // A person's events only in a chat of their own.
    let events = match context.thread.is_group {
        true => Vec::new(),
        false => {
            crate::calendar::today::lines(&deps.actors.calendars, &viewer.person, now, timezone)
        }
    };
    let text = deps
        .store
        .read(move |conn| agenda::compose(conn, &viewer, now, timezone, &events))
        .await?
        .unwrap_or_else(|| agenda::NOTHING_TODAY.to_string());
    Ok(Work::Say {
        path: TurnPath::Answer,
        text,
    })
}

/// How times in a list are said.
fn list_context(settings: &TurnSettings, now: DateTime<Utc>) -> WhenContext {
    WhenContext {
        now,
        timezone: settings.timezone,
        current_start: None,
        later: settings.later,
    }
}

/// Who asks, and where: a list shows them only what comes from chats they take part in.
pub(super) fn viewer(context: &TurnContext) -> Viewer {
    Viewer {
        person: context.author_id.clone(),
        here: context.thread.id.clone(),
    }
}
