//! The LLM layer: a client for the two protocols people run locally (Ollama's /api/chat and
//! OpenAI-compatible /v1/chat/completions), the prompts (handlebars templates in prompts/), the
//! output schema generated from the action registry, and strict parsing of the model's answer.
//!
//! Invariants: the model's output is data, never instructions: it is parsed strictly, bounded,
//! and every proposed action is validated by the registry before it can even be proposed.

pub mod chat;
pub mod chat_prompt;
pub mod classify;
pub mod client;
pub mod escalation;
pub mod free_text;
pub mod gate;
pub mod journal;
pub mod output;
pub mod planner;
pub mod probe;
pub mod prompts;
pub mod schema;
pub mod slots;

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
}

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
            LlmError::Disabled => "disabled",
        }
    }
}
