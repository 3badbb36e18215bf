//! Concurrent "done" turns over HTTP next to trivial requests: what many people answering their
//! nudges at once cost beside what the HTTP server costs with nothing behind it.
//!
//! Owns one mode, `Durability::Full` on a fresh data dir, the app's own actix server on
//! loopback: rounds of `CONCURRENT` requests sent at once (all in flight together, awaited
//! together), alternating `POST /api/messages` "done", each to its own idle nudge thread, and
//! `GET /health/live` (answered without the store or any actor: the trivial request); requests/s
//! of each and the ratio turns / trivial, the median of `ROUNDS` interleaved pairs.
//! Invariant: every turn is checked to have marked its task done and every trivial request to
//! have answered 200; one that did not panics the bench instead of being counted.

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

/// (turns, trivial requests), `CONCURRENT` at once, `ROUNDS` interleaved pairs.
pub fn turns_and_trivial() -> (Concurrent, Concurrent) {
    with_app("http:\n  bind: 127.0.0.1:0\n", |app| async move {
        let (handle, address) = serve(&app);
        let client = reqwest::Client::new();
        let messages = format!("http://{address}/api/messages");
        let live = format!("http://{address}/health/live");
        // One unmeasured pair first: connections, caches and the store warm up.
        let mut turns = Concurrent { rounds: Vec::new() };
        let mut trivial = Concurrent { rounds: Vec::new() };
        for round in 0..=ROUNDS {
            let threads = nudge_threads(&app, CONCURRENT, round + 1).await;
            let took = done_at_once(&client, &messages, threads).await;
            let took_trivial = trivial_at_once(&client, &live).await;
            if round > 0 {
                turns.rounds.push(rate(CONCURRENT, took));
                trivial.rounds.push(rate(CONCURRENT, took_trivial));
            }
        }
        handle.stop(true).await;
        (turns, trivial)
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

async fn trivial_at_once(client: &reqwest::Client, url: &str) -> Duration {
    let started = Instant::now();
    let statuses = join_all((0..CONCURRENT).map(|_| async move {
        let response = client
            .get(url)
            .send()
            .await
            .unwrap_or_else(|e| panic!("GET /health/live: {e}"));
        let status = response.status().as_u16();
        let _ = response.bytes().await;
        status
    }))
    .await;
    let took = started.elapsed();
    if let Some(status) = statuses.iter().find(|status| **status != 200) {
        panic!("GET /health/live answered {status}");
    }
    took
}
