//! Prompt assembly for a chat session at the full context budget (issue 14): how long
//! `llm::chat_prompt::ChatPrompts::messages` takes to build a `chat` prompt from the persona,
//! a pinned task, three summaries and a session longer than `chat.context_budget_tokens`
//! (the default 24,000 tokens), trimming it to the newest messages that fit. p50 and p99 over
//! many runs; no model, no store (the session read is one indexed SQLite query, measured by the
//! turn benches).
//!
//! And (issue 14) **200 chat sessions at once** against a fake model answering every call in
//! 2 s (`llm.max_concurrency: 200` for the run, synchronous=FULL): nudge "done" replies on
//! other threads, one at a time: their p50/p99 of those replies with the chat
//! load next to the same replies with no load, measured in the same run (target: p99 < 5 ms).
//!
//! Run: `cargo bench --bench chat` (release). `DONNA_BENCH_RUNS=N` sets the number of runs;
//! `DONNA_BENCH_ONLY=assembly` or `load` runs one part.

#[path = "../tests/common/fake_llm.rs"]
mod fake_llm;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use donna::app::{App, StartOptions};
use donna::clock::SystemClock;
use donna::config::{parse_yaml, Env, LoadedConfig};
use donna::conversation::Channel;
use donna::store::Durability;
use donna::tasks::{repo, NewTask};
use donna::turn::intake::Incoming;
use fake_llm::{out, start_fake_llm, Script};
use serde_json::json;

use donna::config::Persona;
use donna::llm::budget::tokens;
use donna::llm::chat_prompt::{ChatContext, ChatLine, ChatPrompts};
use donna::llm::prompts::TaskFacts;
use donna::llm::system_prompt::{Prefix, SystemFacts, SystemPrompt};

/// Messages in the session: 600 of ~320 characters (~80 tokens), about twice the budget.
const MESSAGES: usize = 600;
const BUDGET: usize = 24_000;

/// Chat sessions running at once, and the "done" replies measured with no load.
const SESSIONS: usize = 200;
const DONE_REPLIES: usize = 3_000;
/// Under load, replies go on (at least `DONE_REPLIES` of them) until this many chat turns have
/// committed during the measured window: the sessions move in waves (each turn is two 2 s model
/// calls, so every session commits at about the same moment every 4 s), and a window that falls
/// between two waves would measure nothing. At most `LOADED_REPLIES_MAX` replies.
const CHAT_TURNS_MEASURED: usize = 2 * SESSIONS;
const LOADED_REPLIES_MAX: usize = 9_000;
const MODEL_DELAY: Duration = Duration::from_secs(2);

fn only(part: &str) -> bool {
    std::env::var("DONNA_BENCH_ONLY").map_or(true, |only| only.split(',').any(|p| p == part))
}

fn main() {
    if only("assembly") {
        assembly();
    }
    if only("load") {
        sessions_load();
    }
}

fn assembly() {
    let runs: usize = std::env::var("DONNA_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let prompts = ChatPrompts::new().unwrap_or_else(|e| panic!("chat prompts: {e}"));
    let history: Vec<ChatLine> = (0..MESSAGES)
        .map(|n| ChatLine {
            from_person: n % 2 == 0,
            text: format!(
                "message {n}: {}",
                "the weekend plans keep shifting and I am not sure what to do first ".repeat(4)
            ),
        })
        .collect();
    // The one prefix of every call, for a model whose context holds the whole budget.
    let facts = SystemFacts::shipped(Persona::Donna, false).unwrap_or_else(|e| panic!("{e}"));
    let prefix = Prefix::unbounded(
        SystemPrompt::new()
            .and_then(|prompt| prompt.prefix(&facts))
            .unwrap_or_else(|e| panic!("prefix: {e}")),
    );
    let context = ChatContext {
        open_tasks: Vec::new(),
        pinned: Some(TaskFacts {
            title: "Renew passport".into(),
            status: "backlog".into(),
            domain: "personal".into(),
            priority: 2,
            scheduled_start: None,
            deadline: Some("Fri 27 Nov 2026 09:00".into()),
            estimated_duration_minutes: None,
        }),
        summaries: vec!["They talked about moving house and felt tired of packing.".into(); 3],
        history,
        message: "so what do you think I should do first?".into(),
        now: "Mon 23 Nov 2026 10:00".into(),
        timezone: "UTC".into(),
        budget_tokens: BUDGET,
    };
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut kept = 0;
    let mut used = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let messages = prompts
            .messages(&prefix, &context)
            .unwrap_or_else(|e| panic!("assembly: {e}"));
        times.push(started.elapsed());
        kept = messages.len();
        used = messages.iter().map(|m| tokens(&m.content)).sum::<usize>();
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "chat prompt assembly, {MESSAGES} session messages, budget {BUDGET} tokens: \
         {kept} messages kept ({used} estimated tokens); {runs} runs: p50 {:?}, p99 {:?}, max {:?}",
        at(0.50),
        at(0.99),
        at(1.0)
    );
}

struct NoEnv;
impl Env for NoEnv {
    fn var(&self, _: &str) -> Option<String> {
        None
    }
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    let rank = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted.get(rank).copied().unwrap_or_default()
}

/// "done" replies, one at a time, each to its own nudge thread, while `more(replies so far)`
/// says so (and threads are left): sorted latencies.
async fn done_replies(
    app: &App,
    threads: &[String],
    more: impl Fn(usize) -> bool,
) -> Vec<Duration> {
    let mut latencies = Vec::with_capacity(threads.len());
    for thread_id in threads {
        if !more(latencies.len()) {
            break;
        }
        let started = Instant::now();
        let result = app
            .intake
            .submit(Incoming::typed(
                Channel::Local,
                thread_id.clone(),
                "owner",
                "done",
            ))
            .await
            .unwrap_or_else(|e| panic!("done turn: {e}"));
        latencies.push(started.elapsed());
        assert!(
            result.results.iter().all(|r| r.ok) && !result.results.is_empty(),
            "a done turn did not mark its task: {result:?}"
        );
    }
    latencies.sort_unstable();
    latencies
}

/// 200 chat sessions against a model answering in 2 s, and "done" replies beside them.
fn sessions_load() {
    actix_rt::System::new().block_on(async {
        let fake = start_fake_llm();
        // One answer that reads as a `route` (chat) and as a `chat` reply: unknown fields are
        // ignored by both parsers.
        fake.always(Script::Delay(
            MODEL_DELAY,
            Box::new(out(json!({
                "intent": "chat", "confidence": 0.9,
                "reply_to_user": "I hear you.", "actions": []
            }))),
        ));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let yaml = format!(
            "data_dir: {}\ntimezone: UTC\n{}chat:\n  summary_on_close: false\n",
            dir.path().join("data").display(),
            fake.config("ollama", "30s", SESSIONS)
        );
        let loaded = LoadedConfig {
            config: parse_yaml(&yaml).unwrap_or_else(|e| panic!("config: {e}")),
            base_dir: dir.path().to_path_buf(),
        };
        let options = StartOptions {
            clock: Arc::new(SystemClock),
            durability: Durability::Full,
        };
        let app = Arc::new(App::start(&loaded, &NoEnv, options).unwrap_or_else(|e| panic!("start: {e}")));
        let now = app.clock.now();
        let (nudged, chats) = app
            .store
            .write(move |conn| {
                let mut nudged = Vec::new();
                for index in 0..DONE_REPLIES + LOADED_REPLIES_MAX {
                    let task_id = donna::ids::new_id("tsk");
                    repo::insert(conn, &task_id, &NewTask::titled(format!("Task {index}")), now)?;
                    let opened = donna::nudges::open(conn, &task_id, None, Channel::Local, || donna::ids::new_id("thr"), donna::nudges::NudgeTime::new(now, chrono_tz::UTC))
                        .map_err(|e| donna::store::StoreError::Transaction(e.to_string()))?;
                    nudged.push(opened.thread_id);
                }
                let mut chats = Vec::new();
                for _ in 0..SESSIONS {
                    let thread = donna::conversation::threads::open_free(conn, donna::ids::new_id("thr"), None, false, Channel::Local, now)?;
                    chats.push(thread.id);
                }
                Ok((nudged, chats))
            })
            .await
            .unwrap_or_else(|e| panic!("threads: {e}"));
        let (quiet_threads, loaded_threads) = nudged.split_at(DONE_REPLIES);
        // Warm-up, then the baseline: no chat load, the same pace.
        let _ = done_replies(&app, &quiet_threads[..20], |_| true).await;
        let quiet = done_replies(&app, &quiet_threads[20..], |_| true).await;

        // 200 sessions, each sending its next message as soon as the last was answered.
        let stop = Arc::new(AtomicBool::new(false));
        let chat_turns = Arc::new(AtomicUsize::new(0));
        let refused = Arc::new(AtomicUsize::new(0));
        for (session, thread_id) in chats.into_iter().enumerate() {
            let (app, stop, chat_turns, refused) =
                (app.clone(), stop.clone(), chat_turns.clone(), refused.clone());
            actix_rt::spawn(async move {
                let mut n = 0;
                while !stop.load(Ordering::Acquire) {
                    let outcome = app
                        .intake
                        .submit(Incoming::typed(Channel::Local, thread_id.clone(), "owner", format!("session {session}: long day, message {n}")))
                        .await;
                    match outcome {
                        Ok(result) if result.reply.as_deref() == Some("I hear you.") => {
                            chat_turns.fetch_add(1, Ordering::Relaxed)
                        }
                        Ok(result) => {
                            // Not the model's answer: a failure reply (the breaker open, a
                            // timeout). Counted apart, and the first one shown.
                            if refused.fetch_add(1, Ordering::Relaxed) == 0 {
                                println!("  a chat turn not answered by the model: {:?} {:?}", result.path, result.reply);
                            }
                            0
                        }
                        Err(error) => {
                            if refused.fetch_add(1, Ordering::Relaxed) == 0 {
                                println!("  a chat turn refused: {error}");
                            }
                            0
                        }
                    };
                    n += 1;
                }
            });
        }
        // Measure once the first wave of chat turns has been answered: from then on sessions
        // wait on the model and commit their turns all the time.
        let deadline = Instant::now() + Duration::from_secs(60);
        while chat_turns.load(Ordering::Relaxed) < SESSIONS && Instant::now() < deadline {
            actix_rt::time::sleep(Duration::from_millis(50)).await;
        }
        let in_flight = fake.in_flight();
        let before = chat_turns.load(Ordering::Relaxed);
        let started = Instant::now();
        let loaded = done_replies(&app, loaded_threads, |replies| {
            replies < DONE_REPLIES
                || chat_turns.load(Ordering::Relaxed) - before < CHAT_TURNS_MEASURED
        })
        .await;
        let took = started.elapsed();
        let during = chat_turns.load(Ordering::Relaxed) - before;
        let peak = fake.peak();
        stop.store(true, Ordering::Release);
        let (turns, refusals) = (chat_turns.load(Ordering::Relaxed), refused.load(Ordering::Relaxed));
        println!(
            "200 chat sessions against a model answering in {MODEL_DELAY:?} (llm.max_concurrency {SESSIONS}, synchronous=FULL):"
        );
        println!(
            "  model calls in flight when measuring began: {in_flight} (peak {peak}); chat turns answered by the model: {turns} ({during} during the measured {:.1} s), not answered by it: {refusals}",
            took.as_secs_f64()
        );
        let show = |name: &str, latencies: &[Duration]| {
            println!(
                "  nudge \"done\" replies, {name}: {} turns, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
                latencies.len(),
                percentile(latencies, 0.5).as_secs_f64() * 1e3,
                percentile(latencies, 0.99).as_secs_f64() * 1e3,
                percentile(latencies, 1.0).as_secs_f64() * 1e3,
            );
        };
        show("no chat load", &quiet);
        show("beside the 200 sessions", &loaded);
        let p99 = percentile(&loaded, 0.99);
        println!(
            "  under load over {:.1} s: p99 {:.3} ms = {:.2}x the unloaded p99 (issue 14 target p99 < 5 ms: {})",
            took.as_secs_f64(),
            p99.as_secs_f64() * 1e3,
            p99.as_secs_f64() / percentile(&quiet, 0.99).as_secs_f64().max(1e-9),
            if p99 < Duration::from_millis(5) { "met" } else { "MISSED" }
        );
        // The journal's model requests: as stored (texts once each, `journal_texts`) and as
        // they would be stored whole.
        let (whole, stored) = app
            .store
            .read(|conn| {
                let whole: i64 = conn.query_row(
                    "SELECT COALESCE(SUM(LENGTH(t.text)), 0) FROM turn_journal j, json_each(j.request) m \
                     JOIN journal_text t ON t.hash = json_extract(m.value, '$.text') WHERE j.request_refs = 1",
                    [],
                    |row| row.get(0),
                )?;
                let stored: i64 = conn.query_row(
                    "SELECT (SELECT COALESCE(SUM(LENGTH(text)), 0) FROM journal_text) \
                          + (SELECT COALESCE(SUM(LENGTH(request)), 0) FROM turn_journal WHERE request_refs = 1)",
                    [],
                    |row| row.get(0),
                )?;
                Ok((whole, stored))
            })
            .await
            .unwrap_or_else(|e| panic!("journal sizes: {e}"));
        let per_turn = |bytes: i64| bytes as f64 / turns.max(1) as f64 / 1024.0;
        println!(
            "  turn journal, model requests per chat turn: {:.1} KiB stored (texts once each) vs {:.1} KiB whole ({:.1}x less)",
            per_turn(stored),
            per_turn(whole),
            whole as f64 / stored.max(1) as f64
        );
        app.shutdown(Duration::from_secs(5)).await;
    });
}
