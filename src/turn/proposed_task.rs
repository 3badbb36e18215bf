//! A new task the model proposed in a nudge thread (a reply action handled by `create_task`),
//! made like every other new task but those of `POST /api/tasks` and automations: learned
//! preferences fill the fields the model did not give (and are listed on the task), and a
//! likely duplicate of an open task is said in the proposal ("You already have 'Pay rent'...
//! Add another?"), so the person's yes is a yes to another one.
//!
//! Reaches (of `TurnDeps`): the settings, the store.
//!
//! Invariant: this only rewrites actions that are proposed anyway (the nudge room's plan waits
//! for a yes); a title, time or field the model gave is never changed, and nothing is written
//! here (one read for the duplicate check and the preferences of every new task).

use std::collections::BTreeSet;

use crate::actions::{ActionRequest, BoundAction, HandlerKind, TimeReading};
use crate::capture::request::Capture;
use crate::capture::{duplicates, preferences};
use crate::tasks::TaskSource;

use super::deps::TurnDeps;
use super::error::TurnError;
use super::texts;

/// Which fields the model itself gave a proposed `create_task` (before the registry's defaults
/// filled the rest), by the action's name and title.
#[derive(Debug, Clone, Default)]
pub(super) struct GivenFields {
    given: BTreeSet<(String, String, &'static str)>,
}

impl GivenFields {
    /// Reads the model's requests as it sent them.
    pub(super) fn of(requests: &[ActionRequest]) -> Self {
        let mut given = BTreeSet::new();
        for request in requests {
            let title = request
                .params
                .get("title")
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .trim()
                .to_string();
            for field in ["domain", "priority"] {
                if request.params.get(field).is_some_and(|v| !v.is_null()) {
                    given.insert((request.name.clone(), title.clone(), field));
                }
            }
        }
        Self { given }
    }

    fn gave(&self, action: &str, title: &str, field: &'static str) -> bool {
        self.given
            .contains(&(action.to_string(), title.trim().to_string(), field))
    }
}

/// `kept` with each new task rebuilt like a capture (`source: chat`, learned preferences
/// applied), and what to tell the person about likely duplicates, one sentence each.
pub(super) async fn proposed_tasks(
    deps: &TurnDeps,
    kept: Vec<BoundAction>,
    given: &GivenFields,
) -> Result<(Vec<BoundAction>, Vec<String>), TurnError> {
    let captures: Vec<Option<Capture>> = kept
        .iter()
        .map(|action| as_capture(action, given))
        .collect();
    if captures.iter().all(Option::is_none) {
        return Ok((kept, Vec::new()));
    }
    let asked: Vec<(String, Vec<&'static str>)> = captures
        .iter()
        .flatten()
        .map(|capture| (capture.title.clone(), capture.open_fields()))
        .collect();
    let found = deps
        .store
        .read(move |conn| {
            asked
                .iter()
                .map(|(title, open)| {
                    Ok((
                        duplicates::likely_duplicate(conn, title)?,
                        preferences::applicable(conn, title, open)?,
                    ))
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .await?;
    let mut found = found.into_iter();
    let mut notes = Vec::new();
    let mut actions = Vec::with_capacity(kept.len());
    for (action, capture) in kept.into_iter().zip(captures) {
        let (Some(capture), Some((duplicate, learned))) = (capture, found.next()) else {
            actions.push(action);
            continue;
        };
        if let Some(existing) = duplicate {
            notes.push(texts::duplicate(&existing.title, None));
        }
        let mut rebuilt = capture.action(TaskSource::Chat, None, &learned, deps.settings.timezone);
        rebuilt.name = action.name;
        actions.push(rebuilt);
    }
    Ok((actions, notes))
}

/// A proposed `create_task` as a capture: its title, the fields the model gave, its deadline
/// as read when it was bound. None for any other action, and for a new task whose time could
/// not be read or whose title fails the checks (the action then stays as it was).
fn as_capture(action: &BoundAction, given: &GivenFields) -> Option<Capture> {
    if action.handler != HandlerKind::CreateTask {
        return None;
    }
    let text = |name: &str| {
        action
            .params
            .get(name)
            .and_then(serde_json::Value::as_str)
            .map(str::to_string)
    };
    let title = text("title")?;
    let deadline = match action.times.get("due_by") {
        None | Some(TimeReading::NotNamed) => None,
        Some(TimeReading::At(at)) => Some(*at),
        Some(_) => return None,
    };
    let capture = Capture {
        domain: text("domain").filter(|_| given.gave(&action.name, &title, "domain")),
        priority: action
            .params
            .get("priority")
            .and_then(serde_json::Value::as_i64)
            .filter(|_| given.gave(&action.name, &title, "priority")),
        description: text("description"),
        deadline,
        title,
        ..Capture::default()
    };
    capture.checked().ok()
}
