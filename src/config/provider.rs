//! Which kind of model server a client speaks to (`llm.provider`, `escalation.provider`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LlmProvider {
    /// Ollama's native /api/chat.
    Ollama,
    /// Any OpenAI-compatible /v1/chat/completions.
    Openai,
    /// No model: replies the keywords cannot take get an honest "unhandled" answer.
    None,
}
