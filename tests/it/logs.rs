//! What the operator reads: JSON log lines for shippers, one line per turn (and none when
//! `log.turns` is off), an access line for a refused request and none for a served one, and a
//! console whose warnings go to a file instead of into the conversation.

use crate::common;

use common::process::{self, free_port, http, terminate};
use serde_json::{json, Value};

/// A task, its nudge thread, and the reply "done" in it.
fn one_turn(port: u16) {
    let task = process::create_task(port, "Pay rent");
    let nudge = http(
        port,
        "POST",
        "/api/nudges",
        Some(&json!({ "task_id": task })),
    );
    let Some((201, nudge)) = nudge else {
        panic!("nudge: {nudge:?}");
    };
    let message = json!({"thread_id": nudge["thread_id"], "user_id": "owner", "text": "done"});
    let answer = http(port, "POST", "/api/messages", Some(&message));
    assert!(
        matches!(&answer, Some((200, result)) if result["path"] == "fast"),
        "{answer:?}"
    );
}

/// Runs the process through one turn, a 404 and a served /health, stops it, returns stderr.
fn session(extra: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut running = process::start_with(dir.path(), extra, args);
    process::wait_healthy(&mut running);
    one_turn(running.port);
    let missing = http(running.port, "GET", "/no/such/page?secret=words", None);
    assert!(matches!(missing, Some((404, _))), "{missing:?}");
    assert!(matches!(process::health(running.port), Some((200, _))));
    assert_eq!(terminate(&mut running.child), Some(0));
    running.stderr()
}

#[test]
fn json_format_logs_every_line_as_json_with_the_turn_and_the_refused_request() {
    let stderr = session("", &["--log-format", "json"]);
    let lines: Vec<Value> = stderr
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(
            line["level"].is_string() && line["fields"].is_object(),
            "{line}"
        );
    }
    let message = |line: &Value| line["fields"]["message"].as_str().unwrap_or("").to_string();
    let turn = lines
        .iter()
        .find(|line| message(line) == "turn done")
        .unwrap_or_else(|| panic!("no turn line:\n{stderr}"));
    assert_eq!(turn["level"], "INFO");
    assert_eq!(turn["fields"]["path"], "fast", "{turn}");
    assert_eq!(turn["fields"]["actions"], "mark_done", "{turn}");
    assert!(turn["fields"]["latency_ms"].is_u64(), "{turn}");
    assert!(turn["span"]["thread_id"].is_string(), "{turn}");
    let access: Vec<&Value> = lines
        .iter()
        .filter(|line| line["fields"]["status"].is_u64())
        .collect();
    assert_eq!(access.len(), 1, "only the 404 is logged: {access:?}");
    assert_eq!(access[0]["fields"]["status"], 404);
    assert_eq!(
        access[0]["fields"]["path"], "/no/such/page",
        "no query string"
    );
    assert_eq!(access[0]["fields"]["method"], "GET");
    assert!(!stderr.contains("secret=words"), "{stderr}");
    assert!(
        lines
            .iter()
            .any(|line| message(line).starts_with("donna is running")),
        "the startup summary"
    );
}

#[test]
fn log_turns_false_leaves_the_turn_line_out_and_text_is_the_default() {
    let stderr = session("log:\n  turns: false\n", &[]);
    assert!(stderr.contains("donna is running"), "{stderr}");
    assert!(
        serde_json::from_str::<Value>(stderr.lines().next().unwrap_or("")).is_err(),
        "text lines: {stderr}"
    );
    assert!(!stderr.contains("turn done"), "{stderr}");
    // The access log is still there.
    assert!(stderr.contains("status=404"), "{stderr}");
}

#[test]
fn the_console_writes_its_warnings_to_a_log_file_and_never_into_the_conversation() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = dir.path().join("donna.yaml");
    // A model nobody serves: its warnings are what must stay out of the conversation.
    std::fs::write(
        &config,
        format!(
            "data_dir: data\ntimezone: UTC\nhttp:\n  bind: 127.0.0.1:{}\nllm:\n  provider: ollama\n  base_url: http://127.0.0.1:{}\n  model: gemma3:270m\n",
            free_port(),
            free_port()
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let output = process::chat_with_input(
        dir.path(),
        &["--config".as_ref(), config.as_os_str()],
        "help\nadd Pay rent\ntasks\nnudge 1\nhmm let me think about it\nquit\n",
    );
    let stdout = process::text(&output.stdout);
    let stderr = process::text(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let log = dir.path().join("data").join("donna-chat.log");
    assert!(
        stdout.contains(&format!("Logs: {}.", log.display())),
        "the greeting names the log file: {stdout}"
    );
    assert!(
        stdout.contains("can't reach my language model"),
        "the free line got the honest answer: {stdout}"
    );
    assert!(!stdout.contains("WARN"), "{stdout}");
    assert!(!stderr.contains("WARN"), "{stderr}");
    let written = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        written.contains("WARN"),
        "the warning went to the file: {written}"
    );
}

#[test]
fn with_log_stderr_the_console_writes_no_log_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = process::write_config(dir.path(), free_port());
    let output = process::chat_with_input(
        dir.path(),
        &[
            "--log-stderr".as_ref(),
            "--config".as_ref(),
            config.as_os_str(),
        ],
        "help\nquit\n",
    );
    let stdout = process::text(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("Donna is listening"), "{stdout}");
    assert!(!stdout.contains("Logs:"), "{stdout}");
    assert!(!dir.path().join("data").join("donna-chat.log").exists());
}
