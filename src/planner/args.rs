//! Checking a tool call's arguments against the tool's JSON schema, without coercing anything.
//!
//! The schemas use a small subset of JSON Schema, all this checker knows: an object with
//! `properties`, `required` and `additionalProperties: false`; properties of `type` string
//! (with `enum`, `minLength`, `maxLength`), integer (`minimum`, `maximum`) or boolean.
//! Invariants: an unknown field, a value of another type ("5" for an integer, 5 for a string,
//! 1.0 for an integer), a value outside its enum or range, or a missing required field is an
//! error naming the field; absent arguments (null) are no arguments; nothing is ever coerced.

use serde_json::{Map, Value};

/// The arguments as an object, checked against `schema`.
pub fn check(schema: &Value, args: &Value) -> Result<Map<String, Value>, String> {
    let object = match args {
        Value::Null => Map::new(),
        Value::Object(object) => object.clone(),
        other => return Err(format!("args must be an object, not {}", kind(other))),
    };
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (field, value) in &object {
        let Some(property) = properties.get(field) else {
            let known: Vec<&str> = properties.keys().map(String::as_str).collect();
            return Err(format!(
                "unknown field {field:?} (fields: {})",
                known.join(", ")
            ));
        };
        check_value(field, property, value)?;
    }
    let required = schema.get("required").and_then(Value::as_array);
    for field in required.into_iter().flatten().filter_map(Value::as_str) {
        if !object.contains_key(field) {
            return Err(format!("missing required field {field:?}"));
        }
    }
    Ok(object)
}

fn check_value(field: &str, property: &Value, value: &Value) -> Result<(), String> {
    let wanted = property.get("type").and_then(Value::as_str).unwrap_or("");
    match (wanted, value) {
        ("string", Value::String(text)) => {
            let length = text.chars().count();
            if let Some(min) = property.get("minLength").and_then(Value::as_u64) {
                if (length as u64) < min {
                    return Err(format!("{field} is shorter than {min} characters"));
                }
            }
            if let Some(max) = property.get("maxLength").and_then(Value::as_u64) {
                if length as u64 > max {
                    return Err(format!("{field} is longer than {max} characters"));
                }
            }
            if let Some(allowed) = property.get("enum").and_then(Value::as_array) {
                if !allowed.iter().any(|item| item.as_str() == Some(text)) {
                    let names: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
                    return Err(format!("{field} must be one of {}", names.join(", ")));
                }
            }
            Ok(())
        }
        ("integer", Value::Number(number)) => {
            let Some(number) = number.as_i64() else {
                return Err(format!("{field} must be a JSON integer"));
            };
            let min = property.get("minimum").and_then(Value::as_i64);
            let max = property.get("maximum").and_then(Value::as_i64);
            if min.is_some_and(|min| number < min) || max.is_some_and(|max| number > max) {
                return Err(format!(
                    "{field} must be between {} and {}",
                    min.unwrap_or(i64::MIN),
                    max.unwrap_or(i64::MAX)
                ));
            }
            Ok(())
        }
        ("boolean", Value::Bool(_)) => Ok(()),
        (wanted, other) => Err(format!(
            "{field} must be a JSON {wanted}, not {}",
            kind(other)
        )),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_are_checked_never_coerced() {
        let schema = json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 10},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20},
                "overdue": {"type": "boolean"},
                "aspect": {"type": "string", "enum": ["today", "overdue"]},
            },
            "required": ["query"],
            "additionalProperties": false,
        });
        // (args, accepted)
        let table = [
            (json!({"query": "dentist"}), true),
            (
                json!({"query": "dentist", "limit": 5, "overdue": true, "aspect": "today"}),
                true,
            ),
            (json!({"query": "dentist", "limit": "5"}), false),
            (json!({"query": "dentist", "limit": 5.0}), false),
            (json!({"query": "dentist", "limit": 0}), false),
            (json!({"query": 7}), false),
            (json!({"query": ""}), false),
            (json!({"query": "x", "overdue": "yes"}), false),
            (json!({"query": "x", "aspect": "everything"}), false),
            (json!({"query": "x", "filter": "everything"}), false),
            (json!({}), false),
            (Value::Null, false),
            (json!("dentist"), false),
            (json!(["dentist"]), false),
        ];
        for (args, accepted) in table {
            assert_eq!(check(&schema, &args).is_ok(), accepted, "{args}");
        }
    }
}
