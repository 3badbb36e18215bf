//! The free-text answers read strictly: `route` (what is this message, and for the common
//! intents the room's answer with it) and `parse_task` (the task it asks for).
//!
//! `route` may carry the room's answer (one call instead of two): with `chat`,
//! `reply_to_user` is the answer to the person; with `capture` or `automation`, `title` (and
//! `when`, `recurrence`, and `parse_task`'s optional details: `task_answer_details`) is the
//! task. Both are optional: an answer without them is valid, and the turn then makes the
//! room's own call (`chat`, `parse_task`) as before.
//!
//! Invariants: unknown fields are ignored; a missing or ill-typed required field, or a value
//! outside its enum, is invalid; a `confidence` outside 0..1 is read as 0 (no confidence: the
//! capture asks instead of acting) rather than failing the turn, because the output grammar
//! cannot bound a number and small models write 1000000000000000; a placeholder copied from a
//! prompt is no text (`output::clean_text`); times stay words (`when`, `recurrence`), read by
//! Donna's parser, never by the model. A detail that fails its check makes a `parse_task`
//! answer invalid (asked again once, as any invalid answer), but never a `route` answer: the
//! intent and the task stand, without the detail (a log line says which and why).

use serde::Serialize;
use serde_json::{Map, Value};

use super::output::{clean_text, MAX_OUTPUT_BYTES};
use super::task_answer_details::{read_details, text_within, TaskDetails};

/// Longest field text kept (a title is checked against its own limit later).
const MAX_FIELD_CHARS: usize = 1_000;
/// Longest chat reply carried by a `route` answer.
pub const MAX_ROUTE_REPLY_CHARS: usize = 1_500;

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
    pub const ALL: [(&'static str, RouteIntent); 6] = [
        ("capture", RouteIntent::Capture),
        ("automation", RouteIntent::Automation),
        ("task_action", RouteIntent::TaskAction),
        ("question", RouteIntent::Question),
        ("chat", RouteIntent::Chat),
        ("unclear", RouteIntent::Unclear),
    ];

    pub fn as_str(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, intent)| *intent == self)
            .map_or("unclear", |(name, _)| name)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub intent: RouteIntent,
    pub confidence: f64,
    pub clarifying_question: Option<String>,
    /// The answer to the person, when the intent is chat and the model wrote it.
    pub reply: Option<String>,
    /// The task, when the intent is capture or automation and the model named it.
    pub task: Option<ParsedTask>,
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

/// The required confidence; a number outside 0..1 is no confidence (0).
fn confidence(object: &Map<String, Value>) -> Result<f64, String> {
    match object.get("confidence").and_then(Value::as_f64) {
        Some(value) if (0.0..=1.0).contains(&value) => Ok(value),
        Some(_) => Ok(0.0),
        None => Err("confidence is missing or not a number".into()),
    }
}

/// An optional text field: absent, null or blank is None; another type is invalid.
pub(super) fn optional_text(
    object: &Map<String, Value>,
    field: &str,
) -> Result<Option<String>, String> {
    text_within(object, field, MAX_FIELD_CHARS)
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
    let confidence = confidence(&object)?;
    let reply = text_within(&object, "reply_to_user", MAX_ROUTE_REPLY_CHARS)?;
    let title = optional_text(&object, "title")?;
    let when = optional_text(&object, "when")?;
    let recurrence = optional_text(&object, "recurrence")?;
    let task = match intent {
        RouteIntent::Capture | RouteIntent::Automation => title.map(|title| {
            let (details, refused) = read_details(&object);
            if !refused.is_empty() {
                tracing::info!(
                    ?refused,
                    "route's task kept without the details it got wrong"
                );
            }
            task_of(title, when, recurrence, details, confidence)
        }),
        _ => None,
    };
    Ok(Route {
        intent,
        confidence,
        clarifying_question: optional_text(&object, "clarifying_question")?,
        reply: reply.filter(|_| intent == RouteIntent::Chat),
        task,
    })
}

pub fn parse_parsed_task(text: &str) -> Result<ParsedTask, String> {
    let object = object(text)?;
    let title = match object.get("title") {
        Some(Value::String(title)) => clean_text(title, MAX_FIELD_CHARS),
        Some(Value::Null) | None => return Err("title is missing".into()),
        Some(_) => return Err("title is not a string".into()),
    };
    let (details, refused) = read_details(&object);
    if let Some(reason) = refused.into_iter().next() {
        return Err(reason);
    }
    Ok(task_of(
        title,
        optional_text(&object, "when")?,
        optional_text(&object, "recurrence")?,
        details,
        confidence(&object)?,
    ))
}

fn task_of(
    title: String,
    when: Option<String>,
    recurrence: Option<String>,
    details: TaskDetails,
    confidence: f64,
) -> ParsedTask {
    ParsedTask {
        title,
        description: details.description,
        domain: details.domain,
        priority: details.priority,
        when,
        estimated_minutes: details.estimated_minutes,
        tags: details.tags,
        recurrence,
        confidence,
    }
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
        // A route whose chat reply is a placeholder carries no reply: the chat room answers.
        let route =
            parse_route(r#"{"intent":"chat","confidence":0.9,"reply_to_user":"<your answer>"}"#);
        assert_eq!(route.map(|route| route.reply), Ok(None));
    }

    #[test]
    fn answers_are_read_strictly() {
        assert!(parse_route(r#"{"intent":"capture","confidence":0.9}"#).is_ok());
        assert!(parse_route(r#"{"intent":"delete_everything","confidence":0.9}"#).is_err());
        assert!(parse_route(r#"{"intent":"capture"}"#).is_err());
        assert!(parse_route(r#"{"intent":"capture","confidence":"high"}"#).is_err());
        assert!(parse_route(r#"{"intent":"chat","confidence":0.9,"reply_to_user":7}"#).is_err());
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

    #[test]
    fn a_confidence_outside_zero_to_one_is_no_confidence_not_a_failed_turn() {
        for written in ["1.5", "1000000000000000", "-0.2"] {
            let route = parse_route(&format!(r#"{{"intent":"chat","confidence":{written}}}"#));
            assert_eq!(route.map(|r| r.confidence), Ok(0.0), "{written}");
            let task = parse_parsed_task(&format!(r#"{{"title":"x","confidence":{written}}}"#));
            assert_eq!(task.map(|t| t.confidence), Ok(0.0), "{written}");
        }
    }

    #[test]
    fn a_route_carries_the_rooms_answer_only_for_its_own_intent() {
        let chat = parse_route(
            r#"{"confidence":0.9,"intent":"chat","reply_to_user":"Rest up.","title":"Rest"}"#,
        );
        assert_eq!(
            chat.map(|r| (r.reply, r.task)),
            Ok((Some("Rest up.".to_string()), None))
        );
        let capture = parse_route(
            r#"{"confidence":0.8,"intent":"capture","title":"Call the plumber","when":"tomorrow morning","reply_to_user":"Sure."}"#,
        );
        let capture = capture.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(capture.reply, None);
        assert_eq!(
            capture.task,
            Some(ParsedTask {
                title: "Call the plumber".into(),
                when: Some("tomorrow morning".into()),
                confidence: 0.8,
                ..ParsedTask::default()
            })
        );
        let question = parse_route(r#"{"confidence":0.9,"intent":"question","title":"x"}"#);
        assert_eq!(question.map(|r| r.task), Ok(None));
        let untitled = parse_route(r#"{"confidence":0.9,"intent":"capture","when":"friday"}"#);
        assert_eq!(
            untitled.map(|r| r.task),
            Ok(None),
            "no title: parse_task asks"
        );
    }

    #[test]
    fn a_route_capture_keeps_its_task_when_a_detail_is_wrong_and_parse_task_does_not() {
        let answer = r#"{"confidence":0.9,"intent":"capture","title":"Renew the passport","when":"by friday","priority":1,"estimated_minutes":60,"description":"Bring the old one","tags":["errands"]}"#;
        let task = parse_route(answer).map(|route| route.task);
        assert_eq!(
            task,
            Ok(Some(ParsedTask {
                title: "Renew the passport".into(),
                when: Some("by friday".into()),
                priority: Some(1),
                estimated_minutes: Some(60),
                description: Some("Bring the old one".into()),
                tags: vec!["errands".into()],
                confidence: 0.9,
                ..ParsedTask::default()
            }))
        );
        let wrong = r#"{"confidence":0.9,"intent":"capture","title":"Renew the passport","priority":"urgent","estimated_minutes":-60,"tags":"errands"}"#;
        let task = parse_route(wrong).map(|route| route.task);
        assert_eq!(
            task,
            Ok(Some(ParsedTask {
                title: "Renew the passport".into(),
                confidence: 0.9,
                ..ParsedTask::default()
            }))
        );
        assert!(parse_parsed_task(
            r#"{"title":"Renew the passport","estimated_minutes":-60,"confidence":0.9}"#
        )
        .is_err());
        // A detail of an intent that carries no task is not read at all.
        let chat = r#"{"confidence":0.9,"intent":"chat","reply_to_user":"Hi.","priority":"x"}"#;
        assert!(parse_route(chat).is_ok());
    }
}
