//! The prompts: handlebars templates in prompts/, embedded in the binary and checked at startup.
//!
//! The classification prompt carries a few examples, rendered from the registry's `example`
//! entries, so it never shows an action that does not exist.
//!
//! Invariants: templates render in strict mode (a missing variable is an error, not an empty
//! string) and without HTML escaping; `Prompts::new` renders each once with a sample context, so
//! a template error stops the bot at startup instead of failing a turn.

use handlebars::Handlebars;
use serde::Serialize;
use serde_json::{json, Value};

use crate::actions::registry::ActionDef;
use crate::actions::ActionRegistry;

const SYSTEM: &str = include_str!("../../prompts/system.hbs");
const CLASSIFY: &str = include_str!("../../prompts/classify.hbs");
const REPLY_GATE: &str = include_str!("../../prompts/reply_gate.hbs");

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromptError {
    #[error("prompt template {name}: {reason}")]
    Template { name: String, reason: String },
}

/// The task as the prompt shows it.
#[derive(Debug, Clone, Serialize)]
pub struct TaskFacts {
    pub title: String,
    pub status: String,
    pub domain: String,
    pub priority: i64,
    pub scheduled_start: Option<String>,
    pub deadline: Option<String>,
    pub estimated_duration_minutes: Option<i64>,
}

/// One line of history: who said it ("Donna" or "User") and what.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryLine {
    pub who: String,
    pub text: String,
}

impl HistoryLine {
    /// Who Donna's own lines are from.
    pub const DONNA: &'static str = "Donna";

    /// Whether Donna said it (else the person, or someone in a group).
    pub fn is_donnas(&self) -> bool {
        self.who == Self::DONNA
    }
}

/// Everything the classification prompt shows.
#[derive(Debug, Clone, Serialize)]
pub struct ClassifyContext {
    pub task: TaskFacts,
    pub context: String,
    pub now: String,
    pub timezone: String,
    pub history: Vec<HistoryLine>,
    pub reply: String,
}

/// What the group-chat reply gate is shown.
#[derive(Debug, Clone, Serialize)]
pub struct GateContext {
    pub history: Vec<HistoryLine>,
    pub author: String,
    pub message: String,
}

#[derive(Debug)]
pub struct Prompts {
    templates: Handlebars<'static>,
    /// The actions as the prompt lists them (no context parameters).
    actions: Value,
    /// The registry's examples, each a reply and the answer proposing its action.
    examples: Value,
}

/// Every model call's templates: strict (a missing variable is an error, never an empty
/// string) and unescaped (prompts are not HTML). A template that does not parse is an error
/// naming it.
pub fn strict_templates(
    sources: &[(&'static str, &'static str)],
) -> Result<Handlebars<'static>, PromptError> {
    let mut templates = Handlebars::new();
    templates.set_strict_mode(true);
    templates.register_escape_fn(handlebars::no_escape);
    for (name, source) in sources {
        templates
            .register_template_string(name, source)
            .map_err(|e| template_error(name, e))?;
    }
    Ok(templates)
}

/// A template that failed to parse or render, by name.
pub fn template_error(name: &str, error: impl std::fmt::Display) -> PromptError {
    PromptError::Template {
        name: name.into(),
        reason: error.to_string(),
    }
}

/// Every line of `text` stays inside a `> ` quote: the person's words, stored text and tool
/// output are shown to the model as quoted data.
pub fn quote(text: &str) -> String {
    text.replace('\n', "\n> ")
}

impl Prompts {
    pub fn new(registry: &ActionRegistry) -> Result<Self, PromptError> {
        let templates = strict_templates(&[
            ("system", SYSTEM),
            ("classify", CLASSIFY),
            ("reply_gate", REPLY_GATE),
        ])?;
        let prompts = Self {
            templates,
            actions: render_actions(registry),
            examples: render_examples(registry),
        };
        prompts.classify(&sample_context())?;
        prompts.system()?;
        prompts.reply_gate(&GateContext {
            history: sample_context().history,
            author: "someone".into(),
            message: "hello".into(),
        })?;
        Ok(prompts)
    }

    pub fn system(&self) -> Result<String, PromptError> {
        self.render("system", &json!({}))
    }

    pub fn classify(&self, context: &ClassifyContext) -> Result<String, PromptError> {
        let mut data = serde_json::to_value(context).map_err(|e| PromptError::Template {
            name: "classify".into(),
            reason: e.to_string(),
        })?;
        data["actions"] = self.actions.clone();
        data["examples"] = self.examples.clone();
        self.render("classify", &data)
    }

    pub fn reply_gate(&self, context: &GateContext) -> Result<String, PromptError> {
        let data = serde_json::to_value(context).map_err(|e| PromptError::Template {
            name: "reply_gate".into(),
            reason: e.to_string(),
        })?;
        self.render("reply_gate", &data)
    }

    fn render(&self, name: &str, data: &Value) -> Result<String, PromptError> {
        self.templates
            .render(name, data)
            .map_err(|e| PromptError::Template {
                name: name.into(),
                reason: e.to_string(),
            })
    }
}

/// The actions, the least risky first: small models lean towards what they read first, and
/// what they lean towards should be what does least harm.
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

/// The registry's actions for the prompt, without context parameters. Every field the template
/// may test is present (null when unset), as strict mode requires.
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

/// The registry's examples for the prompt: a reply, and the whole answer as the model should
/// write it (serialized here, so it is always valid JSON naming a registered action).
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

fn sample_context() -> ClassifyContext {
    ClassifyContext {
        task: TaskFacts {
            title: "Sample".into(),
            status: "backlog".into(),
            domain: "personal".into(),
            priority: 2,
            scheduled_start: Some("2026-01-01T09:00:00+00:00".into()),
            deadline: None,
            estimated_duration_minutes: None,
        },
        context: "a check-in".into(),
        now: "2026-01-01T08:00:00+00:00".into(),
        timezone: "UTC".into(),
        history: vec![HistoryLine {
            who: "Donna".into(),
            text: "Time for 'Sample'.".into(),
        }],
        reply: "later".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_lists_actions_without_context_params_and_shows_the_reply_once() {
        let registry = ActionRegistry::shipped().unwrap_or_else(|e| panic!("{e}"));
        let prompts = Prompts::new(&registry).unwrap_or_else(|e| panic!("{e}"));
        let mut context = sample_context();
        context.reply = "UNIQUE-REPLY-TEXT".into();
        let text = prompts.classify(&context).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(text.matches("UNIQUE-REPLY-TEXT").count(), 1);
        assert!(
            text.contains("- rename_task: Change the task's title."),
            "{text}"
        );
        assert!(text.contains("new_title: string, required"), "{text}");
        assert!(
            text.contains("one of \"work\", \"personal\", \"family\""),
            "{text}"
        );
        assert!(!text.contains("task_id"), "{text}");
        assert!(text.contains("Donna: Time for 'Sample'."));
    }
}
