//! A new install reads times in the machine's own zone: the real binary with a config that
//! names no `timezone`, under `TZ=America/New_York`, reads "tomorrow at 10" as 10:00 in New
//! York, and its start log and /health say the zone and where it came from. A config that names
//! one keeps it whatever `TZ` says.

use crate::common;
use crate::common::Fields;

use std::process::Stdio;

use common::process::{donna, free_port, http, spawn_run, wait_healthy, Running};
use serde_json::{json, Value};

/// A config with no `timezone` at all (not through `write_yaml`, which pins UTC).
fn unpinned_config(dir: &std::path::Path, port: u16, zone_line: &str) -> std::path::PathBuf {
    let path = dir.join("donna.yaml");
    let yaml = format!(
        "data_dir: data\n{zone_line}http:\n  bind: 127.0.0.1:{port}\nllm:\n  provider: none\n"
    );
    std::fs::write(&path, yaml).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// Captures "remind me tomorrow at 10 to call the dentist" and returns the task's start as
/// the API shows it (in the default zone).
fn captured_start(port: u16) -> String {
    let opened = http(port, "POST", "/api/threads", Some(&json!({})));
    let thread = match &opened {
        Some((201, body)) => body["thread_id"].text().to_string(),
        other => panic!("open a chat: {other:?}"),
    };
    let said = json!({
        "thread_id": thread,
        "user_id": "newcomer",
        "text": "remind me tomorrow at 10 to call the dentist",
    });
    let answer = http(port, "POST", "/api/messages", Some(&said));
    let Some((200, result)) = answer else {
        panic!("message: {answer:?}");
    };
    assert_eq!(result["path"], "task_created", "{result}");
    let id = result["results"][0]["task_id"].text();
    let task = http(port, "GET", &format!("/api/tasks/{id}"), None);
    match task {
        Some((200, task)) => task["scheduled_start"].text().to_string(),
        other => panic!("task: {other:?}"),
    }
}

/// `donna run` under `TZ=America/New_York` with `zone_line` in its config; its /health.
fn run_in_new_york(dir: &std::path::Path, zone_line: &str) -> (Running, Value) {
    let port = free_port();
    let config = unpinned_config(dir, port, zone_line);
    let mut command = donna();
    command.env("TZ", "America/New_York");
    let mut running = spawn_run(command, &config, port, &[], Stdio::piped());
    let health = wait_healthy(&mut running);
    (running, health)
}

#[test]
fn without_a_timezone_the_machine_zone_from_tz_reads_tomorrow_at_10_as_10_there() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (mut running, health) = run_in_new_york(dir.path(), "");
    let port = running.port;
    assert_eq!(
        health["timezone"],
        json!({"zone": "America/New_York", "source": "TZ"}),
        "{health}"
    );
    // 10:00 in New York, shown with New York's offset (-05:00 in winter, -04:00 in summer).
    let start = captured_start(port);
    assert!(
        start.ends_with("T10:00:00-05:00") || start.ends_with("T10:00:00-04:00"),
        "{start}"
    );
    let log = running.stderr();
    let said = log
        .lines()
        .find(|line| line.contains("donna is running"))
        .unwrap_or_else(|| panic!("no start line in {log}"));
    assert!(
        said.contains("timezone=America/New_York") && said.contains("timezone_from=TZ"),
        "{said}"
    );
}

#[test]
fn a_timezone_the_config_names_wins_over_tz() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (running, health) = run_in_new_york(dir.path(), "timezone: Europe/Paris\n");
    let port = running.port;
    assert_eq!(
        health["timezone"],
        json!({"zone": "Europe/Paris", "source": "config"})
    );
    let start = captured_start(port);
    assert!(
        start.ends_with("T10:00:00+01:00") || start.ends_with("T10:00:00+02:00"),
        "{start}"
    );
}
