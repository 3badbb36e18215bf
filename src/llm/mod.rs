//! The LLM layer: a client for the two protocols people run locally (Ollama's /api/chat and
//! OpenAI-compatible /v1/chat/completions), the prompts (handlebars templates in prompts/), the
//! output schema generated from the action registry, and strict parsing of the model's answer.
//!
//! Invariants: the model's output is data, never instructions: it is parsed strictly, bounded,
//! and every proposed action is validated by the registry before it can even be proposed.

pub mod budget;
pub mod chat;
pub mod chat_prompt;
pub mod classify;
pub mod client;
pub mod escalation;
pub mod free_text;
pub mod free_text_answers;
pub mod gate;
pub mod journal;
pub mod output;
pub mod planner;
pub mod planner_answers;
pub mod probe;
pub mod prompts;
pub mod reply_actions;
pub mod route_examples;
pub mod schema;
pub mod slots;
pub mod system_prompt;
pub mod task_answer_details;

use serde::{Deserialize, Serialize};

/// One message of a chat request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: "system".into(),
            content: content.into(),
        }
    }

    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: "user".into(),
            content: content.into(),
        }
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: "assistant".into(),
            content: content.into(),
        }
    }

    /// What a call adds before its one retry after an invalid answer: the answer echoed back
    /// (its first [`ECHO_CHARS`] characters) and the ask to answer again with only the JSON
    /// object, saying why the first was not valid.
    pub fn ask_again(invalid: &str, reason: impl std::fmt::Display) -> [Self; 2] {
        [
            Self::assistant(invalid.chars().take(ECHO_CHARS).collect::<String>()),
            Self::user(format!(
                "That answer is not valid: {reason}. Answer again with only the JSON object \
                 described above, and nothing else."
            )),
        ]
    }
}

/// Characters of an invalid first answer echoed back with the retry.
const ECHO_CHARS: usize = 2_000;

/// Why the model gave no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    #[error("the model did not answer within {0:?}")]
    Timeout(std::time::Duration),
    #[error("cannot reach the model server: {0}")]
    Connect(String),
    #[error("the model server answered HTTP {status}: {body}")]
    Http { status: u16, body: String },
    #[error("the model server's answer is not the expected shape: {0}")]
    BadResponse(String),
    #[error("the model server's answer is longer than {0} bytes; stopped reading it")]
    TooLarge(usize),
    #[error("the model's output is invalid: {0}")]
    InvalidOutput(#[from] output::OutputError),
    /// Donna could not build the prompt (a template failed to render): her fault, not the
    /// model server's; told apart in metrics and /health.
    #[error("the prompt for this call could not be built: {0}")]
    Prompt(#[from] prompts::PromptError),
    #[error("no model is configured")]
    Disabled,
}

impl LlmError {
    /// A short label for metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            LlmError::Timeout(_) => "timeout",
            LlmError::Connect(_) => "connect",
            LlmError::Http { .. } => "http",
            LlmError::BadResponse(_) => "bad_response",
            LlmError::TooLarge(_) => "too_large",
            LlmError::InvalidOutput(_) => "invalid_output",
            LlmError::Prompt(_) => "prompt",
            LlmError::Disabled => "disabled",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_that_could_not_be_built_is_not_blamed_on_the_model_server() {
        let error = LlmError::from(prompts::PromptError::Template {
            name: "route".into(),
            reason: "missing field".into(),
        });
        assert_eq!(error.kind(), "prompt");
        let said = error.to_string();
        assert!(said.contains("prompt"), "{said}");
        assert!(!said.contains("server"), "{said}");
    }
}
