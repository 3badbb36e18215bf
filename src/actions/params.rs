//! Action parameters: the types and constraints an action declares in reply_actions.yaml, and
//! checking a value against them (the one place a parameter's type, enum and range are
//! checked, for defaults at startup and for every request at bind time).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The parameters the thread's context can supply (`from_context: true`).
pub const CONTEXT_PARAMS: [&str; 2] = ["task_id", "thread_id"];

/// Longest string parameter accepted, in characters.
pub const MAX_STRING_PARAM_CHARS: usize = 500;

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

/// Why a parameter value was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("must not be empty")]
    Empty,
    #[error("must be at most {MAX_STRING_PARAM_CHARS} characters")]
    TooLong,
    #[error("expected {expected}, got {got}")]
    WrongType {
        expected: &'static str,
        got: &'static str,
    },
    #[error("{value} is not one of {allowed}")]
    NotAllowed { value: String, allowed: String },
    #[error("{value} is outside {min}..={max}")]
    OutOfRange {
        value: String,
        min: String,
        max: String,
    },
}

/// Checks a value against its definition; strings are trimmed and must not be empty.
pub fn normalize(def: &ParamDef, value: &Value) -> Result<Value, ParamError> {
    let value = match (def.kind, value) {
        (ParamType::String, Value::String(text)) => {
            let text = text.trim();
            if text.is_empty() {
                return Err(ParamError::Empty);
            }
            if text.chars().count() > MAX_STRING_PARAM_CHARS {
                return Err(ParamError::TooLong);
            }
            Value::String(text.to_string())
        }
        (ParamType::Integer, Value::Number(number)) if number.is_i64() => value.clone(),
        (ParamType::Number, Value::Number(_)) => value.clone(),
        (ParamType::Boolean, Value::Bool(_)) => value.clone(),
        (kind, other) => {
            return Err(ParamError::WrongType {
                expected: kind.as_str(),
                got: type_name(other),
            });
        }
    };
    check_value(def, &value)?;
    Ok(value)
}

/// Checks a value against a definition's enum and range.
pub fn check_value(def: &ParamDef, value: &Value) -> Result<(), ParamError> {
    if let Some(allowed) = &def.allowed {
        if !allowed.contains(value) {
            let listed: Vec<String> = allowed.iter().map(|v| v.to_string()).collect();
            return Err(ParamError::NotAllowed {
                value: value.to_string(),
                allowed: listed.join(", "),
            });
        }
    }
    if let Some(number) = value.as_f64() {
        if def.min.is_some_and(|min| number < min) || def.max.is_some_and(|max| number > max) {
            return Err(ParamError::OutOfRange {
                value: number.to_string(),
                min: def.min.map_or("-inf".into(), |m| m.to_string()),
                max: def.max.map_or("inf".into(), |m| m.to_string()),
            });
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
