//! The action registry: config/reply_actions.yaml (every action, its handler and its
//! parameters), checked at startup. Binding a request against it is in [`super::bind`].
//!
//! Invariants:
//! - Only registered actions with a known handler exist; an unknown handler is a startup error,
//!   as is a handler whose parameters the action does not declare, a default outside its own
//!   enum or range, and a `from_context` parameter the context cannot supply.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::handler_kind::{HandlerKind, UnknownHandler};
use super::params::{check_value, ParamDef, CONTEXT_PARAMS};

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
        for (name, def) in file.actions {
            let key = format!("actions.{name}");
            let handler: HandlerKind = def.handler.parse().map_err(|error: UnknownHandler| {
                invalid(format!("{key}.handler"), error.to_string())
            })?;
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
            actions.insert(name, (def, handler));
        }
        if actions.is_empty() {
            return Err(invalid("actions".into(), "at least one action is needed"));
        }
        Ok(Self { actions })
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

    /// Whether an action must always go through a plan.
    pub fn is_plan_only(&self, name: &str) -> bool {
        self.get(name).is_some_and(|def| def.plan_only)
    }
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
