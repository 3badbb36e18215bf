//! Planner benchmarks (issue 15).
//!
//! Run: `cargo bench --bench planner --no-run`, then the printed binary with `--bench`
//! (`DONNA_BENCH_MESSAGES=100000` shrinks part (a); the default is 1,000,000).
//!
//! (a) `search_memory` over N generated stored messages: inserted in big transactions through
//!     the real migrations (the FTS5 triggers of 0005 fire for every row), then the real
//!     `conversation::memory_search::search` (the tool's query, best 5 by bm25) timed for 500
//!     one-word queries, next to the same words as a `LIKE '%word%'` scan of the same table
//!     (newest 5 of every match, `NOT INDEXED`: every message looked at, as a search without
//!     a text index must), in the same run;
//!     the database size with the index and without it (`DROP TABLE memory_fts`, `VACUUM`).
//! (b) Planner overhead: a question that takes 3 tool calls (`route`, 3 `plan_step` calls that
//!     each call a tool, which spends the default budget of 3, then `chat`), through the
//!     running app (`Intake::submit`: inbox, the tools on the read pool, prompts, five model
//!     calls, the journal, the commit), with a fake model on loopback answering at once. The model's own time is measured in the same run: one
//!     direct HTTP call to the same fake (p50), times the five calls of a turn; the overhead is
//!     each turn's time minus that.

#[path = "../tests/common/fake_llm.rs"]
mod fake_llm;

use std::sync::Arc;
use std::time::{Duration, Instant};

use donna::app::{App, StartOptions};
use donna::config::{parse_yaml, Env, LoadedConfig};
use donna::conversation::threads::{self, Thread};
use donna::conversation::{memory_search, Channel};
use donna::store::{self, open_connection, Durability};
use donna::turn::intake::Incoming;
use fake_llm::{start_fake_llm, FakeLlm, Script};
use rusqlite::params;
use serde_json::json;

const QUERIES: usize = 500;
const LIKE_QUERIES: usize = 30;
const TURNS: usize = 300;
const WARM_UP: usize = 20;

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

/// A small deterministic generator (no dependency, the same data every run).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// 8,000 made-up words from syllables ("ka", "ren", ...): a message has 6 to 15 of them, so
/// one word appears in about 0.13% of the messages.
fn vocabulary() -> Vec<String> {
    let syllables = [
        "ka", "ren", "to", "mi", "sul", "po", "ve", "dan", "lo", "qui", "ber", "sa", "nu", "gor",
        "fe", "li", "mar", "tes", "zo", "hal",
    ];
    let mut words = Vec::new();
    for a in syllables {
        for b in syllables {
            for c in syllables {
                words.push(format!("{a}{b}{c}"));
                if words.len() == 8_000 {
                    return words;
                }
            }
        }
    }
    words
}

/// A local thread bound to no task.
fn free_thread(id: &str, at: chrono::DateTime<chrono::Utc>) -> Thread {
    Thread {
        id: id.into(),
        task_id: None,
        channel: Channel::Local,
        chat_id: id.into(),
        is_group: false,
        context_type: None,
        open: true,
        created_at: at,
    }
}

fn size(conn: &rusqlite::Connection) -> i64 {
    let pages: i64 = conn
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap_or(0);
    let page: i64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .unwrap_or(0);
    pages * page
}

fn search_memory(messages: usize) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let database = store::prepare(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let conn =
        open_connection(&database, false, Durability::Normal).unwrap_or_else(|e| panic!("{e}"));
    let words = vocabulary();
    let mut random = Lcg(7);
    let epoch = chrono::DateTime::UNIX_EPOCH;
    for i in 0..500 {
        threads::insert(&conn, &free_thread(&format!("thr_{i}"), epoch))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let started = Instant::now();
    for batch in 0..messages.div_ceil(100_000) {
        let tx = conn
            .unchecked_transaction()
            .unwrap_or_else(|e| panic!("{e}"));
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO memory (thread_id, role, kind, author_id, content, created_at) \
                     VALUES (?1, 'user', 'message', 'me', ?2, ?3)",
                )
                .unwrap_or_else(|e| panic!("{e}"));
            for i in batch * 100_000..((batch + 1) * 100_000).min(messages) {
                let length = 6 + random.next() as usize % 10;
                let text: Vec<&str> = (0..length)
                    .map(|_| words[random.next() as usize % words.len()].as_str())
                    .collect();
                let at = format!(
                    "2026-{:02}-{:02}T{:02}:00:00.000000Z",
                    1 + i % 12,
                    1 + i % 28,
                    i % 24
                );
                insert
                    .execute(params![format!("thr_{}", i % 500), text.join(" "), at])
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }
        tx.commit().unwrap_or_else(|e| panic!("{e}"));
    }
    let inserted = started.elapsed();
    let with_index = size(&conn);
    let mut fts = Vec::with_capacity(QUERIES);
    let mut hits = 0;
    for _ in 0..QUERIES {
        let word = &words[random.next() as usize % words.len()];
        let started = Instant::now();
        let found = memory_search::search(&conn, word, 5, None).unwrap_or_else(|e| panic!("{e}"));
        fts.push(started.elapsed());
        hits += found.len();
    }
    let mut like = Vec::with_capacity(LIKE_QUERIES);
    let mut statement = conn
        .prepare(
            // NOT INDEXED: the created_at index would let it walk newest first and stop at
            // the fifth match (a few thousand rows); a search must look at every message.
            "SELECT thread_id, role, content, created_at FROM memory NOT INDEXED \
             WHERE content LIKE ?1 ORDER BY created_at DESC LIMIT 5",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let mut like_hits = 0;
    for _ in 0..LIKE_QUERIES {
        let word = &words[random.next() as usize % words.len()];
        let started = Instant::now();
        let found = statement
            .query_map([format!("%{word}%")], |row| row.get::<_, String>(2))
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
            .unwrap_or_else(|e| panic!("{e}"));
        like.push(started.elapsed());
        like_hits += found.len();
    }
    drop(statement);
    conn.execute_batch("DROP TABLE memory_fts; VACUUM;")
        .unwrap_or_else(|e| panic!("{e}"));
    let without_index = size(&conn);
    fts.sort();
    like.sort();
    let mib = |bytes: i64| bytes as f64 / (1024.0 * 1024.0);
    println!("(a) search_memory over {messages} stored messages (inserted in {:.1} s with the FTS triggers)", inserted.as_secs_f64());
    println!(
        "  FTS5 search_memory    p50 {:9.3} ms   p99 {:9.3} ms   ({QUERIES} one-word queries, {:.1} hits each)",
        ms(percentile(&fts, 0.5)),
        ms(percentile(&fts, 0.99)),
        hits as f64 / QUERIES as f64
    );
    println!(
        "  LIKE '%word%' scan    p50 {:9.3} ms   p99 {:9.3} ms   ({LIKE_QUERIES} queries, {:.1} hits each)",
        ms(percentile(&like, 0.5)),
        ms(percentile(&like, 0.99)),
        like_hits as f64 / LIKE_QUERIES as f64
    );
    println!(
        "  LIKE / FTS at p50: {:.0}x",
        ms(percentile(&like, 0.5)) / ms(percentile(&fts, 0.5)).max(1e-9)
    );
    println!(
        "  database: {:.1} MiB with the index, {:.1} MiB without (after VACUUM): the index adds {:.1} MiB ({:.0}%)",
        mib(with_index),
        mib(without_index),
        mib(with_index - without_index),
        100.0 * (with_index - without_index) as f64 / without_index.max(1) as f64
    );
}

fn script_turn(fake: &FakeLlm) {
    let out = |value: serde_json::Value| Script::Output(value.to_string());
    fake.push_for(
        "route",
        out(json!({"intent": "question", "confidence": 0.9})),
    );
    for step in [
        json!({"action": "call_tool", "tool": "list_tasks", "args": {"status": "open"}}),
        json!({"action": "call_tool", "tool": "get_task", "args": {"task": "dentist"}}),
        json!({"action": "call_tool", "tool": "search_memory", "args": {"query": "passport office"}}),
    ] {
        fake.push_for("plan_step", out(step));
    }
    fake.push_for("chat", out(json!({"reply_to_user": "Friday at 09:00."})));
}

async fn planner_overhead() {
    let fake = start_fake_llm();
    donna::tls::install_crypto_provider();
    let client = reqwest::Client::new();
    let body =
        json!({"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": false});
    let mut direct = Vec::new();
    for i in 0..TURNS + WARM_UP {
        fake.push(Script::Output("{}".into()));
        let started = Instant::now();
        let response = client
            .post(format!("{}/api/chat", fake.ollama_url()))
            .json(&body)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let _ = response.bytes().await;
        if i >= WARM_UP {
            direct.push(started.elapsed());
        }
    }
    direct.sort();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let yaml = format!(
        "data_dir: {}\ntimezone: UTC\n{}",
        dir.path().join("data").display(),
        fake.config("ollama", "10s", 2)
    );
    let loaded = LoadedConfig {
        config: parse_yaml(&yaml).unwrap_or_else(|e| panic!("{e}")),
        base_dir: dir.path().to_path_buf(),
    };
    let app = Arc::new(
        App::start(&loaded, &NoEnv, StartOptions::default()).unwrap_or_else(|e| panic!("{e}")),
    );
    let now = app.clock.now();
    app.store
        .write(move |conn| {
            for (i, title) in ["Dentist appointment", "Passport office", "Pay rent"]
                .iter()
                .enumerate()
            {
                let new = donna::tasks::NewTask::titled(*title);
                donna::tasks::repo::insert(conn, &format!("tsk_{i}"), &new, now)?;
            }
            threads::insert(conn, &free_thread("thr_bench", now))
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut turns = Vec::with_capacity(TURNS);
    for i in 0..TURNS + WARM_UP {
        script_turn(&fake);
        let started = Instant::now();
        let result = app
            .intake
            .submit(
                Incoming::typed(
                    Channel::Local,
                    "thr_bench",
                    "me",
                    "when is the dentist and what did I say about the passport office?",
                )
                .with_message_id(format!("m{i}")),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(result.path.as_str(), "answer", "{result:?}");
        assert_eq!(result.steps.len(), 3, "{result:?}");
        if i >= WARM_UP {
            turns.push(started.elapsed());
        }
    }
    app.shutdown(Duration::from_secs(5)).await;
    turns.sort();
    let model = percentile(&direct, 0.5) * 5;
    println!("(b) planner overhead: a 3-tool question, {TURNS} sequential turns, fake model answering at once");
    println!(
        "  one direct model call   p50 {:7.3} ms   p99 {:7.3} ms  (the model's own time: 5 calls a turn = {:.3} ms)",
        ms(percentile(&direct, 0.5)),
        ms(percentile(&direct, 0.99)),
        ms(model)
    );
    println!(
        "  whole turn              p50 {:7.3} ms   p99 {:7.3} ms",
        ms(percentile(&turns, 0.5)),
        ms(percentile(&turns, 0.99))
    );
    println!(
        "  overhead (turn - model) p50 {:7.3} ms   p99 {:7.3} ms",
        ms(percentile(&turns, 0.5).saturating_sub(model)),
        ms(percentile(&turns, 0.99).saturating_sub(model))
    );
}

fn main() {
    let messages = std::env::var("DONNA_BENCH_MESSAGES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    search_memory(messages);
    actix_rt::System::new().block_on(planner_overhead());
}
