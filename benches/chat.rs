//! Prompt assembly for a chat session at the full context budget (issue 14): how long
//! `llm::chat_prompt::ChatPrompts::messages` takes to build a `chat` prompt from the persona,
//! a pinned task, three summaries and a session longer than `chat.context_budget_tokens`
//! (the default 24,000 tokens), trimming it to the newest messages that fit. p50 and p99 over
//! many runs; no model, no store (the session read is one indexed SQLite query, measured by the
//! turn benches).
//!
//! Run: `cargo bench --bench chat` (release). `DONNA_BENCH_RUNS=N` sets the number of runs.

use std::time::{Duration, Instant};

use donna::config::Persona;
use donna::llm::chat_prompt::{tokens, ChatContext, ChatLine, ChatPrompts};
use donna::llm::prompts::TaskFacts;

/// Messages in the session: 600 of ~320 characters (~80 tokens), about twice the budget.
const MESSAGES: usize = 600;
const BUDGET: usize = 24_000;

fn main() {
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
    let context = ChatContext {
        persona: Persona::Donna,
        actions: Vec::new(),
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
            .messages(&context)
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
