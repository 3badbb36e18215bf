//! The real `donna` binary for the capacity bench: `donna import` of the generated files, then
//! `donna run` on a free port, measured from outside like an operator would (time until
//! /health/ready, RSS from /proc), and a small keep-alive HTTP/1.1 client for its API.
//!
//! Invariant: every process started here is killed when its `Donna` is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The binary measured: `DONNA_BIN` when set (another build, for a before/after), else this
/// build's.
fn donna() -> Command {
    let binary = std::env::var_os("DONNA_BIN")
        .map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_donna")), PathBuf::from);
    let mut command = Command::new(binary);
    command
        .env_remove("DISCORD_TOKEN")
        .env_remove("DONNA_API_TOKEN")
        .env_remove("DONNA_CONFIG")
        .env("RUST_LOG", "warn");
    command
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A config in `dir` (data in `dir/data`, UTC, no model, HTTP on `port`).
pub fn write_config(dir: &Path, port: u16) -> PathBuf {
    let path = dir.join("donna.yaml");
    let yaml = format!(
        "data_dir: data\ntimezone: UTC\nhttp:\n  bind: 127.0.0.1:{port}\nllm:\n  provider: none\n\
         nudges:\n  quiet_hours: \"00:00-00:00\"\n"
    );
    std::fs::write(&path, yaml).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// `donna import` of each file, one after the other; the time they took.
pub fn import(config: &Path, files: &[PathBuf]) -> Duration {
    let started = Instant::now();
    for file in files {
        let output = donna()
            .args(["import", "--config"])
            .arg(config)
            .arg(file)
            .output()
            .unwrap_or_else(|e| panic!("donna import: {e}"));
        if !output.status.success() {
            panic!(
                "donna import {file:?} failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
    started.elapsed()
}

/// A running `donna run`.
pub struct Donna {
    child: Child,
    pub port: u16,
    /// From spawn to the first 200 from /health/ready.
    pub start: Duration,
    client: Option<Client>,
}

impl Drop for Donna {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Donna {
    /// Starts `donna run` in `dir` (a new config on a free port) and waits until it is ready.
    pub fn start(dir: &Path) -> Self {
        let port = free_port();
        let config = write_config(dir, port);
        let started = Instant::now();
        let child = donna()
            .args(["run", "--config"])
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("donna run: {e}"));
        let mut donna = Donna {
            child,
            port,
            start: Duration::ZERO,
            client: None,
        };
        loop {
            if let Ok(Some(status)) = donna.child.try_wait() {
                panic!("donna run exited before it was ready: {status}");
            }
            if matches!(Client::connect(port).and_then(|mut c| c.get("/health/ready")), Some(r) if r.status == 200)
            {
                break;
            }
            if started.elapsed() > Duration::from_secs(300) {
                panic!("donna run was not ready within 300 s");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        donna.start = started.elapsed();
        donna
    }

    fn client(&mut self) -> &mut Client {
        if self.client.is_none() {
            self.client = Client::connect(self.port);
        }
        self.client
            .as_mut()
            .unwrap_or_else(|| panic!("cannot connect to donna on {}", self.port))
    }

    /// One request on the kept-alive connection (reconnecting once if the server closed it).
    pub fn request(&mut self, method: &str, path: &str, body: Option<&Value>) -> Response {
        if let Some(response) = self.client().send(method, path, body) {
            return response;
        }
        self.client = None;
        self.client()
            .send(method, path, body)
            .unwrap_or_else(|| panic!("{method} {path}: no answer"))
    }

    pub fn post(&mut self, path: &str, body: &Value) -> Response {
        self.request("POST", path, Some(body))
    }

    pub fn get(&mut self, path: &str) -> Response {
        self.request("GET", path, None)
    }

    /// Resident memory now and at its peak, in MiB (/proc/<pid>/status VmRSS, VmHWM).
    pub fn rss_mib(&self) -> (f64, f64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|kb| kb.parse::<f64>().ok())
                .map_or(0.0, |kb| kb / 1024.0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    /// CPU time the process has used (user + system), from /proc/<pid>/stat.
    fn cpu(&self) -> Duration {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields after the command name (which may hold spaces) start after the last ')'.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        let ticks = |i: usize| {
            fields
                .get(i)
                .and_then(|t| t.parse::<u64>().ok())
                .unwrap_or(0)
        };
        // utime and stime are fields 14 and 15 of stat: 11 and 12 after the state field.
        Duration::from_millis((ticks(11) + ticks(12)) * 10)
    }

    /// Nudges the process has sent so far (/metrics `donna_nudges_sent_total`).
    pub fn nudges_sent(&mut self) -> u64 {
        let metrics = self.get("/metrics");
        String::from_utf8_lossy(&metrics.body)
            .lines()
            .filter(|line| line.starts_with("donna_nudges_sent_total"))
            .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>() as u64
    }

    /// Waits for the first scheduled tick (a minute after the start: the first nudges) and
    /// then for the process to settle; at most `limit` in all. How long it waited.
    pub fn first_tick_over(&mut self, limit: Duration) -> Duration {
        let started = Instant::now();
        let tick = Duration::from_secs(62);
        while started.elapsed() < tick.saturating_sub(self.start) && self.nudges_sent() == 0 {
            std::thread::sleep(Duration::from_millis(200));
        }
        self.settle(limit.saturating_sub(started.elapsed()));
        started.elapsed()
    }

    /// Waits until the process has been idle (under 5% of a core) for two seconds in a row, at
    /// most `limit`: the start's background work (the first nudge and automation ticks) is over.
    pub fn settle(&self, limit: Duration) -> Duration {
        let started = Instant::now();
        let mut quiet = 0;
        let mut before = self.cpu();
        while quiet < 4 && started.elapsed() < limit {
            std::thread::sleep(Duration::from_millis(500));
            let now = self.cpu();
            quiet = if now.saturating_sub(before) <= Duration::from_millis(25) {
                quiet + 1
            } else {
                0
            };
            before = now;
        }
        started.elapsed()
    }
}

/// An HTTP answer: status, the headers the bench reads, the body.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// One kept-alive HTTP/1.1 connection.
struct Client {
    port: u16,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn connect(port: u16) -> Option<Self> {
        let stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
        stream.set_nodelay(true).ok()?;
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .ok()?;
        Some(Self {
            port,
            reader: BufReader::new(stream),
        })
    }

    fn get(&mut self, path: &str) -> Option<Response> {
        self.send("GET", path, None)
    }

    fn send(&mut self, method: &str, path: &str, body: Option<&Value>) -> Option<Response> {
        let payload = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{payload}",
            self.port,
            payload.len()
        );
        self.reader.get_mut().write_all(request.as_bytes()).ok()?;
        let mut line = String::new();
        self.reader.read_line(&mut line).ok()?;
        let status = line.split(' ').nth(1)?.parse().ok()?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).ok()?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let (key, value) = header.split_once(':')?;
            headers.push((key.trim().to_string(), value.trim().to_string()));
        }
        let find = |name: &str| {
            headers
                .iter()
                .find(|(key, _): &&(String, String)| key.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.clone())
        };
        let body = if find("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
            self.chunked()?
        } else {
            let length: usize = find("content-length")?.parse().ok()?;
            let mut body = vec![0; length];
            self.reader.read_exact(&mut body).ok()?;
            body
        };
        Some(Response {
            status,
            headers,
            body,
        })
    }

    fn chunked(&mut self) -> Option<Vec<u8>> {
        let mut body = Vec::new();
        let mut line = String::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).ok()?;
            let size = usize::from_str_radix(line.trim().split(';').next()?, 16).ok()?;
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).ok()?;
            if size == 0 {
                return Some(body);
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
}
