//! The planner's answers: the output schemas of `plan_step` and of a `chat` answer
//! (the chat room's and the planner's composed one), and their strict readers.
//!
//! `plan_step` either names one look-up with its arguments or, when what it has answers the
//! question, carries the answer itself (a `chat` answer's fields), so a question needs no
//! separate call to compose it. Its schema names each look-up with that look-up's own argument
//! schema (`anyOf`), so a server that constrains output to the schema (llama.cpp, Ollama)
//! cannot write arguments that do not fit; servers that ignore `anyOf` still get the plain
//! object, and Donna checks the arguments either way (`crate::planner`).
//!
//! Invariants: an answer's `actions` are kept as the model gave them, data for
//! `turn::chat_actions`, never run here; a tool's name and arguments are kept as given (an
//! unknown tool or ill-shaped arguments are the tool registry's to refuse, an error observation
//! that counts), never fixed up here.

use serde_json::{json, Map, Value};

use super::free_text::{object, optional_text};
use super::output::clean_text;
use crate::planner::TOOLS;

/// Longest answer kept for the person.
pub const MAX_REPLY_CHARS: usize = 4_000;

/// The model's next step.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanStep {
    CallTool {
        tool: String,
        args: Value,
    },
    /// What it has answers the question: here is the answer.
    Answer(ChatAnswer),
    /// What it has answers the question; the answer is composed by one more call.
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

/// The fields of an answer, as a schema's `properties`.
fn answer_properties() -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert("reply_to_user".into(), json!({ "type": "string" }));
    properties.insert(
        "actions".into(),
        json!({ "type": "array", "maxItems": MAX_CHAT_ACTIONS, "items": { "type": "object", "properties": {
            "name": { "type": "string" }, "params": { "type": "object" } }, "required": ["name"] } }),
    );
    properties.insert("needs_escalation".into(), json!({ "type": "boolean" }));
    properties.insert("escalation_reason".into(), json!({ "type": "string" }));
    properties
}

/// `schema` without string length bounds: llama.cpp writes a bound as that many nested grammar
/// rules, which its server cannot always parse; Donna checks the lengths itself.
fn for_grammar(schema: Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(key, _)| key != "minLength" && key != "maxLength")
                .map(|(key, value)| (key, for_grammar(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(for_grammar).collect()),
        other => other,
    }
}

pub fn plan_step_schema() -> Value {
    let mut variants: Vec<Value> = TOOLS
        .iter()
        .map(|tool| {
            json!({
                "type": "object",
                "properties": {
                    "action": { "type": "string", "enum": ["call_tool"] },
                    "tool": { "type": "string", "enum": [tool.name] },
                    "args": for_grammar((tool.schema)()),
                },
                "required": ["action", "tool", "args"],
            })
        })
        .collect();
    let mut answer = answer_properties();
    answer.insert(
        "action".into(),
        json!({ "type": "string", "enum": ["answer"] }),
    );
    variants.push(json!({
        "type": "object",
        "properties": answer,
        "required": ["action", "reply_to_user"],
    }));
    let mut properties = answer_properties();
    properties.insert(
        "action".into(),
        json!({ "type": "string", "enum": ["call_tool", "answer", "done"] }),
    );
    properties.insert(
        "tool".into(),
        json!({ "type": "string", "enum": TOOLS.iter().map(|tool| tool.name).collect::<Vec<_>>() }),
    );
    properties.insert("args".into(), json!({ "type": "object" }));
    json!({
        "title": "plan_step",
        "type": "object",
        "properties": properties,
        "required": ["action"],
        "anyOf": variants,
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
        "properties": answer_properties(),
        "required": ["reply_to_user"],
    })
}

/// A `plan_step` answer: a look-up, the answer, or done (the answer still to compose).
pub fn parse_plan_step(text: &str) -> Result<PlanStep, String> {
    let object = object(text)?;
    match object.get("action").and_then(Value::as_str) {
        Some("done") => Ok(PlanStep::Done),
        Some("answer") => parse_chat(text).map(PlanStep::Answer),
        Some("call_tool") => match object.get("tool") {
            Some(Value::String(tool)) => Ok(PlanStep::CallTool {
                tool: tool.clone(),
                args: object.get("args").cloned().unwrap_or(Value::Null),
            }),
            Some(_) => Err("tool is not a string".into()),
            None => Err("call_tool needs a tool".into()),
        },
        Some(other) => Err(format!("action {other:?} is not call_tool, answer or done")),
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

    #[test]
    fn a_step_may_carry_the_answer_and_an_answer_needs_its_reply() {
        let step =
            parse_plan_step(r#"{"action":"answer","reply_to_user":"Friday at 9.","actions":[]}"#);
        assert!(
            matches!(&step, Ok(PlanStep::Answer(answer)) if answer.reply_to_user == "Friday at 9."),
            "{step:?}"
        );
        assert!(parse_plan_step(r#"{"action":"answer"}"#).is_err());
        assert!(parse_plan_step(r#"{"action":"answer","reply_to_user":""}"#).is_err());
    }

    #[test]
    fn the_step_grammar_names_each_look_up_with_its_own_arguments_and_no_length_bounds() {
        let schema = plan_step_schema();
        let variants = schema["anyOf"].as_array().cloned().unwrap_or_default();
        assert_eq!(
            variants.len(),
            TOOLS.len() + 1,
            "one per look-up, and the answer"
        );
        for tool in TOOLS.iter() {
            let variant = variants
                .iter()
                .find(|v| v["properties"]["tool"]["enum"] == json!([tool.name]))
                .unwrap_or_else(|| panic!("{} has no variant", tool.name));
            let args = &variant["properties"]["args"];
            assert_eq!(
                args["properties"].as_object().map(|p| p.len()),
                (tool.schema)()["properties"].as_object().map(|p| p.len()),
                "{}",
                tool.name
            );
        }
        assert!(!schema.to_string().contains("maxLength"), "{schema}");
    }
}
