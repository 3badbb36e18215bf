//! Issue 13's two capture benchmarks.
//!
//! Owns: (a) rules-path captures ("remind me to call the bank friday 9am", each to its own free
//! thread opened as `POST /api/threads` opens one) against "done" turns, 1,000 at once each, in
//! interleaved rounds in the same app (`Durability::Full`); (b) the free-text model path's
//! overhead: sequential captures the rules leave to the model ("could you make sure I call the
//! bank on friday": `route`, then `parse_task`) against a fake model on loopback that answers
//! at once, next to the bare round trip of the same two calls (the very request bodies Donna
//! sent, replayed with a reqwest client in the same run).
//! Invariant: every capture is checked to have created its task, every "done" to have marked
//! its task done.

use std::time::{Duration, Instant};

use donna::app::App;
use donna::conversation::Channel;
use donna::store::StoreError;
use donna::turn::intake::Incoming;
use donna::turn::result::{TurnPath, TurnResult};
use futures_util::future::join_all;
use serde_json::{json, Value};

use super::fake_llm::{start_fake_llm, Script};
use super::sequential::{nudge_threads, with_app, Sequential};
use super::{median, rate, TURNS};

/// Each capture names its own case ("... about case bcd ..."), so no capture is a likely
/// duplicate of another (their titles share 4 of 6 words: Jaccard 0.67 < 0.8).
const RULES_CAPTURE: &str = "remind me to call the bank about case {} friday 9am";
const MODEL_CAPTURE: &str = "could you make sure I call the bank on friday";
/// Interleaved rounds of (a): done, capture, done, capture, ...
const CAPTURE_ROUNDS: usize = 3;
/// Sequential model-path captures in (b), after a few unmeasured ones.
const MODEL_TURNS: usize = 300;
const MODEL_WARM_UP: usize = 20;

/// `count` free local threads, as `POST /api/threads` opens them.
async fn free_threads(app: &App, count: usize) -> Vec<String> {
    let now = app.clock.now();
    app.store
        .write(move |conn| {
            (0..count)
                .map(|_| {
                    donna::conversation::threads::open_free(
                        conn,
                        donna::ids::new_id("thr"),
                        None,
                        false,
                        Channel::Local,
                        now,
                    )
                    .map(|thread| thread.id)
                })
                .collect::<Result<Vec<_>, StoreError>>()
        })
        .await
        .unwrap_or_else(|e| panic!("open free threads: {e}"))
}

fn incoming(thread_id: String, text: &str) -> Incoming {
    Incoming::typed(Channel::Local, thread_id, "owner", text)
}

/// Submits `text` to every thread at once; turns/s, with each result checked by `ok`.
async fn burst(
    app: &App,
    threads: Vec<String>,
    text: impl Fn(usize) -> String,
    ok: fn(&TurnResult) -> bool,
) -> f64 {
    let intake = &app.intake;
    let messages: Vec<_> = threads
        .into_iter()
        .enumerate()
        .map(|(index, thread)| incoming(thread, &text(index)))
        .collect();
    let started = Instant::now();
    let outcomes = join_all(messages.into_iter().map(|message| intake.submit(message))).await;
    let elapsed = started.elapsed();
    for (index, outcome) in outcomes.iter().enumerate() {
        match outcome {
            Ok(result) if ok(result) => {}
            other => panic!("{:?} did not do what it says: {other:?}", text(index)),
        }
    }
    rate(outcomes.len(), elapsed)
}

/// A word of letters only for `n` ("b", "c", ..., "bb", ...): no digit a time reader could take.
fn letters(mut n: usize) -> String {
    let mut word = Vec::new();
    loop {
        word.push(b'a' + u8::try_from(n % 26).unwrap_or(0));
        n /= 26;
        if n == 0 {
            break;
        }
    }
    word.reverse();
    format!("x{}", String::from_utf8_lossy(&word))
}

fn created(result: &TurnResult) -> bool {
    result.path == TurnPath::TaskCreated && result.results.iter().all(|r| r.ok)
}

fn marked_done(result: &TurnResult) -> bool {
    result.path == TurnPath::Fast
        && !result.results.is_empty()
        && result.results.iter().all(|r| r.ok)
}

/// (a) Median turns/s of `CAPTURE_ROUNDS` rounds each: ("done", rules capture).
pub fn rules_capture_vs_done() -> (Vec<f64>, Vec<f64>) {
    with_app("llm:\n  provider: none\n", |app| async move {
        let (mut done, mut capture) = (Vec::new(), Vec::new());
        for round in 0..CAPTURE_ROUNDS {
            let nudged = nudge_threads(&app, TURNS, 100 + round).await;
            done.push(burst(&app, nudged, |_| "done".to_string(), marked_done).await);
            let free = free_threads(&app, TURNS).await;
            let case = |index: usize| RULES_CAPTURE.replace("{}", &letters(round * TURNS + index));
            capture.push(burst(&app, free, case, created).await);
        }
        (done, capture)
    })
}

pub fn print_rules_capture(done: &[f64], capture: &[f64]) {
    let (done_median, capture_median) = (median(done), median(capture));
    let cost = done_median / capture_median;
    println!(
        "    \"done\" rounds: {} turns/s; capture rounds: {} turns/s",
        join(done),
        join(capture)
    );
    println!(
        "    median: \"done\" {done_median:.0} turns/s, capture {capture_median:.0} turns/s: a \
         capture costs {cost:.2}x the time of a \"done\" (target <= 1.5x: {})",
        if cost <= 1.5 { "met" } else { "MISSED" }
    );
}

fn join(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.0}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// (b)'s figures: the whole turn, and the same two model calls made directly.
pub struct ModelOverhead {
    pub turn: Sequential,
    pub direct: Sequential,
}

/// Starts the fake model on a thread (and actix System) of its own, so it answers whatever
/// System the bench is blocked in; the returned sender stops it.
fn fake_on_its_own_thread() -> (super::fake_llm::FakeLlm, tokio::sync::oneshot::Sender<()>) {
    let (handed, fake) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        actix_rt::System::new().block_on(async move {
            let fake = start_fake_llm();
            let _ = handed.send(fake.clone());
            // Serve until told to stop (or the bench's end drops the sender).
            let _ = stopped.await;
            fake.stop().await;
        });
    });
    let fake = fake
        .recv()
        .unwrap_or_else(|e| panic!("the fake model did not start: {e}"));
    (fake, stop)
}

pub fn free_model_overhead() -> ModelOverhead {
    let (fake, stop_fake) = fake_on_its_own_thread();
    let route = json!({"intent": "capture", "confidence": 0.9}).to_string();
    for index in 0..MODEL_TURNS + MODEL_WARM_UP {
        // Each its own case, so no capture is a likely duplicate of an earlier one.
        let title = format!("Call the bank about case {}", letters(index));
        let parse = json!({"title": title, "when": "friday", "confidence": 0.9}).to_string();
        fake.push_for("route", Script::Output(route.clone()));
        fake.push_for("parse_task", Script::Output(parse));
    }
    let config = fake.config("ollama", "10s", 4);
    let turn = with_app(&config, |app| async move {
        let threads = free_threads(&app, MODEL_TURNS + MODEL_WARM_UP).await;
        let mut latencies = Vec::with_capacity(MODEL_TURNS);
        let mut started = Instant::now();
        for (index, thread) in threads.into_iter().enumerate() {
            if index == MODEL_WARM_UP {
                started = Instant::now();
            }
            let submitted = Instant::now();
            let result = app.intake.submit(incoming(thread, MODEL_CAPTURE)).await;
            let took = submitted.elapsed();
            match result {
                Ok(result) if created(&result) => {}
                other => panic!("a model-path capture created nothing: {other:?}"),
            }
            if index >= MODEL_WARM_UP {
                latencies.push(took);
            }
        }
        Sequential::from(latencies, started.elapsed())
    });
    // The same two calls, made directly: the bodies Donna sent, replayed in pairs.
    let requests: Vec<(String, Value)> = fake.requests();
    let url = fake.ollama_url();
    let direct = actix_rt::System::new().block_on(async move {
        fake.always(Script::Output(route));
        let client = reqwest::Client::new();
        let pairs: Vec<_> = requests
            .chunks(2)
            .take(MODEL_TURNS + MODEL_WARM_UP)
            .collect();
        let mut latencies = Vec::with_capacity(MODEL_TURNS);
        let mut started = Instant::now();
        for (index, pair) in pairs.iter().enumerate() {
            if index == MODEL_WARM_UP {
                started = Instant::now();
            }
            let sent = Instant::now();
            for (path, body) in pair.iter() {
                let response = client
                    .post(format!("{url}{path}"))
                    .json(body)
                    .send()
                    .await
                    .unwrap_or_else(|e| panic!("direct call: {e}"));
                let _ = response.bytes().await;
            }
            if index >= MODEL_WARM_UP {
                latencies.push(sent.elapsed());
            }
        }
        Sequential::from(latencies, started.elapsed())
    });
    let _ = stop_fake.send(());
    ModelOverhead { turn, direct }
}

pub fn print_model_overhead(figures: &ModelOverhead) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let ModelOverhead { turn, direct } = figures;
    println!(
        "    whole turn (route + parse_task, commit):  p50 {:.3} ms, p99 {:.3} ms",
        ms(turn.p50),
        ms(turn.p99)
    );
    println!(
        "    the same two calls made directly:        p50 {:.3} ms, p99 {:.3} ms",
        ms(direct.p50),
        ms(direct.p99)
    );
    println!(
        "    free-text overhead over model time: p50 +{:.3} ms, p99 +{:.3} ms",
        ms(turn.p50.saturating_sub(direct.p50)),
        ms(turn.p99.saturating_sub(direct.p99))
    );
}
