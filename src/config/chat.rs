//! The chat engine's keys (docs/contract.md "Chat engine"): the persona, the sliding session
//! TTL, the prompt's token budget and whether a closing session is summarised.
//!
//! Invariant: an unknown persona is a key-path error (`chat.persona: unknown variant ...`),
//! never a silent default.

use serde::{Deserialize, Serialize};

use super::duration::ConfigDuration;

/// Which system template the chat room speaks with (prompts/chat_<persona>.hbs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Persona {
    /// Donna's own voice: warm, brief, a little dry.
    Donna,
    /// A plain assistant voice, no character.
    Neutral,
}

impl Persona {
    pub fn as_str(self) -> &'static str {
        match self {
            Persona::Donna => "donna",
            Persona::Neutral => "neutral",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChatConfig {
    pub persona: Persona,
    /// A message later than this after the session's last chat turn opens a new session.
    pub session_ttl: ConfigDuration,
    /// The most a chat prompt may hold, in tokens estimated as characters / 4.
    pub context_budget_tokens: usize,
    /// Whether a closing session gets a `summarize` call (needs a model).
    pub summary_on_close: bool,
}

impl Default for ChatConfig {
    fn default() -> Self {
        Self {
            persona: Persona::Donna,
            session_ttl: ConfigDuration::secs(120 * 60),
            context_budget_tokens: 24_000,
            summary_on_close: true,
        }
    }
}
