//! `donna replay THREAD MESSAGE_ID` (issue 15) as an operator runs it, next to a running bot:
//! a recorded planner turn replays with no model server, prints no difference and exits 0,
//! takes no lock and writes nothing to the bot's database; a config that changes the outcome
//! prints the differences and exits 1; an unknown message exits 2 with a clear message.

use crate::common;
use crate::common::{Fields, Needed};

use std::ffi::OsStr;
use std::path::Path;
use std::process::Output;

use common::fake_llm::{out, start_fake_llm};
use common::process::{
    create_task, database, free_port, health, http, run, run_once, terminate, text, wait_healthy,
};
use serde_json::{json, Value};

/// Writes `dir/name` with the data dir `data` (absolute), HTTP on `port` and `extra`.
fn write_config(dir: &Path, name: &str, data: &Path, port: u16, extra: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "data_dir: {}\ntimezone: UTC\nhttp:\n  bind: 127.0.0.1:{port}\n{extra}",
            data.display()
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    path
}

fn replay(config: &Path, thread: &str, message: &str) -> Output {
    run_once(&[
        OsStr::new("replay"),
        OsStr::new("--config"),
        config.as_os_str(),
        OsStr::new(thread),
        OsStr::new(message),
    ])
}

/// What the bot's database holds, row counts per table and the message's stored result.
fn snapshot(database: &Path, thread: &str) -> Vec<String> {
    let conn =
        rusqlite::Connection::open_with_flags(database, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap_or_else(|e| panic!("{e}"));
    let mut found = Vec::new();
    for table in ["inbox", "memory", "outbox", "task", "plan", "turn_journal"] {
        let count: i64 = conn
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| {
                row.get(0)
            })
            .unwrap_or_else(|e| panic!("{table}: {e}"));
        found.push(format!("{table}: {count}"));
    }
    let results: Vec<String> = conn
        .prepare("SELECT status || ' ' || COALESCE(result_json, '') FROM inbox WHERE thread_id = ?1 ORDER BY seq")
        .and_then(|mut statement| {
            statement
                .query_map([thread], |row| row.get(0))?
                .collect::<Result<Vec<String>, _>>()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    found.extend(results);
    found
}

#[actix_rt::test]
async fn a_recorded_planner_turn_replays_without_a_model_next_to_the_running_bot() {
    donna::app::install_crypto_provider();
    let fake = start_fake_llm();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let data = dir.path().join("data");
    let port = free_port();
    let model = fake.config("ollama", "10s", 2);
    let config = write_config(dir.path(), "donna.yaml", &data, port, &model);
    let mut running = run(&config, port);
    wait_healthy(&mut running);
    create_task(port, "Dentist appointment");
    let (_, opened) = http(port, "POST", "/api/threads", Some(&json!({})))
        .unwrap_or_else(|| panic!("POST /api/threads"));
    let thread = opened["thread_id"].text().to_string();
    fake.push_for(
        "route",
        out(json!({"intent": "question", "confidence": 0.9})),
    );
    for step in [
        json!({"action": "call_tool", "tool": "get_task", "args": {"task": "dentist"}}),
        json!({"action": "call_tool", "tool": "list_tasks", "args": {}}),
        json!({"action": "done"}),
    ] {
        fake.push_for("plan_step", out(step));
    }
    fake.push_for(
        "chat",
        out(json!({"reply_to_user": "Friday 27 Nov at 09:00."})),
    );
    let asked = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{port}/api/messages"))
        .json(&json!({"thread_id": thread, "user_id": "owner", "text": "What do I need to bring to the dentist?", "message_id": "m1"}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let result: Value = asked.json().await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result["path"], "answer", "{result}");
    assert_eq!(
        result["steps"].as_array().map(Vec::len),
        Some(2),
        "{result}"
    );
    // No model server from here on.
    fake.stop().await;
    let calls_made = fake.titles().len();
    let before = snapshot(&database(dir.path()), &thread);

    let same = replay(&config, &thread, "m1");
    let stdout = text(&same.stdout);
    assert_eq!(
        same.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&same.stderr)
    );
    assert!(stdout.contains("no difference"), "{stdout}");
    assert!(stdout.contains("Friday 27 Nov at 09:00."), "{stdout}");
    assert_eq!(fake.titles().len(), calls_made, "the replay asked a model");
    // The bot still runs (no lock was taken) and its database is as it was.
    assert_eq!(health(port).map(|(status, _)| status), Some(200));
    assert_eq!(snapshot(&database(dir.path()), &thread), before);

    // Today's config allows one tool call: the replay shows where that differs.
    let other = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let capped = write_config(
        other.path(),
        "capped.yaml",
        &data,
        free_port(),
        &format!("{model}planner:\n  max_tool_calls: 1\n"),
    );
    let changed = replay(&capped, &thread, "m1");
    let stdout = text(&changed.stdout);
    assert_eq!(
        changed.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&changed.stderr)
    );
    for expected in [
        "difference: result steps",
        "plan_step call 2: recorded, not made now",
        "chat call 1, message",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in:\n{stdout}");
    }
    assert_eq!(snapshot(&database(dir.path()), &thread), before);

    // Unknown ids: exit 2, said plainly.
    for (thread_id, message) in [
        (thread.as_str(), "no-such-message"),
        ("no-such-thread", "m1"),
    ] {
        let unknown = replay(&config, thread_id, message);
        assert_eq!(unknown.status.code(), Some(2), "{}", text(&unknown.stdout));
        let stderr = text(&unknown.stderr);
        assert!(
            stderr.contains(&format!("thread {thread_id} has no message {message}")),
            "{stderr}"
        );
    }
    assert_eq!(
        terminate(&mut running.child),
        Some(0),
        "{}",
        running.stderr()
    );
}

#[actix_rt::test]
async fn a_recorded_yes_to_an_escalation_offer_replays_identical() {
    donna::app::install_crypto_provider();
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let data = dir.path().join("data");
    let port = free_port();
    let model = format!(
        "{}escalation:\n  base_url: {}\n  model: big-model\n  max_output_tokens: 1000\n",
        local.config("ollama", "10s", 2),
        big.openai_url()
    );
    let config = write_config(dir.path(), "donna.yaml", &data, port, &model);
    let mut running = run(&config, port);
    wait_healthy(&mut running);
    let (_, opened) = http(port, "POST", "/api/threads", Some(&json!({})))
        .unwrap_or_else(|| panic!("POST /api/threads"));
    let thread = opened["thread_id"].text().to_string();
    // Asked with an async client: the fake models answer on this test's own runtime.
    let client = reqwest::Client::new();
    let say = |text: &'static str, id: &'static str| {
        let request = client
            .post(format!("http://127.0.0.1:{port}/api/messages"))
            .json(&json!({"thread_id": thread, "user_id": "owner", "text": text, "message_id": id}))
            .send();
        async move {
            let response = request.await.unwrap_or_else(|e| panic!("{text}: {e}"));
            let status = response.status().as_u16();
            let body: Value = response.json().await.needed();
            (status, body)
        }
    };
    crate::escalation::local_needs_help(&local);
    let (_, offer) = say("what are the tax rules for a freelancer in France?", "m1").await;
    assert_eq!(offer["path"], "escalation_proposed", "{offer}");
    big.set_usage(1_000, 200);
    big.push_for(
        "chat",
        out(json!({"reply_to_user": "Here is what French law says, in short."})),
    );
    let (_, answered) = say("yes", "m2").await;
    assert_eq!(answered["path"], "escalated", "{answered}");
    // No model server from here on.
    local.stop().await;
    big.stop().await;
    let before = snapshot(&database(dir.path()), &thread);

    for message in ["m2", "m1"] {
        let same = replay(&config, &thread, message);
        let stdout = text(&same.stdout);
        assert_eq!(
            same.status.code(),
            Some(0),
            "{message}:\n{stdout}\n{}",
            text(&same.stderr)
        );
        assert!(stdout.contains("no difference"), "{message}: {stdout}");
    }
    assert_eq!(snapshot(&database(dir.path()), &thread), before);
    assert_eq!(
        terminate(&mut running.child),
        Some(0),
        "{}",
        running.stderr()
    );
}
