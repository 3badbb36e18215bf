//! A fake model server on loopback speaking Ollama's `/api/chat` and OpenAI's
//! `/v1/chat/completions`, answering from a script: JSON, text, HTTP errors, delays. It records
//! every request and the most requests ever in flight at once. A streamed script sends a long
//! body slowly (chunked) and records how much of it went out before the client hung up.
//! It lists its models like the real servers (Ollama `GET /api/tags`, OpenAI `GET /v1/models`):
//! "fake-model" unless a test sets the list; those requests are counted apart, not in
//! `requests`. `GET /props` answers as llama.cpp's server does once a test sets a context
//! (`set_server_context`), and 404 otherwise (llama-cpp-python, most servers).

#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use actix_web::{web, HttpRequest, HttpResponse};
use parking_lot::Mutex;
use serde_json::{json, Value};

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Script {
    /// The model's output text (usually a JSON document).
    Output(String),
    /// An HTTP error status.
    Status(u16),
    /// Wait, then answer.
    Delay(Duration, Box<Script>),
    /// A 200 answer whose body is the start of a well-formed answer followed by model text,
    /// `total` bytes in all, sent `chunk` bytes every `every` (chunked, no Content-Length).
    Stream {
        chunk: usize,
        every: Duration,
        total: usize,
    },
}

/// How a streamed answer ended, as the fake saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamEnd {
    /// Bytes handed to the connection before the stream ended.
    pub sent: usize,
    /// Whether the whole body went out (false: the client hung up first).
    pub complete: bool,
}

impl Script {
    /// A well-formed answer with these actions and reply.
    pub fn answer(actions: Value, reply: &str) -> Script {
        Script::Output(
            json!({"actions": actions, "reply_to_user": reply, "reasoning": "scripted"})
                .to_string(),
        )
    }
}

/// A scripted answer that is this JSON value.
pub fn out(value: Value) -> Script {
    Script::Output(value.to_string())
}

/// The planner's answers: `route` says question, `plan_step` calls a tool or is done.
pub mod planner {
    use super::{out, Script};
    use serde_json::{json, Value};

    pub fn question() -> Script {
        out(json!({"intent": "question", "confidence": 0.9}))
    }

    pub fn call(tool: &str, args: Value) -> Script {
        out(json!({"action": "call_tool", "tool": tool, "args": args}))
    }

    pub fn done() -> Script {
        out(json!({"action": "done"}))
    }
}

/// Whether a message of `role` contains `words`, among (role, content) pairs.
pub fn in_role(messages: &[(String, String)], role: &str, words: &str) -> bool {
    messages
        .iter()
        .any(|(who, content)| who == role && content.contains(words))
}

#[derive(Debug, Default)]
struct State {
    queue: VecDeque<Script>,
    /// Answers for requests whose output schema has this `title` (the call's name), first.
    titled: std::collections::HashMap<String, VecDeque<Script>>,
    /// The answer for calls with this `title` once none pushed for it is left (`when_asked`).
    standing: std::collections::HashMap<String, Script>,
    fallback: Option<Script>,
    requests: Vec<(String, Value)>,
    in_flight: usize,
    peak: usize,
    stream_ends: Vec<StreamEnd>,
    /// The models the list routes name (None: the default, ["fake-model"]).
    models: Option<Vec<String>>,
    list_requests: usize,
    /// The usage every answer reports (prompt, completion tokens); None: none reported.
    usage: Option<(u64, u64)>,
    /// The context `GET /props` reports; None: 404.
    server_context: Option<u64>,
}

#[derive(Clone)]
pub struct FakeLlm {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    server: actix_web::dev::ServerHandle,
}

impl FakeLlm {
    /// Base URL for `llm.provider: ollama`.
    pub fn ollama_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Base URL for `llm.provider: openai` (up to and including /v1).
    pub fn openai_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Config lines pointing Donna at this server.
    pub fn config(&self, provider: &str, timeout: &str, max_concurrency: usize) -> String {
        let url = if provider == "ollama" {
            self.ollama_url()
        } else {
            self.openai_url()
        };
        format!(
            "llm:\n  provider: {provider}\n  base_url: {url}\n  model: fake-model\n  timeout: {timeout}\n  max_concurrency: {max_concurrency}\n"
        )
    }

    /// The planner's next turn: `route` reads a question, the plan calls `tool` with `args`
    /// once and is done (the `chat` answer is the test's to push).
    pub fn plans_one_call(&self, tool: &str, args: Value) {
        self.push_for("route", planner::question());
        self.push_for("plan_step", planner::call(tool, args));
        self.push_for("plan_step", planner::done());
    }

    /// `route` reads every message as task talk, and the next `chat` call answers `reply`
    /// proposing `actions` (a JSON array of the model's actions).
    pub fn proposes(&self, reply: &str, actions: Value) {
        self.when_asked(
            "route",
            out(json!({"intent": "task_action", "confidence": 0.9})),
        );
        self.push_for(
            "chat",
            out(json!({"reply_to_user": reply, "actions": actions})),
        );
    }

    /// Answers the next request with `script` (in order of pushing).
    pub fn push(&self, script: Script) {
        self.state.lock().queue.push_back(script);
    }

    /// Answers the next request whose output schema is titled `title` (`route`, `parse_task`,
    /// `classify`) with `script`, before anything pushed with `push`.
    pub fn push_for(&self, title: &str, script: Script) {
        self.state
            .lock()
            .titled
            .entry(title.to_string())
            .or_default()
            .push_back(script);
    }

    /// Answers every call titled `title` that no `push_for` script is left for with `script`,
    /// for as long as the server runs: for a call a turn may or may not make (`route` is not
    /// asked about a message that plainly asks for a change to a task), where a pushed script
    /// left unused would answer some later turn instead.
    pub fn when_asked(&self, title: &str, script: Script) {
        self.state.lock().standing.insert(title.to_string(), script);
    }

    /// Drops the scripts still queued for calls titled `title`.
    pub fn clear_for(&self, title: &str) {
        self.state.lock().titled.remove(title);
    }

    /// The titles of the output schemas of every request so far, in order.
    pub fn titles(&self) -> Vec<String> {
        self.state
            .lock()
            .requests
            .iter()
            .map(|(_, body)| schema_title(body).unwrap_or_default())
            .collect()
    }

    /// Answers every request not scripted with `push`.
    pub fn always(&self, script: Script) {
        self.state.lock().fallback = Some(script);
    }

    /// (path, JSON body) of every request so far.
    /// The messages of request `index` among the calls titled `title`: (role, content).
    pub fn messages_of(&self, title: &str, index: usize) -> Vec<(String, String)> {
        let titled: Vec<Value> = self
            .requests()
            .into_iter()
            .map(|(_, body)| body)
            .filter(|body| schema_title(body).as_deref() == Some(title))
            .collect();
        titled
            .get(index)
            .and_then(|body| body["messages"].as_array().cloned())
            .unwrap_or_else(|| panic!("no {title:?} request {index} with messages"))
            .iter()
            .map(|message| {
                let field = |key: &str| match message[key].as_str() {
                    Some(text) => text.to_string(),
                    None => panic!("a {title:?} message without {key}: {message}"),
                };
                (field("role"), field("content"))
            })
            .collect()
    }

    /// How many calls titled `title` were made.
    pub fn count(&self, title: &str) -> usize {
        self.titles().iter().filter(|t| t.as_str() == title).count()
    }

    pub fn requests(&self) -> Vec<(String, Value)> {
        self.state.lock().requests.clone()
    }

    pub fn in_flight(&self) -> usize {
        self.state.lock().in_flight
    }

    pub fn peak(&self) -> usize {
        self.state.lock().peak
    }

    /// How every streamed answer that has ended so far ended.
    pub fn stream_ends(&self) -> Vec<StreamEnd> {
        self.state.lock().stream_ends.clone()
    }

    /// The models `/api/tags` and `/v1/models` list from now on.
    /// Every answer from now on reports this usage (OpenAI `usage`, Ollama eval counts).
    pub fn set_usage(&self, prompt_tokens: u64, completion_tokens: u64) {
        self.state.lock().usage = Some((prompt_tokens, completion_tokens));
    }

    /// `GET /props` reports this context from now on, as llama.cpp's server does.
    pub fn set_server_context(&self, n_ctx: u64) {
        self.state.lock().server_context = Some(n_ctx);
    }

    pub fn set_models(&self, models: &[&str]) {
        self.state.lock().models = Some(models.iter().map(|m| m.to_string()).collect());
    }

    /// How many times the model list was asked for.
    pub fn list_requests(&self) -> usize {
        self.state.lock().list_requests
    }

    pub async fn stop(&self) {
        self.server.stop(false).await;
    }
}

async fn chat(
    request: HttpRequest,
    body: web::Bytes,
    state: web::Data<Arc<Mutex<State>>>,
) -> HttpResponse {
    let path = request.path().to_string();
    let parsed: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let script = {
        let mut state = state.lock();
        let title = schema_title(&parsed);
        let titled = title
            .as_ref()
            .and_then(|title| state.titled.get_mut(title))
            .and_then(VecDeque::pop_front)
            .or_else(|| {
                title
                    .as_ref()
                    .and_then(|title| state.standing.get(title).cloned())
            });
        state.requests.push((path.clone(), parsed));
        state.in_flight += 1;
        state.peak = state.peak.max(state.in_flight);
        titled
            .or_else(|| state.queue.pop_front())
            .or_else(|| state.fallback.clone())
            .unwrap_or(Script::Status(500))
    };
    let mut script = script;
    loop {
        match script {
            Script::Delay(delay, next) => {
                actix_rt::time::sleep(delay).await;
                script = *next;
            }
            Script::Status(code) => {
                state.lock().in_flight -= 1;
                let status = actix_web::http::StatusCode::from_u16(code)
                    .unwrap_or(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR);
                return HttpResponse::build(status).body("scripted failure");
            }
            Script::Output(text) => {
                let usage = {
                    let mut state = state.lock();
                    state.in_flight -= 1;
                    state.usage
                };
                let mut body = if path.starts_with("/v1") {
                    json!({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
                } else {
                    json!({"model": "fake-model", "message": {"role": "assistant", "content": text}, "done": true})
                };
                if let Some((prompt, completion)) = usage {
                    if path.starts_with("/v1") {
                        body["usage"] =
                            json!({"prompt_tokens": prompt, "completion_tokens": completion});
                    } else {
                        body["prompt_eval_count"] = json!(prompt);
                        body["eval_count"] = json!(completion);
                    }
                }
                return HttpResponse::Ok().json(body);
            }
            Script::Stream {
                chunk,
                every,
                total,
            } => {
                let prefix = if path.starts_with("/v1") {
                    r#"{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":""#
                } else {
                    r#"{"model":"fake-model","message":{"role":"assistant","content":""#
                };
                let streamer = Streamer {
                    state: state.get_ref().clone(),
                    prefix: Some(web::Bytes::from_static(prefix.as_bytes())),
                    sent: 0,
                    total,
                    chunk: chunk.max(1),
                    every,
                };
                let body = futures_util::stream::unfold(streamer, |mut streamer| async move {
                    let next = streamer.next().await?;
                    Some((Ok::<_, std::convert::Infallible>(next), streamer))
                });
                return HttpResponse::Ok()
                    .content_type("application/json")
                    .streaming(body);
            }
        }
    }
}

/// The `title` of a request's output schema (Ollama `format`, OpenAI `response_format`).
pub fn schema_title(body: &Value) -> Option<String> {
    [
        "/format/title",
        "/response_format/json_schema/schema/title",
        "/response_format/schema/title",
    ]
    .iter()
    .find_map(|pointer| body.pointer(pointer).and_then(Value::as_str))
    .map(str::to_string)
}

/// Ollama's `/api/tags` or OpenAI's `/v1/models`, in the shape each server answers.
async fn list_models(request: HttpRequest, state: web::Data<Arc<Mutex<State>>>) -> HttpResponse {
    let models = {
        let mut state = state.lock();
        state.list_requests += 1;
        state
            .models
            .clone()
            .unwrap_or_else(|| vec!["fake-model".to_string()])
    };
    if request.path().starts_with("/v1") {
        let data: Vec<Value> = models
            .iter()
            .map(|id| json!({"id": id, "object": "model", "owned_by": "fake"}))
            .collect();
        HttpResponse::Ok().json(json!({"object": "list", "data": data}))
    } else {
        let listed: Vec<Value> = models
            .iter()
            .map(|name| json!({"name": name, "model": name, "size": 1}))
            .collect();
        HttpResponse::Ok().json(json!({ "models": listed }))
    }
}

/// llama.cpp's `GET /props`: the context each slot runs with.
async fn props(state: web::Data<Arc<Mutex<State>>>) -> HttpResponse {
    match state.lock().server_context {
        Some(n_ctx) => HttpResponse::Ok().json(json!({
            "default_generation_settings": { "n_ctx": n_ctx, "params": { "n_predict": -1 } },
            "total_slots": 1,
        })),
        None => HttpResponse::NotFound().body("no such route"),
    }
}

/// The body of a `Script::Stream`; dropping it (the body ended, or the client hung up) records
/// how far it got.
struct Streamer {
    state: Arc<Mutex<State>>,
    prefix: Option<web::Bytes>,
    sent: usize,
    total: usize,
    chunk: usize,
    every: Duration,
}

impl Streamer {
    async fn next(&mut self) -> Option<web::Bytes> {
        if let Some(prefix) = self.prefix.take() {
            self.sent += prefix.len();
            return Some(prefix);
        }
        if self.sent >= self.total {
            return None;
        }
        actix_rt::time::sleep(self.every).await;
        let size = self.chunk.min(self.total - self.sent);
        self.sent += size;
        Some(web::Bytes::from(vec![b'a'; size]))
    }
}

impl Drop for Streamer {
    fn drop(&mut self) {
        let mut state = self.state.lock();
        state.in_flight -= 1;
        state.stream_ends.push(StreamEnd {
            sent: self.sent,
            complete: self.sent >= self.total,
        });
    }
}

/// Starts the fake on 127.0.0.1:0.
pub fn start_fake_llm() -> FakeLlm {
    start_fake_llm_on("127.0.0.1:0")
}

/// Starts the fake on `address` (a port a test chose, e.g. to bring a server back).
pub fn start_fake_llm_on(address: &str) -> FakeLlm {
    let state = Arc::new(Mutex::new(State::default()));
    let data = web::Data::new(state.clone());
    let server = actix_web::HttpServer::new(move || {
        actix_web::App::new()
            .app_data(data.clone())
            .app_data(web::PayloadConfig::default().limit(4 * 1024 * 1024))
            .route("/api/chat", web::post().to(chat))
            .route("/v1/chat/completions", web::post().to(chat))
            .route("/api/tags", web::get().to(list_models))
            .route("/v1/models", web::get().to(list_models))
            .route("/props", web::get().to(props))
    })
    .workers(1)
    .disable_signals()
    .bind(address)
    .unwrap_or_else(|e| panic!("fake llm bind: {e}"));
    let addr = server
        .addrs()
        .first()
        .copied()
        .unwrap_or_else(|| panic!("fake llm has no address"));
    let server = server.run();
    let handle = server.handle();
    actix_rt::spawn(server);
    FakeLlm {
        addr,
        state,
        server: handle,
    }
}
