//! The real `donna` binary as a user runs it: a temp config and data dir, `donna run` on a free
//! port (`Running`, killed on drop), plain HTTP/1.1 to it, waiting for /health, SIGTERM and
//! SIGKILL, and the one-shot commands (`donna backup`).

use super::Fields;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::{eventually_some, wait_for};

/// The binary with no secrets from the test's environment and info logs on stderr.
pub fn donna() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_donna"));
    command
        .env_remove("DISCORD_TOKEN")
        .env_remove("DONNA_API_TOKEN")
        .env_remove("DONNA_CALENDAR_TOKEN")
        .env_remove("DONNA_CONFIG")
        .env("RUST_LOG", "info");
    command
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Writes `dir/donna.yaml` (data in `dir/data`, HTTP on `port`, no model) and returns its path.
pub fn write_config(dir: &Path, port: u16) -> PathBuf {
    write_config_with(dir, port, "")
}

/// Writes `yaml` as the whole of `dir/donna.yaml` (with `timezone: UTC` unless it names a
/// zone) and returns its path.
pub fn write_yaml(dir: &Path, yaml: &str) -> PathBuf {
    let path = dir.join("donna.yaml");
    std::fs::write(&path, super::pinned_to_utc(yaml)).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// `write_config` with `extra` YAML lines after the usual ones.
pub fn write_config_with(dir: &Path, port: u16, extra: &str) -> PathBuf {
    let path = dir.join("donna.yaml");
    std::fs::write(
        &path,
        super::pinned_to_utc(&format!(
            "data_dir: data\nhttp:\n  bind: 127.0.0.1:{port}\nllm:\n  provider: none\n{extra}"
        )),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    path
}

/// The database file of a config written by `write_config`.
pub fn database(dir: &Path) -> PathBuf {
    dir.join("data").join("donna.db")
}

/// Runs Donna on `dir` (as `start`) until /health answers, creates a task of each title over
/// HTTP, and stops her cleanly (SIGTERM, exit 0; her log shown otherwise); her config file.
pub fn run_with_tasks(dir: &Path, titles: &[&str]) -> PathBuf {
    let mut running = start(dir);
    wait_healthy(&mut running);
    for title in titles {
        create_task(running.port, title);
    }
    assert_eq!(
        terminate(&mut running.child),
        Some(0),
        "{}",
        running.stderr()
    );
    running.config.clone()
}

/// A `donna run` child, killed on drop if the test did not stop it.
pub struct Running {
    pub child: Child,
    pub port: u16,
    pub config: PathBuf,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    /// SIGKILL, as a crash or the kernel's OOM killer would, and reaps the process.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Everything the process wrote to stderr; a process still running is killed first (its
    /// stderr ends only when it does).
    pub fn stderr(&mut self) -> String {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = err.read_to_string(&mut text);
        }
        text
    }
}

/// Starts `donna run` with the config of `write_config(dir, free port)`.
pub fn start(dir: &Path) -> Running {
    start_with(dir, "", &[])
}

/// `start` with `extra` config lines and `args` after `--config FILE`.
pub fn start_with(dir: &Path, extra: &str, args: &[&str]) -> Running {
    let port = free_port();
    let config = write_config_with(dir, port, extra);
    spawn_run(donna(), &config, port, args, Stdio::piped())
}

/// `donna run --config <config>`, its log kept for `Running::stderr`; `port` is the one the
/// config binds.
pub fn run(config: &Path, port: u16) -> Running {
    spawn_run(donna(), config, port, &[], Stdio::piped())
}

/// `command` (from `donna()`, with whatever the test adds to its environment) as
/// `run --config <config> <args>`, stderr to `stderr` (piped: read by `Running::stderr`;
/// null for a process whose log nobody reads, so a full pipe can never stall it).
pub fn spawn_run(
    mut command: Command,
    config: &Path,
    port: u16,
    args: &[&str],
    stderr: Stdio,
) -> Running {
    let child = command
        .args(["run", "--config"])
        .arg(config)
        .args(args)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    Running {
        child,
        port,
        config: config.to_path_buf(),
    }
}

/// One HTTP/1.1 request; None on any transport failure (nothing listening, a dead server).
pub fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let payload = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split(' ').nth(1)?.parse().ok()?;
    let body = response.split("\r\n\r\n").nth(1).unwrap_or_default();
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

/// A GET whose body is text (the /metrics page); None on any transport failure.
pub fn get_text(port: u16, path: &str) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    response.split("\r\n\r\n").nth(1).map(str::to_string)
}

pub fn health(port: u16) -> Option<(u16, Value)> {
    http(port, "GET", "/health", None)
}

/// Creates a task over HTTP and returns its id (asserting 201).
pub fn create_task(port: u16, title: &str) -> String {
    create_task_json(port, &serde_json::json!({ "title": title }))
}

/// Creates a task from a whole `POST /api/tasks` body and returns its id (asserting 201).
pub fn create_task_json(port: u16, body: &Value) -> String {
    let answer = http(port, "POST", "/api/tasks", Some(body));
    let Some((201, task)) = answer else {
        panic!("POST /api/tasks {body}: {answer:?}");
    };
    task["id"].text().to_string()
}

/// How a started process turned out.
#[derive(Debug)]
pub enum Outcome {
    /// It exited with this code before serving.
    Exited(Option<i32>),
    /// It answered /health with 200 (this body).
    Serving(Value),
    /// Neither within the time limit.
    Neither,
}

/// Waits until the process exits or answers /health with 200, whichever comes first.
pub fn exit_or_serve(running: &mut Running) -> Outcome {
    wait_for(Duration::from_secs(30), || {
        if let Ok(Some(status)) = running.child.try_wait() {
            return Some(Outcome::Exited(status.code()));
        }
        match health(running.port) {
            Some((200, body)) => Some(Outcome::Serving(body)),
            _ => None,
        }
    })
    .unwrap_or(Outcome::Neither)
}

pub fn wait_healthy(running: &mut Running) -> Value {
    match exit_or_serve(running) {
        Outcome::Serving(body) => body,
        other => {
            let stderr = running.stderr();
            panic!("donna run did not become healthy: {other:?}\n{stderr}")
        }
    }
}

/// The exit code once the process exits (30 s at most; None if it is still running).
pub fn wait_exit(child: &mut Child) -> Option<i32> {
    wait_exit_within(child, Duration::from_secs(30))
}

/// `wait_exit` with another time limit.
pub fn wait_exit_within(child: &mut Child, limit: Duration) -> Option<i32> {
    wait_for(limit, || exited(child)).flatten()
}

/// The exit code (Some(None) for a signal) if the process has exited.
fn exited(child: &mut Child) -> Option<Option<i32>> {
    match child.try_wait() {
        Ok(Some(status)) => Some(status.code()),
        _ => None,
    }
}

/// `wait_exit_within` for an async test: it polls without blocking the test's runtime, where
/// the test's fake servers keep answering.
pub async fn wait_exit_async(child: &mut Child, limit: Duration) -> Option<i32> {
    eventually_some(limit, || std::future::ready(exited(child)))
        .await
        .flatten()
}

/// SIGTERM, then the exit code.
pub fn terminate(child: &mut Child) -> Option<i32> {
    sigterm(child);
    wait_exit(child)
}

/// Sends SIGTERM and returns at once (the process drains and exits on its own time).
pub fn sigterm(child: &Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

/// Runs `donna chat <args>` in `dir` with `input` as its whole stdin (then end of input), to
/// completion.
pub fn chat_with_input(dir: &Path, args: &[&std::ffi::OsStr], input: &str) -> Output {
    let mut child = donna()
        .arg("chat")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
    }
    child.wait_with_output().unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `donna <args>` to completion.
pub fn run_once(args: &[&std::ffi::OsStr]) -> Output {
    donna()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}
