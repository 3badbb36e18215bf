//! The fake Discord's REST API (`/api/v10/...`, plain HTTP for twilight's client through
//! `.proxy(addr, true)`): the server, the recording of every request, the faults a test queues
//! (5xx, 429 with Discord's rate-limit headers, 401, an outage that drops connections), the
//! routing to `channels.rs` and `interactions.rs`, and what a test observes and switches
//! (`FakeDiscord`'s REST methods). Anything not routed answers 404 `{"message","code"}`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderName, HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::TcpListener;

use super::channels::{create_message, list_messages, patch_thread, start_thread};
use super::interactions;
use super::json::{current_user_json, id_field, thread_json, unix_micros};
use super::state::{Fault, Inner, Shared};
use super::{FakeDiscord, RecordedRequest};

impl FakeDiscord {
    // ---- REST: observations ----------------------------------------------------------------

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// Requests with this method whose path (without `/api/v10`) starts with `path_prefix`.
    pub fn requests_to(&self, method: &str, path_prefix: &str) -> Vec<RecordedRequest> {
        self.shared
            .lock()
            .requests
            .iter()
            .filter(|r| {
                r.method == method
                    && r.path
                        .strip_prefix("/api/v10")
                        .is_some_and(|p| p.starts_with(path_prefix))
            })
            .cloned()
            .collect()
    }

    /// `(channel_id, content)` of every message the bot created successfully, in order.
    pub fn sent_messages(&self) -> Vec<(u64, String)> {
        self.shared.lock().sent.clone()
    }

    /// Every message the fake knows in a channel (dispatched, inserted or sent), oldest first;
    /// not the answers to interactions (`FakeDiscord::message` finds those).
    pub fn channel_messages(&self, channel_id: u64) -> Vec<Value> {
        self.shared
            .lock()
            .messages
            .iter()
            .filter(|m| id_field(m, "channel_id") == Some(channel_id))
            .filter(|m| m.get("interaction_response").is_none())
            .cloned()
            .collect()
    }

    /// The thread channel JSON, if the fake knows it.
    pub fn thread(&self, thread_id: u64) -> Option<Value> {
        self.shared.lock().threads.get(&thread_id).cloned()
    }

    // ---- REST: controls --------------------------------------------------------------------

    /// Answers the next `n` requests with `status` and a Discord error body.
    pub fn fail_next(&self, n: usize, status: u16) {
        let mut inner = self.shared.lock();
        inner.faults.extend((0..n).map(|_| Fault::Status(status)));
    }

    /// Answers the next request with a per-route 429 (`x-ratelimit-scope: user`,
    /// `x-ratelimit-remaining: 0`, `x-ratelimit-reset-after`, `retry-after`, bucket).
    pub fn rate_limit_next(&self, retry_after: Duration) {
        self.shared.lock().faults.push_back(Fault::RateLimited {
            retry_after,
            global: false,
        });
    }

    /// Answers the next request with a global 429 (`x-ratelimit-global: true`,
    /// `x-ratelimit-scope: global`, `retry-after`).
    pub fn rate_limit_global_next(&self, retry_after: Duration) {
        self.shared.lock().faults.push_back(Fault::RateLimited {
            retry_after,
            global: true,
        });
    }

    /// While down, REST connections are dropped without an answer (new ones right after
    /// accept, kept-alive ones on their next request): the client sees a transport error. For a
    /// "soft" outage answer with 503s via [`FakeDiscord::fail_next`] instead.
    pub fn set_down(&self, down: bool) {
        self.shared.lock().rest_down = down;
    }

    /// While on, every request is answered 401 (a revoked token).
    pub fn set_unauthorized(&self, unauthorized: bool) {
        self.shared.lock().unauthorized = unauthorized;
    }

    /// Registers a thread (e.g. an archived one created before the test) so PATCH / GET on it
    /// work.
    pub fn add_thread(&self, thread_id: u64, parent_id: u64, guild_id: u64, archived: bool) {
        let mut inner = self.shared.lock();
        let thread = thread_json(
            thread_id,
            parent_id,
            Some(guild_id),
            "thread",
            1440,
            archived,
        );
        inner.channel_guilds.insert(thread_id, guild_id);
        inner.channel_guilds.insert(parent_id, guild_id);
        inner.threads.insert(thread_id, thread);
    }
}

pub(super) async fn accept_rest(shared: Arc<Shared>, listener: TcpListener) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // E.g. out of file descriptors: back off rather than spin the test's runtime.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        if shared.lock().rest_down {
            drop(stream);
            continue;
        }
        let conn_shared = Arc::clone(&shared);
        let task = tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                handle_rest(Arc::clone(&conn_shared), request)
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
        let mut inner = shared.lock();
        inner.tasks.retain(|t| !t.is_finished());
        inner.tasks.push(task.abort_handle());
    }
}

/// A fully decided answer.
pub(super) struct Answer {
    pub(super) status: u16,
    pub(super) headers: Vec<(&'static str, String)>,
    pub(super) body: Value,
}

impl Answer {
    pub(super) fn json(status: u16, body: Value) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body,
        }
    }

    /// Discord's error body shape, which twilight parses into `ApiError::General`.
    pub(super) fn error(status: u16, code: u64, message: &str) -> Self {
        Self::json(status, json!({"message": message, "code": code}))
    }
}

async fn handle_rest(
    shared: Arc<Shared>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, std::io::Error> {
    let at = Instant::now();
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let query = request.uri().query().map(str::to_owned);
    let authorization = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes = request
        .into_body()
        .collect()
        .await
        .map(|collected| collected.to_bytes())
        .unwrap_or_default();
    let body = serde_json::from_slice::<Value>(&bytes).ok();

    let mut inner = shared.lock();
    let mut record = RecordedRequest {
        method: method.clone(),
        path: path.clone(),
        query: query.clone(),
        body: body.clone(),
        authorization,
        status: None,
        at,
    };
    if inner.rest_down {
        inner.requests.push(record);
        // An error from the service makes hyper drop the connection without an answer.
        return Err(std::io::Error::other("fake discord is down"));
    }
    let answer = if inner.unauthorized {
        Answer::error(401, 0, "401: Unauthorized")
    } else if let Some(fault) = inner.faults.pop_front() {
        fault_answer(fault)
    } else {
        route(
            &shared,
            &mut inner,
            &method,
            &path,
            query.as_deref(),
            body.as_ref(),
        )
    };
    record.status = Some(answer.status);
    inner.requests.push(record);
    drop(inner);

    // 204 No Content has no body at all.
    let bytes = if answer.status == 204 {
        Bytes::new()
    } else {
        Bytes::from(answer.body.to_string())
    };
    let mut response = Response::new(Full::new(bytes));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    for (name, value) in answer.headers {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), value);
        }
    }
    Ok(response)
}

fn fault_answer(fault: Fault) -> Answer {
    match fault {
        Fault::Status(status) => {
            let reason = StatusCode::from_u16(status)
                .ok()
                .and_then(|s| s.canonical_reason())
                .unwrap_or("Error");
            Answer::error(status, 0, &format!("{status}: {reason}"))
        }
        Fault::RateLimited {
            retry_after,
            global,
        } => {
            let secs = retry_after.as_secs_f64();
            let reset_at = unix_micros() as f64 / 1e6 + secs;
            let mut headers = vec![
                ("retry-after", retry_after.as_secs_f64().ceil().to_string()),
                ("x-ratelimit-limit", "5".to_owned()),
                ("x-ratelimit-remaining", "0".to_owned()),
                ("x-ratelimit-reset", format!("{reset_at:.3}")),
                ("x-ratelimit-reset-after", format!("{secs:.3}")),
                ("x-ratelimit-bucket", "fake0bucket0hash".to_owned()),
            ];
            if global {
                headers.push(("x-ratelimit-global", "true".to_owned()));
                headers.push(("x-ratelimit-scope", "global".to_owned()));
            } else {
                headers.push(("x-ratelimit-scope", "user".to_owned()));
            }
            Answer {
                status: 429,
                headers,
                body: json!({
                    "message": "You are being rate limited.",
                    "retry_after": secs,
                    "global": global,
                    "code": 0,
                }),
            }
        }
    }
}

fn route(
    shared: &Shared,
    inner: &mut Inner,
    method: &str,
    path: &str,
    query: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    let Some(rest) = path.strip_prefix("/api/v10/") else {
        return Answer::error(404, 0, "404: Not Found");
    };
    let segments: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let id = |s: &str| s.parse::<u64>().ok();
    if let Some(answer) = interactions::route(inner, method, &segments, body) {
        return answer;
    }
    match (method, segments.as_slice()) {
        ("POST", ["channels", channel, "messages"]) => match id(channel) {
            Some(channel_id) => create_message(shared, inner, channel_id, body),
            None => Answer::error(404, 10003, "Unknown Channel"),
        },
        ("GET", ["channels", channel, "messages"]) => match id(channel) {
            Some(channel_id) => list_messages(inner, channel_id, query),
            None => Answer::error(404, 10003, "Unknown Channel"),
        },
        ("POST", ["channels", channel, "messages", message, "threads"]) => {
            match (id(channel), id(message)) {
                (Some(channel_id), Some(message_id)) => {
                    start_thread(shared, inner, channel_id, message_id, body)
                }
                _ => Answer::error(404, 10008, "Unknown Message"),
            }
        }
        ("PATCH", ["channels", channel]) => {
            match id(channel).and_then(|c| inner.threads.get_mut(&c)) {
                Some(thread) => {
                    patch_thread(thread, body);
                    Answer::json(200, thread.clone())
                }
                None => Answer::error(404, 10003, "Unknown Channel"),
            }
        }
        ("GET", ["channels", channel]) => match id(channel).and_then(|c| inner.threads.get(&c)) {
            Some(thread) => Answer::json(200, thread.clone()),
            None => Answer::error(404, 10003, "Unknown Channel"),
        },
        ("GET", ["users", "@me"]) => Answer::json(200, current_user_json()),
        ("GET", ["gateway"]) => Answer::json(200, json!({"url": shared.gateway_url})),
        ("GET", ["gateway", "bot"]) => Answer::json(
            200,
            json!({
                "url": shared.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14_400_000,
                    "max_concurrency": 1,
                },
            }),
        ),
        _ => Answer::error(404, 0, "404: Not Found"),
    }
}
