//! Concurrent "done" turns over HTTP next to trivial requests: what many people answering their
//! nudges at once cost beside what the HTTP server costs with nothing behind it.
//!
//! Owns one mode, `Durability::Full` on a fresh data dir, the app's own actix server on
//! loopback: rounds of `CONCURRENT` requests sent at once (all in flight together, awaited
//! together), alternating `POST /api/messages` "done", each to its own idle nudge thread, and
//! `GET /health/live` (answered without the store or any actor: the trivial request), and a
//! trivial durable write through the same server at the same concurrency (`POST /api/threads`
//! `{}`: one row and one durable commit on the store writer, no turn: the like-with-like
//! baseline); requests/s of each and the ratios turns / trivial and turns / durable writes, the
//! median of `ROUNDS` interleaved rounds.
//! Invariant: every turn is checked to have marked its task done, every trivial request to have
//! answered 200 and every write 201; one that did not panics the bench instead of being counted.

use std::time::{Duration, Instant};

use futures_util::future::join_all;

use super::sequential::{marked_done, nudge_threads, post_done, serve, with_app};
use super::{median, rate};

/// Requests sent at once per round.
pub const CONCURRENT: usize = 500;
/// Interleaved pairs of rounds (turns, then trivial requests).
const ROUNDS: usize = 5;

/// The figures of one kind of request over the rounds.
#[derive(Debug, Clone)]
pub struct Concurrent {
    /// Requests/s of each round.
    pub rounds: Vec<f64>,
}

impl Concurrent {
    pub fn median(&self) -> f64 {
        median(&self.rounds)
    }
}

/// The three kinds of request, `CONCURRENT` at once, `ROUNDS` interleaved rounds.
pub struct Rounds {
    pub turns: Concurrent,
    /// `GET /health/live`.
    pub trivial: Concurrent,
    /// `POST /api/threads` `{}`: a trivial durable write.
    pub writes: Concurrent,
}

/// Turns, trivial requests and trivial durable writes, `CONCURRENT` at once, `ROUNDS`
/// interleaved rounds.
pub fn turns_and_baselines() -> Rounds {
    with_app("http:\n  bind: 127.0.0.1:0\n", |app| async move {
        let (handle, address) = serve(&app);
        let client = reqwest::Client::new();
        let messages = format!("http://{address}/api/messages");
        let live = format!("http://{address}/health/live");
        let threads_url = format!("http://{address}/api/threads");
        // One unmeasured pair first: connections, caches and the store warm up.
        let mut turns = Concurrent { rounds: Vec::new() };
        let mut trivial = Concurrent { rounds: Vec::new() };
        let mut writes = Concurrent { rounds: Vec::new() };
        for round in 0..=ROUNDS {
            let threads = nudge_threads(&app, CONCURRENT, round + 1).await;
            let took = done_at_once(&client, &messages, threads).await;
            let took_trivial = at_once(client.get(&live), 200).await;
            let took_writes =
                at_once(client.post(&threads_url).json(&serde_json::json!({})), 201).await;
            if round > 0 {
                turns.rounds.push(rate(CONCURRENT, took));
                trivial.rounds.push(rate(CONCURRENT, took_trivial));
                writes.rounds.push(rate(CONCURRENT, took_writes));
            }
        }
        handle.stop(true).await;
        Rounds {
            turns,
            trivial,
            writes,
        }
    })
}

async fn done_at_once(client: &reqwest::Client, url: &str, threads: Vec<String>) -> Duration {
    let started = Instant::now();
    let answers = join_all(
        threads
            .iter()
            .map(|thread_id| post_done(client, url, thread_id)),
    )
    .await;
    let took = started.elapsed();
    answers.into_iter().for_each(marked_done);
    took
}

/// `CONCURRENT` copies of `request` sent at once; each must answer `expected`.
async fn at_once(request: reqwest::RequestBuilder, expected: u16) -> Duration {
    let started = Instant::now();
    let statuses = join_all((0..CONCURRENT).map(|_| {
        let request = request
            .try_clone()
            .unwrap_or_else(|| panic!("a request with a streamed body"));
        async move {
            let response = request
                .send()
                .await
                .unwrap_or_else(|e| panic!("a baseline request: {e}"));
            let status = response.status().as_u16();
            let _ = response.bytes().await;
            status
        }
    }))
    .await;
    let took = started.elapsed();
    if let Some(status) = statuses.iter().find(|status| **status != expected) {
        panic!("a baseline request answered {status}, not {expected}");
    }
    took
}
