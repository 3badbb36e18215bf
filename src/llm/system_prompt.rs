//! The ONE system message of every free-text call (`route`, `parse_task`, the chat room's
//! `chat`, the planner's `plan_step` and its composed `chat`): the persona's voice
//! (`chat.persona`: prompts/free_text_donna.hbs or free_text_neutral.hbs), the rules, the
//! intents, the chat actions and the planner's look-ups.
//!
//! Why one: a local model server (llama.cpp's, Ollama) reuses the evaluated prompt only as far
//! as the new prompt starts with the same tokens, and llama-cpp-python keeps one prompt. A turn
//! that calls `route` and then the chat room or the planner, and the next turn's `route`, all
//! start with these same bytes, so the server evaluates them once; each call's own guide,
//! examples and the turn's words come after them, in user messages.
//!
//! Invariants: the text depends only on Donna's own config (the persona, the chat actions
//! file, whether a bigger model is configured) and the look-ups' catalogue, never on a turn (no
//! time, no words of the person, no stored text), so it is byte-identical from call to call;
//! nothing from the person, the store or a tool is ever in it.

use handlebars::Handlebars;
use serde::Serialize;
use serde_json::json;

use super::prompts::{template_error, PromptError};
use crate::chat_actions::registry::ChatActions;
use crate::config::Persona;
use crate::planner::TOOLS;

/// The two variants of the system message, by persona.
pub const TEMPLATES: [(&str, &str); 2] = [
    (
        "free_text_donna",
        include_str!("../../prompts/free_text_donna.hbs"),
    ),
    (
        "free_text_neutral",
        include_str!("../../prompts/free_text_neutral.hbs"),
    ),
];

/// One chat action as the system message lists it (Donna's own config, not the person's words).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionLine {
    pub name: String,
    pub description: String,
    /// "task (string), when (string, optional)".
    pub params: String,
}

/// The chat actions as the prompts list them (Donna's own config): the least risky first
/// (read, then write, then confirm; by name within a level), because a small model leans
/// towards what it reads first.
pub fn action_lines(actions: &ChatActions) -> Vec<ActionLine> {
    let mut listed: Vec<_> = actions.iter().collect();
    listed.sort_by_key(|action| (action.safety, action.name.clone()));
    listed
        .into_iter()
        .map(|action| ActionLine {
            name: action.name.clone(),
            description: action.description.clone(),
            params: action
                .params
                .iter()
                .map(|(name, def)| {
                    let optional = if def.optional { ", optional" } else { "" };
                    format!("{name} ({}{optional})", def.kind.as_str())
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect()
}

/// One look-up as the system message lists it.
#[derive(Serialize)]
struct ToolLine {
    name: &'static str,
    description: &'static str,
    schema: String,
}

/// The system message for `persona` with `actions`, and the rule for `needs_escalation` when
/// the bigger model can be offered (`escalation`; `templates` holds [`TEMPLATES`]).
pub fn render(
    templates: &Handlebars<'static>,
    persona: Persona,
    actions: &[ActionLine],
    escalation: bool,
) -> Result<String, PromptError> {
    let tools: Vec<ToolLine> = TOOLS
        .iter()
        .map(|tool| ToolLine {
            name: tool.name,
            description: tool.description,
            schema: (tool.schema)().to_string(),
        })
        .collect();
    let name = format!("free_text_{}", persona.as_str());
    templates
        .render(
            &name,
            &json!({ "actions": actions, "tools": tools, "escalation": escalation }),
        )
        .map_err(|e| template_error(&name, e))
}
