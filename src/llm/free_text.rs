//! The model calls of a free-text turn: `route` (what is this message?) and `parse_task` (the
//! task it asks for), each schema-constrained JSON whose schema `title` names the call
//! (docs/contract.md "Model calls"), parsed strictly, with one retry that shows the model its invalid
//! answer and why.
//!
//! Invariants: the person's words and the history are data inside the template (handlebars
//! substitutes them once; they are never rendered as a template); unknown fields in an answer
//! are ignored, a missing or ill-typed required field or a value outside its enum or range is
//! invalid; times stay words (`when`, `recurrence`), read by Donna's parser, never by the model.

use handlebars::Handlebars;
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::client::LlmClient;
use super::output::{clean_text, MAX_OUTPUT_BYTES};
use super::prompts::{quote, strict_templates, HistoryLine, PromptError};
use super::{ChatMessage, LlmError};
use crate::tasks::model::{DOMAINS, MAX_DESCRIPTION_CHARS, PRIORITY_RANGE};

const SYSTEM: &str = include_str!("../../prompts/free_text_system.hbs");
const ROUTE: &str = include_str!("../../prompts/route.hbs");
const PARSE_TASK: &str = include_str!("../../prompts/parse_task.hbs");

/// How much of an invalid answer is shown back to the model in the retry.
const ECHO_CHARS: usize = 2_000;
/// Longest field text kept (a title is checked against its own limit later).
const MAX_FIELD_CHARS: usize = 1_000;
pub const MAX_TAGS: usize = 10;
pub const MAX_TAG_CHARS: usize = 40;
/// Longest estimate accepted: a week.
pub const MAX_ESTIMATE_MINUTES: i64 = 7 * 24 * 60;

/// What `route` says a message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteIntent {
    Capture,
    Automation,
    TaskAction,
    Question,
    Chat,
    Unclear,
}

impl RouteIntent {
    const ALL: [(&'static str, RouteIntent); 6] = [
        ("capture", RouteIntent::Capture),
        ("automation", RouteIntent::Automation),
        ("task_action", RouteIntent::TaskAction),
        ("question", RouteIntent::Question),
        ("chat", RouteIntent::Chat),
        ("unclear", RouteIntent::Unclear),
    ];
}

#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub intent: RouteIntent,
    pub confidence: f64,
    pub clarifying_question: Option<String>,
}

/// A task as the model read it. The title is checked by the capture (empty or too long asks).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParsedTask {
    pub title: String,
    pub description: Option<String>,
    pub domain: Option<String>,
    pub priority: Option<i64>,
    pub when: Option<String>,
    pub estimated_minutes: Option<i64>,
    pub tags: Vec<String>,
    pub recurrence: Option<String>,
    pub confidence: f64,
}

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

impl FreeTextModel {
    pub fn new(client: LlmClient) -> Result<Self, PromptError> {
        let templates = strict_templates(&[
            ("free_text_system", SYSTEM),
            ("route", ROUTE),
            ("parse_task", PARSE_TASK),
        ])?;
        let model = Self { client, templates };
        let sample = FreeTextContext {
            history: vec![HistoryLine {
                who: "User".into(),
                text: "hello".into(),
            }],
            message: "remind me to call mom tomorrow".into(),
            now: "2026-01-01T08:00:00+00:00".into(),
            timezone: "UTC".into(),
        };
        model.render("free_text_system", &sample)?;
        model.render("route", &sample)?;
        model.render("parse_task", &sample)?;
        Ok(model)
    }

    fn render(&self, name: &str, context: &FreeTextContext) -> Result<String, PromptError> {
        let mut quoted = context.clone();
        // Every line of the person's words stays inside the quote.
        quoted.message = quote(&quoted.message);
        for line in &mut quoted.history {
            line.text = quote(&line.text);
        }
        let data = serde_json::to_value(&quoted).map_err(|e| PromptError::Template {
            name: name.into(),
            reason: e.to_string(),
        })?;
        self.templates
            .render(name, &data)
            .map_err(|e| PromptError::Template {
                name: name.into(),
                reason: e.to_string(),
            })
    }

    pub async fn route(&self, context: &FreeTextContext) -> Result<Route, LlmError> {
        self.call("route", context, &route_schema(), parse_route)
            .await
    }

    pub async fn parse_task(&self, context: &FreeTextContext) -> Result<ParsedTask, LlmError> {
        self.call(
            "parse_task",
            context,
            &parse_task_schema(),
            parse_parsed_task,
        )
        .await
    }

    async fn call<T>(
        &self,
        template: &str,
        context: &FreeTextContext,
        schema: &Value,
        parse: fn(&str) -> Result<T, String>,
    ) -> Result<T, LlmError> {
        let prompt_error = LlmError::Prompt;
        let messages = vec![
            ChatMessage::system(
                self.render("free_text_system", context)
                    .map_err(prompt_error)?,
            ),
            ChatMessage::user(self.render(template, context).map_err(prompt_error)?),
        ];
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
    messages.push(ChatMessage::assistant(
        first.chars().take(ECHO_CHARS).collect::<String>(),
    ));
    messages.push(ChatMessage::user(format!(
        "That answer is not valid: {reason}. Answer again with only the JSON object \
         described above, and nothing else."
    )));
    let second = client.complete(&messages, Some(schema)).await?;
    parse(&second)
        .map_err(|reason| LlmError::InvalidOutput(super::output::OutputError::Invalid(reason)))
}

pub fn route_schema() -> Value {
    json!({
        "title": "route",
        "type": "object",
        "properties": {
            "intent": { "type": "string", "enum": RouteIntent::ALL.iter().map(|(name, _)| *name).collect::<Vec<_>>() },
            "confidence": { "type": "number", "minimum": 0, "maximum": 1 },
            "clarifying_question": { "type": "string" },
        },
        "required": ["intent", "confidence"],
    })
}

pub fn parse_task_schema() -> Value {
    json!({
        "title": "parse_task",
        "type": "object",
        "properties": {
            "title": { "type": "string" },
            "description": { "type": "string" },
            "domain": { "type": "string", "enum": DOMAINS },
            "priority": { "type": "integer", "minimum": PRIORITY_RANGE.start(), "maximum": PRIORITY_RANGE.end() },
            "when": { "type": "string" },
            "estimated_minutes": { "type": "integer", "minimum": 1, "maximum": MAX_ESTIMATE_MINUTES },
            "tags": { "type": "array", "items": { "type": "string" }, "maxItems": MAX_TAGS },
            "recurrence": { "type": "string" },
            "confidence": { "type": "number", "minimum": 0, "maximum": 1 },
        },
        "required": ["title", "confidence"],
    })
}

pub(super) fn object(text: &str) -> Result<Map<String, Value>, String> {
    if text.len() > MAX_OUTPUT_BYTES {
        return Err(format!(
            "output is {} bytes; at most {MAX_OUTPUT_BYTES}",
            text.len()
        ));
    }
    let trimmed = text.trim();
    let unfenced = trimmed
        .strip_prefix("```")
        .map(|rest| rest.strip_prefix("json").unwrap_or(rest))
        .map(|rest| rest.strip_suffix("```").unwrap_or(rest).trim())
        .unwrap_or(trimmed);
    match serde_json::from_str(unfenced) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err("not a JSON object".into()),
        Err(e) => Err(format!("not JSON: {e}")),
    }
}

fn confidence(object: &Map<String, Value>) -> Result<f64, String> {
    match object.get("confidence").and_then(Value::as_f64) {
        Some(value) if (0.0..=1.0).contains(&value) => Ok(value),
        Some(_) => Err("confidence is not between 0 and 1".into()),
        None => Err("confidence is missing or not a number".into()),
    }
}

/// An optional text field: absent, null or blank is None; another type is invalid.
pub(super) fn optional_text(
    object: &Map<String, Value>,
    field: &str,
) -> Result<Option<String>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => {
            let text = clean_text(text, MAX_FIELD_CHARS);
            Ok((!text.is_empty()).then_some(text))
        }
        Some(_) => Err(format!("{field} is not a string")),
    }
}

fn optional_integer(
    object: &Map<String, Value>,
    field: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<Option<i64>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_i64() {
            Some(number) if range.contains(&number) => Ok(Some(number)),
            Some(_) => Err(format!(
                "{field} is not between {} and {}",
                range.start(),
                range.end()
            )),
            None => Err(format!("{field} is not an integer")),
        },
    }
}

pub fn parse_route(text: &str) -> Result<Route, String> {
    let object = object(text)?;
    let intent = match object.get("intent").and_then(Value::as_str) {
        Some(name) => RouteIntent::ALL
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, intent)| *intent)
            .ok_or_else(|| format!("intent {name:?} is not one of the intents"))?,
        None => return Err("intent is missing or not a string".into()),
    };
    Ok(Route {
        intent,
        confidence: confidence(&object)?,
        clarifying_question: optional_text(&object, "clarifying_question")?,
    })
}

pub fn parse_parsed_task(text: &str) -> Result<ParsedTask, String> {
    let object = object(text)?;
    let title = match object.get("title") {
        Some(Value::String(title)) => clean_text(title, MAX_FIELD_CHARS),
        Some(Value::Null) | None => return Err("title is missing".into()),
        Some(_) => return Err("title is not a string".into()),
    };
    let domain = optional_text(&object, "domain")?;
    if let Some(domain) = &domain {
        if !DOMAINS.contains(&domain.as_str()) {
            return Err(format!(
                "domain {domain:?} is not one of {}",
                DOMAINS.join(", ")
            ));
        }
    }
    let tags = match object.get("tags") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => {
            if items.len() > MAX_TAGS {
                return Err(format!("more than {MAX_TAGS} tags"));
            }
            items
                .iter()
                .map(|item| {
                    item.as_str()
                        .map(|tag| clean_text(tag, MAX_TAG_CHARS))
                        .ok_or_else(|| "tags holds something that is not a string".to_string())
                })
                .filter(|tag| tag.as_ref().map_or(true, |tag| !tag.is_empty()))
                .collect::<Result<Vec<_>, _>>()?
        }
        Some(_) => return Err("tags is not a list".into()),
    };
    let description = optional_text(&object, "description")?
        .map(|text| text.chars().take(MAX_DESCRIPTION_CHARS).collect());
    Ok(ParsedTask {
        title,
        description,
        domain,
        priority: optional_integer(&object, "priority", PRIORITY_RANGE)?,
        when: optional_text(&object, "when")?,
        estimated_minutes: optional_integer(
            &object,
            "estimated_minutes",
            1..=MAX_ESTIMATE_MINUTES,
        )?,
        tags,
        recurrence: optional_text(&object, "recurrence")?,
        confidence: confidence(&object)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_copied_from_the_answer_format_is_no_question_and_no_title() {
        let route = parse_route(
            r#"{"intent":"unclear","confidence":0.5,"clarifying_question":"<only for unclear>"}"#,
        );
        assert_eq!(route.map(|route| route.clarifying_question), Ok(None));
        let task = parse_parsed_task(
            r#"{"title":"<short task title, in their words, without the time>","when":"<the time words exactly as they wrote them, optional>","confidence":0.9}"#,
        );
        assert_eq!(
            task.map(|task| (task.title, task.when)),
            Ok((String::new(), None))
        );
    }

    #[test]
    fn answers_are_read_strictly() {
        assert!(parse_route(r#"{"intent":"capture","confidence":0.9}"#).is_ok());
        assert!(parse_route(r#"{"intent":"delete_everything","confidence":0.9}"#).is_err());
        assert!(parse_route(r#"{"intent":"capture","confidence":1.5}"#).is_err());
        assert!(parse_route(r#"{"intent":"capture"}"#).is_err());
        assert!(parse_route("sure! here you go").is_err());
        let task = parse_parsed_task(
            r#"{"title":"Call mom","when":"tomorrow","confidence":0.8,"extra":"ignored"}"#,
        );
        assert_eq!(
            task.map(|t| (t.title, t.when)),
            Ok(("Call mom".to_string(), Some("tomorrow".to_string())))
        );
        assert!(parse_parsed_task(r#"{"title":"x","priority":9,"confidence":0.8}"#).is_err());
        assert!(parse_parsed_task(r#"{"title":"x","domain":"space","confidence":0.8}"#).is_err());
        assert!(parse_parsed_task(r#"{"title":7,"confidence":0.8}"#).is_err());
    }
}
