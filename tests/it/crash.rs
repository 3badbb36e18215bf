//! `donna run` killed with SIGKILL at random points, 20 times, under a scripted load whose
//! clients retry with the same message ids: no message lost, none applied twice, none out of
//! order, and plans proposed before the crashes are still confirmable afterwards. And the
//! one-write path (messages without ids to idle threads, whose inbox row is written with the
//! turn): killed under load, every answered message is there once, and any message is there
//! with all its effects or not at all.

use crate::common;
use crate::common::{Fields, Needed};

use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::process::{
    donna, free_port, http, sigterm, spawn_run, wait_healthy, write_yaml, Running,
};
use common::wait_for;
use rand::Rng;
use serde_json::{json, Value};

const CLIENTS: usize = 12;
const KILLS: usize = 20;
const PLANS: usize = 4;

const INTENTS: &str = r#"
fast_path:
  max_length: 60
  max_clauses: 2
  multi_intent_signals: ["but", "and also", "however", "although"]
  negators: ["not", "no", "never", "don't", "didn't", "haven't"]
  negation_window: 3
  confirm_keywords: ["yes", "go ahead"]
  reject_keywords: ["no", "cancel"]
  undo_keywords: ["undo"]
intents:
  mark_done: { keywords: ["done", "yes"], action: mark_done }
  busy: { keywords: ["busy"], action: snooze }
  drop: { keywords: ["drop it"], action: cancel_task }
"#;

/// Retries until the server answers 2xx (same request, so the same message id).
fn until_ok(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    let answer = wait_for(Duration::from_secs(120), || {
        match http(port, method, path, body) {
            Some((status, value)) if (200..300).contains(&status) => Some(value),
            Some((status, value)) if (400..500).contains(&status) && status != 429 => {
                panic!("{method} {path}: {status} {value}")
            }
            _ => None,
        }
    });
    answer.unwrap_or_else(|| panic!("{method} {path}: no answer for two minutes"))
}

/// `donna run` on `config`, killed and restarted many times: warnings only, and its log
/// discarded (nobody reads it, and a full pipe would stall it).
fn start(config: &Path, port: u16) -> Running {
    let mut quiet = donna();
    quiet.env("RUST_LOG", "warn");
    let mut running = spawn_run(quiet, config, port, &[], Stdio::null());
    wait_healthy(&mut running);
    running
}

/// Task `i` created and nudged over HTTP (retried until Donna answers): (task id, thread id).
fn nudged_task(port: u16, i: usize) -> (String, String) {
    let task = until_ok(
        port,
        "POST",
        "/api/tasks",
        Some(&json!({"title": format!("Task {i}")})),
    );
    let task_id = task["id"].text().to_string();
    let nudge = until_ok(
        port,
        "POST",
        "/api/nudges",
        Some(&json!({"task_id": task_id})),
    );
    let thread_id = nudge["thread_id"].text().to_string();
    (task_id, thread_id)
}

#[test]
fn sigkill_at_random_points_loses_nothing_and_applies_nothing_twice() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let port = free_port();
    std::fs::write(dir.path().join("intents.yaml"), INTENTS).unwrap_or_else(|e| panic!("{e}"));
    let config = write_yaml(
        dir.path(),
        &format!("data_dir: data\nintents_file: intents.yaml\nllm:\n  provider: none\nhttp:\n  bind: 127.0.0.1:{port}\nshutdown:\n  grace: 2s\n"),
    );
    let mut running = start(&config, port);

    let mut threads = Vec::new();
    for i in 0..CLIENTS + PLANS {
        threads.push(nudged_task(port, i));
    }
    let (client_threads, plan_threads) = threads.split_at(CLIENTS);
    for (i, (_, thread)) in plan_threads.iter().enumerate() {
        let body = json!({"thread_id": thread, "user_id": "owner", "text": "drop it", "message_id": format!("plan-{i}")});
        let proposed = until_ok(port, "POST", "/api/messages", Some(&body));
        assert!(proposed["pending_plan_id"].is_string(), "{proposed}");
    }

    // Clients keep sending (each message retried with its id until answered) for as long as the
    // kills go on, so every kill lands under load.
    let kills_done = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = client_threads
        .iter()
        .map(|(_, thread)| {
            let (thread, kills_done) = (thread.clone(), kills_done.clone());
            std::thread::spawn(move || {
                let mut sent = 0usize;
                while !kills_done.load(Ordering::Acquire) {
                    let body = json!({"thread_id": thread, "user_id": "owner", "text": format!("busy {sent:03}"), "message_id": format!("{thread}-{sent:03}")});
                    until_ok(port, "POST", "/api/messages", Some(&body));
                    sent += 1;
                }
                sent
            })
        })
        .collect();

    let mut rng = rand::thread_rng();
    for _ in 0..KILLS {
        std::thread::sleep(Duration::from_millis(rng.gen_range(60..400)));
        running.kill();
        running = start(&config, port);
    }
    kills_done.store(true, Ordering::Release);
    let sent: Vec<usize> = clients
        .into_iter()
        .map(|client| {
            client
                .join()
                .unwrap_or_else(|_| panic!("a client panicked"))
        })
        .collect();
    let total: usize = sent.iter().sum();
    eprintln!("{total} messages across {KILLS} kills");
    assert!(total >= CLIENTS * KILLS, "the load was too thin: {total}");

    // Every message once, in order, per thread.
    for ((_, thread), sent) in client_threads.iter().zip(&sent) {
        let history = until_ok(
            port,
            "GET",
            &format!("/api/threads/{thread}/messages"),
            None,
        );
        let said: Vec<String> = history
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "user")
            .filter_map(|m| m["text"].as_str().map(str::to_string))
            .collect();
        let expected: Vec<String> = (0..*sent).map(|n| format!("busy {n:03}")).collect();
        assert_eq!(said, expected, "{thread}");
    }
    // Pending plans made before the crashes are still confirmable.
    for (i, (task, thread)) in plan_threads.iter().enumerate() {
        let body = json!({"thread_id": thread, "user_id": "owner", "text": "yes", "message_id": format!("confirm-{i}")});
        let confirmed = until_ok(port, "POST", "/api/messages", Some(&body));
        assert_eq!(confirmed["path"], "plan_confirmed", "{confirmed}");
        let shown = until_ok(port, "GET", &format!("/api/tasks/{task}"), None);
        assert_eq!(shown["status"], "cancelled");
    }
    sigterm(&running.child);
    let status = running.child.wait().ok().and_then(|s| s.code());
    assert_eq!(status, Some(0));

    // Effects applied exactly once: one snooze per message, one cancel per plan.
    let db = rusqlite::Connection::open(dir.path().join("data").join("donna.db"))
        .unwrap_or_else(|e| panic!("{e}"));
    let snoozes: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM action_log WHERE action = 'snooze'",
            [],
            |row| row.get(0),
        )
        .needed();
    let cancels: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM action_log WHERE action = 'cancel_task'",
            [],
            |row| row.get(0),
        )
        .needed();
    assert_eq!(snoozes as usize, total);
    assert_eq!(cancels as usize, PLANS);
    let integrity: String = db
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .needed();
    assert_eq!(integrity, "ok");
}

/// One message without an id; Some(true) when answered 2xx, Some(false) when refused, None when
/// the server went away (the message may or may not have been handled).
fn send_once(port: u16, thread: &str, text: &str) -> Option<bool> {
    let body = json!({"thread_id": thread, "user_id": "owner", "text": text});
    http(port, "POST", "/api/messages", Some(&body)).map(|(status, _)| (200..300).contains(&status))
}

#[test]
fn sigkill_under_load_without_message_ids_keeps_each_turn_whole() {
    const ID_LESS_CLIENTS: usize = 6;
    const ID_LESS_KILLS: usize = 6;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let port = free_port();
    std::fs::write(dir.path().join("intents.yaml"), INTENTS).unwrap_or_else(|e| panic!("{e}"));
    let config = write_yaml(
        dir.path(),
        &format!("data_dir: data\nintents_file: intents.yaml\nllm:\n  provider: none\nhttp:\n  bind: 127.0.0.1:{port}\nshutdown:\n  grace: 2s\n"),
    );
    let mut running = start(&config, port);
    let mut threads = Vec::new();
    for i in 0..ID_LESS_CLIENTS {
        threads.push(nudged_task(port, i).1);
    }
    let kills_done = Arc::new(AtomicBool::new(false));
    // Each client sends "busy 000", "busy 001", ... once each, never retried (no id to retry
    // safely with): (answered numbers, the last number sent).
    let clients: Vec<_> = threads
        .iter()
        .map(|thread| {
            let (thread, kills_done) = (thread.clone(), kills_done.clone());
            std::thread::spawn(move || {
                let (mut answered, mut sent) = (Vec::new(), 0usize);
                while !kills_done.load(Ordering::Acquire) {
                    match send_once(port, &thread, &format!("busy {sent:03}")) {
                        Some(true) => answered.push(sent),
                        Some(false) => {}
                        None => std::thread::sleep(Duration::from_millis(20)),
                    }
                    sent += 1;
                }
                (answered, sent)
            })
        })
        .collect();
    let mut rng = rand::thread_rng();
    for _ in 0..ID_LESS_KILLS {
        std::thread::sleep(Duration::from_millis(rng.gen_range(60..400)));
        running.kill();
        running = start(&config, port);
    }
    kills_done.store(true, Ordering::Release);
    let results: Vec<(Vec<usize>, usize)> = clients
        .into_iter()
        .map(|client| {
            client
                .join()
                .unwrap_or_else(|_| panic!("a client panicked"))
        })
        .collect();
    sigterm(&running.child);
    assert_eq!(running.child.wait().ok().and_then(|s| s.code()), Some(0));

    let db = rusqlite::Connection::open(dir.path().join("data").join("donna.db"))
        .unwrap_or_else(|e| panic!("{e}"));
    let count = |sql: &str, thread: &str| -> i64 {
        db.query_row(sql, [thread], |row| row.get(0))
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    let mut answered_total = 0;
    for (thread, (answered, sent)) in threads.iter().zip(&results) {
        answered_total += answered.len();
        let mut statement = db
            .prepare(
                "SELECT content FROM memory WHERE thread_id = ?1 AND role = 'user' ORDER BY id",
            )
            .unwrap_or_else(|e| panic!("{e}"));
        let said: Vec<String> = statement
            .query_map([thread], |row| row.get(0))
            .and_then(|rows| rows.collect())
            .unwrap_or_else(|e| panic!("{e}"));
        // In the order sent, each at most once, every answered one there.
        let numbers: Vec<usize> = said
            .iter()
            .filter_map(|text| text.strip_prefix("busy ").and_then(|n| n.parse().ok()))
            .collect();
        assert_eq!(numbers.len(), said.len(), "{thread}: {said:?}");
        assert!(
            numbers.windows(2).all(|pair| pair[0] < pair[1]),
            "{thread}: {numbers:?}"
        );
        assert!(numbers.iter().all(|n| n < sent), "{thread}");
        for n in answered {
            assert!(
                numbers.contains(n),
                "{thread}: answered 'busy {n:03}' is missing"
            );
        }
        // Whole turns only: each recorded message has its inbox row done and its one snooze;
        // nothing is left pending.
        let messages = said.len() as i64;
        let done = count(
            "SELECT COUNT(*) FROM inbox WHERE thread_id = ?1 AND status = 'done'",
            thread,
        );
        let pending = count(
            "SELECT COUNT(*) FROM inbox WHERE thread_id = ?1 AND status <> 'done'",
            thread,
        );
        let snoozes = count(
            "SELECT COUNT(*) FROM action_log WHERE thread_id = ?1 AND action = 'snooze'",
            thread,
        );
        assert_eq!(
            (done, pending, snoozes),
            (messages, 0, messages),
            "{thread}"
        );
    }
    eprintln!("{answered_total} answered messages without ids across {ID_LESS_KILLS} kills");
    assert!(
        answered_total >= ID_LESS_CLIENTS * ID_LESS_KILLS,
        "the load was too thin"
    );
    let integrity: String = db
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .needed();
    assert_eq!(integrity, "ok");
}
