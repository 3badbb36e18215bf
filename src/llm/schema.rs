//! The JSON schema of the model's answer, generated from the action registry so that only
//! registered actions (and their non-context parameters) can be named.
//!
//! Invariant: context parameters (`from_context`) never appear in the schema or the prompt.

use serde_json::{json, Map, Value};

use crate::actions::{ActionRegistry, ParamType};

/// Most actions one answer may propose.
pub const MAX_ACTIONS: usize = 5;
/// Longest reply_to_user accepted, in characters.
pub const MAX_REPLY_CHARS: usize = 1_500;

pub fn output_schema(registry: &ActionRegistry) -> Value {
    let variants: Vec<Value> = registry
        .iter()
        .map(|(name, def)| {
            let mut properties = Map::new();
            let mut required = Vec::new();
            for (param, param_def) in &def.params {
                if param_def.from_context {
                    continue;
                }
                let mut schema = json!({ "type": param_def.kind.as_str() });
                if let Some(allowed) = &param_def.allowed {
                    schema["enum"] = Value::Array(allowed.clone());
                }
                if param_def.kind == ParamType::Integer || param_def.kind == ParamType::Number {
                    if let Some(min) = param_def.min {
                        schema["minimum"] = json!(min);
                    }
                    if let Some(max) = param_def.max {
                        schema["maximum"] = json!(max);
                    }
                }
                if let Some(description) = &param_def.description {
                    schema["description"] = json!(description);
                }
                properties.insert(param.clone(), schema);
                if param_def.is_required() {
                    required.push(json!(param));
                }
            }
            json!({
                "type": "object",
                "properties": {
                    "name": { "type": "string", "enum": [name] },
                    "params": {
                        "type": "object",
                        "properties": properties,
                        "required": required,
                        "additionalProperties": false,
                    },
                },
                "required": ["name", "params"],
                "additionalProperties": false,
            })
        })
        .collect();
    json!({
        // The call's name (docs/contract.md "Model calls"): logs, metrics and test fakes tell calls apart by it.
        "title": "classify",
        "type": "object",
        "properties": {
            "actions": { "type": "array", "items": { "anyOf": variants }, "maxItems": MAX_ACTIONS },
            // No maxLength: llama.cpp turns it into a grammar of MAX_REPLY_CHARS nested rules that
            // it cannot parse (its server crashes). The parser bounds the length instead.
            "reply_to_user": { "type": "string" },
            "reasoning": { "type": "string" },
        },
        "required": ["actions", "reply_to_user", "reasoning"],
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_names_only_registered_actions_and_hides_context_params() {
        let registry = ActionRegistry::shipped().unwrap_or_else(|e| panic!("{e}"));
        let schema = output_schema(&registry);
        let variants = schema
            .pointer("/properties/actions/items/anyOf")
            .and_then(Value::as_array);
        let names: Vec<&str> = variants
            .into_iter()
            .flatten()
            .filter_map(|v| v.pointer("/properties/name/enum/0").and_then(Value::as_str))
            .collect();
        assert_eq!(names.len(), registry.names().count());
        assert!(names.contains(&"mark_done") && names.contains(&"rename_task"));
        let text = schema.to_string();
        assert!(
            !text.contains("task_id"),
            "context parameter leaked: {text}"
        );
        assert!(text.contains("\"new_title\""));
    }
}
