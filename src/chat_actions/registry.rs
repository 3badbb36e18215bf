//! The chat actions file (config/chat_actions.yaml, or `chat_actions_file`): every action the
//! chat's model may propose, its built-in handler, its required safety level and its
//! parameters, checked at startup (and by `donna check-config`).
//!
//! Invariants:
//! - `safety` is required: a missing or unknown level is an error naming the key, never a
//!   default (the original defaulted a missing level to `read`).
//! - A level is never below what the handler does: a handler that writes is not `read`, and
//!   the handlers that end something (`cancel_task`, `stop_automation`) are always `confirm`.
//! - Parameters are declared with their types; the handler's own parameters must be declared
//!   and nothing else may be; no defaults and no context parameters (Donna fills in nothing
//!   for the model; a task is resolved from the `task` words, never taken as an id).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::actions::params::check_value;
use crate::actions::ParamDef;

/// How much consent an action needs (docs/contract.md "Consent").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Safety {
    /// Runs at once and changes nothing.
    Read,
    /// Runs at once on the one task the person named; otherwise part of a plan. Undoable.
    Write,
    /// Always a plan that waits for a yes.
    Confirm,
}

impl Safety {
    pub fn as_str(self) -> &'static str {
        match self {
            Safety::Read => "read",
            Safety::Write => "write",
            Safety::Confirm => "confirm",
        }
    }
}

/// The built-in handlers a chat action may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatHandler {
    QueryTasks,
    GetTask,
    CreateTask,
    UpdateTask,
    RescheduleTask,
    MarkDone,
    Snooze,
    CancelTask,
    StopAutomation,
}

impl ChatHandler {
    pub const ALL: [ChatHandler; 9] = [
        ChatHandler::QueryTasks,
        ChatHandler::GetTask,
        ChatHandler::CreateTask,
        ChatHandler::UpdateTask,
        ChatHandler::RescheduleTask,
        ChatHandler::MarkDone,
        ChatHandler::Snooze,
        ChatHandler::CancelTask,
        ChatHandler::StopAutomation,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ChatHandler::QueryTasks => "query_tasks",
            ChatHandler::GetTask => "get_task",
            ChatHandler::CreateTask => "create_task",
            ChatHandler::UpdateTask => "update_task",
            ChatHandler::RescheduleTask => "reschedule_task",
            ChatHandler::MarkDone => "mark_done",
            ChatHandler::Snooze => "snooze",
            ChatHandler::CancelTask => "cancel_task",
            ChatHandler::StopAutomation => "stop_automation",
        }
    }

    /// The least level an action with this handler may have.
    pub fn least_safety(self) -> Safety {
        match self {
            ChatHandler::QueryTasks | ChatHandler::GetTask => Safety::Read,
            ChatHandler::CancelTask | ChatHandler::StopAutomation => Safety::Confirm,
            _ => Safety::Write,
        }
    }

    /// (parameters it needs, parameters it also reads).
    pub fn params(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            ChatHandler::QueryTasks => (
                &[],
                &[
                    "status",
                    "domain",
                    "due_before",
                    "due_after",
                    "overdue",
                    "limit",
                ],
            ),
            ChatHandler::GetTask | ChatHandler::MarkDone | ChatHandler::CancelTask => {
                (&["task"], &[])
            }
            ChatHandler::CreateTask => (&["title"], &["description", "domain", "priority", "when"]),
            ChatHandler::UpdateTask => (&["task"], &["title", "description", "domain", "priority"]),
            ChatHandler::RescheduleTask => (&["task", "when"], &[]),
            ChatHandler::Snooze => (&["task"], &["for"]),
            ChatHandler::StopAutomation => (&["automation"], &[]),
        }
    }

    fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionDef {
    #[serde(default)]
    handler: Option<String>,
    /// Read as text so a missing or unknown level gets our own message.
    #[serde(default)]
    safety: Option<String>,
    description: String,
    #[serde(default)]
    params: BTreeMap<String, ParamDef>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionsFile {
    actions: BTreeMap<String, ActionDef>,
}

/// One checked chat action.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatAction {
    pub name: String,
    pub handler: ChatHandler,
    pub safety: Safety,
    pub description: String,
    pub params: BTreeMap<String, ParamDef>,
}

/// Why the chat actions file cannot be used; the key path and the reason.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{key}: {reason}")]
pub struct ChatActionsError {
    pub key: String,
    pub reason: String,
}

fn invalid(key: String, reason: impl Into<String>) -> ChatActionsError {
    ChatActionsError {
        key,
        reason: reason.into(),
    }
}

/// The checked chat actions.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatActions {
    actions: BTreeMap<String, ChatAction>,
}

impl ChatActions {
    pub fn shipped() -> Result<Self, ChatActionsError> {
        Self::from_yaml(include_str!("../../config/chat_actions.yaml"))
    }

    pub fn from_yaml(text: &str) -> Result<Self, ChatActionsError> {
        let file: ActionsFile = crate::config::parse_yaml(text).map_err(|error| {
            let text = error.to_string();
            match text.split_once(": ") {
                Some((key, reason)) => invalid(key.to_string(), reason),
                None => invalid("actions".into(), text),
            }
        })?;
        let mut actions = BTreeMap::new();
        for (name, def) in file.actions {
            let action = check(&name, def)?;
            actions.insert(name, action);
        }
        Ok(Self { actions })
    }

    pub fn get(&self, name: &str) -> Option<&ChatAction> {
        self.actions.get(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = &ChatAction> {
        self.actions.values()
    }
}

fn check(name: &str, def: ActionDef) -> Result<ChatAction, ChatActionsError> {
    let key = format!("actions.{name}");
    let handler_name = def.handler.as_deref().unwrap_or(name);
    let handler = ChatHandler::parse(handler_name).ok_or_else(|| {
        invalid(
            format!("{key}.handler"),
            format!(
                "unknown handler {handler_name:?}; the handlers are: {}",
                ChatHandler::ALL.map(ChatHandler::as_str).join(", ")
            ),
        )
    })?;
    let safety = match def.safety.as_deref() {
        Some("read") => Safety::Read,
        Some("write") => Safety::Write,
        Some("confirm") => Safety::Confirm,
        Some(other) => {
            return Err(invalid(
                format!("{key}.safety"),
                format!("unknown level {other:?}; say read, write or confirm"),
            ))
        }
        None => {
            return Err(invalid(
                format!("{key}.safety"),
                "missing; every chat action needs one: read, write or confirm",
            ))
        }
    };
    let least = handler.least_safety();
    if safety < least {
        return Err(invalid(
            format!("{key}.safety"),
            format!(
                "{} is below what {} does; it needs at least {}",
                safety.as_str(),
                handler.as_str(),
                least.as_str()
            ),
        ));
    }
    let (needed, also) = handler.params();
    for param in needed {
        if !def.params.contains_key(*param) {
            return Err(invalid(
                format!("{key}.params.{param}"),
                format!("missing; {} needs it", handler.as_str()),
            ));
        }
    }
    for (param, param_def) in &def.params {
        let key = format!("{key}.params.{param}");
        if !needed.contains(&param.as_str()) && !also.contains(&param.as_str()) {
            return Err(invalid(
                key,
                format!("{} does not read a parameter {param:?}", handler.as_str()),
            ));
        }
        if param_def.from_context || param_def.default.is_some() {
            return Err(invalid(
                key,
                "chat actions take no defaults and no context parameters",
            ));
        }
        if let Some(allowed) = &param_def.allowed {
            for value in allowed {
                check_value(param_def, value)
                    .map_err(|reason| invalid(format!("{key}.enum"), reason.to_string()))?;
            }
        }
    }
    Ok(ChatAction {
        name: name.to_string(),
        handler,
        safety,
        description: def.description.trim().to_string(),
        params: def.params,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(yaml: &str) -> String {
        match ChatActions::from_yaml(yaml) {
            Ok(_) => "accepted".into(),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn the_shipped_file_has_every_action_of_the_design_at_its_level() {
        let shipped = ChatActions::shipped().unwrap_or_else(|e| panic!("{e}"));
        let levels: Vec<(String, &str)> = shipped
            .iter()
            .map(|action| (action.name.clone(), action.safety.as_str()))
            .collect();
        let expected = [
            ("cancel_task", "confirm"),
            ("create_task", "write"),
            ("get_task", "read"),
            ("mark_done", "write"),
            ("query_tasks", "read"),
            ("reschedule_task", "write"),
            ("snooze", "write"),
            ("stop_automation", "confirm"),
            ("update_task", "write"),
        ];
        let expected: Vec<(String, &str)> = expected
            .iter()
            .map(|(name, level)| (name.to_string(), *level))
            .collect();
        assert_eq!(levels, expected);
    }

    #[test]
    fn a_missing_unknown_or_too_low_level_is_refused_with_its_key() {
        let table = [
            (
                "actions:\n  mark_done:\n    description: d\n    params: { task: { type: string } }\n",
                "actions.mark_done.safety: missing",
            ),
            (
                "actions:\n  mark_done:\n    safety: maybe\n    description: d\n    params: { task: { type: string } }\n",
                "actions.mark_done.safety: unknown level \"maybe\"",
            ),
            (
                "actions:\n  mark_done:\n    safety: read\n    description: d\n    params: { task: { type: string } }\n",
                "actions.mark_done.safety: read is below what mark_done does",
            ),
            (
                "actions:\n  cancel_task:\n    safety: write\n    description: d\n    params: { task: { type: string } }\n",
                "actions.cancel_task.safety: write is below",
            ),
            (
                "actions:\n  launch:\n    safety: write\n    description: d\n",
                "actions.launch.handler: unknown handler",
            ),
            (
                "actions:\n  mark_done:\n    safety: write\n    description: d\n",
                "actions.mark_done.params.task: missing",
            ),
            (
                "actions:\n  mark_done:\n    safety: write\n    description: d\n    params: { task: { type: string }, when: { type: string } }\n",
                "actions.mark_done.params.when: mark_done does not read",
            ),
            (
                "actions:\n  mark_done:\n    safety: write\n    description: d\n    params: { task: { type: string, default: x } }\n",
                "no defaults",
            ),
        ];
        for (yaml, expected) in table {
            let error = error_of(yaml);
            assert!(error.contains(expected), "{yaml}\n-> {error}");
        }
        // Raising a level is the person's choice; an alias names its handler.
        let raised = "actions:\n  finish:\n    handler: mark_done\n    safety: confirm\n    description: d\n    params: { task: { type: string } }\n";
        assert_eq!(error_of(raised), "accepted");
    }
}
