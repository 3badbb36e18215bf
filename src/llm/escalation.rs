//! The bigger model (seed 002; DESIGN.md "Escalation"): its client (`escalation.*`), the cost
//! estimate of a call before it is made, and the call itself: the chat room's prompt (persona,
//! session, message) with the `chat` schema, strictly parsed with one retry, and the usage the
//! server reported for the ledger.
//!
//! Money is counted in micro-dollars (integers): an estimate is rounded up, so what is reserved
//! is never less than the estimate said. Estimate: the prompt's characters / 4 (rounded up) at
//! the input price, plus `max_output_tokens` at the output price.
//!
//! Invariant: nothing here decides whether a call may be made (the offer, the yes and the
//! budget are the turn's and the ledger's); a call is one request (two with the retry) and its
//! usage, or an error.

use super::chat_prompt::{tokens, ChatContext, ChatPrompts};
use super::client::{LlmClient, Usage};
use super::planner::{chat_schema, parse_chat, ChatAnswer};
use super::prompts::PromptError;
use super::{ChatMessage, LlmError};
use crate::config::{Config, Env, EscalationConfig, LlmConfig};

/// Characters of an invalid first answer echoed back with the retry.
const ECHO_CHARS: usize = 2_000;

#[derive(Debug)]
pub struct Escalation {
    client: LlmClient,
    prompts: ChatPrompts,
    pub settings: EscalationConfig,
}

/// An amount in micro-dollars as USD.
pub fn usd(micros: i64) -> f64 {
    micros as f64 / 1_000_000.0
}

/// An amount in USD as micro-dollars, rounded up.
pub fn micros(usd: f64) -> i64 {
    (usd * 1_000_000.0).ceil() as i64
}

impl Escalation {
    /// The bigger model's client, or None when escalation is off.
    pub fn build(config: &Config, env: &dyn Env) -> Result<Option<Self>, LlmError> {
        let settings = &config.escalation;
        let (Some(base_url), Some(model)) = (&settings.base_url, &settings.model) else {
            return Ok(None);
        };
        let llm = LlmConfig {
            provider: settings.provider,
            base_url: base_url.clone(),
            model: model.clone(),
            api_key_env: settings.api_key_env.clone(),
            ..config.llm.clone()
        };
        let key = settings
            .api_key_env
            .as_deref()
            .and_then(|name| env.var(name));
        let client =
            LlmClient::new(&llm, None, key)?.with_max_output_tokens(settings.max_output_tokens);
        let prompts = ChatPrompts::new().map_err(|e| LlmError::BadResponse(e.to_string()))?;
        Ok(Some(Self {
            client,
            prompts,
            settings: settings.clone(),
        }))
    }

    /// The prompt the bigger model would get for `context`.
    pub fn messages(&self, context: &ChatContext) -> Result<Vec<ChatMessage>, PromptError> {
        // The bigger model is the last resort: it is not told it could ask for a bigger one.
        let context = ChatContext {
            escalation: false,
            ..context.clone()
        };
        self.prompts.messages(&context)
    }

    /// What a call with `messages` may cost at most, in micro-dollars.
    pub fn estimate(&self, messages: &[ChatMessage]) -> i64 {
        let prompt: usize = messages.iter().map(|m| tokens(&m.content)).sum();
        micros(
            (prompt as f64 * self.settings.price_input_usd_per_mtok
                + f64::from(self.settings.max_output_tokens)
                    * self.settings.price_output_usd_per_mtok)
                / 1_000_000.0,
        )
    }

    /// What `usage` costs at the configured prices, in micro-dollars.
    pub fn cost(&self, usage: Usage) -> i64 {
        micros(
            (usage.prompt_tokens as f64 * self.settings.price_input_usd_per_mtok
                + usage.completion_tokens as f64 * self.settings.price_output_usd_per_mtok)
                / 1_000_000.0,
        )
    }

    /// Asks the bigger model; one retry on an answer that does not parse. The usage of both
    /// requests is added up (None when the server reported none for a request that was made).
    pub async fn answer(
        &self,
        mut messages: Vec<ChatMessage>,
    ) -> Result<(ChatAnswer, Option<Usage>), LlmError> {
        let schema = chat_schema();
        let (first, first_usage) = self
            .client
            .complete_with_usage(&messages, Some(&schema))
            .await?;
        let reason = match parse_chat(&first) {
            Ok(answer) => return Ok((answer, first_usage)),
            Err(reason) => reason,
        };
        tracing::info!(%reason, "the bigger model's answer is invalid; asking once more");
        messages.push(ChatMessage::assistant(
            first.chars().take(ECHO_CHARS).collect::<String>(),
        ));
        messages.push(ChatMessage::user(format!(
            "That answer is not valid: {reason}. Answer again with only the JSON object \
             described above, and nothing else."
        )));
        let (second, second_usage) = self
            .client
            .complete_with_usage(&messages, Some(&schema))
            .await?;
        let usage = match (first_usage, second_usage) {
            (Some(a), Some(b)) => Some(Usage {
                prompt_tokens: a.prompt_tokens + b.prompt_tokens,
                completion_tokens: a.completion_tokens + b.completion_tokens,
            }),
            _ => None,
        };
        parse_chat(&second)
            .map(|answer| (answer, usage))
            .map_err(|reason| LlmError::InvalidOutput(super::output::OutputError::Invalid(reason)))
    }
}
