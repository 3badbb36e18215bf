//! One machine's capacity: the real `donna` binary holding 1,000, 10,000 and 100,000 tasks
//! (1,000,000 when asked, by hand), measured from outside over HTTP next to the same binary on
//! an empty store, both running at once in the same run.
//!
//! Run: `cargo bench --bench capacity` (1k, 10k, 100k; about 5 minutes on 2 cores), or
//! `cargo bench --bench capacity -- 1000000` (any sizes as arguments; 1M takes ~15 minutes and
//! ~2 GB in /tmp; not run in CI).
//!
//! For each size:
//! - **load**: `benches/capacity/data.rs` writes an export (people, their chats, tasks,
//!   automations; the mix is in its header) and `donna import` reads it: the real path, the
//!   one an operator moving a Donna uses (files of at most 100,000 tasks, one after another).
//! - **start**: `donna run` until `/health/ready` answers 200; RSS once the start's background
//!   work (the first nudge and automation ticks) has settled, and its peak at the end.
//! - **a nudge-reply turn**: "done" in a nudge thread (`POST /api/nudges`, then `POST
//!   /api/messages`), one at a time, alternating with the same turn on a second `donna run` on
//!   an empty store: p50 and p99 of each and the ratio loaded / empty (target at 100k: <= 1.5x).
//! - **"what's due today?"**: asked by people with a task due later today, in their own chat
//!   (the rules answer it); p50 and p99 (target at 100k: <= 50 ms), beside the same question
//!   on the empty store.
//! - **the largest list answer**: `GET` of every list route without parameters (`/api/tasks`,
//!   `/api/automations`, `/api/threads`, `/api/proposals`): bytes, time, `X-Total-Count` and
//!   whether a next page is linked (target: no answer over 5 MB).
//!
//! `DONNA_BIN=PATH` measures another build of `donna` (a before/after); `DONNA_CAPACITY_KEEP=DIR`
//! keeps each loaded database there.
//!
//! Times are wall-clock through loopback, client in this process; the machine may be shared:
//! the ratios taken within the run are what counts.

#[path = "capacity/data.rs"]
mod data;
#[path = "capacity/process.rs"]
mod process;

use std::time::{Duration, Instant};

use chrono::{DateTime, SubsecRound, Utc};
use donna::clock::{Clock, SystemClock};
use process::Donna;
use serde_json::json;

const DEFAULT_SIZES: [usize; 3] = [1_000, 10_000, 100_000];
/// Turns measured on each store, after `WARM_UP` unmeasured ones.
const TURNS: usize = 200;
const WARM_UP: usize = 20;
/// "what's due today?" asked this many times on each store.
const QUESTIONS: usize = 60;
/// Chats whose people answer nudges in them.
const CHATS: usize = 50;
const TARGET_TURN_RATIO: f64 = 1.5;
const TARGET_DUE_TODAY_MS: f64 = 50.0;
const TARGET_LIST_BYTES: usize = 5 * 1024 * 1024;
const LIST_ROUTES: [&str; 4] = [
    "/api/tasks",
    "/api/automations",
    "/api/threads",
    "/api/proposals",
];

struct Figures {
    tasks: usize,
    import: Duration,
    start: Duration,
    rss_settled: f64,
    rss_peak: f64,
    /// (loaded, empty) for a nudge answered in its thread, then in the person's own chat.
    turns: Vec<(Latency, Latency)>,
    due_today: Latency,
    empty_due_today: Latency,
    largest_list: (String, usize, Duration),
}

#[derive(Clone, Copy)]
struct Latency {
    p50: Duration,
    p99: Duration,
}

impl Latency {
    fn of(mut samples: Vec<Duration>) -> Self {
        samples.sort_unstable();
        let at = |fraction: f64| {
            samples
                .get(((samples.len() as f64 - 1.0) * fraction).round() as usize)
                .copied()
                .unwrap_or_default()
        };
        Self {
            p50: at(0.5),
            p99: at(0.99),
        }
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.replace('_', "").parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        DEFAULT_SIZES.to_vec()
    } else {
        sizes
    };
    println!("# capacity bench (benches/capacity.rs)");
    println!(
        "load average at start: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let mut all = Vec::new();
    for tasks in sizes {
        all.push(measure(tasks));
    }
    summary(&all);
}

fn measure(tasks: usize) -> Figures {
    println!("\n## {tasks} tasks");
    // Whole seconds: a stored time holds at most microseconds.
    let now = SystemClock.now().trunc_subsecs(0);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let empty_dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let generated = data::generate(dir.path(), tasks, now);
    let config = process::write_config(dir.path(), 0);
    let import = process::import(&config, &generated.files);
    println!(
        "imported {tasks} tasks, {} people, {} automations with `donna import` ({} files) in {:.2} s",
        generated.people,
        generated.automations,
        generated.files.len(),
        import.as_secs_f64()
    );
    for file in &generated.files {
        let _ = std::fs::remove_file(file);
    }
    let mut loaded = Donna::start(dir.path());
    let mut empty = Donna::start(empty_dir.path());
    // The first nudge and automation ticks come one `nudges.interval` (1 minute) after the
    // start: their work (the overdue tasks nudged, every automation's next run searched) is
    // waited out, so the turns are measured in the steady state.
    let settled = loaded.first_tick_over(Duration::from_secs(240));
    empty.settle(Duration::from_secs(30));
    let (rss_settled, _) = loaded.rss_mib();
    println!(
        "start {:.3} s (empty store {:.3} s); settled after {:.1} s; RSS {rss_settled:.0} MiB (empty store {:.0} MiB)",
        loaded.start.as_secs_f64(),
        empty.start.as_secs_f64(),
        settled.as_secs_f64(),
        empty.rss_mib().0
    );

    // The people who answer in their own chats: 50 of the loaded store's, and as many new
    // chats on the empty store.
    let loaded_chats: Vec<(String, String)> = (0..CHATS.min(generated.people))
        .map(|i| (data::person(i), data::chat(i)))
        .collect();
    let empty_chats: Vec<(String, String)> = (0..CHATS)
        .map(|i| {
            let thread = empty.post("/api/threads", &json!({})).json()["thread_id"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            (data::person(i), thread)
        })
        .collect();
    let mut turns = Vec::new();
    for (shape, name) in [
        (Shape::NudgeThread, "in its nudge thread"),
        (Shape::OwnChat, "in the person's own chat"),
    ] {
        let (turn, empty_turn) = nudge_replies(
            (&mut loaded, &loaded_chats),
            (&mut empty, &empty_chats),
            shape,
            now,
        );
        println!(
            "nudge-reply turn {name}: p50 {:.2} ms p99 {:.2} ms; empty store p50 {:.2} ms p99 {:.2} ms; ratio {:.2}x (p50)",
            ms(turn.p50),
            ms(turn.p99),
            ms(empty_turn.p50),
            ms(empty_turn.p99),
            ms(turn.p50) / ms(empty_turn.p50)
        );
        turns.push((turn, empty_turn));
    }
    let due_today = due_today(&mut loaded, &generated.due_today_askers);
    let empty_due_today = due_today_on_empty(&mut empty, now);
    println!(
        "\"what's due today?\" p50 {:.2} ms p99 {:.2} ms ({} askers); empty store p50 {:.2} ms",
        ms(due_today.p50),
        ms(due_today.p99),
        generated.due_today_askers.len(),
        ms(empty_due_today.p50)
    );
    let largest_list = lists(&mut loaded);
    let (_, rss_peak) = loaded.rss_mib();
    println!("RSS peak {rss_peak:.0} MiB");
    let start = loaded.start;
    drop(loaded);
    keep(dir.path(), tasks);
    Figures {
        tasks,
        import,
        start,
        rss_settled,
        rss_peak,
        turns,
        due_today,
        empty_due_today,
        largest_list,
    }
}

/// Where a nudge is answered.
#[derive(Clone, Copy)]
enum Shape {
    /// In the nudge's own thread (`POST /api/nudges` with `channel: local`).
    NudgeThread,
    /// In the chat the task was captured in, by the person who captured it (`POST /api/nudges`
    /// without a channel: the nudge goes there), as the Nudger delivers a captured task's nudge.
    OwnChat,
}

/// A nudge ready to be answered: (thread, who answers). `chats` are (person, their chat).
fn nudged(
    donna: &mut Donna,
    shape: Shape,
    chats: &[(String, String)],
    n: usize,
    now: DateTime<Utc>,
) -> (String, String) {
    match shape {
        Shape::NudgeThread => {
            let tomorrow = (now + chrono::Duration::days(1)).to_rfc3339();
            let body = json!({ "title": format!("Bench reply task {n}"), "deadline": tomorrow });
            let task = donna.post("/api/tasks", &body);
            assert_eq!(task.status, 201, "POST /api/tasks");
            let task_id = task.json()["id"].as_str().unwrap_or_default().to_string();
            let nudge = donna.post(
                "/api/nudges",
                &json!({ "task_id": task_id, "channel": "local" }),
            );
            assert_eq!(nudge.status, 201, "POST /api/nudges");
            let thread = nudge.json()["thread_id"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            (thread, "owner".to_string())
        }
        Shape::OwnChat => {
            let (person, chat) = chats[n % chats.len()].clone();
            let text = format!("remind me to ring contact {n} tomorrow at 9am");
            let body = json!({ "thread_id": chat, "user_id": person, "text": text });
            let captured = donna.post("/api/messages", &body).json();
            assert_eq!(captured["path"], "task_created", "{captured}");
            let task_id = captured["results"][0]["task_id"]
                .as_str()
                .unwrap_or_default();
            let nudge = donna.post("/api/nudges", &json!({ "task_id": task_id }));
            assert_eq!(nudge.status, 200, "POST /api/nudges into the task's chat");
            (chat, person)
        }
    }
}

fn done_turn(donna: &mut Donna, (thread_id, user_id): &(String, String)) -> Duration {
    let body = json!({ "thread_id": thread_id, "user_id": user_id, "text": "done" });
    let started = Instant::now();
    let answer = donna.post("/api/messages", &body);
    let took = started.elapsed();
    let result = answer.json();
    let done = result["results"]
        .as_array()
        .is_some_and(|results| results.len() == 1 && results[0]["ok"] == true);
    if answer.status != 200 || result["path"] != "fast" || !done {
        panic!(
            "a \"done\" did not mark its task done: {} {result}",
            answer.status
        );
    }
    took
}

/// The same "done" turn on both stores, one at a time, alternating which goes first; each
/// nudge is made just before its answer (unmeasured).
fn nudge_replies(
    (loaded, loaded_chats): (&mut Donna, &[(String, String)]),
    (empty, empty_chats): (&mut Donna, &[(String, String)]),
    shape: Shape,
    now: DateTime<Utc>,
) -> (Latency, Latency) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for index in 0..WARM_UP + TURNS {
        let x = nudged(loaded, shape, loaded_chats, index, now);
        let y = nudged(empty, shape, empty_chats, index, now);
        let (took_a, took_b) = if index % 2 == 0 {
            let a = done_turn(loaded, &x);
            (a, done_turn(empty, &y))
        } else {
            let b = done_turn(empty, &y);
            (done_turn(loaded, &x), b)
        };
        if index >= WARM_UP {
            a.push(took_a);
            b.push(took_b);
        }
    }
    (Latency::of(a), Latency::of(b))
}

fn ask_due_today(donna: &mut Donna, thread_id: &str, user_id: &str) -> Duration {
    let body = json!({ "thread_id": thread_id, "user_id": user_id, "text": "what's due today?" });
    let started = Instant::now();
    let answer = donna.post("/api/messages", &body);
    let took = started.elapsed();
    let result = answer.json();
    let reply = result["reply"].as_str().unwrap_or_default();
    if answer.status != 200 || result["path"] != "answer" || !reply.starts_with("Due today") {
        panic!(
            "\"what's due today?\" was not answered: {} {result}",
            answer.status
        );
    }
    took
}

fn due_today(donna: &mut Donna, askers: &[(String, String)]) -> Latency {
    assert!(!askers.is_empty(), "no person has a task due later today");
    let samples = (0..QUESTIONS)
        .map(|n| {
            let (person, chat) = &askers[n % askers.len()];
            ask_due_today(donna, chat, person)
        })
        .collect();
    Latency::of(samples)
}

/// The same question on the empty store: a free chat, three tasks due later today.
fn due_today_on_empty(donna: &mut Donna, now: DateTime<Utc>) -> Latency {
    let end_of_day = (now.date_naive() + chrono::Duration::days(1))
        .and_time(chrono::NaiveTime::MIN)
        .and_utc();
    let later = now + (end_of_day - now) / 2;
    for n in 0..3 {
        let body = json!({ "title": format!("Due today {n}"), "deadline": later.to_rfc3339() });
        assert_eq!(donna.post("/api/tasks", &body).status, 201);
    }
    let thread = donna.post("/api/threads", &json!({})).json()["thread_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    Latency::of(
        (0..QUESTIONS)
            .map(|_| ask_due_today(donna, &thread, "owner"))
            .collect(),
    )
}

/// Every list route without parameters: the largest answer (route, bytes, time).
fn lists(donna: &mut Donna) -> (String, usize, Duration) {
    let mut largest = (String::new(), 0, Duration::ZERO);
    for route in LIST_ROUTES {
        let started = Instant::now();
        let answer = donna.get(route);
        let took = started.elapsed();
        assert_eq!(answer.status, 200, "GET {route}");
        let items = answer.json().as_array().map_or(0, Vec::len);
        println!(
            "GET {route}: {} bytes, {items} items, {:.1} ms, X-Total-Count {}, next page {}",
            answer.body.len(),
            ms(took),
            answer.header("x-total-count").unwrap_or("(none)"),
            if answer.header("link").is_some() {
                "linked"
            } else {
                "(none)"
            }
        );
        if answer.body.len() > largest.1 {
            largest = (route.to_string(), answer.body.len(), took);
        }
    }
    largest
}

/// With `DONNA_CAPACITY_KEEP=DIR`, the loaded database is copied there (`donna-<tasks>.db`
/// and its WAL) for a look at query plans or more runs.
fn keep(dir: &std::path::Path, tasks: usize) {
    let Some(keep) = std::env::var_os("DONNA_CAPACITY_KEEP") else {
        return;
    };
    let keep = std::path::PathBuf::from(keep);
    let _ = std::fs::create_dir_all(&keep);
    for suffix in ["", "-wal"] {
        let from = dir.join("data").join(format!("donna.db{suffix}"));
        let to = keep.join(format!("donna-{tasks}.db{suffix}"));
        if from.exists() {
            std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("{to:?}: {e}"));
        }
    }
    println!("kept the loaded database in {}", keep.display());
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "MISSED"
    }
}

fn ratio((loaded, empty): &(Latency, Latency)) -> f64 {
    ms(loaded.p50) / ms(empty.p50)
}

fn summary(all: &[Figures]) {
    println!("\n## Summary");
    println!(
        "| tasks | import | start | RSS settled / peak | \"done\" in its nudge thread: p50 (p99), empty store, ratio | \"done\" in the person's chat: same | \"what's due today?\" p50 (p99), empty store | largest list answer |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for f in all {
        let turn = |pair: &(Latency, Latency)| {
            format!(
                "{:.2} ({:.2}) ms, {:.2} ({:.2}) ms, **{:.2}x**",
                ms(pair.0.p50),
                ms(pair.0.p99),
                ms(pair.1.p50),
                ms(pair.1.p99),
                ratio(pair)
            )
        };
        println!(
            "| {} | {:.2} s | {:.3} s | {:.0} / {:.0} MiB | {} | {} | {:.2} ({:.2}) ms, {:.2} ms | {} {} bytes in {:.1} ms |",
            f.tasks,
            f.import.as_secs_f64(),
            f.start.as_secs_f64(),
            f.rss_settled,
            f.rss_peak,
            turn(&f.turns[0]),
            turn(&f.turns[1]),
            ms(f.due_today.p50),
            ms(f.due_today.p99),
            ms(f.empty_due_today.p50),
            f.largest_list.0,
            f.largest_list.1,
            ms(f.largest_list.2),
        );
    }
    if let Some(f) = all.iter().find(|f| f.tasks == 100_000) {
        let worst = f.turns.iter().map(ratio).fold(0.0, f64::max);
        println!("\nTargets at 100,000 tasks:");
        println!(
            "- a nudge-reply turn within {TARGET_TURN_RATIO}x the empty store's (the worse of the two): {worst:.2}x: {}",
            verdict(worst <= TARGET_TURN_RATIO)
        );
        println!(
            "- \"what's due today?\" within {TARGET_DUE_TODAY_MS} ms: {:.2} ms: {}",
            ms(f.due_today.p50),
            verdict(ms(f.due_today.p50) <= TARGET_DUE_TODAY_MS)
        );
        println!(
            "- no list answer over 5 MB: {} bytes: {}",
            f.largest_list.1,
            verdict(f.largest_list.1 <= TARGET_LIST_BYTES)
        );
    }
}
