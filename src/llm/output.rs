//! Parsing the model's answer: `{actions: [{name, params}], reply_to_user, reasoning}`.
//!
//! Strict about structure (a JSON object whose fields are each of their type, the required ones
//! there, at most `MAX_ACTIONS` actions, bounded size), lenient about a Markdown code fence
//! around it, which small models add whatever they are told, and about fields beyond the
//! answer's own (at the top or inside an action): they are ignored, so an answer that is
//! otherwise right costs no retry. Semantic checks of each action (known name, parameter types,
//! enums) are the registry's job, afterwards.

use serde_json::{Map, Value};

use super::schema::{MAX_ACTIONS, MAX_REPLY_CHARS};
use crate::actions::ActionRequest;

/// Largest model output read, in bytes.
pub const MAX_OUTPUT_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct Classification {
    pub actions: Vec<ActionRequest>,
    pub reply_to_user: String,
    pub reasoning: String,
}

fn strip_fence(text: &str) -> &str {
    let text = text.trim();
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let rest = rest.strip_prefix("json").unwrap_or(rest);
    rest.strip_suffix("```").unwrap_or(rest).trim()
}

/// Keeps printable text and newlines, trimmed, at most `limit` characters.
pub fn clean_text(text: &str, limit: usize) -> String {
    let cleaned: String = text
        .chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .take(limit)
        .collect();
    let cleaned = cleaned.trim();
    if is_placeholder(cleaned) {
        return String::new();
    }
    cleaned.to_string()
}

/// A placeholder of a prompt's answer format copied back as the answer ("<your answer>",
/// "<only for unclear>"): small models do this (seen with Gemma 3 270M). It is no text at all,
/// never something to show the person or to use as a title.
fn is_placeholder(text: &str) -> bool {
    text.len() > 2
        && text.starts_with('<')
        && text.ends_with('>')
        && !text[1..text.len() - 1].contains(['<', '>'])
}

/// Why a model's answer is not a valid classification. The text goes back to the model in
/// the one retry, so it says plainly what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    #[error("output is {0} bytes; at most {MAX_OUTPUT_BYTES}")]
    TooLarge(usize),
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("not a JSON object")]
    NotObject,
    #[error("{0} is missing")]
    Missing(&'static str),
    #[error("{field} is not {expected}")]
    WrongType {
        field: String,
        expected: &'static str,
    },
    #[error("{0} actions proposed; at most {MAX_ACTIONS}")]
    TooManyActions(usize),
    #[error("actions[{0}].name is not a short string")]
    BadActionName(usize),
    /// A free-text answer (`route`, `parse_task`) that is not valid, and why.
    #[error("{0}")]
    Invalid(String),
}

/// serde_json's reason, with what to do about the mistake small models make most.
fn not_json(error: serde_json::Error) -> OutputError {
    let reason = error.to_string();
    if reason.contains("control character") {
        OutputError::NotJson(format!(
            "{reason}: a string holds a raw line break or tab; write a line break inside a \
             string as \\n"
        ))
    } else {
        OutputError::NotJson(reason)
    }
}

fn wrong_type(field: impl Into<String>, expected: &'static str) -> OutputError {
    OutputError::WrongType {
        field: field.into(),
        expected,
    }
}

pub fn parse(text: &str) -> Result<Classification, OutputError> {
    if text.len() > MAX_OUTPUT_BYTES {
        return Err(OutputError::TooLarge(text.len()));
    }
    let value: Value = serde_json::from_str(strip_fence(text)).map_err(not_json)?;
    let Value::Object(mut object) = value else {
        return Err(OutputError::NotObject);
    };
    let actions = match object.remove("actions") {
        Some(Value::Array(items)) => items,
        Some(_) => return Err(wrong_type("actions", "an array")),
        None => return Err(OutputError::Missing("actions")),
    };
    if actions.len() > MAX_ACTIONS {
        return Err(OutputError::TooManyActions(actions.len()));
    }
    let actions = actions
        .into_iter()
        .enumerate()
        .map(|(index, item)| parse_action(index, item))
        .collect::<Result<Vec<_>, _>>()?;
    let reply_to_user = match object.remove("reply_to_user") {
        Some(Value::String(reply)) => clean_text(&reply, MAX_REPLY_CHARS),
        Some(_) => return Err(wrong_type("reply_to_user", "a string")),
        None => return Err(OutputError::Missing("reply_to_user")),
    };
    let reasoning = match object.remove("reasoning") {
        Some(Value::String(reasoning)) => clean_text(&reasoning, 2_000),
        Some(Value::Null) | None => String::new(),
        Some(_) => return Err(wrong_type("reasoning", "a string")),
    };
    Ok(Classification {
        actions,
        reply_to_user,
        reasoning,
    })
}

fn parse_action(index: usize, item: Value) -> Result<ActionRequest, OutputError> {
    let Value::Object(mut object) = item else {
        return Err(wrong_type(format!("actions[{index}]"), "an object"));
    };
    let name = match object.remove("name") {
        Some(Value::String(name)) if !name.trim().is_empty() && name.len() <= 100 => {
            name.trim().to_string()
        }
        _ => return Err(OutputError::BadActionName(index)),
    };
    let params = match object.remove("params") {
        Some(Value::Object(params)) => params,
        Some(Value::Null) | None => Map::new(),
        Some(_) => return Err(wrong_type(format!("actions[{index}].params"), "an object")),
    };
    // Any other field of the action ("why", "confidence") is the model's aside: ignored.
    Ok(ActionRequest { name, params })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, ok: bool) {
        assert_eq!(parse(text).is_ok(), ok, "{text}: {:?}", parse(text));
    }

    #[test]
    fn a_placeholder_of_the_answer_format_copied_back_is_no_text() {
        for echoed in [
            "<your answer>",
            " <only for unclear> ",
            "<short task title, in their words, without the time>",
        ] {
            assert_eq!(clean_text(echoed, 200), "", "{echoed}");
        }
        for real in [
            "I <3 rent day",
            "<b>Pay rent</b>",
            "Pay rent <today>",
            "<>",
            "Pay rent",
        ] {
            assert_eq!(clean_text(real, 200), real, "{real}");
        }
    }

    #[test]
    fn structure_is_checked_strictly() {
        check(
            r#"{"actions": [], "reply_to_user": "Hi", "reasoning": "none"}"#,
            true,
        );
        check(
            "```json\n{\"actions\": [], \"reply_to_user\": \"Hi\", \"reasoning\": \"\"}\n```",
            true,
        );
        check(
            r#"{"actions": [{"name": "mark_done", "params": {}}], "reply_to_user": "ok"}"#,
            true,
        );
        check(
            r#"{"actions": {}, "reply_to_user": "Hi", "reasoning": ""}"#,
            false,
        );
        check(r#"{"actions": [], "reasoning": ""}"#, false);
        check(
            r#"{"actions": [{"params": {}}], "reply_to_user": "x", "reasoning": ""}"#,
            false,
        );
        // Fields beyond the answer's own are ignored, not obeyed and not an error.
        check(
            r#"{"actions": [], "reply_to_user": "x", "reasoning": "", "run": "rm -rf"}"#,
            true,
        );
        check(
            r#"{"actions": [{"name": "mark_done", "params": {}, "why": "paid"}], "reply_to_user": "x"}"#,
            true,
        );
        check(r#"{"actions": [], "reply_to_user": 3}"#, false);
        check(
            r#"{"actions": [], "reply_to_user": "x", "reasoning": 3}"#,
            false,
        );
        check(r#"["not", "an", "object"]"#, false);
        check("I think you should mark it done.", false);
        check("", false);
    }

    #[test]
    fn ten_thousand_actions_or_deep_nesting_are_refused_without_trouble() {
        let many = format!(
            r#"{{"actions": [{}], "reply_to_user": "x", "reasoning": ""}}"#,
            vec![r#"{"name": "mark_done", "params": {}}"#; 10_000].join(",")
        );
        check(&many, false);
        let deep = format!("{}{}", "[".repeat(5_000), "]".repeat(5_000));
        check(&deep, false);
    }

    #[test]
    fn the_reply_is_cleaned_and_bounded() {
        let long = "a".repeat(5_000);
        let text =
            format!(r#"{{"actions": [], "reply_to_user": "  hi\u0007 {long}", "reasoning": ""}}"#);
        let parsed = parse(&text).map(|c| c.reply_to_user).unwrap_or_default();
        assert!(parsed.starts_with("hi a"));
        assert_eq!(parsed.chars().count(), MAX_REPLY_CHARS - 2);
    }
}
