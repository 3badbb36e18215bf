//! LLM-path overhead: what Donna adds around a model call.
//!
//! Run: `cargo bench --bench llm_overhead`.
//!
//! A fake model server on loopback (the one the tests use) answers instantly with a fixed,
//! valid classification. In the same run we measure, sequentially, 500 times each:
//! - **direct**: one HTTP POST of a chat request to that server with reqwest (the floor: what
//!   any client pays for the call itself);
//! - **turn**: a whole model-bound turn through the running app (`Intake::submit`): inbox write,
//!   context read, FastPath, the LLMClassifier actor, prompt rendering, the call, strict
//!   parsing, validation, and the turn's commit (fsync'd, `Durability::Full`), and again with
//!   `Durability::Normal` to show how much of the difference is the disk.
//!
//! Prints p50/p99 for each and the added latency at p50 (target: under 2 ms).

#[path = "../tests/common/fake_llm.rs"]
mod fake_llm;

use std::sync::Arc;
use std::time::{Duration, Instant};

use donna::app::{App, StartOptions};
use donna::config::{parse_yaml, Env, LoadedConfig};
use donna::conversation::Channel;
use donna::store::Durability;
use donna::turn::intake::Incoming;
use fake_llm::{start_fake_llm, Script};
use serde_json::json;

const ROUNDS: usize = 500;

struct NoEnv;
impl Env for NoEnv {
    fn var(&self, _: &str) -> Option<String> {
        None
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

async fn turns(url: &str, durability: Durability) -> Vec<Duration> {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let yaml = format!(
        "data_dir: {}\ntimezone: UTC\nllm:\n  provider: ollama\n  base_url: {url}\n  timeout: 10s\n",
        dir.path().join("data").display()
    );
    let loaded = LoadedConfig {
        config: parse_yaml(&yaml).unwrap_or_else(|e| panic!("{e}")),
        base_dir: dir.path().to_path_buf(),
    };
    let options = StartOptions {
        durability,
        ..StartOptions::default()
    };
    let app = Arc::new(App::start(&loaded, &NoEnv, options).unwrap_or_else(|e| panic!("{e}")));
    let now = app.clock.now();
    let thread = app
        .store
        .write(move |conn| {
            let new = donna::tasks::NewTask::titled("Bench");
            donna::tasks::repo::insert(conn, "tsk_bench", &new, now)?;
            donna::nudges::open(
                conn,
                "tsk_bench",
                None,
                Channel::Local,
                || "thr_bench".into(),
                donna::nudges::NudgeTime::new(now, chrono_tz::UTC),
            )
            .map_err(|e| donna::store::StoreError::Corrupt(e.to_string()))
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .thread_id;
    let mut latencies = Vec::with_capacity(ROUNDS);
    for i in 0..ROUNDS + 20 {
        let started = Instant::now();
        let result = app
            .intake
            .submit(
                Incoming::typed(
                    Channel::Local,
                    thread.clone(),
                    "me",
                    "what do I need for this one?",
                )
                .with_message_id(format!("m{i}")),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(result.path.as_str(), "llm");
        if i >= 20 {
            latencies.push(started.elapsed());
        }
    }
    app.shutdown(Duration::from_secs(5)).await;
    latencies
}

fn main() {
    let system = actix_rt::System::new();
    system.block_on(async {
        let fake = start_fake_llm();
        fake.always(Script::answer(json!([]), "You need your passport."));
        // reqwest brings no TLS provider of its own.
    donna::tls::install_crypto_provider();
    let client = reqwest::Client::new();
        let body = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": false});
        let mut direct = Vec::with_capacity(ROUNDS);
        for i in 0..ROUNDS + 20 {
            let started = Instant::now();
            let response = client
                .post(format!("{}/api/chat", fake.ollama_url()))
                .json(&body)
                .send()
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            let _ = response.bytes().await;
            if i >= 20 {
                direct.push(started.elapsed());
            }
        }
        let mut full = turns(&fake.ollama_url(), Durability::Full).await;
        let mut normal = turns(&fake.ollama_url(), Durability::Normal).await;
        direct.sort();
        full.sort();
        normal.sort();
        println!("LLM-path overhead ({ROUNDS} sequential calls each, instant fake model)");
        for (name, samples) in [("direct HTTP call", &direct), ("turn, synchronous=FULL", &full), ("turn, WAL NORMAL", &normal)] {
            println!(
                "  {name:<24} p50 {:7.3} ms   p99 {:7.3} ms",
                ms(percentile(samples, 0.5)),
                ms(percentile(samples, 0.99))
            );
        }
        let added_full = ms(percentile(&full, 0.5)) - ms(percentile(&direct, 0.5));
        let added_normal = ms(percentile(&normal, 0.5)) - ms(percentile(&direct, 0.5));
        println!("  added at p50: {added_full:.3} ms (FULL), {added_normal:.3} ms (NORMAL); target < 2 ms");
    });
}
