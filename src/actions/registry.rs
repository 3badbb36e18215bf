//! The action registry: config/reply_actions.yaml, checked at startup, and the validation every
//! proposed action goes through before it can run.
//!
//! Invariants:
//! - Only registered actions with a known handler exist; an unknown handler is a startup error.
//! - A bound action has every required parameter, each of the declared type, within its enum and
//!   range; defaults are filled in explicitly; unknown parameters are dropped.
//! - `from_context` parameters are always taken from the thread's context, whatever the
//!   proposal said (a model cannot aim an action at another task).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::handlers::HandlerKind;

/// Parameter types an action may declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamType {
    String,
    Integer,
    Number,
    Boolean,
}

impl ParamType {
    pub fn as_str(self) -> &'static str {
        match self {
            ParamType::String => "string",
            ParamType::Integer => "integer",
            ParamType::Number => "number",
            ParamType::Boolean => "boolean",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamDef {
    #[serde(rename = "type")]
    pub kind: ParamType,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub optional: bool,
    #[serde(default)]
    pub default: Option<Value>,
    #[serde(default, rename = "enum")]
    pub allowed: Option<Vec<Value>>,
    #[serde(default)]
    pub min: Option<f64>,
    #[serde(default)]
    pub max: Option<f64>,
    #[serde(default)]
    pub from_context: bool,
}

impl ParamDef {
    pub fn is_required(&self) -> bool {
        !self.optional && self.default.is_none() && !self.from_context
    }
}

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

/// A validated action, ready to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoundAction {
    pub name: String,
    pub handler: HandlerKind,
    pub params: Map<String, Value>,
}

/// What the thread supplies to `from_context` parameters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BindContext {
    pub task_id: Option<String>,
    pub thread_id: String,
}

impl BindContext {
    fn value(&self, name: &str) -> Option<Value> {
        match name {
            "task_id" => self.task_id.clone().map(Value::String),
            "thread_id" => Some(Value::String(self.thread_id.clone())),
            _ => None,
        }
    }
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
            let handler: HandlerKind = def
                .handler
                .parse()
                .map_err(|reason: String| invalid(format!("{key}.handler"), reason))?;
            for (param, param_def) in &def.params {
                let key = format!("{key}.params.{param}");
                if let Some(default) = &param_def.default {
                    check_value(param_def, default)
                        .map_err(|reason| invalid(format!("{key}.default"), reason))?;
                }
                if param_def.from_context
                    && BindContext::default().value(param).is_none()
                    && param != "task_id"
                {
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

    /// Validates one request against its definition and binds context parameters.
    pub fn bind(
        &self,
        request: &ActionRequest,
        context: &BindContext,
    ) -> Result<BoundAction, String> {
        let (def, handler) = self
            .actions
            .get(&request.name)
            .ok_or_else(|| format!("unknown action {:?}", request.name))?;
        let mut params = Map::new();
        for (name, param) in &def.params {
            if param.from_context {
                match context.value(name) {
                    Some(value) => {
                        params.insert(name.clone(), value);
                    }
                    None => return Err(format!("{}: this thread has no {name}", request.name)),
                }
                continue;
            }
            match request.params.get(name) {
                Some(Value::Null) | None => {
                    if let Some(default) = &param.default {
                        params.insert(name.clone(), default.clone());
                    } else if !param.optional {
                        return Err(format!("{}: missing parameter {name}", request.name));
                    }
                }
                Some(value) => {
                    let value = normalize(param, value).map_err(|reason| {
                        format!("{}: parameter {name}: {reason}", request.name)
                    })?;
                    params.insert(name.clone(), value);
                }
            }
        }
        Ok(BoundAction {
            name: request.name.clone(),
            handler: *handler,
            params,
        })
    }

    /// Whether an action must always go through a plan.
    pub fn is_plan_only(&self, name: &str) -> bool {
        self.get(name).is_some_and(|def| def.plan_only)
    }
}

/// Checks a value against its definition; strings are trimmed and must not be empty.
fn normalize(def: &ParamDef, value: &Value) -> Result<Value, String> {
    let value = match (def.kind, value) {
        (ParamType::String, Value::String(text)) => {
            let text = text.trim();
            if text.is_empty() {
                return Err("must not be empty".into());
            }
            if text.chars().count() > 500 {
                return Err("must be at most 500 characters".into());
            }
            Value::String(text.to_string())
        }
        (ParamType::Integer, Value::Number(number)) if number.is_i64() => value.clone(),
        (ParamType::Number, Value::Number(_)) => value.clone(),
        (ParamType::Boolean, Value::Bool(_)) => value.clone(),
        (kind, other) => {
            return Err(format!(
                "expected {}, got {}",
                kind.as_str(),
                type_name(other)
            ));
        }
    };
    check_value(def, &value)?;
    Ok(value)
}

fn check_value(def: &ParamDef, value: &Value) -> Result<(), String> {
    if let Some(allowed) = &def.allowed {
        if !allowed.contains(value) {
            let listed: Vec<String> = allowed.iter().map(|v| v.to_string()).collect();
            return Err(format!("{value} is not one of {}", listed.join(", ")));
        }
    }
    if let Some(number) = value.as_f64() {
        if def.min.is_some_and(|min| number < min) || def.max.is_some_and(|max| number > max) {
            return Err(format!(
                "{number} is outside {}..={}",
                def.min.map_or("-inf".into(), |m| m.to_string()),
                def.max.map_or("inf".into(), |m| m.to_string())
            ));
        }
    }
    Ok(())
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn registry() -> ActionRegistry {
        match ActionRegistry::shipped() {
            Ok(registry) => registry,
            Err(error) => panic!("shipped registry invalid: {error}"),
        }
    }

    fn request(name: &str, params: Value) -> ActionRequest {
        ActionRequest {
            name: name.into(),
            params: params.as_object().cloned().unwrap_or_default(),
        }
    }

    fn context() -> BindContext {
        BindContext {
            task_id: Some("tsk_thread".into()),
            thread_id: "thr_1".into(),
        }
    }

    #[test]
    fn context_parameters_always_come_from_the_thread() {
        let bound = registry().bind(
            &request("mark_done", json!({"task_id": "tsk_other"})),
            &context(),
        );
        assert_eq!(
            bound.map(|b| b.params["task_id"].clone()),
            Ok(json!("tsk_thread"))
        );
    }

    #[test]
    fn defaults_are_filled_explicitly() {
        let bound = registry().bind(&request("snooze", json!({})), &context());
        assert_eq!(
            bound.map(|b| b.params["duration_hours"].clone()),
            Ok(json!(2))
        );
        let bound = registry().bind(
            &request("create_task", json!({"title": "Buy milk"})),
            &context(),
        );
        let params = bound.map(|b| b.params).unwrap_or_default();
        assert_eq!(
            (params["domain"].clone(), params["priority"].clone()),
            (json!("personal"), json!(2))
        );
    }

    #[test]
    fn types_enums_ranges_and_presence_are_checked() {
        let r = registry();
        let c = context();
        assert!(r.bind(&request("create_task", json!({})), &c).is_err());
        assert!(r
            .bind(&request("create_task", json!({"title": 5})), &c)
            .is_err());
        assert!(r
            .bind(
                &request("create_task", json!({"title": "x", "domain": "space"})),
                &c
            )
            .is_err());
        assert!(r
            .bind(
                &request("create_task", json!({"title": "x", "priority": "high"})),
                &c
            )
            .is_err());
        assert!(r
            .bind(
                &request("create_task", json!({"title": "x", "priority": 9})),
                &c
            )
            .is_err());
        assert!(r
            .bind(&request("snooze", json!({"duration_hours": 1.5})), &c)
            .is_err());
        assert!(r
            .bind(&request("rename_task", json!({"new_title": "   "})), &c)
            .is_err());
        assert!(r.bind(&request("launch_rockets", json!({})), &c).is_err());
        assert!(r
            .bind(
                &request("rename_task", json!({"new_title": "Pay rent"})),
                &c
            )
            .is_ok());
    }

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

    #[test]
    fn a_task_action_without_context_cannot_bind() {
        let free = BindContext {
            task_id: None,
            thread_id: "thr_free".into(),
        };
        assert!(registry()
            .bind(&request("mark_done", json!({})), &free)
            .is_err());
    }
}
