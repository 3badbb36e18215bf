//! What a button stands for: an answer to a proposal (yes, no), a change to one task (done,
//! snooze for an hour, tomorrow, a chosen time, a new title, cancel), or undo. A click on
//! Discord or the web page enters the turn as one of these, never as words read back, and is
//! kept with its message in the inbox (migration 0021) so a recovered click does the same.
//!
//! Owns: the intents and their stored form (JSON, `{"intent": "snooze"}`), the checks an intent
//! must pass before it is accepted (a title a task may have), the words each stands for (what
//! the conversation remembers the person said), and binding a task intent to the reply action
//! with its handler ([`bind_button`]): the action's parameters come from the intent, never from
//! reading a message.
//! Invariant: a task intent binds like any action (`ActionRegistry::bind`: the task from the
//! thread, the parameters checked); an action the registry marks `plan_only` (cancel_task as
//! shipped) is proposed, never run at once.

use std::collections::BTreeMap;

use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::bind::{BindContext, BindError, BoundIntent, TimeReading};
use super::handler_kind::HandlerKind;
use super::registry::{ActionRegistry, ActionRequest};
use crate::tasks::model::clean_title;
use crate::tasks::when::check_ahead;

/// How long the Snooze button holds a task's nudges off.
pub const SNOOZE_HOURS: i64 = 1;

/// What a button stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "snake_case", deny_unknown_fields)]
pub enum Intent {
    /// Yes to the proposal the click names.
    Yes,
    /// No to the proposal the click names.
    No,
    Done,
    /// Snoozed for [`SNOOZE_HOURS`].
    Snooze,
    /// Moved to tomorrow, at the task's own time of day (what "tomorrow" means typed).
    Tomorrow,
    /// Moved to a time the person chose; the offset is their zone's at that time, so the words
    /// say it as they picked it.
    Reschedule {
        at: DateTime<FixedOffset>,
    },
    Rename {
        title: String,
    },
    /// Cancelled (the task will not be done): proposed first, as cancel_task is `plan_only`.
    Cancel,
    /// The sender's last action in the chat, taken back.
    Undo,
}

/// Why an intent cannot be accepted; said to the person or the API caller as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct IntentError(pub String);

impl Intent {
    /// The intent's name, as the API and the stored form spell it.
    pub fn name(&self) -> &'static str {
        match self {
            Intent::Yes => "yes",
            Intent::No => "no",
            Intent::Done => "done",
            Intent::Snooze => "snooze",
            Intent::Tomorrow => "tomorrow",
            Intent::Reschedule { .. } => "reschedule",
            Intent::Rename { .. } => "rename",
            Intent::Cancel => "cancel",
            Intent::Undo => "undo",
        }
    }

    /// The answer to a proposal this is: Some(true) for yes, Some(false) for no.
    pub fn answers_proposal(&self) -> Option<bool> {
        match self {
            Intent::Yes => Some(true),
            Intent::No => Some(false),
            _ => None,
        }
    }

    /// Whether it changes one task (and so must name which: a nudge, a task, or the thread's).
    pub fn changes_a_task(&self) -> bool {
        self.answers_proposal().is_none() && *self != Intent::Undo
    }

    /// Refuses what no task could take (a title a task may not have).
    pub fn check(&self) -> Result<(), IntentError> {
        match self {
            Intent::Rename { title } => clean_title(title)
                .map(|_| ())
                .map_err(|error| IntentError(error.to_string())),
            _ => Ok(()),
        }
    }

    /// The words the button stands for: what the conversation remembers the person said, so
    /// the history (and the model reading it later) sees their answer.
    pub fn words(&self) -> String {
        match self {
            Intent::Yes => "yes".into(),
            Intent::No => "no".into(),
            Intent::Done => "done".into(),
            Intent::Snooze => format!("snooze {SNOOZE_HOURS}h"),
            Intent::Tomorrow => "tomorrow".into(),
            Intent::Reschedule { at } => format!("move it to {}", at.format("%Y-%m-%d %H:%M")),
            Intent::Rename { title } => format!("rename it to {}", title.trim()),
            Intent::Cancel => "cancel it".into(),
            Intent::Undo => "undo".into(),
        }
    }

    /// The stored form (the inbox's `intent` column).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads the stored form back.
    pub fn from_json(json: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(json)
    }
}

/// Binds a task intent to the reply action whose handler does it (the first such action of the
/// registry), with the parameters the intent fixes; the task comes from `context` as for any
/// action. Tomorrow is the reschedule "tomorrow" means when typed (read against the task's own
/// time); a chosen time is taken as it is, held to the reader's rules (ahead, within five years).
pub fn bind_button(
    registry: &ActionRegistry,
    intent: &Intent,
    context: &BindContext,
) -> Result<BoundIntent, BindError> {
    let (handler, params) = match intent {
        Intent::Done => (HandlerKind::MarkDone, Map::new()),
        Intent::Snooze => (
            HandlerKind::Snooze,
            params([("duration_hours", Value::from(SNOOZE_HOURS))]),
        ),
        Intent::Tomorrow => (
            HandlerKind::Reschedule,
            params([("when", "tomorrow".into())]),
        ),
        Intent::Reschedule { at } => {
            let local = at.with_timezone(&context.when.timezone);
            let when = local.format("%Y-%m-%dT%H:%M").to_string();
            (HandlerKind::Reschedule, params([("when", when.into())]))
        }
        Intent::Rename { title } => (
            HandlerKind::RenameTask,
            params([("new_title", title.trim().into())]),
        ),
        Intent::Cancel => (HandlerKind::CancelTask, Map::new()),
        Intent::Yes | Intent::No | Intent::Undo => {
            return Err(BindError::UnknownAction(intent.name().into()))
        }
    };
    let name = registry
        .action_with(handler)
        .ok_or_else(|| BindError::UnknownAction(handler.as_str().into()))?
        .to_string();
    let mut action = registry.bind(&ActionRequest { name, params }, context)?;
    if let Intent::Reschedule { at } = intent {
        let reading = match check_ahead(at.with_timezone(&Utc), &context.when) {
            Ok(at) => TimeReading::At(at),
            Err(error) => TimeReading::Unreadable(error.to_string()),
        };
        action.times = BTreeMap::from([("when".to_string(), reading)]);
    }
    let needs_plan = registry.is_plan_only(&action.name);
    Ok(BoundIntent { action, needs_plan })
}

fn params<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::when::WhenContext;

    fn context() -> BindContext {
        BindContext {
            task_id: Some("tsk_1".into()),
            thread_id: "web".into(),
            when: WhenContext {
                now: DateTime::parse_from_rfc3339("2026-11-23T10:00:00Z")
                    .map(|at| at.with_timezone(&Utc))
                    .unwrap_or_default(),
                timezone: chrono_tz::Europe::Paris,
                current_start: DateTime::parse_from_rfc3339("2026-11-23T16:30:00Z")
                    .map(|at| at.with_timezone(&Utc))
                    .ok(),
                later: std::time::Duration::from_secs(3 * 3600),
            },
        }
    }

    fn at(text: &str) -> DateTime<FixedOffset> {
        DateTime::parse_from_rfc3339(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn every_intent_is_stored_and_read_back_as_itself() {
        let all = [
            Intent::Yes,
            Intent::No,
            Intent::Done,
            Intent::Snooze,
            Intent::Tomorrow,
            Intent::Reschedule {
                at: at("2026-12-01T15:00:00+01:00"),
            },
            Intent::Rename {
                title: "Pay the rent".into(),
            },
            Intent::Cancel,
            Intent::Undo,
        ];
        for intent in all {
            let stored = intent.to_json();
            assert!(
                stored.contains(&format!("\"{}\"", intent.name())),
                "{stored}"
            );
            assert_eq!(Intent::from_json(&stored).ok(), Some(intent));
        }
        // Not an intent of this version, or damaged: refused, never guessed.
        for bad in [
            "{}",
            r#"{"intent":"launch"}"#,
            r#"{"intent":"rename"}"#,
            r#"{"intent":"reschedule","at":"tomorrow"}"#,
            "done",
        ] {
            assert!(Intent::from_json(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_intent_says_the_answer_it_stands_for() {
        let table = [
            (Intent::Yes, "yes"),
            (Intent::No, "no"),
            (Intent::Done, "done"),
            (Intent::Snooze, "snooze 1h"),
            (Intent::Tomorrow, "tomorrow"),
            (
                Intent::Reschedule {
                    at: at("2026-12-01T15:00:00+01:00"),
                },
                "move it to 2026-12-01 15:00",
            ),
            (
                Intent::Rename {
                    title: " Pay the rent ".into(),
                },
                "rename it to Pay the rent",
            ),
            (Intent::Cancel, "cancel it"),
            (Intent::Undo, "undo"),
        ];
        for (intent, words) in table {
            assert_eq!(intent.words(), words);
        }
    }

    #[test]
    fn a_title_no_task_may_have_is_refused() {
        for bad in ["", "   ", "\u{200b}", &"x".repeat(201), "a\u{7}b"] {
            let rename = Intent::Rename { title: bad.into() };
            assert!(rename.check().is_err(), "{bad:?}");
        }
        assert!(Intent::Rename {
            title: "Call the bank".into()
        }
        .check()
        .is_ok());
    }

    #[test]
    fn task_intents_bind_to_their_actions_with_fixed_parameters() {
        let registry = ActionRegistry::shipped().unwrap_or_else(|e| panic!("{e}"));
        let bound = |intent: Intent| {
            bind_button(&registry, &intent, &context()).unwrap_or_else(|e| panic!("{e}"))
        };
        let done = bound(Intent::Done);
        assert_eq!(
            (done.action.name.as_str(), done.needs_plan),
            ("mark_done", false)
        );
        assert_eq!(done.action.params["task_id"], "tsk_1");
        let snooze = bound(Intent::Snooze);
        assert_eq!(snooze.action.params["duration_hours"], 1);
        // Tomorrow keeps the task's own time of day (17:30 in Paris).
        let tomorrow = bound(Intent::Tomorrow);
        assert_eq!(
            tomorrow.action.times.get("when"),
            Some(&TimeReading::At(
                at("2026-11-24T16:30:00Z").with_timezone(&Utc)
            ))
        );
        let chosen = bound(Intent::Reschedule {
            at: at("2026-12-01T15:00:00+01:00"),
        });
        assert_eq!(chosen.action.params["when"], "2026-12-01T15:00");
        assert_eq!(
            chosen.action.times.get("when"),
            Some(&TimeReading::At(
                at("2026-12-01T14:00:00Z").with_timezone(&Utc)
            ))
        );
        let rename = bound(Intent::Rename {
            title: "Pay the rent".into(),
        });
        assert_eq!(rename.action.params["new_title"], "Pay the rent");
        // Cancel is plan_only: proposed, never run at once.
        let cancel = bound(Intent::Cancel);
        assert_eq!(
            (cancel.action.name.as_str(), cancel.needs_plan),
            ("cancel_task", true)
        );
    }

    #[test]
    fn a_chosen_time_behind_us_or_too_far_is_said_not_used() {
        let registry = ActionRegistry::shipped().unwrap_or_else(|e| panic!("{e}"));
        for (chosen, reason) in [
            ("2026-11-23T10:30:00+01:00", "that time has already passed"),
            ("2026-11-20T09:00:00+01:00", "that date is in the past"),
            ("2036-11-20T09:00:00+01:00", "that is too far ahead"),
        ] {
            let intent = Intent::Reschedule { at: at(chosen) };
            let bound =
                bind_button(&registry, &intent, &context()).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                bound
                    .action
                    .unusable_time()
                    .is_some_and(|said| said.contains(reason)),
                "{chosen}: {:?}",
                bound.action.times
            );
        }
    }

    #[test]
    fn an_answer_or_undo_is_no_task_action() {
        let registry = ActionRegistry::shipped().unwrap_or_else(|e| panic!("{e}"));
        for intent in [Intent::Yes, Intent::No, Intent::Undo] {
            assert!(!intent.changes_a_task());
            assert!(bind_button(&registry, &intent, &context()).is_err());
        }
        let free = BindContext {
            task_id: None,
            ..context()
        };
        assert!(matches!(
            bind_button(&registry, &Intent::Done, &free),
            Err(BindError::NoContext { .. })
        ));
    }
}
