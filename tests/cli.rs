//! The `donna` binary as a user runs it: check-config messages, `run` answering /health,
//! SIGTERM exiting 0, and the one-process-per-data-dir lock.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn donna() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_donna"));
    command
        .env_remove("DISCORD_TOKEN")
        .env_remove("DONNA_API_TOKEN")
        .env("RUST_LOG", "info");
    command
}

fn check_config(yaml: &str) -> Output {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("donna.yaml");
    std::fs::write(&path, yaml).unwrap_or_else(|e| panic!("{e}"));
    donna()
        .args(["check-config", "--config"])
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

#[test]
fn check_config_names_a_typoed_key() {
    let output = check_config("llm:\n  modle: llama3\n");
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("llm.modle: unknown field `modle`"),
        "{message}"
    );
}

#[test]
fn check_config_names_a_bad_duration() {
    let output = check_config("plans:\n  expiry: 60 minutes please\n");
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("plans.expiry: invalid duration"),
        "{message}"
    );
}

#[test]
fn check_config_names_an_unknown_action_in_the_intents() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let intents =
        include_str!("../config/reply_intents.yaml").replace("action: snooze", "action: nap");
    std::fs::write(dir.path().join("intents.yaml"), intents).unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("donna.yaml");
    std::fs::write(&path, "intents_file: intents.yaml\n").unwrap_or_else(|e| panic!("{e}"));
    let output = donna()
        .args(["check-config", "--config"])
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("intents.busy.action: unknown action \"nap\""),
        "{}",
        stderr(&output)
    );
}

#[test]
fn check_config_accepts_the_defaults_and_the_shipped_file() {
    let output = donna()
        .arg("check-config")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success(), "{}", stderr(&output));
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/config/donna.yaml");
    let output = donna()
        .args(["check-config", "--config", shipped])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn discord_on_without_allowed_users_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("donna.yaml");
    std::fs::write(&path, "").unwrap_or_else(|e| panic!("{e}"));
    let output = donna()
        .env("DISCORD_TOKEN", "abc")
        .args(["check-config", "--config"])
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("discord.allowed_user_ids"),
        "{}",
        stderr(&output)
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

struct Running {
    child: Child,
    port: u16,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(dir: &std::path::Path, port: u16) -> Running {
    let path = dir.join("donna.yaml");
    std::fs::write(
        &path,
        format!("data_dir: data\nhttp:\n  bind: 127.0.0.1:{port}\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let child = donna()
        .args(["run", "--config"])
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    Running { child, port }
}

fn health(port: u16) -> Option<(u16, serde_json::Value)> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split(' ').nth(1)?.parse().ok()?;
    let body = response.split("\r\n\r\n").nth(1)?;
    Some((status, serde_json::from_str(body).ok()?))
}

fn wait_healthy(port: u16) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Some((200, body)) = health(port) {
            return body;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("donna run did not become healthy on port {port}");
}

fn terminate(child: &mut Child) -> Option<i32> {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    wait_exit(child)
}

#[test]
fn run_serves_health_with_the_seven_actors_and_sigterm_exits_zero() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut running = start(dir.path(), free_port());
    let body = wait_healthy(running.port);
    assert_eq!(body["status"], "ok");
    let names: Vec<&str> = body["actors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["name"].as_str())
        .collect();
    for name in [
        "thread_memory",
        "pending_plans",
        "fast_path",
        "llm_classifier",
        "action_executor",
        "rate_cap",
        "discord_gateway",
    ] {
        assert!(names.contains(&name), "{name} missing: {names:?}");
    }
    assert_eq!(terminate(&mut running.child), Some(0));
}

#[test]
fn a_second_process_on_the_same_data_dir_is_refused_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut first = start(dir.path(), free_port());
    wait_healthy(first.port);
    let mut second = start(dir.path(), free_port());
    let code = wait_exit(&mut second.child);
    let mut message = String::new();
    if let Some(mut err) = second.child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut err, &mut message);
    }
    assert_eq!(code, Some(1), "{message}");
    assert!(
        message.contains("in use by another Donna process"),
        "{message}"
    );
    assert_eq!(terminate(&mut first.child), Some(0));
}

fn wait_exit(child: &mut Child) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

#[test]
fn chat_works_with_no_configuration() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut child = donna()
        .arg("chat")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"add Pay rent\ntasks\nnudge 1\ndone\nundo\nquit\n");
    }
    let output = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{shown}");
    for line in [
        "added 'Pay rent'",
        "1. Pay rent [backlog]",
        "donna: Time for 'Pay rent'.",
        "donna: Marked 'Pay rent' as done.",
        "donna: Undone: 'Pay rent' is back to backlog.",
    ] {
        assert!(shown.contains(line), "missing {line:?} in:\n{shown}");
    }
}
