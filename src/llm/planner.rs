//! The planner's model calls (seed 003): `plan_step` (which read-only tool next, or done) and
//! `chat` (the answer composed from what the tools returned), each schema-constrained JSON
//! whose schema `title` names the call, parsed strictly with one retry (`free_text::ask_strict`).
//!
//! Messages: the ONE free-text system message (`system_prompt`: Donna's own rules, the actions
//! and the look-ups' catalogue); the person's question and history (prompts/free_text_turn.hbs,
//! the whole conversation, Donna's lines too), and each tool result, come as user-role messages of quoted,
//! source-tagged data (`> ` lines under a `[source: tool ...]` tag); the step's or the answer's
//! instruction is the last message. Each call starts with the previous call's messages, so a
//! model server evaluates only what is new (issue 34).
//! Invariants: nothing from the person, the store or a tool is ever in the system message or
//! rendered as a template (handlebars substitutes it once, as a value); the answer's `actions`
//! are read but never run here (writes are not tools; docs/contract.md "Consent").

use handlebars::Handlebars;
use serde_json::{json, Value};

use super::client::LlmClient;
use super::free_text::{ask_strict, object, optional_text, quoted, FreeTextContext, Shown};
use super::output::clean_text;
use super::prompts::{quote, strict_templates, template_error, PromptError};
use super::system_prompt;
use super::{ChatMessage, LlmError};
use crate::config::Persona;
use crate::planner::{Observation, TOOLS};

const TEMPLATES: [(&str, &str); 4] = [
    (
        "free_text_turn",
        include_str!("../../prompts/free_text_turn.hbs"),
    ),
    (
        "planner_observation",
        include_str!("../../prompts/planner_observation.hbs"),
    ),
    ("plan_step", include_str!("../../prompts/plan_step.hbs")),
    ("answer", include_str!("../../prompts/answer.hbs")),
];
/// Most tokens a `plan_step` answer may take: one look-up and its arguments.
pub const PLAN_STEP_MAX_TOKENS: u32 = 256;

/// Longest answer kept for the person.
pub const MAX_REPLY_CHARS: usize = 4_000;

/// What the planner's prompts show: the question with its history (and the persona and the
/// chat actions the composed answer may propose: each becomes part of ONE plan that waits for
/// the person's yes), and what the tools returned so far (already cut to
/// `planner.tool_result_chars`).
#[derive(Debug, Clone)]
pub struct PlannerContext {
    pub question: FreeTextContext,
    pub observations: Vec<Observation>,
    pub calls_left: usize,
}

/// The model's next step.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanStep {
    CallTool { tool: String, args: Value },
    Done,
}

/// The composed answer. `actions` are kept as the model gave them: data for `turn::chat_actions`.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatAnswer {
    pub reply_to_user: String,
    pub actions: Vec<Value>,
    pub needs_escalation: bool,
    pub escalation_reason: Option<String>,
}

#[derive(Debug)]
pub struct PlannerModel {
    /// For the steps (a short answer).
    steps: LlmClient,
    /// For the composed answer.
    client: LlmClient,
    templates: Handlebars<'static>,
}

impl PlannerModel {
    pub fn new(client: LlmClient) -> Result<Self, PromptError> {
        let mut sources = system_prompt::TEMPLATES.to_vec();
        sources.extend(TEMPLATES);
        let templates = strict_templates(&sources)?;
        let model = Self {
            steps: client.clone().with_max_output_tokens(PLAN_STEP_MAX_TOKENS),
            client,
            templates,
        };
        let sample = PlannerContext {
            question: FreeTextContext {
                persona: Persona::Donna,
                escalation: true,
                actions: vec![super::chat_prompt::ActionLine {
                    name: "mark_done".into(),
                    description: "Mark a task as completed.".into(),
                    params: "task (string)".into(),
                }],
                history: Vec::new(),
                message: "when is the dentist?".into(),
                now: "2026-01-01T08:00:00+00:00".into(),
                timezone: "UTC".into(),
            },
            observations: vec![Observation {
                tool: "get_task".into(),
                args: json!({"task": "dentist"}),
                ok: true,
                text: "{}".into(),
            }],
            calls_left: 1,
        };
        for persona in [Persona::Donna, Persona::Neutral] {
            for escalation in [true, false] {
                let mut sample = sample.clone();
                sample.question.persona = persona;
                sample.question.escalation = escalation;
                model.messages(&sample, "plan_step")?;
                model.messages(&sample, "answer")?;
            }
        }
        Ok(model)
    }

    fn render(&self, name: &str, data: &Value) -> Result<String, PromptError> {
        self.templates
            .render(name, data)
            .map_err(|e| template_error(name, e))
    }

    /// system, the question, one user message per observation, then the instruction.
    fn messages(
        &self,
        context: &PlannerContext,
        instruction: &str,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        let question = &context.question;
        let mut messages = vec![
            ChatMessage::system(system_prompt::render(
                &self.templates,
                question.persona,
                &question.actions,
                question.escalation,
            )?),
            ChatMessage::user(
                self.render("free_text_turn", &quoted(question, Shown::Conversation))?,
            ),
        ];
        for (index, observation) in context.observations.iter().enumerate() {
            messages.push(ChatMessage::user(self.render(
                "planner_observation",
                &json!({
                    "tool": observation.tool,
                    "number": index + 1,
                    "ok": observation.ok,
                    "args": quote(&observation.args.to_string()),
                    "text": quote(&observation.text),
                }),
            )?));
        }
        messages.push(ChatMessage::user(self.render(
            instruction,
            &json!({ "calls_left": context.calls_left, "escalation": question.escalation }),
        )?));
        Ok(messages)
    }

    /// The messages of a `plan_step` request for `context`.
    pub fn step_messages(&self, context: &PlannerContext) -> Result<Vec<ChatMessage>, PromptError> {
        self.messages(context, "plan_step")
    }

    /// The messages of the composed answer's `chat` request for `context`.
    pub fn answer_messages(
        &self,
        context: &PlannerContext,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        self.messages(context, "answer")
    }

    pub async fn plan_step(&self, context: &PlannerContext) -> Result<PlanStep, LlmError> {
        let messages = self.step_messages(context)?;
        ask_strict(
            &self.steps,
            "plan_step",
            messages,
            &plan_step_schema(),
            parse_plan_step,
        )
        .await
    }

    pub async fn answer(&self, context: &PlannerContext) -> Result<ChatAnswer, LlmError> {
        let messages = self.answer_messages(context)?;
        ask_strict(&self.client, "chat", messages, &chat_schema(), parse_chat).await
    }
}

pub fn plan_step_schema() -> Value {
    json!({
        "title": "plan_step",
        "type": "object",
        "properties": {
            "action": { "type": "string", "enum": ["call_tool", "done"] },
            "tool": { "type": "string", "enum": TOOLS.iter().map(|tool| tool.name).collect::<Vec<_>>() },
            "args": { "type": "object" },
        },
        "required": ["action"],
    })
}

/// Most actions a `chat` answer's grammar lets a model write. Donna's reader does not count
/// them (a plan from one message is checked action by action); the bound is for the model
/// server's grammar (llama.cpp, Ollama): Gemma 3 270M filled `actions` with invented ones until
/// its token limit (583 tokens, 10 s of a 34 s question in benches/model_calls.rs).
pub const MAX_CHAT_ACTIONS: usize = 4;

pub fn chat_schema() -> Value {
    json!({
        "title": "chat",
        "type": "object",
        "properties": {
            "reply_to_user": { "type": "string" },
            "actions": { "type": "array", "maxItems": MAX_CHAT_ACTIONS, "items": { "type": "object", "properties": {
                "name": { "type": "string" }, "params": { "type": "object" } }, "required": ["name"] } },
            "needs_escalation": { "type": "boolean" },
            "escalation_reason": { "type": "string" },
        },
        "required": ["reply_to_user"],
    })
}

/// A `plan_step` answer. The tool's name and arguments are kept as given: an unknown tool or
/// ill-shaped arguments are the tool registry's to refuse (an error observation that counts),
/// never fixed up here.
pub fn parse_plan_step(text: &str) -> Result<PlanStep, String> {
    let object = object(text)?;
    match object.get("action").and_then(Value::as_str) {
        Some("done") => Ok(PlanStep::Done),
        Some("call_tool") => match object.get("tool") {
            Some(Value::String(tool)) => Ok(PlanStep::CallTool {
                tool: tool.clone(),
                args: object.get("args").cloned().unwrap_or(Value::Null),
            }),
            Some(_) => Err("tool is not a string".into()),
            None => Err("call_tool needs a tool".into()),
        },
        Some(other) => Err(format!("action {other:?} is not call_tool or done")),
        None => Err("action is missing or not a string".into()),
    }
}

pub fn parse_chat(text: &str) -> Result<ChatAnswer, String> {
    let object = object(text)?;
    let reply = match object.get("reply_to_user") {
        Some(Value::String(reply)) => clean_text(reply, MAX_REPLY_CHARS),
        Some(_) => return Err("reply_to_user is not a string".into()),
        None => return Err("reply_to_user is missing".into()),
    };
    if reply.is_empty() {
        return Err("reply_to_user is empty".into());
    }
    let actions = match object.get("actions") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(actions)) => actions.clone(),
        Some(_) => return Err("actions is not a list".into()),
    };
    let needs_escalation = match object.get("needs_escalation") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(flag)) => *flag,
        Some(_) => return Err("needs_escalation is not true or false".into()),
    };
    Ok(ChatAnswer {
        reply_to_user: reply,
        actions,
        needs_escalation,
        escalation_reason: optional_text(&object, "escalation_reason")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_and_answers_are_read_strictly() {
        assert_eq!(parse_plan_step(r#"{"action":"done"}"#), Ok(PlanStep::Done));
        assert_eq!(
            parse_plan_step(r#"{"action":"call_tool","tool":"get_task","args":"dentist"}"#),
            Ok(PlanStep::CallTool {
                tool: "get_task".into(),
                args: json!("dentist"),
            })
        );
        assert!(parse_plan_step(r#"{"action":"call_tool"}"#).is_err());
        assert!(parse_plan_step(r#"{"action":"delete"}"#).is_err());
        assert!(parse_plan_step("I will look it up").is_err());
        assert!(parse_chat(r#"{"reply_to_user":"Friday at 9."}"#).is_ok());
        assert!(parse_chat(r#"{"reply_to_user":""}"#).is_err());
        // A placeholder of the answer format copied back is no answer.
        assert!(parse_chat(r#"{"reply_to_user":"<your answer>"}"#).is_err());
        assert!(parse_chat(r#"{"reply_to_user":"x","needs_escalation":"no"}"#).is_err());
        assert!(parse_chat(r#"{"actions":[]}"#).is_err());
    }
}
