//! The built-in handlers an action may name in reply_actions.yaml, and what each needs: the
//! parameters it reads and which of them is a time in the person's words.

use crate::replies::grounding::Ask;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The handlers an action may name in reply_actions.yaml.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandlerKind {
    MarkDone,
    Reschedule,
    CreateTask,
    RenameTask,
    Snooze,
    CancelTask,
    /// Stores a recurring reminder after a yes to its proposal. Internal: Donna proposes it
    /// from the person's own words (`actions::automation::proposal_action`); no actions file
    /// may name it, so a model can never propose it.
    CreateAutomation,
    /// Changes a task's title, description, domain or priority (the chat's `update_task`).
    /// Internal: only the chat actions (config/chat_actions.yaml) name it.
    UpdateTask,
    /// Stops a recurring reminder so undo can resume it (the chat's `stop_automation`).
    /// Internal: only the chat actions name it.
    StopAutomation,
    /// An offer to ask the bigger model (escalation): its yes runs `turn::escalation`, never a
    /// handler. Internal: Donna proposes it when the local model asks for it.
    Escalate,
}

impl HandlerKind {
    /// The kind of request that asks for this handler's action (`replies::grounding`); None for
    /// the internal handlers, which no model proposes on its own.
    pub fn ask(self) -> Option<Ask> {
        Some(match self {
            HandlerKind::MarkDone => Ask::Done,
            HandlerKind::Reschedule => Ask::Move,
            HandlerKind::Snooze => Ask::Snooze,
            HandlerKind::CancelTask => Ask::Cancel,
            HandlerKind::RenameTask => Ask::Rename,
            HandlerKind::CreateTask => Ask::Create,
            HandlerKind::UpdateTask => Ask::Change,
            HandlerKind::CreateAutomation | HandlerKind::StopAutomation | HandlerKind::Escalate => {
                return None
            }
        })
    }

    pub const ALL: [HandlerKind; 6] = [
        HandlerKind::MarkDone,
        HandlerKind::Reschedule,
        HandlerKind::CreateTask,
        HandlerKind::RenameTask,
        HandlerKind::Snooze,
        HandlerKind::CancelTask,
    ];

    /// Handlers the reply actions file may not name: Donna's own (`create_automation`) and the
    /// chat's (config/chat_actions.yaml, with their safety levels); the registry refuses them.
    pub const INTERNAL: [HandlerKind; 4] = [
        HandlerKind::CreateAutomation,
        HandlerKind::UpdateTask,
        HandlerKind::StopAutomation,
        HandlerKind::Escalate,
    ];

    pub fn is_internal(self) -> bool {
        Self::INTERNAL.contains(&self)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            HandlerKind::MarkDone => "mark_done",
            HandlerKind::Reschedule => "reschedule",
            HandlerKind::CreateTask => "create_task",
            HandlerKind::RenameTask => "rename_task",
            HandlerKind::Snooze => "snooze",
            HandlerKind::CancelTask => "cancel_task",
            HandlerKind::CreateAutomation => "create_automation",
            HandlerKind::UpdateTask => "update_task",
            HandlerKind::StopAutomation => "stop_automation",
            HandlerKind::Escalate => "escalate",
        }
    }

    /// Parameters the handler reads, which the action must declare.
    pub fn required_params(self) -> &'static [&'static str] {
        match self {
            HandlerKind::MarkDone | HandlerKind::CancelTask => &["task_id"],
            HandlerKind::Reschedule => &["task_id", "when"],
            HandlerKind::CreateTask => &["title"],
            HandlerKind::RenameTask => &["task_id", "new_title"],
            HandlerKind::Snooze => &["task_id", "duration_hours"],
            HandlerKind::CreateAutomation => {
                &["title", "rrule", "dtstart", "timezone", "schedule_words"]
            }
            HandlerKind::UpdateTask => &["task_id"],
            HandlerKind::StopAutomation => &["automation_id"],
            HandlerKind::Escalate => &["message", "estimate_micros"],
        }
    }

    /// The parameter holding a time in the person's words, read once when the action is bound.
    pub fn time_param(self) -> Option<&'static str> {
        match self {
            HandlerKind::Reschedule => Some("when"),
            HandlerKind::CreateTask => Some("due_by"),
            _ => None,
        }
    }

    /// Whether that time may be relative to the task's current start ("push it by a day"); a
    /// new task's deadline is read from now only.
    pub fn reads_time_from_task_start(self) -> bool {
        self == HandlerKind::Reschedule
    }
}

/// A handler name in reply_actions.yaml that no built-in handler has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown handler {name:?}; known handlers: {known}", known = HandlerKind::ALL.map(|k| k.as_str()).join(", "))]
pub struct UnknownHandler {
    pub name: String,
}

impl FromStr for HandlerKind {
    type Err = UnknownHandler;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        // The original named handlers by dotted Python paths; accept their last segment.
        let name = text.rsplit('.').next().unwrap_or(text);
        let name = match name {
            "reschedule_task" => "reschedule",
            "snooze_task" => "snooze",
            other => other,
        };
        // Internal handlers are found too, so the registry can say why it refuses them.
        HandlerKind::ALL
            .into_iter()
            .chain(HandlerKind::INTERNAL)
            .find(|kind| kind.as_str() == name)
            .ok_or_else(|| UnknownHandler {
                name: text.to_string(),
            })
    }
}
