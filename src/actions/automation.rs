//! The internal `create_automation` action: the plan step Donna proposes for an automation
//! command ("every monday at 9 remind me to submit the timesheet"), its wording in the plan,
//! and its handler, which stores the automation after the yes.
//!
//! Params: {title, rrule, dtstart (RFC 3339, the first occurrence), timezone, schedule_words,
//! origin_thread_id?, domain?, priority?, kind? (reminder | digest; default reminder),
//! for_user_id? (whose agenda a digest shows), time_stated? (bool: the person said its time of
//! day; default false), repeat_from? (schedule | completion; default schedule)}.
//! Invariants: never in reply_actions.yaml (the registry refuses the handler), so only Donna's
//! own reading of the person's words proposes it; the handler checks every parameter again
//! (a stored plan is data) and journals the new automation's id, so `undo_last` removes it.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use rusqlite::Connection;
use serde_json::{Map, Value};

use super::bind::BoundAction;
use super::handler_kind::HandlerKind;
use crate::automations::completion::checked_repeat;
use crate::automations::{repo, Automation, AutomationDraft, AutomationKind, RepeatFrom, Schedule};
use crate::store::StoreError;
use crate::tasks::fields::{check_domain, check_priority, clean_title};

/// The action's name in plans, results and the journal.
pub const NAME: &str = "create_automation";

/// The plan step that stores `draft` after a yes (its tasks belong to `origin_thread_id`).
pub fn proposal_action(draft: &AutomationDraft, origin_thread_id: Option<&str>) -> BoundAction {
    let schedule = &draft.schedule;
    let mut params = Map::new();
    params.insert("title".into(), Value::String(draft.title.clone()));
    params.insert("rrule".into(), Value::String(schedule.rrule.clone()));
    params.insert(
        "dtstart".into(),
        Value::String(crate::store::time::to_db(schedule.dtstart)),
    );
    params.insert(
        "timezone".into(),
        Value::String(schedule.timezone.name().to_string()),
    );
    params.insert(
        "schedule_words".into(),
        Value::String(schedule.words.clone()),
    );
    if let Some(thread) = origin_thread_id {
        params.insert("origin_thread_id".into(), Value::String(thread.to_string()));
    }
    params.insert("time_stated".into(), Value::Bool(draft.time_stated));
    if draft.repeat_from != RepeatFrom::Schedule {
        params.insert(
            "repeat_from".into(),
            Value::String(draft.repeat_from.as_str().to_string()),
        );
    }
    BoundAction {
        name: NAME.to_string(),
        handler: HandlerKind::CreateAutomation,
        params,
        times: Default::default(),
    }
}

/// The title a digest automation is stored (and listed) with.
pub const DIGEST_TITLE: &str = "Your agenda";

/// The plan step that stores a daily digest on `schedule` after a yes: the agenda of
/// `for_user_id`, sent to `origin_thread_id` (at its time even in quiet hours when
/// `time_stated`).
pub fn digest_proposal(
    schedule: &Schedule,
    time_stated: bool,
    origin_thread_id: &str,
    for_user_id: &str,
) -> BoundAction {
    let draft = AutomationDraft {
        title: DIGEST_TITLE.to_string(),
        schedule: schedule.clone(),
        time_stated,
        repeat_from: RepeatFrom::Schedule,
    };
    let mut action = proposal_action(&draft, Some(origin_thread_id));
    action.params.insert(
        "kind".into(),
        Value::String(AutomationKind::Digest.as_str().to_string()),
    );
    action
        .params
        .insert("for_user_id".into(), Value::String(for_user_id.to_string()));
    action
}

/// The kind the params name (reminder when they name none).
fn kind_of(params: &Map<String, Value>) -> Result<AutomationKind, String> {
    match text(params, "kind") {
        None => Ok(AutomationKind::Reminder),
        Some(kind) => AutomationKind::parse(kind).ok_or_else(|| format!("{kind:?} is no kind")),
    }
}

/// Where the next occurrence counts from (schedule when the params name nothing).
fn repeat_from_of(params: &Map<String, Value>) -> Result<RepeatFrom, String> {
    match text(params, "repeat_from") {
        None => Ok(RepeatFrom::Schedule),
        Some(from) => {
            RepeatFrom::parse(from).ok_or_else(|| format!("{from:?} is not schedule or completion"))
        }
    }
}

/// What the proposal and the answer add for a reminder that repeats from completion.
fn counted_from(params: &Map<String, Value>) -> &'static str {
    match repeat_from_of(params) {
        Ok(RepeatFrom::Completion) => ", counted from when you've done the last one",
        _ => "",
    }
}

fn text<'a>(params: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    params.get(name).and_then(Value::as_str)
}

/// The schedule and title the params describe, checked.
fn read_params(params: &Map<String, Value>) -> Result<(String, Schedule), String> {
    let title = clean_title(text(params, "title").unwrap_or("")).map_err(|e| e.to_string())?;
    let timezone = text(params, "timezone").unwrap_or("");
    let timezone = chrono_tz::Tz::from_str(timezone)
        .map_err(|_| format!("{timezone:?} is not a time zone"))?;
    let dtstart = text(params, "dtstart")
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(|| "the automation has no readable start".to_string())?;
    let schedule = Schedule {
        rrule: text(params, "rrule").unwrap_or("").to_string(),
        dtstart,
        timezone,
        words: text(params, "schedule_words").unwrap_or("").to_string(),
    };
    // The rule a door stores (at most daily, one time of day, occurring after its start): a bad
    // rule is refused now, not skipped by every tick later. The same check as an import's.
    schedule.check().map_err(|e| e.to_string())?;
    Ok((title, schedule))
}

/// "remind you to 'Submit the timesheet' every Monday at 09:00 (Europe/Paris), first on Mon
/// 30 Nov 09:00"
pub fn describe(action: &BoundAction, now: DateTime<Utc>) -> String {
    match read_params(&action.params) {
        Ok((title, schedule)) => {
            let digest = kind_of(&action.params) == Ok(AutomationKind::Digest);
            let first = match schedule.first_run_after(now) {
                Ok(Some(at)) => format!(
                    ", first on {}",
                    at.with_timezone(&schedule.timezone)
                        .format("%a %-d %b %H:%M")
                ),
                _ => String::new(),
            };
            if digest {
                return format!(
                    "send you your agenda (what's overdue, what's due today and what waits for your answer; nothing when all are empty) {} ({}){first}",
                    schedule.words,
                    schedule.timezone.name()
                );
            }
            format!(
                "remind you to '{title}' {}{} ({}){first}",
                schedule.words,
                counted_from(&action.params),
                schedule.timezone.name()
            )
        }
        Err(reason) => format!("store a reminder that cannot work ({reason})"),
    }
}

/// A stored automation: its id (journaled, so undo removes it) and the sentence for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    pub automation_id: String,
    pub summary: String,
}

/// Why `create` stored nothing.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// Told to the person as is.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Stores the automation at `now` (its creation: occurrences after it fire), made by no one.
pub fn create(
    conn: &Connection,
    now: DateTime<Utc>,
    action: &BoundAction,
) -> Result<Created, CreateError> {
    create_for(conn, now, action, None)
}

/// Stores the automation at `now`, made by `created_by` (its tasks are theirs).
pub fn create_for(
    conn: &Connection,
    now: DateTime<Utc>,
    action: &BoundAction,
    created_by: Option<&str>,
) -> Result<Created, CreateError> {
    let params = &action.params;
    let refused =
        |reason: String| CreateError::Refused(format!("I can't set up that reminder: {reason}."));
    let (title, schedule) = read_params(params).map_err(refused)?;
    let kind = kind_of(params).map_err(refused)?;
    let domain = text(params, "domain").unwrap_or("personal").to_string();
    check_domain(&domain).map_err(|e| refused(e.to_string()))?;
    let priority = params.get("priority").and_then(Value::as_i64).unwrap_or(2);
    check_priority(priority).map_err(|e| refused(e.to_string()))?;
    let repeat_from = repeat_from_of(params).map_err(refused)?;
    checked_repeat(kind, repeat_from, &schedule).map_err(|reason| refused(reason.to_string()))?;
    let automation = Automation {
        id: crate::ids::new_id("aut"),
        kind,
        for_user_id: text(params, "for_user_id").map(str::to_string),
        title,
        schedule,
        origin_thread_id: text(params, "origin_thread_id").map(str::to_string),
        domain,
        priority,
        last_occurrence_at: None,
        created_at: now,
        created_by: created_by.map(str::to_string),
        stopped_at: None,
        time_stated: params.get("time_stated").and_then(Value::as_bool) == Some(true),
        repeat_from,
    };
    repo::insert(conn, &automation)?;
    let first = automation
        .schedule
        .first_run_after(now)
        .ok()
        .flatten()
        .map(|at| {
            format!(
                " The first is on {}.",
                at.with_timezone(&automation.schedule.timezone)
                    .format("%a %-d %b at %H:%M")
            )
        })
        .unwrap_or_default();
    let summary = match automation.kind {
        AutomationKind::Reminder => format!(
            "I'll remind you to '{}' {}{}.{first}",
            automation.title,
            automation.schedule.words,
            counted_from(params)
        ),
        AutomationKind::Digest => format!(
            "I'll send you your agenda here {}.{first}",
            automation.schedule.words
        ),
    };
    Ok(Created {
        summary,
        automation_id: automation.id,
    })
}
