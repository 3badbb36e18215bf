//! The model calls of a free-text turn: `route` (what is this message? and, for chat, capture
//! and automation, the room's answer with it) and `parse_task` (the task it asks for, when
//! `route` did not name it), each schema-constrained JSON whose schema `title` names the call
//! (docs/contract.md "Model calls"), parsed strictly (`free_text_answers`), with one retry that shows the model its invalid
//! answer and why.
//!
//! The messages: the one prefix of every call (`system_prompt`: the system message, which says
//! how to read a task, then `route`'s guide and examples), then the turn (the last exchanges,
//! the time, the person's words: prompts/free_text_turn.hbs) in one user message, for
//! `parse_task` after the line that names the request (prompts/parse_task.hbs). Only the turn
//! differs from any other call, so a model server evaluates only the turn. The oldest
//! exchanges are left out when the turn would not fit the context (`Prefix::fit`).
//!
//! Invariants: the person's words and the history are data inside the template (handlebars
//! substitutes them once; they are never rendered as a template); the output schema asks
//! `route` for the room's answer by intent (`anyOf`), but an answer without it is valid.

use handlebars::Handlebars;
use serde::Serialize;
use serde_json::{json, Value};

use super::client::LlmClient;
use super::prompts::{quote, strict_templates, HistoryLine, PromptError};
use super::system_prompt::Prefix;
use super::task_answer_details::detail_properties;
use super::{ChatMessage, LlmError};

pub(super) use super::free_text_answers::{object, optional_text};
pub use super::free_text_answers::{
    parse_parsed_task, parse_route, ParsedTask, Route, RouteIntent,
};

const TURN: &str = include_str!("../../prompts/free_text_turn.hbs");
const PARSE_TASK: &str = include_str!("../../prompts/parse_task.hbs");

/// Most tokens a `route` or `parse_task` answer may take: the intent, a short reply or a task
/// (a small model that rambles is cut off here instead of running into `llm.timeout`).
pub const FREE_TEXT_MAX_TOKENS: u32 = 256;

/// What the free-text prompts show.
#[derive(Debug, Clone, Serialize)]
pub struct FreeTextContext {
    pub history: Vec<HistoryLine>,
    pub message: String,
    pub now: String,
    pub timezone: String,
}

#[derive(Debug)]
pub struct FreeTextModel {
    client: LlmClient,
    templates: Handlebars<'static>,
}

/// Whose earlier lines a prompt shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shown {
    /// The whole conversation, Donna's answers too.
    Conversation,
    /// Only the person's own earlier messages: `route`'s reply is written without Donna's
    /// earlier lines in view, because a small model copies them (Gemma 3 270M answered 6 of 12
    /// turns with one of Donna's earlier lines word for word; without them, 1 of 12 copied
    /// anything: BENCHMARKS.md section 11). What the person said still tells what the
    /// conversation is about.
    PersonOnly,
}

/// The turn as the prompts quote it: every line of the person's words and of the history
/// stays inside the quote.
pub(super) fn quoted(context: &FreeTextContext, history: &[HistoryLine], shown: Shown) -> Value {
    let history: Vec<HistoryLine> = history
        .iter()
        .map(|line| HistoryLine {
            who: line.who.clone(),
            text: quote(&line.text),
        })
        .collect();
    json!({
        "history": history,
        "person_only": shown == Shown::PersonOnly,
        "message": quote(&context.message),
        "now": context.now,
        "timezone": context.timezone,
    })
}

/// The lines of `history` a call of `shown` shows.
pub(super) fn shown_history(history: &[HistoryLine], shown: Shown) -> Vec<HistoryLine> {
    history
        .iter()
        .filter(|line| shown == Shown::Conversation || !line.is_donnas())
        .cloned()
        .collect()
}

impl FreeTextModel {
    pub fn new(client: LlmClient) -> Result<Self, PromptError> {
        let templates = strict_templates(&[("free_text_turn", TURN), ("parse_task", PARSE_TASK)])?;
        let model = Self {
            client: client.with_max_output_tokens(FREE_TEXT_MAX_TOKENS),
            templates,
        };
        let prefix = Prefix::sample();
        let sample = FreeTextContext {
            history: vec![HistoryLine {
                who: "User".into(),
                text: "hello".into(),
            }],
            message: "remind me to call mom tomorrow".into(),
            now: "2026-01-01T08:00:00+00:00".into(),
            timezone: "UTC".into(),
        };
        model.messages(&prefix, "route", &sample)?;
        model.messages(&prefix, "parse_task", &sample)?;
        Ok(model)
    }

    fn render(&self, name: &str, data: &Value) -> Result<String, PromptError> {
        self.templates
            .render(name, data)
            .map_err(|e| super::prompts::template_error(name, e))
    }

    /// The messages of the first `call` request (`route` or `parse_task`) for `context`.
    pub fn messages(
        &self,
        prefix: &Prefix,
        call: &str,
        context: &FreeTextContext,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        let shown = if call == "route" {
            Shown::PersonOnly
        } else {
            Shown::Conversation
        };
        let label = if call == "route" {
            String::new()
        } else {
            self.render(call, &json!({}))?
        };
        let history = shown_history(&context.history, shown);
        prefix.fit(&history, |history| {
            let turn = self.render("free_text_turn", &quoted(context, history, shown))?;
            Ok(format!("{label}{turn}"))
        })
    }

    pub async fn route(
        &self,
        prefix: &Prefix,
        context: &FreeTextContext,
    ) -> Result<Route, LlmError> {
        self.call(prefix, "route", context, &route_schema(), parse_route)
            .await
    }

    pub async fn parse_task(
        &self,
        prefix: &Prefix,
        context: &FreeTextContext,
    ) -> Result<ParsedTask, LlmError> {
        self.call(
            prefix,
            "parse_task",
            context,
            &parse_task_schema(),
            parse_parsed_task,
        )
        .await
    }

    async fn call<T>(
        &self,
        prefix: &Prefix,
        template: &str,
        context: &FreeTextContext,
        schema: &Value,
        parse: fn(&str) -> Result<T, String>,
    ) -> Result<T, LlmError> {
        let messages = self.messages(prefix, template, context)?;
        ask_strict(&self.client, template, messages, schema, parse).await
    }
}

/// One schema-constrained call, parsed strictly; an invalid answer is shown back to the model
/// with the reason, once.
pub(super) async fn ask_strict<T>(
    client: &LlmClient,
    call: &str,
    mut messages: Vec<ChatMessage>,
    schema: &Value,
    parse: fn(&str) -> Result<T, String>,
) -> Result<T, LlmError> {
    let first = client.complete(&messages, Some(schema)).await?;
    let reason = match parse(&first) {
        Ok(answer) => return Ok(answer),
        Err(reason) => reason,
    };
    tracing::info!(call, %reason, "model output invalid; asking once more");
    messages.extend(ChatMessage::ask_again(&first, &reason));
    let second = client.complete(&messages, Some(schema)).await?;
    parse(&second)
        .map_err(|reason| LlmError::InvalidOutput(super::output::OutputError::Invalid(reason)))
}

/// The `route` schema: the fields of every answer, and (`anyOf`) what each intent carries, so
/// a grammar-constrained server (llama.cpp, Ollama) makes a chat answer hold its reply and a
/// capture its title (and, optionally, `parse_task`'s details). Servers that ignore `anyOf`
/// still get the plain object.
pub fn route_schema() -> Value {
    let intents: Vec<&str> = RouteIntent::ALL.iter().map(|(name, _)| *name).collect();
    let confidence = json!({ "type": "number", "minimum": 0, "maximum": 1 });
    let text = json!({ "type": "string" });
    let details = detail_properties();
    let variant = |intents: &[&str], fields: &[&str], required: &[&str]| {
        let mut properties = serde_json::Map::new();
        properties.insert("confidence".into(), confidence.clone());
        properties.insert(
            "intent".into(),
            json!({ "type": "string", "enum": intents }),
        );
        for field in fields {
            let schema = details.get(*field).unwrap_or(&text);
            properties.insert((*field).into(), schema.clone());
        }
        let mut needed = vec!["confidence", "intent"];
        needed.extend_from_slice(required);
        json!({ "type": "object", "properties": properties, "required": needed })
    };
    let mut task_fields = vec!["title", "when", "recurrence"];
    task_fields.extend(details.keys().map(String::as_str));
    let mut properties = json!({
        "intent": { "type": "string", "enum": intents },
        "confidence": confidence,
        "clarifying_question": text,
        "reply_to_user": text,
        "title": text,
        "when": text,
        "recurrence": text,
    });
    if let Value::Object(properties) = &mut properties {
        properties.extend(details.clone());
    }
    json!({
        "title": "route",
        "type": "object",
        "properties": properties,
        "required": ["intent", "confidence"],
        "anyOf": [
            variant(&["chat"], &["reply_to_user"], &["reply_to_user"]),
            variant(&["capture", "automation"], &task_fields, &["title"]),
            variant(&["question", "task_action"], &[], &[]),
            variant(&["unclear"], &["clarifying_question"], &["clarifying_question"]),
        ],
    })
}

pub fn parse_task_schema() -> Value {
    let mut properties = json!({
        "title": { "type": "string" },
        "when": { "type": "string" },
        "recurrence": { "type": "string" },
        "confidence": { "type": "number", "minimum": 0, "maximum": 1 },
    });
    if let Value::Object(properties) = &mut properties {
        properties.extend(detail_properties());
    }
    json!({
        "title": "parse_task",
        "type": "object",
        "properties": properties,
        "required": ["title", "confidence"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_of_the_route_schema_names_only_known_intents_once() {
        let schema = route_schema();
        let mut seen: Vec<String> = schema["anyOf"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|variant| {
                variant["properties"]["intent"]["enum"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .filter_map(|intent| intent.as_str().map(String::from))
            .collect();
        seen.sort();
        let mut all: Vec<String> = RouteIntent::ALL
            .iter()
            .map(|(n, _)| n.to_string())
            .collect();
        all.sort();
        assert_eq!(seen, all);
    }
}
