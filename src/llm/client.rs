//! The HTTP client for model servers: Ollama's native `/api/chat` and the OpenAI-compatible
//! `/v1/chat/completions`, each given the output JSON schema in the shape it understands.
//!
//! With `llm.system_role: user` the system prompt travels inside the first user message,
//! between `<instructions>` markers ([`fold_system_prompt`]). Ollama is told the context to run
//! with (`options.num_ctx` = `llm.context_tokens`; its own default is smaller); an
//! OpenAI-compatible server is asked for the one it runs with ([`LlmClient::server_context`]).
//!
//! Invariants: one call is bounded by `llm.timeout` as a whole (connect, send, read); an answer
//! is read as a stream and never beyond `MAX_ANSWER_BYTES`: a longer one (or one that announces
//! a longer Content-Length) is dropped at that point, the connection closed, and the call fails
//! with `LlmError::TooLarge`. The model list (`list_models`, for `probe`) is read the same way.
//! A failure is one short line: the root cause, not reqwest's whole chain.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::journal;
use super::output::MAX_OUTPUT_BYTES;
use super::{ChatMessage, LlmError};
use crate::config::{LlmConfig, LlmProvider, ResponseFormat, SystemRole};

/// Longest error body kept for the log.
const ERROR_BODY_CHARS: usize = 300;
/// Most bytes of a model server's answer read (the whole HTTP body, envelope included).
pub const MAX_ANSWER_BYTES: usize = MAX_OUTPUT_BYTES;
/// Most bytes of an error answer read (only its start is kept, for the log).
const MAX_ERROR_BODY_BYTES: usize = 4 * 1024;
/// Most tokens a model may generate for one answer: enough for the JSON of a few actions and a
/// short reply, and a bound on how long a small model can ramble (they do repeat themselves).
pub const MAX_OUTPUT_TOKENS: u32 = 512;

#[derive(Debug, Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    provider: LlmProvider,
    /// `llm.base_url` without a trailing slash (the model list is asked for under it).
    base: String,
    endpoint: String,
    model: String,
    api_key: Option<String>,
    temperature: f32,
    timeout: Duration,
    response_format: ResponseFormat,
    keep_alive: String,
    system_role: SystemRole,
    /// The most an answer may hold, in tokens (sent as `max_tokens` / `num_predict`).
    max_output_tokens: u32,
    /// `llm.context_tokens` (sent to Ollama as `num_ctx`).
    context_tokens: usize,
}

/// The tokens a server says a call used (OpenAI `usage`, Ollama `prompt_eval_count` and
/// `eval_count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl LlmClient {
    /// Builds a client for `config` (the model may be overridden, e.g. for the reply gate).
    pub fn new(
        config: &LlmConfig,
        model: Option<&str>,
        api_key: Option<String>,
    ) -> Result<Self, LlmError> {
        let timeout = config.timeout.get();
        // reqwest brings no provider of its own (one for the whole process: see tls.rs).
        crate::tls::install_crypto_provider();
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| LlmError::Connect(e.to_string()))?;
        let base = config.base_url.trim_end_matches('/');
        let endpoint = match config.provider {
            LlmProvider::Ollama => format!("{base}/api/chat"),
            LlmProvider::Openai => format!("{base}/chat/completions"),
            LlmProvider::None => String::new(),
        };
        Ok(Self {
            http,
            provider: config.provider,
            base: base.to_string(),
            endpoint,
            model: model.unwrap_or(&config.model).to_string(),
            api_key,
            temperature: config.temperature,
            timeout,
            response_format: config.response_format,
            keep_alive: config.keep_alive.clone(),
            system_role: config.system_role,
            max_output_tokens: MAX_OUTPUT_TOKENS,
            context_tokens: config.context_tokens,
        })
    }

    /// The same client with another bound on the answer's length (escalation's
    /// `max_output_tokens`).
    pub fn with_max_output_tokens(self, max_output_tokens: u32) -> Self {
        Self {
            max_output_tokens,
            ..self
        }
    }

    /// The same server, key and connection pool, asking another model (the reply gate's).
    pub fn for_model(&self, model: &str) -> Self {
        Self {
            model: model.to_string(),
            ..self.clone()
        }
    }

    pub fn is_enabled(&self) -> bool {
        self.provider != LlmProvider::None
    }

    pub fn provider(&self) -> LlmProvider {
        self.provider
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// Where the server lists its models: Ollama's `/api/tags`, OpenAI's `/models` under the
    /// base (which already ends in `/v1`).
    pub fn models_url(&self) -> String {
        match self.provider {
            LlmProvider::Ollama => format!("{}/api/tags", self.base),
            LlmProvider::Openai | LlmProvider::None => format!("{}/models", self.base),
        }
    }

    /// GETs the server's model list within `timeout`, read up to `MAX_ANSWER_BYTES`, as JSON.
    pub async fn list_models(&self, timeout: Duration) -> Result<Value, LlmError> {
        let (status, body) = self.get(&self.models_url(), timeout).await?;
        if !status.is_success() {
            return Err(LlmError::Http {
                status: status.as_u16(),
                body: String::new(),
            });
        }
        let Body::Whole(body) = body else {
            return Err(LlmError::TooLarge(MAX_ANSWER_BYTES));
        };
        serde_json::from_slice(&body).map_err(|e| LlmError::BadResponse(format!("not JSON: {e}")))
    }

    /// The context an OpenAI-compatible server says it runs with: llama.cpp's `GET /props`
    /// (`default_generation_settings.n_ctx`, per slot; or a top-level `n_ctx`), at the server's
    /// root (the base without `/v1`). `Ok(None)` when it says none (llama-cpp-python and most
    /// others answer 404); an error when it did not answer at all (busy, away).
    pub async fn server_context(&self, timeout: Duration) -> Result<Option<usize>, LlmError> {
        let root = self.base.strip_suffix("/v1").unwrap_or(&self.base);
        let (status, body) = self.get(&format!("{root}/props"), timeout).await?;
        let (true, Body::Whole(body)) = (status.is_success(), body) else {
            return Ok(None);
        };
        let props: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        Ok(["/default_generation_settings/n_ctx", "/n_ctx"]
            .iter()
            .find_map(|pointer| props.pointer(pointer).and_then(Value::as_u64))
            .and_then(|n| usize::try_from(n).ok())
            .filter(|n| *n > 0))
    }

    /// GETs `url` within `timeout` (with the key, if any), its body read up to
    /// `MAX_ANSWER_BYTES`; an error only when nothing answered.
    async fn get(&self, url: &str, timeout: Duration) -> Result<(StatusCode, Body), LlmError> {
        let mut request = self.http.get(url).timeout(timeout);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = request
            .send()
            .await
            .map_err(|error| transport_error(&error, timeout))?;
        let status = response.status();
        let body = read_bounded(response, MAX_ANSWER_BYTES)
            .await
            .map_err(|error| transport_error(&error, timeout))?;
        Ok((status, body))
    }

    /// The request body for `messages`, constrained to `schema` when one is given.
    pub fn body(&self, messages: &[ChatMessage], schema: Option<&Value>) -> Value {
        let folded;
        let messages = match self.system_role {
            SystemRole::System => messages,
            SystemRole::User => {
                folded = fold_system_prompt(messages);
                &folded[..]
            }
        };
        match self.provider {
            LlmProvider::Ollama => {
                let mut body = json!({
                    "model": self.model,
                    "messages": messages,
                    "stream": false,
                    "options": {
                        "temperature": self.temperature,
                        "num_predict": self.max_output_tokens,
                        "num_ctx": self.context_tokens,
                    },
                    "keep_alive": self.keep_alive,
                });
                if let Some(schema) = schema {
                    body["format"] = schema.clone();
                }
                body
            }
            LlmProvider::Openai | LlmProvider::None => {
                let mut body = json!({
                    "model": self.model,
                    "messages": messages,
                    "temperature": self.temperature,
                    "max_tokens": self.max_output_tokens,
                    "stream": false,
                });
                if let Some(schema) = schema {
                    body["response_format"] = match self.response_format {
                        ResponseFormat::JsonSchema => json!({
                            "type": "json_schema",
                            "json_schema": { "name": "donna_reply", "schema": schema },
                        }),
                        ResponseFormat::JsonObject => {
                            json!({ "type": "json_object", "schema": schema })
                        }
                    };
                }
                body
            }
        }
    }

    /// Sends one chat request and returns the model's text. Inside a turn the request and its
    /// outcome go into the turn's journal; a turn being replayed is answered from its
    /// recording and sends nothing (`journal`).
    pub async fn complete(
        &self,
        messages: &[ChatMessage],
        schema: Option<&Value>,
    ) -> Result<String, LlmError> {
        let Some(journal) = journal::current() else {
            return self.send(messages, schema).await;
        };
        let title = journal::call_title(schema);
        let outcome = match journal.replayed_answer(&title) {
            Some(recorded) => recorded,
            None => self.send(messages, schema).await,
        };
        journal.record_model(&title, messages, &outcome);
        outcome
    }

    /// `complete`, and the usage the server reported (None when it reported none, or when a
    /// replayed turn answered from its recording).
    pub async fn complete_with_usage(
        &self,
        messages: &[ChatMessage],
        schema: Option<&Value>,
    ) -> Result<(String, Option<Usage>), LlmError> {
        let Some(journal) = journal::current() else {
            return self.send_with_usage(messages, schema).await;
        };
        let title = journal::call_title(schema);
        let outcome = match journal.replayed_answer(&title) {
            Some(recorded) => recorded.map(|text| (text, None)),
            None => self.send_with_usage(messages, schema).await,
        };
        let text = outcome
            .as_ref()
            .map(|(text, _)| text.clone())
            .map_err(Clone::clone);
        journal.record_model(&title, messages, &text);
        outcome
    }

    async fn send(
        &self,
        messages: &[ChatMessage],
        schema: Option<&Value>,
    ) -> Result<String, LlmError> {
        self.send_with_usage(messages, schema)
            .await
            .map(|(text, _)| text)
    }

    async fn send_with_usage(
        &self,
        messages: &[ChatMessage],
        schema: Option<&Value>,
    ) -> Result<(String, Option<Usage>), LlmError> {
        if !self.is_enabled() {
            return Err(LlmError::Disabled);
        }
        let mut request = self
            .http
            .post(&self.endpoint)
            .json(&self.body(messages, schema));
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = request
            .send()
            .await
            .map_err(|error| self.transport_error(&error))?;
        let status = response.status();
        if !status.is_success() {
            let body = match read_bounded(response, MAX_ERROR_BODY_BYTES).await {
                Ok(Body::Whole(bytes) | Body::Cut(bytes)) => bytes,
                Err(_) => Vec::new(),
            };
            return Err(LlmError::Http {
                status: status.as_u16(),
                body: String::from_utf8_lossy(&body)
                    .chars()
                    .take(ERROR_BODY_CHARS)
                    .collect(),
            });
        }
        // A longer answer announced up front is refused before a byte of it is read.
        if response
            .content_length()
            .is_some_and(|length| length > MAX_ANSWER_BYTES as u64)
        {
            return Err(LlmError::TooLarge(MAX_ANSWER_BYTES));
        }
        let body = match read_bounded(response, MAX_ANSWER_BYTES)
            .await
            .map_err(|error| self.transport_error(&error))?
        {
            Body::Whole(bytes) => bytes,
            Body::Cut(_) => return Err(LlmError::TooLarge(MAX_ANSWER_BYTES)),
        };
        let value: Value = serde_json::from_slice(&body)
            .map_err(|e| LlmError::BadResponse(format!("not JSON: {e}")))?;
        let (content, prompt, completion) = match self.provider {
            LlmProvider::Ollama => (
                value.pointer("/message/content"),
                value.pointer("/prompt_eval_count"),
                value.pointer("/eval_count"),
            ),
            _ => (
                value.pointer("/choices/0/message/content"),
                value.pointer("/usage/prompt_tokens"),
                value.pointer("/usage/completion_tokens"),
            ),
        };
        let usage = match (
            prompt.and_then(Value::as_u64),
            completion.and_then(Value::as_u64),
        ) {
            (Some(prompt_tokens), Some(completion_tokens)) => Some(Usage {
                prompt_tokens,
                completion_tokens,
            }),
            _ => None,
        };
        content
            .and_then(Value::as_str)
            .map(|text| (text.to_string(), usage))
            .ok_or_else(|| LlmError::BadResponse("no message content in the answer".into()))
    }

    fn transport_error(&self, error: &reqwest::Error) -> LlmError {
        transport_error(error, self.timeout)
    }
}

/// A failed request as one short line. A connection that could not be made (refused, no route,
/// a connect timeout) is `Connect`: the server is not there. A timeout after connecting is
/// `Timeout`: the server is there but slow. Only the root cause is kept ("Connection refused
/// (os error 111)"): reqwest's whole chain repeats itself and says the URL twice.
fn transport_error(error: &reqwest::Error, timeout: Duration) -> LlmError {
    if error.is_timeout() && !error.is_connect() {
        return LlmError::Timeout(timeout);
    }
    let mut root: &dyn std::error::Error = error;
    while let Some(cause) = root.source() {
        root = cause;
    }
    let cause = root.to_string();
    let message = if error.is_timeout() {
        format!("timed out connecting ({cause})")
    } else {
        cause
    };
    LlmError::Connect(message)
}

/// Moves the system messages into the first user message, between markers that say what they
/// are, for models that have no system role. The person's words stay after the markers, so the
/// rules come first, as they would in a system message.
pub fn fold_system_prompt(messages: &[ChatMessage]) -> Vec<ChatMessage> {
    let system: Vec<&str> = messages
        .iter()
        .filter(|message| message.role == "system")
        .map(|message| message.content.as_str())
        .collect();
    let mut rest: Vec<ChatMessage> = messages
        .iter()
        .filter(|message| message.role != "system")
        .cloned()
        .collect();
    if system.is_empty() {
        return rest;
    }
    let instructions = format!(
        "<instructions>\n{}\n</instructions>\n\n",
        system.join("\n\n")
    );
    match rest.iter_mut().find(|message| message.role == "user") {
        Some(first_user) => first_user.content.insert_str(0, &instructions),
        None => rest.insert(0, ChatMessage::user(instructions.trim_end())),
    }
    rest
}

/// A body read up to a bound.
enum Body {
    /// All of it.
    Whole(Vec<u8>),
    /// The first `limit` bytes at most: there was more, and it was not read.
    Cut(Vec<u8>),
}

/// Reads `response`'s body chunk by chunk and stops as soon as it would exceed `limit` bytes.
/// Dropping the response then closes the connection, so the server cannot push more into this
/// process.
async fn read_bounded(
    mut response: reqwest::Response,
    limit: usize,
) -> Result<Body, reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > limit {
            let room = limit - body.len();
            body.extend_from_slice(&chunk[..room]);
            return Ok(Body::Cut(body));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Body::Whole(body))
}
