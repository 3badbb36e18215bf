//! The action registry: config/reply_actions.yaml (every action, its handler and its
//! parameters), checked at startup. Binding a request against it is in [`super::bind`].
//!
//! Invariants:
//! - Only registered actions with a known handler exist; an unknown handler is a startup error,
//!   as is a handler whose parameters the action does not declare, a default outside its own
//!   enum or range, and a `from_context` parameter the context cannot supply.
//! - An action's `evidence` (the words that can justify proposing it) compiles, and names at
//!   least one word or accepts a time; an `example` only uses parameters the model may set,
//!   with valid values, so the prompt never shows an action or parameter that does not exist.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::handler_kind::{HandlerKind, UnknownHandler};
use super::params::{check_value, ParamDef, CONTEXT_PARAMS};
use crate::replies::evidence::Grounds;
use crate::replies::grounding::{self, Grounded};
use crate::sentence::Sentence;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    pub description: String,
    pub handler: String,
    #[serde(default)]
    pub risk: Option<String>,
    #[serde(default)]
    pub plan_only: bool,
    #[serde(default)]
    pub params: BTreeMap<String, ParamDef>,
    /// The words in a reply that can justify a model proposing this action.
    #[serde(default)]
    pub evidence: Option<EvidenceDef>,
    /// A reply and the answer proposing this action, shown to the model as an example.
    #[serde(default)]
    pub example: Option<ExampleDef>,
}

/// What in a reply can justify an action: any of `words` (whole words or phrases, not negated),
/// or, with `time: true`, a time the reply names ("friday 3pm", "in 2 hours").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceDef {
    #[serde(default)]
    pub words: Vec<String>,
    #[serde(default)]
    pub time: bool,
}

/// One example for the prompt: a reply, the parameters the model should propose for it, and a
/// short answer to the person.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleDef {
    pub reply: String,
    #[serde(default)]
    pub params: Map<String, Value>,
    pub answer: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionsFile {
    pub actions: BTreeMap<String, ActionDef>,
}

/// Why the actions file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("{key}: {reason}")]
    Invalid { key: String, reason: String },
}

fn invalid(key: String, reason: impl Into<String>) -> RegistryError {
    RegistryError::Invalid {
        key,
        reason: reason.into(),
    }
}

/// An action request: a name and parameters, from a keyword match or a model's proposal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionRequest {
    pub name: String,
    #[serde(default)]
    pub params: Map<String, Value>,
}

/// The checked registry.
#[derive(Debug, Clone)]
pub struct ActionRegistry {
    actions: BTreeMap<String, (ActionDef, HandlerKind)>,
    /// Each action's evidence words, compiled.
    grounds: BTreeMap<String, Grounds>,
}

impl ActionRegistry {
    /// Parses and checks an actions file.
    pub fn from_yaml(text: &str) -> Result<Self, RegistryError> {
        let file: ActionsFile = crate::config::parse_yaml(text)
            .map_err(|error| invalid("actions".into(), error.to_string()))?;
        Self::new(file)
    }

    pub fn shipped() -> Result<Self, RegistryError> {
        Self::from_yaml(include_str!("../../config/reply_actions.yaml"))
    }

    pub fn new(file: ActionsFile) -> Result<Self, RegistryError> {
        let mut actions = BTreeMap::new();
        let mut grounds = BTreeMap::new();
        for (name, def) in file.actions {
            let key = format!("actions.{name}");
            let handler: HandlerKind = def.handler.parse().map_err(|error: UnknownHandler| {
                invalid(format!("{key}.handler"), error.to_string())
            })?;
            if handler.is_internal() {
                return Err(invalid(
                    format!("{key}.handler"),
                    format!(
                        "{} is Donna's own handler (proposed from the person's words, or a chat \
                         action with its safety level in chat_actions.yaml); a reply action \
                         cannot name it",
                        handler.as_str()
                    ),
                ));
            }
            for (param, param_def) in &def.params {
                let key = format!("{key}.params.{param}");
                if let Some(default) = &param_def.default {
                    check_value(param_def, default)
                        .map_err(|reason| invalid(format!("{key}.default"), reason.to_string()))?;
                }
                if param_def.from_context && !CONTEXT_PARAMS.contains(&param.as_str()) {
                    return Err(invalid(
                        key,
                        "only task_id and thread_id can come from context",
                    ));
                }
            }
            for required in handler.required_params() {
                if !def.params.contains_key(*required) {
                    return Err(invalid(
                        format!("{key}.params"),
                        format!("handler {} needs a parameter named {required}", def.handler),
                    ));
                }
            }
            if let Some(evidence) = &def.evidence {
                let compiled = Grounds::new(&evidence.words).map_err(|reason| {
                    invalid(format!("{key}.evidence.words"), reason.to_string())
                })?;
                if compiled.is_empty() && !evidence.time {
                    return Err(invalid(
                        format!("{key}.evidence"),
                        "lists no words and no time: nothing could ever justify this action",
                    ));
                }
                grounds.insert(name.clone(), compiled);
            }
            if let Some(example) = &def.example {
                check_example(&key, &def, example)?;
            }
            actions.insert(name, (def, handler));
        }
        if actions.is_empty() {
            return Err(invalid("actions".into(), "at least one action is needed"));
        }
        Ok(Self { actions, grounds })
    }

    /// The actions that declare no evidence (every one must when evidence is required).
    pub fn without_evidence(&self) -> impl Iterator<Item = &str> {
        self.actions
            .iter()
            .filter(|(_, (def, _))| def.evidence.is_none())
            .map(|(name, _)| name.as_str())
    }

    /// How plainly `reply` asks for action `name` (`replies::grounding`, by the kind of its
    /// handler): in people's words, its own evidence phrases read the same way, or (when the
    /// action accepts a time as ground) `names_a_time`. An action without evidence has none.
    /// `task_title` is the title of the task it is on (a past form of its verb reports it done).
    pub fn grounded(
        &self,
        name: &str,
        reply: &Sentence,
        task_title: Option<&str>,
        names_a_time: impl FnOnce() -> bool,
    ) -> Grounded {
        let Some((def, handler)) = self.definition(name) else {
            return Grounded::No;
        };
        let Some(evidence) = def.evidence.as_ref() else {
            return Grounded::No;
        };
        let context = grounding::Context {
            task_title,
            extra: self.grounds.get(name),
        };
        match handler.ask() {
            Some(ask) => grounding::judge(reply, ask, &context, || evidence.time && names_a_time()),
            None => Grounded::No,
        }
    }

    pub fn get(&self, name: &str) -> Option<&ActionDef> {
        self.actions.get(name).map(|(def, _)| def)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.actions.keys().map(String::as_str)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &ActionDef)> {
        self.actions
            .iter()
            .map(|(name, (def, _))| (name.as_str(), def))
    }

    /// An action's definition and handler.
    pub(super) fn definition(&self, name: &str) -> Option<(&ActionDef, HandlerKind)> {
        self.actions.get(name).map(|(def, handler)| (def, *handler))
    }

    /// The first action (by name) whose handler is `handler`: what a button's intent runs.
    pub fn action_with(&self, handler: HandlerKind) -> Option<&str> {
        self.actions
            .iter()
            .find(|(_, (_, kind))| *kind == handler)
            .map(|(name, _)| name.as_str())
    }

    /// Whether an action must always go through a plan.
    pub fn is_plan_only(&self, name: &str) -> bool {
        self.get(name).is_some_and(|def| def.plan_only)
    }
}

/// An example must be one the registry would accept: declared, non-context parameters with
/// valid values, and every required one present.
fn check_example(key: &str, def: &ActionDef, example: &ExampleDef) -> Result<(), RegistryError> {
    let key = format!("{key}.example");
    if example.reply.trim().is_empty() || example.answer.trim().is_empty() {
        return Err(invalid(key, "needs a reply and an answer"));
    }
    for (param, value) in &example.params {
        let Some(param_def) = def.params.get(param).filter(|p| !p.from_context) else {
            return Err(invalid(
                format!("{key}.params.{param}"),
                "not a parameter the model may set",
            ));
        };
        check_value(param_def, value)
            .map_err(|reason| invalid(format!("{key}.params.{param}"), reason.to_string()))?;
    }
    if let Some((missing, _)) = def
        .params
        .iter()
        .find(|(name, param)| param.is_required() && !example.params.contains_key(*name))
    {
        return Err(invalid(
            format!("{key}.params"),
            format!("{missing} is required"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_handler_is_a_startup_error_naming_the_key() {
        let yaml = "actions:\n  fly:\n    description: x\n    handler: donna.fly\n";
        let error = ActionRegistry::from_yaml(yaml)
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert!(
            matches!(error, Err(ref e) if e.starts_with("actions.fly.handler")),
            "{error:?}"
        );
    }
}
