//! The capture room: a task the person asked for in words becomes a `create_task` that runs at
//! once (they plainly asked for exactly it), or a question when something is missing.
//!
//! - The time is read by Donna's parser in `timezone`; "by/due/before/until T" sets the
//!   deadline, anything else the scheduled start (docs/contract.md "Times"). A time it cannot read is
//!   asked back (a `time` draft), never guessed.
//! - How long it takes ("for an hour", ", 45 min": `tasks::when::lengths`) sets the estimated
//!   duration and leaves the title; it is read first, so "45 min" is never a time from now.
//! - No title (only a command, only a time): "What should I add?" (a `what` draft).
//! - A likely duplicate of an open task is proposed, not created (path `duplicate`).
//! - Learned preferences fill the fields the person did not give, and say so.
//!
//! Reaches (of `TurnDeps`): the settings, the store.
//!
//! Invariant: the task is created in the turn's commit, not here; the duplicate check and the
//! preferences are one read before it.

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::capture::length_words::{merged, time_without_length};
use crate::capture::request::Capture;
use crate::capture::time_words::{self, CaptureTime};
use crate::capture::title::title_from;
use crate::capture::{duplicates, preferences};
use crate::conversation::drafts::{Draft, DraftKind};
use crate::tasks::explicit::names_the_moment;
use crate::tasks::when::{describe, lengths, number_range, TimeAnchor, WhenContext};
use crate::tasks::TaskSource;

use super::apply::Work;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::result::TurnPath;
use super::say::{ask, ask_with};
use super::settings::TurnSettings;
use super::texts;

/// What times in this turn are read against.
pub(super) fn capture_when(settings: &TurnSettings, now: DateTime<Utc>) -> WhenContext {
    WhenContext {
        now,
        timezone: settings.timezone,
        current_start: None,
        later: settings.later,
    }
}

/// A capture from the person's words (the body of a command, or the answer to "what should
/// I add?"). `questions` is how many were asked for this capture already.
pub(super) async fn capture_words(
    deps: &TurnDeps,
    context: &TurnContext,
    body: &str,
    questions: i64,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let when = capture_when(&deps.settings, now);
    // "for an hour", ", 45 min": how long it takes, read before the time so that "45 min"
    // is never a time from now; its words leave the title.
    let length = lengths(body).into_iter().next();
    let without_length = time_without_length(body, length.as_ref());
    let time = time_words::read(&without_length, &when);
    let mut said = time.ranges().to_vec();
    said.extend(length.as_ref().map(|l| l.range.clone()));
    let title = title_from(body, &merged(said));
    // "deep work 9-11": hours or a date (9 November)? Asked, never guessed.
    if let (CaptureTime::None, Some(range)) = (&time, number_range(body)) {
        let title = title_from(body, std::slice::from_ref(&range));
        let reason = format!(
            "\"{}\" could be hours, \"from 9:00 to 11:00\", or a date",
            &body[range]
        );
        let data = json!({ "title": title });
        return Ok(ask_when(&title, &reason, body, data, questions));
    }
    if title.is_empty() {
        // Only a command, or a time with nothing it is for ("remind me tomorrow"): the draft
        // keeps the time words for the answer.
        let said = match &time {
            CaptureTime::At { .. } => time_phrase(body, time.ranges()),
            _ => String::new(),
        };
        return Ok(ask(DraftKind::What, &said, questions + 1, texts::ASK_WHAT));
    }
    let mut capture = Capture {
        title,
        estimated_minutes: length.map(|length| length.minutes),
        ..Capture::default()
    };
    match time {
        CaptureTime::None => {}
        CaptureTime::At {
            at,
            anchor,
            ref ranges,
        } => {
            set_time(&mut capture, at, anchor);
            capture.explicit_time = names_the_moment(&time_phrase(body, ranges));
        }
        CaptureTime::Unreadable { reason, .. } => {
            let data = json!({ "title": capture.title });
            let reason = reason.to_string();
            return Ok(ask_when(&capture.title, &reason, body, data, questions));
        }
    }
    capture_work(deps, context, capture, now, TaskSource::Capture).await
}

/// The answer to "What should I add?": the time said with the command ("remind me tomorrow",
/// kept in the draft) goes with it unless the answer names its own.
pub(super) async fn capture_answer(
    deps: &TurnDeps,
    context: &TurnContext,
    draft: &Draft,
    answer: &str,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let when = capture_when(&deps.settings, now);
    let saved = matches!(time_words::read(&draft.text, &when), CaptureTime::At { .. });
    let own = !matches!(time_words::read(answer, &when), CaptureTime::None);
    let body = if saved && !own {
        format!("{} {}", answer.trim_end(), draft.text)
    } else {
        answer.to_string()
    };
    capture_words(deps, context, &body, draft.questions, now).await
}

/// The answer to "when should it be?": a time on its own ("friday 9am", "by monday").
pub(super) async fn capture_with_time_answer(
    deps: &TurnDeps,
    context: &TurnContext,
    draft: &Draft,
    answer: &str,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let title = draft
        .data
        .get("title")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .to_string();
    let when = capture_when(&deps.settings, now);
    let mut capture = Capture {
        title: title.clone(),
        ..Capture::default()
    };
    let reason = match time_words::read(answer, &when) {
        CaptureTime::At { at, anchor, ranges } => {
            set_time(&mut capture, at, anchor);
            capture.explicit_time = names_the_moment(&time_phrase(answer, &ranges));
            return capture_work(deps, context, capture, now, TaskSource::Capture).await;
        }
        CaptureTime::Unreadable { reason, .. } => reason.to_string(),
        CaptureTime::None => "I found no time in that".to_string(),
    };
    let data = draft.data.clone();
    Ok(ask_when(
        &title,
        &reason,
        &draft.text,
        data,
        draft.questions,
    ))
}

/// Asks when `title` should be (`reason`: why no time was read), the draft keeping `text`
/// and `data`; `questions` were asked for this capture already.
pub(super) fn ask_when(
    title: &str,
    reason: &str,
    text: &str,
    data: serde_json::Value,
    questions: i64,
) -> (Work, DraftStep) {
    let question = texts::ask_time(title, reason);
    ask_with(DraftKind::Time, text, data, questions + 1, &question)
}

/// The turn's work for a capture: the task created at once, or proposed when it looks like
/// one already open.
/// `source`: `capture` for the person's own words, `chat` for a chat answer's
/// `create_task` (docs/contract.md "Task capture").
pub(super) async fn capture_work(
    deps: &TurnDeps,
    context: &TurnContext,
    capture: Capture,
    now: DateTime<Utc>,
    source: TaskSource,
) -> Result<(Work, DraftStep), TurnError> {
    let capture = match capture.checked() {
        Ok(capture) => capture,
        Err(reason) => {
            let question = format!("I can't add that: {reason}. What should I add?");
            return Ok(ask(DraftKind::What, "", 1, &question));
        }
    };
    let (title, open_fields) = (capture.title.clone(), capture.open_fields());
    let (duplicate, learned) = deps
        .store
        .read(move |conn| {
            Ok((
                duplicates::likely_duplicate(conn, &title)?,
                preferences::applicable(conn, &title, &open_fields)?,
            ))
        })
        .await?;
    let origin = Some(context.thread.id.as_str());
    let action = capture.action(source, origin, &learned, deps.settings.timezone);
    let Some(existing) = duplicate else {
        return Ok((Work::Capture(Box::new(action)), DraftStep::Keep));
    };
    let when = capture_when(&deps.settings, now);
    let timing = match (existing.deadline, existing.scheduled_start) {
        (Some(at), _) => Some(format!("due {}", describe_any(at, &when))),
        (None, Some(at)) => Some(format!("for {}", describe_any(at, &when))),
        (None, None) => None,
    };
    Ok((
        Work::Propose {
            actions: vec![action],
            preamble: Some(texts::duplicate(&existing.title, timing)),
            path: TurnPath::Duplicate,
            steps: Vec::new(),
        },
        DraftStep::Keep,
    ))
}

/// Sets the capture's time as its deadline or its start, as its time words said.
pub(super) fn set_time(capture: &mut Capture, at: DateTime<Utc>, anchor: TimeAnchor) {
    match anchor {
        TimeAnchor::Deadline => capture.deadline = Some(at),
        TimeAnchor::Start => capture.scheduled_start = Some(at),
    }
}

/// The words of `body` the time was read from, in order, one space between.
fn time_phrase(body: &str, ranges: &[std::ops::Range<usize>]) -> String {
    let mut sorted: Vec<&std::ops::Range<usize>> = ranges.iter().collect();
    sorted.sort_by_key(|range| range.start);
    sorted
        .into_iter()
        .filter_map(|range| body.get(range.clone()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A time in the person's zone, past or future.
fn describe_any(at: DateTime<Utc>, when: &WhenContext) -> String {
    if at > when.now {
        describe(at, when)
    } else {
        at.with_timezone(&when.timezone)
            .format("%a %-d %b %H:%M")
            .to_string()
    }
}
