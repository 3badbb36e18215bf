//! Sequential "done" turns: one at a time, what the one person Donna serves feels.
//!
//! Owns two modes, both with `Durability::Full` on a fresh data dir: in-process (the running
//! app's `Intake::submit`, no HTTP) and over HTTP (the app's own actix server on loopback,
//! `POST /api/messages` with reqwest, one request at a time). Each turn goes to its own nudge
//! thread, so every thread is idle when its message arrives (the common case in real use).
//! Invariant: every turn is checked to have marked its task done; a turn that did not panics
//! the bench instead of being counted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use donna::app::{App, StartOptions};
use donna::clock::SystemClock;
use donna::conversation::Channel;
use donna::store::Durability;
use donna::turn::intake::Incoming;
use donna::turn::result::TurnPath;
use serde_json::{json, Value};

use super::{loaded_config_with, open_nudge_threads, percentile, rate, NoEnv};

/// Turns measured per mode, after `WARM_UP` unmeasured ones.
pub const SEQUENTIAL_TURNS: usize = 500;
const WARM_UP: usize = 50;

/// A sequential run's figures.
#[derive(Debug, Clone, Copy)]
pub struct Sequential {
    pub turns_per_sec: f64,
    pub p50: Duration,
    pub p99: Duration,
}

impl Sequential {
    pub fn from(mut latencies: Vec<Duration>, elapsed: Duration) -> Self {
        latencies.sort_unstable();
        Self {
            turns_per_sec: rate(latencies.len(), elapsed),
            p50: percentile(&latencies, 0.50),
            p99: percentile(&latencies, 0.99),
        }
    }
}

/// Starts the app (FULL) with `extra` config lines, runs `body` on it, shuts it down.
pub fn with_app<T, F, Fut>(extra: &str, body: F) -> T
where
    F: FnOnce(Arc<App>) -> Fut,
    Fut: std::future::Future<Output = T>,
{
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let loaded = loaded_config_with(dir.path(), extra);
    let value = actix_rt::System::new().block_on(async move {
        let options = StartOptions {
            clock: Arc::new(SystemClock),
            durability: Durability::Full,
        };
        let app =
            Arc::new(App::start(&loaded, &NoEnv, options).unwrap_or_else(|e| panic!("start: {e}")));
        let value = body(app.clone()).await;
        app.shutdown(Duration::from_secs(5)).await;
        value
    });
    drop(dir);
    value
}

/// `count` fresh nudge threads in the running app.
pub async fn nudge_threads(app: &App, count: usize, round: usize) -> Vec<String> {
    let now = app.clock.now();
    app.store
        .write(move |conn| open_nudge_threads(conn, count, round, now))
        .await
        .unwrap_or_else(|e| panic!("open nudge threads: {e}"))
}

/// One "done" at a time through `Intake::submit`.
pub fn in_process() -> Sequential {
    with_app("", |app| async move {
        let threads = nudge_threads(&app, SEQUENTIAL_TURNS + WARM_UP, 0).await;
        let mut latencies = Vec::with_capacity(SEQUENTIAL_TURNS);
        let mut started = Instant::now();
        for (index, thread_id) in threads.into_iter().enumerate() {
            if index == WARM_UP {
                started = Instant::now();
            }
            let submitted = Instant::now();
            let result = app
                .intake
                .submit(Incoming::typed(Channel::Local, thread_id, "owner", "done"))
                .await
                .unwrap_or_else(|e| panic!("turn failed: {e}"));
            if result.path != TurnPath::Fast || !result.results.iter().all(|r| r.ok) {
                panic!("a \"done\" turn did not mark its task done: {result:?}");
            }
            if index >= WARM_UP {
                latencies.push(submitted.elapsed());
            }
        }
        Sequential::from(latencies, started.elapsed())
    })
}

/// The app's own HTTP server, running on loopback: its handle and its address.
pub fn serve(app: &Arc<App>) -> (actix_web::dev::ServerHandle, std::net::SocketAddr) {
    let (server, address) =
        donna::http::serve(app.clone()).unwrap_or_else(|e| panic!("serve: {e}"));
    let handle = server.handle();
    actix_rt::spawn(server);
    (handle, address)
}

/// "done" to `thread_id` as `POST /api/messages` at `url`: the status and the body.
pub async fn post_done(client: &reqwest::Client, url: &str, thread_id: &str) -> (u16, Vec<u8>) {
    let body = json!({ "thread_id": thread_id, "user_id": "owner", "text": "done" });
    let response = client
        .post(url)
        .json(&body)
        .send()
        .await
        .unwrap_or_else(|e| panic!("POST /api/messages: {e}"));
    let status = response.status().as_u16();
    let bytes = response.bytes().await.unwrap_or_default();
    (status, bytes.to_vec())
}

/// Panics unless the answer to a "done" says the FastPath marked its task done.
pub fn marked_done((status, bytes): (u16, Vec<u8>)) {
    let result: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if status != 200 || result["path"] != "fast" {
        panic!("a \"done\" over HTTP did not mark its task done: {status} {result}");
    }
}

/// One "done" at a time as `POST /api/messages` to the app's own HTTP server.
pub fn over_http() -> Sequential {
    with_app("http:\n  bind: 127.0.0.1:0\n", |app| async move {
        let (handle, address) = serve(&app);
        let client = reqwest::Client::new();
        let url = format!("http://{address}/api/messages");
        let threads = nudge_threads(&app, SEQUENTIAL_TURNS + WARM_UP, 0).await;
        let mut latencies = Vec::with_capacity(SEQUENTIAL_TURNS);
        let mut started = Instant::now();
        for (index, thread_id) in threads.into_iter().enumerate() {
            if index == WARM_UP {
                started = Instant::now();
            }
            let submitted = Instant::now();
            let answer = post_done(&client, &url, &thread_id).await;
            let took = submitted.elapsed();
            marked_done(answer);
            if index >= WARM_UP {
                latencies.push(took);
            }
        }
        let elapsed = started.elapsed();
        handle.stop(true).await;
        Sequential::from(latencies, elapsed)
    })
}
