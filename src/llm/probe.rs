//! Is the model there? The model server's list of models (Ollama `GET /api/tags`, OpenAI
//! `GET /v1/models`) asked at startup and every `llm.probe_interval`, and the answer kept in a
//! shared [`ModelStatus`] that /health, the startup summary and the turns read.
//!
//! Owns: the model's state (disabled, unknown, ready, missing, unreachable), when it was last
//! checked and the last error (one line); and the context the model runs with
//! (`budget::ContextWindow`: `llm.context_tokens`, or the smaller figure an OpenAI-compatible
//! server reports at `GET /props`, as llama.cpp's does; asked at each probe). Takes reports from the prober ([`watch`]) and from
//! real model calls (`call_succeeded`, `call_failed`).
//! Invariants: a state change is logged once, as it happens (back to ready at INFO, away from
//! it at WARN), never every probe; a probe that times out changes nothing (a server that
//! answers one request at a time is busy, not away); reading the status is one short lock, no I/O; a turn skips
//! the model only when it is known not to answer (`skips_calls`), never on a guess.

use std::sync::{Arc, Weak};
use std::time::Duration;

use chrono::{DateTime, Utc};
use parking_lot::Mutex;
use serde_json::Value;

use super::budget::ContextWindow;
use super::client::LlmClient;
use super::LlmError;
use crate::clock::SharedClock;
use crate::config::LlmProvider;

/// Longest a probe waits (less when `llm.timeout` is shorter): a model list is instant.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// What Donna knows about the configured model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelState {
    /// `llm.provider: none`.
    Disabled,
    /// Not probed yet.
    Unknown,
    /// The server answers and has the model.
    Ready,
    /// The server answers but does not have the model.
    Missing,
    /// No answer: refused, timed out, or an HTTP error.
    Unreachable,
}

impl ModelState {
    pub fn as_str(self) -> &'static str {
        match self {
            ModelState::Disabled => "disabled",
            ModelState::Unknown => "unknown",
            ModelState::Ready => "ready",
            ModelState::Missing => "missing",
            ModelState::Unreachable => "unreachable",
        }
    }

    /// Whether /health reports the process as degraded (it serves, the model does not).
    pub fn is_degraded(self) -> bool {
        matches!(self, ModelState::Missing | ModelState::Unreachable)
    }
}

/// One reading of the status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelReading {
    pub state: ModelState,
    pub checked_at: Option<DateTime<Utc>>,
    pub error: Option<String>,
}

#[derive(Debug)]
struct Inner {
    reading: ModelReading,
    /// The last failure came from the network (nothing answered), not from an HTTP answer.
    transport: bool,
    /// A real chat call for this model succeeded since the last failure: a list that does not
    /// name the model (servers that serve one model under any name) does not make it missing.
    answered: bool,
}

/// The model's status, shared by the prober, the LLMClassifier, the turns and /health.
#[derive(Debug)]
pub struct ModelStatus {
    provider: LlmProvider,
    model: String,
    base_url: String,
    clock: SharedClock,
    inner: Mutex<Inner>,
    window: Arc<ContextWindow>,
}

impl ModelStatus {
    pub fn new(
        provider: LlmProvider,
        model: &str,
        base_url: &str,
        context_tokens: usize,
        clock: SharedClock,
    ) -> Self {
        let state = if provider == LlmProvider::None {
            ModelState::Disabled
        } else {
            ModelState::Unknown
        };
        Self {
            provider,
            model: model.to_string(),
            base_url: base_url.trim_end_matches('/').to_string(),
            clock,
            inner: Mutex::new(Inner {
                reading: ModelReading {
                    state,
                    checked_at: None,
                    error: None,
                },
                transport: false,
                answered: false,
            }),
            window: Arc::new(ContextWindow::new(context_tokens)),
        }
    }

    /// The context the model runs with.
    pub fn window(&self) -> Arc<ContextWindow> {
        self.window.clone()
    }

    /// Records the context the server says it runs with (None: it says none); a change is
    /// logged once.
    fn record_context(&self, reported: Option<usize>) {
        if !self.window.report(reported) {
            return;
        }
        let window = &self.window;
        tracing::info!(
            context_tokens = window.tokens(),
            configured = window.configured(),
            source = window.source().as_str(),
            prompt_tokens = window.prompt_tokens(),
            "model {} {}: prompts now fit a {}-token context",
            self.provider(),
            self.model,
            window.tokens()
        );
    }

    pub fn provider(&self) -> &'static str {
        match self.provider {
            LlmProvider::Ollama => "ollama",
            LlmProvider::Openai => "openai",
            LlmProvider::None => "none",
        }
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn reading(&self) -> ModelReading {
        self.inner.lock().reading.clone()
    }

    pub fn state(&self) -> ModelState {
        self.inner.lock().reading.state
    }

    /// Whether a turn should not even call the model: nothing answers at the address, or
    /// Ollama (whose list is authoritative) does not have the model. An OpenAI-compatible
    /// server that lists other names may still serve ours, and an HTTP error on the list says
    /// nothing about chat: those are still called.
    pub fn skips_calls(&self) -> bool {
        let inner = self.inner.lock();
        match inner.reading.state {
            ModelState::Unreachable => inner.transport,
            ModelState::Missing => self.provider == LlmProvider::Ollama,
            _ => false,
        }
    }

    /// Whether nothing answers at the server's address (whichever model is asked: the reply
    /// gate may use another model on the same server).
    pub fn server_away(&self) -> bool {
        let inner = self.inner.lock();
        inner.reading.state == ModelState::Unreachable && inner.transport
    }

    /// A real model call answered.
    pub fn call_succeeded(&self) {
        self.inner.lock().answered = true;
        self.set(ModelState::Ready, None, false);
    }

    /// A real model call failed: a connection that could not be made means unreachable, an
    /// HTTP 404 means the server does not have the model; other failures (a timeout after
    /// connecting, garbage) say nothing about reachability. Returns whether the state changed
    /// (and the change was logged), so the caller need not log the failure again.
    pub fn call_failed(&self, error: &LlmError) -> bool {
        let (state, cause, transport) = match error {
            LlmError::Connect(cause) => (ModelState::Unreachable, cause.clone(), true),
            LlmError::Http { status: 404, .. } => (
                ModelState::Missing,
                format!("the server answered 404 for model {}", self.model),
                false,
            ),
            _ => return false,
        };
        self.inner.lock().answered = false;
        self.set(state, Some(cause), transport)
    }

    /// Records a probe's outcome.
    fn record_probe(&self, outcome: Result<Value, LlmError>) {
        match outcome {
            Ok(list) => {
                let names = model_names(&list);
                if names.iter().any(|name| self.matches(name)) || self.inner.lock().answered {
                    self.set(ModelState::Ready, None, false);
                } else {
                    let listed = if names.is_empty() {
                        "no models".to_string()
                    } else {
                        names.join(", ")
                    };
                    let error = format!("the server has {listed}");
                    self.set(
                        ModelState::Missing,
                        Some(error.chars().take(200).collect()),
                        false,
                    );
                }
            }
            // The server took the connection and did not answer in time: one that answers a
            // request at a time (llama-cpp-python) is busy with a call, and a long prompt keeps
            // it busy for a while. That says nothing about whether it is there: no change.
            Err(LlmError::Timeout(_)) => {}
            Err(error) => {
                let transport = matches!(error, LlmError::Connect(_));
                if !transport && self.inner.lock().answered {
                    // The list is not served, but chat is: the model works.
                    self.set(ModelState::Ready, None, false);
                    return;
                }
                if transport {
                    self.inner.lock().answered = false;
                }
                let error = match error {
                    LlmError::Http { status, .. } => {
                        format!("HTTP {status} from the model list")
                    }
                    LlmError::Connect(cause) => cause,
                    other => other.to_string(),
                };
                self.set(ModelState::Unreachable, Some(error), transport);
            }
        }
    }

    /// A listed name is the configured model; Ollama's ":latest" is implied by a bare name.
    fn matches(&self, listed: &str) -> bool {
        if listed == self.model {
            return true;
        }
        self.provider == LlmProvider::Ollama
            && !self.model.contains(':')
            && listed == format!("{}:latest", self.model)
    }

    /// Records a state; returns whether it changed (the change is logged here, once).
    fn set(&self, state: ModelState, error: Option<String>, transport: bool) -> bool {
        let now = self.clock.now();
        let previous = {
            let mut inner = self.inner.lock();
            let previous = inner.reading.state;
            inner.reading = ModelReading {
                state,
                checked_at: Some(now),
                error,
            };
            inner.transport = transport;
            previous
        };
        if previous != state {
            self.log_change(previous);
        }
        previous != state
    }

    /// One line for a change of state (the first probe's answer included).
    fn log_change(&self, previous: ModelState) {
        let reading = self.reading();
        let what = format!(
            "model {} {} at {}",
            self.provider(),
            self.model,
            self.base_url
        );
        let error = reading.error.as_deref().unwrap_or("");
        match reading.state {
            ModelState::Ready => tracing::info!("{what}: ready"),
            ModelState::Unreachable => tracing::warn!(
                "{what}: unreachable ({error}) - replies the keywords cannot take will say so; {}",
                self.remedy()
            ),
            ModelState::Missing => tracing::warn!(
                "{what}: the server is up but does not have the model ({error}) - replies the \
                 keywords cannot take will say so; {}",
                self.remedy()
            ),
            ModelState::Disabled | ModelState::Unknown => {
                tracing::info!(
                    from = previous.as_str(),
                    "{what}: {}",
                    reading.state.as_str()
                )
            }
        }
    }

    /// What the person can do about it.
    fn remedy(&self) -> String {
        match self.provider {
            LlmProvider::Ollama => format!(
                "start Ollama with: ollama pull {model} && ollama serve, or set llm.provider: none",
                model = self.model
            ),
            _ => format!(
                "start the server at {} serving {}, or set llm.provider: none",
                self.base_url, self.model
            ),
        }
    }
}

/// The model names in a list answer: Ollama's `models[].name` (and `.model`), OpenAI's
/// `data[].id`.
fn model_names(list: &Value) -> Vec<String> {
    let ollama = list
        .get("models")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|entry| [entry.get("name"), entry.get("model")]);
    let openai = list
        .get("data")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|entry| entry.get("id"));
    let mut names: Vec<String> = ollama
        .chain(openai)
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    names.dedup();
    names
}

/// Asks the server once and records the answer: its models, and the context it runs with
/// where it says (an OpenAI-compatible server's `GET /props`).
pub async fn probe(client: &LlmClient, status: &ModelStatus, timeout: Duration) {
    let outcome = client.list_models(timeout.min(PROBE_TIMEOUT)).await;
    let answered = outcome.is_ok();
    status.record_probe(outcome);
    if answered && client.provider() == LlmProvider::Openai {
        // A server that did not answer keeps the figure it gave last.
        if let Ok(reported) = client.server_context(timeout.min(PROBE_TIMEOUT)).await {
            status.record_context(reported);
        }
    }
}

/// Probes now and then every `interval`, until the status is dropped (the app is gone).
pub async fn watch(
    client: LlmClient,
    status: Weak<ModelStatus>,
    timeout: Duration,
    interval: Duration,
) {
    loop {
        let Some(current) = status.upgrade() else {
            return;
        };
        probe(&client, &current, timeout).await;
        drop(current);
        tokio::time::sleep(interval).await;
    }
}

/// The status when no model is configured (`llm.provider: none`): disabled, never probed.
pub fn disabled(context_tokens: usize, clock: SharedClock) -> Arc<ModelStatus> {
    Arc::new(ModelStatus::new(
        LlmProvider::None,
        "",
        "",
        context_tokens,
        clock,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn status(provider: LlmProvider, model: &str) -> ModelStatus {
        ModelStatus::new(
            provider,
            model,
            "http://127.0.0.1:1",
            4096,
            Arc::new(crate::clock::SystemClock),
        )
    }

    #[test]
    fn a_bare_ollama_name_matches_its_latest_tag_and_nothing_else() {
        let status = status(LlmProvider::Ollama, "llama3");
        status.record_probe(Ok(json!({"models": [{"name": "llama3:8b"}]})));
        assert_eq!(status.state(), ModelState::Missing);
        status.record_probe(Ok(json!({"models": [{"name": "llama3:latest"}]})));
        assert_eq!(status.state(), ModelState::Ready);
    }

    #[test]
    fn an_openai_server_that_answered_a_chat_call_is_ready_whatever_its_list_says() {
        let status = status(LlmProvider::Openai, "gemma-3-270m");
        status.record_probe(Ok(json!({"data": [{"id": "/models/gemma.gguf"}]})));
        assert_eq!(status.state(), ModelState::Missing);
        assert!(!status.skips_calls(), "an OpenAI list is not authoritative");
        status.call_succeeded();
        status.record_probe(Ok(json!({"data": [{"id": "/models/gemma.gguf"}]})));
        assert_eq!(status.state(), ModelState::Ready);
    }

    #[test]
    fn a_probe_the_busy_server_does_not_answer_in_time_changes_nothing() {
        let status = status(LlmProvider::Openai, "gemma-3-270m");
        status.call_succeeded();
        status.record_probe(Err(LlmError::Timeout(Duration::from_secs(5))));
        assert_eq!(status.state(), ModelState::Ready);
        assert!(!status.skips_calls());
    }

    #[test]
    fn a_refused_connection_skips_calls_and_a_timeout_after_connecting_does_not() {
        let status = status(LlmProvider::Ollama, "m");
        status.call_failed(&LlmError::Timeout(Duration::from_secs(1)));
        assert_eq!(status.state(), ModelState::Unknown);
        status.call_failed(&LlmError::Connect("Connection refused".into()));
        assert_eq!(status.state(), ModelState::Unreachable);
        assert!(status.skips_calls());
        assert_eq!(
            status.reading().error.as_deref(),
            Some("Connection refused")
        );
    }
}
