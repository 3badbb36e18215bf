//! The nudge-reply actions (config/reply_actions.yaml) as the system message lists them for a
//! reply to a nudge (`classify`): each action with its parameters, and the registry's example
//! answers, rendered from the registry so the prompt never shows an action that does not exist.
//!
//! Order: the least risky first (a small model leans towards what it reads first, and what it
//! leans towards should be what does least harm), for the actions and their examples alike.
//!
//! Invariant: context parameters (`from_context`) are never shown: the task is always the
//! thread's, never the model's to choose.

use serde_json::{json, Value};

use crate::actions::registry::ActionDef;
use crate::actions::ActionRegistry;

/// The actions and the examples, as the template reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyActions {
    /// `[{name, description, params: [{name, type, required, allowed, default, description}]}]`.
    pub actions: Value,
    /// `[{reply, answer}]`: a reply, and the whole answer proposing its action as JSON text.
    pub examples: Value,
}

impl ReplyActions {
    pub fn of(registry: &ActionRegistry) -> Self {
        Self {
            actions: render_actions(registry),
            examples: render_examples(registry),
        }
    }
}

/// The actions, the least risky first.
fn by_risk(registry: &ActionRegistry) -> Vec<(&str, &ActionDef)> {
    let rank = |def: &ActionDef| match def.risk.as_deref() {
        Some("low") | None => 0,
        Some("medium") => 1,
        _ => 2,
    };
    let mut actions: Vec<(&str, &ActionDef)> = registry.iter().collect();
    actions.sort_by_key(|(name, def)| (rank(def), *name));
    actions
}

/// The registry's actions, without context parameters. Every field the template may test is
/// present (null when unset), as strict mode requires.
fn render_actions(registry: &ActionRegistry) -> Value {
    Value::Array(
        by_risk(registry)
            .into_iter()
            .map(|(name, def)| {
                let params: Vec<Value> = def
                    .params
                    .iter()
                    .filter(|(_, param)| !param.from_context)
                    .map(|(param_name, param)| {
                        json!({
                            "name": param_name,
                            "type": param.kind.as_str(),
                            "required": param.is_required(),
                            "allowed": param.allowed.as_ref().map(|values| {
                                values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
                            }),
                            "default": param.default.as_ref().map(|v| v.to_string()),
                            "description": param.description,
                        })
                    })
                    .collect();
                json!({ "name": name, "description": def.description, "params": params })
            })
            .collect(),
    )
}

/// The registry's examples: a reply, and the whole answer as the model should write it
/// (serialized here, so it is always valid JSON naming a registered action).
fn render_examples(registry: &ActionRegistry) -> Value {
    Value::Array(
        by_risk(registry)
            .into_iter()
            .filter_map(|(name, def)| {
                let example = def.example.as_ref()?;
                let answer = json!({
                    "actions": [{ "name": name, "params": example.params }],
                    "reply_to_user": example.answer,
                    "reasoning": "the reply asks for this",
                });
                Some(json!({ "reply": example.reply, "answer": answer.to_string() }))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_listed_least_risky_first_without_context_params() {
        let registry = ActionRegistry::shipped().unwrap_or_else(|e| panic!("{e}"));
        let shown = ReplyActions::of(&registry);
        let names: Vec<&str> = shown
            .actions
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|action| action["name"].as_str())
            .collect();
        assert_eq!(names.last(), Some(&"cancel_task"), "{names:?}");
        assert!(!shown.actions.to_string().contains("task_id"));
        let examples = shown.examples.as_array().map_or(0, Vec::len);
        assert!(examples >= 5, "{}", shown.examples);
    }
}
