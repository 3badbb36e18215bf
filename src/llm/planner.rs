//! The planner's model calls: `plan_step` (which read-only tool next, or the answer
//! itself when what it has answers the question: a question with no look-up is one call after
//! `route`, with one look-up two) and `chat` (the answer composed from what the tools returned,
//! when the steps ran out or a step said only `done`), each schema-constrained JSON whose
//! schema `title` names the call, parsed strictly with one retry (`free_text::ask_strict`).
//! `plan_step`'s grammar names each look-up with its own argument schema, so a server that
//! constrains output (llama.cpp, Ollama) cannot write arguments that do not fit.
//!
//! Messages: the one prefix of every call (`system_prompt`: Donna's rules, the actions, the
//! look-ups' catalogue and how to answer a look-up step); the person's question and history
//! (prompts/free_text_turn.hbs, the whole conversation, Donna's lines too), and each tool
//! result, come as user-role messages of quoted, source-tagged data (`> ` lines under a
//! `[source: tool ...]` tag); the line naming the request is the last message. Each call starts
//! with the previous call's messages, so a model server evaluates only what is new. When they
//! would not fit the context, the oldest history goes first, then route's examples (the system
//! message stays, shared), then the results are cut shorter.
//! Invariants: nothing from the person, the store or a tool is ever in the system message or
//! rendered as a template (handlebars substitutes it once, as a value); the answer's `actions`
//! are read but never run here (writes are not tools; docs/contract.md "Consent").

use handlebars::Handlebars;
use serde_json::{json, Value};

use super::budget::message_tokens;
use super::client::LlmClient;
use super::free_text::{ask_strict, quoted, shown_history, FreeTextContext, Shown};
pub use super::planner_answers::{
    chat_schema, parse_chat, parse_plan_step, plan_step_schema, ChatAnswer, PlanStep,
    MAX_CHAT_ACTIONS, MAX_REPLY_CHARS,
};
use super::prompts::{quote, strict_templates, template_error, PromptError};
use super::system_prompt::Prefix;
use super::{ChatMessage, LlmError};
use crate::planner::Observation;

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
/// Tool results are not cut below this many characters to fit the context.
const MIN_RESULT_CHARS: usize = 200;

/// What the planner's prompts show: the question with its history, and what the tools
/// returned so far (already cut to `planner.tool_result_chars`). The actions an answer may
/// propose are the prefix's; each becomes part of ONE plan that waits for the person's yes.
#[derive(Debug, Clone)]
pub struct PlannerContext {
    pub question: FreeTextContext,
    pub observations: Vec<Observation>,
    pub calls_left: usize,
}

#[derive(Debug)]
pub struct PlannerModel {
    /// For the steps and the composed answer: a step may carry the answer, so both answer
    /// within `client::MAX_OUTPUT_TOKENS`.
    client: LlmClient,
    templates: Handlebars<'static>,
}

impl PlannerModel {
    pub fn new(client: LlmClient) -> Result<Self, PromptError> {
        let templates = strict_templates(&TEMPLATES)?;
        let model = Self { client, templates };
        let sample = PlannerContext {
            question: FreeTextContext {
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
        let prefix = Prefix::sample();
        model.messages(&prefix, &sample, "plan_step")?;
        model.messages(&prefix, &sample, "answer")?;
        Ok(model)
    }

    fn render(&self, name: &str, data: &Value) -> Result<String, PromptError> {
        self.templates
            .render(name, data)
            .map_err(|e| template_error(name, e))
    }

    /// The prefix, the question, one user message per observation, then the line naming the
    /// request; within the prefix's room (the oldest history first, then the results shorter).
    fn messages(
        &self,
        prefix: &Prefix,
        context: &PlannerContext,
        instruction: &str,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        let history = shown_history(&context.question.history, Shown::Conversation);
        let short = prefix.first_message_only();
        let mut prefix = prefix;
        let mut from = 0;
        let mut cut: Option<usize> = None;
        loop {
            let shown = history.get(from..).unwrap_or_default();
            let own = self.own(context, shown, cut, instruction)?;
            if message_tokens(&own) <= prefix.room {
                return Ok(prefix.then(own));
            }
            if from < history.len() {
                from += 1;
                continue;
            }
            // Route's examples go before any result is cut: the answer needs the results.
            if prefix.messages.len() > short.messages.len() {
                prefix = &short;
                continue;
            }
            let longest = context
                .observations
                .iter()
                .map(|observation| observation.text.chars().count())
                .max()
                .unwrap_or(0)
                .min(cut.unwrap_or(usize::MAX));
            if longest <= MIN_RESULT_CHARS {
                return Ok(prefix.then(own));
            }
            cut = Some((longest / 2).max(MIN_RESULT_CHARS));
        }
    }

    /// The call's own messages with `history` and every result cut to `cut` characters.
    fn own(
        &self,
        context: &PlannerContext,
        history: &[super::prompts::HistoryLine],
        cut: Option<usize>,
        instruction: &str,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        let question = &context.question;
        let mut messages = vec![ChatMessage::user(self.render(
            "free_text_turn",
            &quoted(question, history, Shown::Conversation),
        )?)];
        for (index, observation) in context.observations.iter().enumerate() {
            let observation = match cut {
                Some(chars) => observation.clone().cut(chars),
                None => observation.clone(),
            };
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
        messages.push(ChatMessage::user(
            self.render(instruction, &json!({ "calls_left": context.calls_left }))?,
        ));
        Ok(messages)
    }

    /// The messages of a `plan_step` request for `context`.
    pub fn step_messages(
        &self,
        prefix: &Prefix,
        context: &PlannerContext,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        self.messages(prefix, context, "plan_step")
    }

    /// The messages of the composed answer's `chat` request for `context`.
    pub fn answer_messages(
        &self,
        prefix: &Prefix,
        context: &PlannerContext,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        self.messages(prefix, context, "answer")
    }

    pub async fn plan_step(
        &self,
        prefix: &Prefix,
        context: &PlannerContext,
    ) -> Result<PlanStep, LlmError> {
        let messages = self.step_messages(prefix, context)?;
        ask_strict(
            &self.client,
            "plan_step",
            messages,
            &plan_step_schema(),
            parse_plan_step,
        )
        .await
    }

    pub async fn answer(
        &self,
        prefix: &Prefix,
        context: &PlannerContext,
    ) -> Result<ChatAnswer, LlmError> {
        let messages = self.answer_messages(prefix, context)?;
        ask_strict(&self.client, "chat", messages, &chat_schema(), parse_chat).await
    }
}
