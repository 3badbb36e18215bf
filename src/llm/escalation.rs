//! The bigger model (docs/contract.md "Escalation"): its client (`escalation.*`), the cost
//! estimate of a call before it is made, and the call itself: the chat room's prompt (persona,
//! session, message) with the `chat` schema, strictly parsed with one retry, and the usage the
//! server reported for the ledger.
//!
//! Money is counted in micro-dollars (integers): an estimate is rounded up, so what is reserved
//! is never less than the estimate said. Estimate, an upper bound of the call with its retry:
//! prompt tokens counted as ASCII characters / 4 (rounded up) plus one token for every byte of
//! text that is not ASCII (a tokenizer never spends fewer bytes than tokens on it), at the input
//! price, plus `max_output_tokens` at the output price; then the same again for the retry, whose
//! prompt also holds the first answer (at most `max_output_tokens`) and the retry's request.
//!
//! Invariant: nothing here decides whether a call may be made (the offer, the yes and the
//! budget are the turn's and the ledger's); a call is one request (two with the retry) and its
//! usage, or an error.

use super::chat_prompt::{ChatContext, ChatPrompts};
use super::client::{LlmClient, Usage};
use super::planner::{chat_schema, parse_chat, ChatAnswer};
use super::prompts::PromptError;
use super::system_prompt::{Prefix, SystemFacts, SystemPrompt};
use super::{ChatMessage, LlmError};
use crate::config::{Config, Env, EscalationConfig, LlmConfig};

/// What a call to the bigger model came to when the server answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Called {
    /// A valid answer.
    Answered(ChatAnswer),
    /// The server answered, but not validly (also after the retry), or the retry failed with an
    /// error answer after the first request was billed.
    Invalid(String),
}

/// Tokens a retry's own request adds (the sentence asking again), counted generously.
const RETRY_REQUEST_TOKENS: u64 = 100;

/// Tokens `text` can take at most as the estimate counts them: ASCII characters / 4 (rounded
/// up), and one token for each byte of every other character.
pub fn tokens_upper_bound(text: &str) -> u64 {
    let (ascii, other_bytes) = text.chars().fold((0u64, 0u64), |(ascii, other), c| {
        if c.is_ascii() {
            (ascii + 1, other)
        } else {
            (ascii, other + c.len_utf8() as u64)
        }
    });
    ascii.div_ceil(4) + other_bytes
}

#[derive(Debug)]
pub struct Escalation {
    client: LlmClient,
    system: SystemPrompt,
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
        let prompts = ChatPrompts::new()?;
        Ok(Some(Self {
            client,
            system: SystemPrompt::new()?,
            prompts,
            settings: settings.clone(),
        }))
    }

    /// The prompt the bigger model would get for `context`: the chat room's, with the prefix
    /// of Donna's config in force (`facts`).
    pub fn messages(
        &self,
        facts: &SystemFacts,
        context: &ChatContext,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        // The bigger model is the last resort: it is not told it could ask for a bigger one.
        let facts = SystemFacts {
            escalation: false,
            ..facts.clone()
        };
        // Its server's context is not the local model's: no room to fit to.
        let prefix = Prefix::unbounded(self.system.prefix(&facts)?);
        self.prompts.messages(&prefix, context)
    }

    /// What a call with `messages` may cost at most, its retry included, in micro-dollars.
    pub fn estimate(&self, messages: &[ChatMessage]) -> i64 {
        let prompt: u64 = messages
            .iter()
            .map(|m| tokens_upper_bound(&m.content))
            .sum();
        let output = u64::from(self.settings.max_output_tokens);
        let retry_prompt = prompt + output + RETRY_REQUEST_TOKENS;
        self.cost(Usage {
            prompt_tokens: prompt + retry_prompt,
            completion_tokens: 2 * output,
        })
    }

    /// What `usage` costs at the configured prices, in micro-dollars.
    pub fn cost(&self, usage: Usage) -> i64 {
        micros(
            (usage.prompt_tokens as f64 * self.settings.price_input_usd_per_mtok
                + usage.completion_tokens as f64 * self.settings.price_output_usd_per_mtok)
                / 1_000_000.0,
        )
    }

    /// Asks the bigger model; one retry on an answer that does not parse (reserved with the
    /// first: `estimate`). The usage of the requests made is added up (None when the server
    /// reported none for one of them). An error: no request got an answer that could be billed
    /// and counted (the first failed, or the retry timed out).
    pub async fn answer(
        &self,
        mut messages: Vec<ChatMessage>,
    ) -> Result<(Called, Option<Usage>), LlmError> {
        let schema = chat_schema();
        let (first, first_usage) = self
            .client
            .complete_with_usage(&messages, Some(&schema))
            .await?;
        let reason = match parse_chat(&first) {
            Ok(answer) => return Ok((Called::Answered(answer), first_usage)),
            Err(reason) => reason,
        };
        tracing::info!(%reason, "the bigger model's answer is invalid; asking once more");
        messages.extend(ChatMessage::ask_again(&first, &reason));
        let (second, second_usage) = match self
            .client
            .complete_with_usage(&messages, Some(&schema))
            .await
        {
            Ok(answered) => answered,
            // No answer to the retry: what it cost is unknown (the reservation stays).
            Err(error @ LlmError::Timeout(_)) => return Err(error),
            // An error answer to the retry costs nothing; the first answer was billed.
            Err(error) => {
                tracing::warn!(%error, "the bigger model's retry failed");
                return Ok((Called::Invalid(reason), first_usage));
            }
        };
        let usage = match (first_usage, second_usage) {
            (Some(a), Some(b)) => Some(Usage {
                prompt_tokens: a.prompt_tokens + b.prompt_tokens,
                completion_tokens: a.completion_tokens + b.completion_tokens,
            }),
            _ => None,
        };
        Ok(match parse_chat(&second) {
            Ok(answer) => (Called::Answered(answer), usage),
            Err(reason) => (Called::Invalid(reason), usage),
        })
    }
}
