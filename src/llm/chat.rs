//! The chat room's model calls: `chat` (an answer in the conversation, the planner's
//! `chat` schema and parser) and `summarize` (`{summary}` of a closed session), each
//! schema-constrained JSON whose schema `title` names the call, parsed strictly with one retry.
//!
//! The prompts are `chat_prompt`'s (the prefix, the budget). Invariant: the answer's `actions` are
//! returned as data and never run here (`turn::chat_actions` checks them and decides consent).

use serde_json::{json, Value};

use super::chat_prompt::{ChatContext, ChatPrompts, SummaryContext};
use super::client::LlmClient;
use super::free_text::{ask_strict, object};
use super::output::clean_text;
use super::planner::{chat_schema, parse_chat, ChatAnswer};
use super::system_prompt::Prefix;
use super::LlmError;

/// Longest summary kept.
pub const MAX_SUMMARY_CHARS: usize = 2_000;

#[derive(Debug)]
pub struct ChatModel {
    client: LlmClient,
    prompts: ChatPrompts,
}

impl ChatModel {
    pub fn new(client: LlmClient, prompts: ChatPrompts) -> Self {
        Self { client, prompts }
    }

    pub async fn converse(
        &self,
        prefix: &Prefix,
        context: &ChatContext,
    ) -> Result<ChatAnswer, LlmError> {
        let messages = self.prompts.messages(prefix, context)?;
        ask_strict(&self.client, "chat", messages, &chat_schema(), parse_chat).await
    }

    pub async fn summarize(
        &self,
        prefix: &Prefix,
        context: &SummaryContext,
    ) -> Result<String, LlmError> {
        let messages = self.prompts.summary_messages(prefix, context)?;
        ask_strict(
            &self.client,
            "summarize",
            messages,
            &summarize_schema(),
            parse_summary,
        )
        .await
    }
}

pub fn summarize_schema() -> Value {
    json!({
        "title": "summarize",
        "type": "object",
        "properties": { "summary": { "type": "string" } },
        "required": ["summary"],
    })
}

pub fn parse_summary(text: &str) -> Result<String, String> {
    let object = object(text)?;
    match object.get("summary") {
        Some(Value::String(summary)) => {
            let summary = clean_text(summary, MAX_SUMMARY_CHARS);
            if summary.is_empty() {
                Err("summary is empty".into())
            } else {
                Ok(summary)
            }
        }
        Some(_) => Err("summary is not a string".into()),
        None => Err("summary is missing".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_are_read_strictly() {
        assert_eq!(
            parse_summary(r#"{"summary":"They planned the trip.","extra":1}"#),
            Ok("They planned the trip.".to_string())
        );
        assert!(parse_summary(r#"{"summary":""}"#).is_err());
        assert!(parse_summary(r#"{"summary":"<the summary>"}"#).is_err());
        assert!(parse_summary(r#"{"summary":3}"#).is_err());
        assert!(parse_summary("they talked").is_err());
    }
}
