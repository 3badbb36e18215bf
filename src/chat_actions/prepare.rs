//! Preparing a chat answer's checked actions for consent, in one read: each task or automation
//! the actions name is resolved by Donna (`tasks::named`; writes among open tasks, reads among
//! all), reads are answered, writes are bound to the handlers that run them (times read by
//! Donna's parser, a snooze's length in words read and bounded), and a new task is read like a
//! capture (title, time words, deadline or start).
//!
//! Outcomes: ready (reads answered, writes bound, each with what the message must ask for), a
//! question ("which one should I mark done?" with numbered candidates, naming the action it is
//! about, or "I can't find it"), or a refusal (a time or length Donna cannot use). The
//! last two change nothing. Read-only.

use std::collections::BTreeMap;

use rusqlite::Connection;
use serde_json::{json, Map, Value};

use super::consent::WriteTarget;
use super::reads;
use super::registry::{ChatHandler, Safety};
use super::request::ChatRequest;
use crate::actions::snooze_length::say_minutes;
use crate::actions::{BoundAction, HandlerKind, TimeReading};
use crate::automations::repo as automations;
use crate::capture::questions::timing;
use crate::capture::request::Capture;
use crate::capture::time_words::{self, CaptureTime};
use crate::planner::ToolEnv;
use crate::replies::grounding::Ask;
use crate::store::StoreError;
use crate::tasks::named::{self, named_among, Among};
use crate::tasks::when::{find_when, TimeAnchor, WhenContext};
use crate::tasks::Task;

/// Shortest and longest snooze asked for in words (docs/contract.md: at most 7 days).
pub const SNOOZE_MINUTES: (i64, i64) = (5, 7 * 24 * 60);

/// What the actions name, as the person picked it after "which one?": request index -> id.
pub type Picked = BTreeMap<usize, String>;

/// The actions, ready for consent.
#[derive(Debug, Clone, Default)]
pub struct Ready {
    /// What the reads found, in Donna's words.
    pub reads: Vec<String>,
    /// Changes to existing tasks or automations, bound, with what consent needs to know.
    pub changes: Vec<(BoundAction, WriteTarget)>,
    /// New tasks, read like captures (times already read), with their level.
    pub creates: Vec<(Capture, Safety)>,
}

/// What kind of thing a question asks to pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    Task,
    Automation,
}

/// "Which one?": the question, the request it is about, and the candidates' ids (empty when
/// nothing matched).
#[derive(Debug, Clone, PartialEq)]
pub struct Which {
    pub question: String,
    pub index: usize,
    pub pick: Pick,
    pub candidates: Vec<String>,
}

#[derive(Debug, Clone)]
pub enum Prepared {
    Ready(Ready),
    Which(Which),
    /// A time or length Donna cannot use; said as it is.
    Refused(String),
}

/// Resolves, reads and binds `requests` (see the module header).
pub fn prepare(
    conn: &Connection,
    requests: &[ChatRequest],
    picked: &Picked,
    env: &ToolEnv,
    later: std::time::Duration,
) -> Result<Prepared, StoreError> {
    let mut ready = Ready::default();
    for (index, request) in requests.iter().enumerate() {
        let handler = request.handler;
        match handler {
            ChatHandler::QueryTasks => ready.reads.push(reads::query_tasks(conn, request, env)?),
            ChatHandler::GetTask => ready.reads.push(reads::get_task(conn, request, env)?),
            ChatHandler::CreateTask => match new_task(request, env, later) {
                Ok(capture) => ready.creates.push((capture, request.safety)),
                Err(reason) => return Ok(Prepared::Refused(reason)),
            },
            ChatHandler::StopAutomation => {
                let reference = request.text("automation").unwrap_or_default();
                let automation = match picked.get(&index) {
                    Some(id) => automations::get(conn, id)?,
                    None => match automations_named(conn, reference)?.as_slice() {
                        [one] => Some(one.clone()),
                        several => {
                            return Ok(Prepared::Which(which_automation(
                                index, request, reference, several,
                            )))
                        }
                    },
                };
                let Some(automation) = automation else {
                    return Ok(Prepared::Which(which_automation(
                        index,
                        request,
                        reference,
                        &[],
                    )));
                };
                let action = bound(
                    request,
                    HandlerKind::StopAutomation,
                    json!({"automation_id": automation.id}),
                );
                ready.changes.push((
                    action,
                    WriteTarget {
                        safety: request.safety,
                        task: Some((automation.id, automation.title)),
                        creates: None,
                        asks: asks_of(request),
                    },
                ));
            }
            _ => {
                let reference = request.task_reference().unwrap_or_default();
                let task = match picked.get(&index) {
                    Some(id) => crate::tasks::repo::get(conn, id)?.filter(|t| t.status.is_open()),
                    None => match named::candidates(conn, reference, Among::Open)?.as_slice() {
                        [one] => Some(one.clone()),
                        several => {
                            return Ok(Prepared::Which(which_task(
                                index, request, reference, several, env,
                            )))
                        }
                    },
                };
                let Some(task) = task else {
                    return Ok(Prepared::Which(which_task(
                        index,
                        request,
                        reference,
                        &[],
                        env,
                    )));
                };
                match change(request, &task, env, later) {
                    Ok(action) => ready.changes.push((
                        action,
                        WriteTarget {
                            safety: request.safety,
                            task: Some((task.id.clone(), task.title.clone())),
                            creates: None,
                            asks: asks_of(request),
                        },
                    )),
                    Err(reason) => return Ok(Prepared::Refused(reason)),
                }
            }
        }
    }
    Ok(Prepared::Ready(ready))
}

fn bound(request: &ChatRequest, handler: HandlerKind, params: Value) -> BoundAction {
    BoundAction {
        name: request.name.clone(),
        handler,
        params: params.as_object().cloned().unwrap_or_default(),
        times: BTreeMap::new(),
    }
}

/// A write on an existing task, bound to its handler.
fn change(
    request: &ChatRequest,
    task: &Task,
    env: &ToolEnv,
    later: std::time::Duration,
) -> Result<BoundAction, String> {
    let id = json!(task.id);
    Ok(match request.handler {
        ChatHandler::MarkDone => bound(request, HandlerKind::MarkDone, json!({"task_id": id})),
        ChatHandler::CancelTask => bound(request, HandlerKind::CancelTask, json!({"task_id": id})),
        ChatHandler::UpdateTask => {
            let mut params = Map::new();
            params.insert("task_id".into(), id);
            for name in ["title", "description", "domain", "priority"] {
                if let Some(value) = request.params.get(name) {
                    params.insert(name.into(), value.clone());
                }
            }
            bound(request, HandlerKind::UpdateTask, Value::Object(params))
        }
        ChatHandler::RescheduleTask => {
            let words = request.text("when").unwrap_or_default();
            let context = WhenContext {
                now: env.now,
                timezone: env.timezone,
                current_start: task.scheduled_start.or(task.deadline),
                later,
            };
            let reading = TimeReading::read(words, &context);
            match &reading {
                TimeReading::At(_) => {}
                TimeReading::NotNamed => {
                    return Err(format!("I found no time in '{words}', so nothing changed."))
                }
                TimeReading::Unreadable(reason) | TimeReading::Unclear(reason) => {
                    return Err(format!(
                        "I couldn't use '{words}' ({reason}), so nothing changed."
                    ))
                }
            }
            let mut action = bound(
                request,
                HandlerKind::Reschedule,
                json!({"task_id": id, "when": words}),
            );
            action.times.insert("when".into(), reading);
            action
        }
        ChatHandler::Snooze => {
            let params = match request.text("for") {
                None => json!({"task_id": id, "duration_hours": 2}),
                Some(words) => {
                    json!({"task_id": id, "duration_minutes": snooze_length(words, env)?})
                }
            };
            bound(request, HandlerKind::Snooze, params)
        }
        // Reads, creates and automations are prepared by the caller.
        other => return Err(format!("{} is not a change to a task", other.as_str())),
    })
}

/// A snooze's length in words ("20 min", "3 hours"), in minutes, within [`SNOOZE_MINUTES`].
fn snooze_length(words: &str, env: &ToolEnv) -> Result<i64, String> {
    let context = WhenContext {
        now: env.now,
        timezone: env.timezone,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    };
    let at = match find_when(&format!("in {words}"), &context) {
        Ok(Some(at)) => at,
        _ => {
            return Err(format!(
                "I can't read '{words}' as a length, so nothing changed."
            ))
        }
    };
    let minutes = ((at - env.now).num_seconds().max(0) + 59) / 60;
    let (min, max) = SNOOZE_MINUTES;
    if !(min..=max).contains(&minutes) {
        return Err(format!(
            "I can snooze for {} to {}, not {}, so nothing changed.",
            say_minutes(min),
            say_minutes(max),
            say_minutes(minutes)
        ));
    }
    Ok(minutes)
}

/// A new task read like a capture: its title and its time words (deadline or start).
fn new_task(
    request: &ChatRequest,
    env: &ToolEnv,
    later: std::time::Duration,
) -> Result<Capture, String> {
    let mut capture = Capture {
        title: request.text("title").unwrap_or_default().to_string(),
        description: request.text("description").map(str::to_string),
        domain: request.text("domain").map(str::to_string),
        priority: request.params.get("priority").and_then(Value::as_i64),
        ..Capture::default()
    };
    if let Some(words) = request.text("when") {
        let context = WhenContext {
            now: env.now,
            timezone: env.timezone,
            current_start: None,
            later,
        };
        match time_words::read(words, &context) {
            CaptureTime::At { at, anchor, .. } => match anchor {
                TimeAnchor::Deadline => capture.deadline = Some(at),
                TimeAnchor::Start => capture.scheduled_start = Some(at),
            },
            CaptureTime::None => {
                return Err(format!(
                    "I found no time in '{words}', so nothing was added."
                ))
            }
            CaptureTime::Unreadable { reason, .. } => {
                return Err(format!(
                    "I couldn't use '{words}' ({reason}), so nothing was added."
                ))
            }
        }
    }
    capture
        .checked()
        .map_err(|reason| format!("I can't add that: {reason}."))
}

/// What a request asks for, by the kind of its handler: what the person's message must ask for
/// for it to run at once (`consent`). A change of title and of priority asks for both.
pub fn asks_of(request: &ChatRequest) -> Vec<Ask> {
    match request.handler {
        ChatHandler::MarkDone => vec![Ask::Done],
        ChatHandler::RescheduleTask => vec![Ask::Move],
        ChatHandler::Snooze => vec![Ask::Snooze],
        ChatHandler::CancelTask | ChatHandler::StopAutomation => vec![Ask::Cancel],
        ChatHandler::CreateTask => vec![Ask::Create],
        ChatHandler::UpdateTask => {
            let mut asks = Vec::new();
            if request.params.contains_key("title") {
                asks.push(Ask::Rename);
            }
            if ["description", "domain", "priority"]
                .iter()
                .any(|name| request.params.contains_key(*name))
            {
                asks.push(Ask::Change);
            }
            asks
        }
        ChatHandler::QueryTasks | ChatHandler::GetTask => Vec::new(),
    }
}

/// What a request would do, in words for a "which one?" ("mark done", "move to friday 9am").
fn doing(request: &ChatRequest) -> String {
    match request.handler {
        ChatHandler::MarkDone => "mark done".into(),
        ChatHandler::RescheduleTask => match request.text("when") {
            Some(when) => format!("move to {when}"),
            None => "move".into(),
        },
        ChatHandler::Snooze => match request.text("for") {
            Some(length) => format!("snooze for {length}"),
            None => "snooze".into(),
        },
        ChatHandler::CancelTask => "cancel".into(),
        ChatHandler::StopAutomation => "stop".into(),
        ChatHandler::UpdateTask => "change".into(),
        ChatHandler::CreateTask => "add".into(),
        ChatHandler::QueryTasks | ChatHandler::GetTask => "show".into(),
    }
}

fn which_task(
    index: usize,
    request: &ChatRequest,
    reference: &str,
    candidates: &[Task],
    env: &ToolEnv,
) -> Which {
    let context = WhenContext {
        now: env.now,
        timezone: env.timezone,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    };
    let doing = doing(request);
    let question = if candidates.is_empty() {
        format!(
            "I can't find an open task matching '{reference}' to {doing}. Which task do you mean?"
        )
    } else {
        let mut lines = vec![format!(
            "Which one should I {doing}? ('{reference}' matches {} tasks)",
            candidates.len().min(MAX_CANDIDATES)
        )];
        for (number, task) in candidates.iter().take(MAX_CANDIDATES).enumerate() {
            lines.push(format!(
                "{}. {}{}",
                number + 1,
                task.title,
                timing(task, &context)
            ));
        }
        lines.join("\n")
    };
    Which {
        question,
        index,
        pick: Pick::Task,
        candidates: candidates
            .iter()
            .take(MAX_CANDIDATES)
            .map(|t| t.id.clone())
            .collect(),
    }
}

fn which_automation(
    index: usize,
    request: &ChatRequest,
    reference: &str,
    candidates: &[automations::Automation],
) -> Which {
    let doing = doing(request);
    let question = if candidates.is_empty() {
        format!("I can't find a reminder matching '{reference}' to {doing}. Which one do you mean?")
    } else {
        let mut lines = vec![format!(
            "Which reminder should I {doing}? ('{reference}' matches {})",
            candidates.len().min(MAX_CANDIDATES)
        )];
        for (number, automation) in candidates.iter().take(MAX_CANDIDATES).enumerate() {
            lines.push(format!(
                "{}. {} ({})",
                number + 1,
                automation.title,
                automation.schedule.words
            ));
        }
        lines.join("\n")
    };
    Which {
        question,
        index,
        pick: Pick::Automation,
        candidates: candidates
            .iter()
            .take(MAX_CANDIDATES)
            .map(|a| a.id.clone())
            .collect(),
    }
}

/// Most candidates a "which one?" lists (and an answer's number may pick).
pub const MAX_CANDIDATES: usize = 9;

/// The running automations `reference` names: exact id, exact normalised title, then titles
/// holding every significant word.
pub fn automations_named(
    conn: &Connection,
    reference: &str,
) -> Result<Vec<automations::Automation>, StoreError> {
    Ok(named_among(
        automations::list(conn)?,
        reference,
        |automation| &automation.id,
        |automation| &automation.title,
    ))
}
