//! The README (and the guides it points to) as a newcomer follows it: every command it shows is one `donna` knows (with the
//! flags it shows), `cargo run` is always `--release`, the quick start and the HTTP session run
//! and answer as shown, and CI runs the README's test command. A README that drifts from the
//! binary fails here.

use crate::common;
use crate::common::Needed;

use common::process::{donna, http, start, wait_healthy};
use serde_json::Value;

const README: &str = include_str!("../../README.md");

/// What a newcomer follows: the README and the two guides it points to (the commands and the
/// HTTP examples moved there with their text, and are checked where they are).
const DOCUMENTS: [&str; 3] = [
    README,
    include_str!("../../docs/guide.md"),
    include_str!("../../docs/operations.md"),
];

fn document_lines() -> impl Iterator<Item = &'static str> {
    DOCUMENTS.iter().flat_map(|text| text.lines())
}

/// The lines of every ```sh block, continuation lines (`\`) joined, heredoc bodies left out.
fn shell_lines() -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_block = false;
    let mut heredoc_end: Option<String> = None;
    let mut pending = String::new();
    for raw in document_lines() {
        let line = raw.trim();
        if line.starts_with("```") {
            in_block = line == "```sh";
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(end) = &heredoc_end {
            if line == end {
                heredoc_end = None;
            }
            continue;
        }
        if let Some(stripped) = line.strip_suffix('\\') {
            pending.push_str(stripped);
            pending.push(' ');
            continue;
        }
        let whole = format!("{pending}{line}");
        pending.clear();
        if let Some((_, marker)) = whole.split_once("<<") {
            heredoc_end = Some(marker.trim().trim_matches('\'').to_string());
        }
        if !whole.is_empty() {
            lines.push(whole);
        }
    }
    lines
}

/// Each command of a shell line (split on `&&`), without `sudo` and leading `VAR=value`s.
fn commands(line: &str) -> Vec<Vec<String>> {
    line.split("&&")
        .map(|command| {
            command
                .split_whitespace()
                .skip_while(|word| {
                    *word == "sudo" || (word.contains('=') && !word.starts_with('-'))
                })
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|words| !words.is_empty())
        .collect()
}

/// The arguments after the program, when the command runs donna.
fn donna_arguments(words: &[String]) -> Option<Vec<String>> {
    match words.first().map(String::as_str) {
        Some("donna" | "./target/release/donna" | "target/release/donna") => {
            Some(words[1..].to_vec())
        }
        Some("cargo") if words.get(1).map(String::as_str) == Some("run") => {
            assert!(
                words.iter().any(|w| w == "--release"),
                "README: `{}` builds a second, debug copy: use cargo run --release",
                words.join(" ")
            );
            let dash = words.iter().position(|w| w == "--")?;
            Some(words[dash + 1..].to_vec())
        }
        _ => None,
    }
}

/// The tools besides donna and cargo that the README may tell a person to run.
const OTHER_TOOLS: [&str; 13] = [
    "scripts/test",
    "curl",
    "ollama",
    "export",
    "cat",
    "install",
    "systemctl",
    "journalctl",
    "docker",
    "scripts/real_llm_e2e.sh",
    "mv",
    "cp",
    "#",
];

const CARGO_COMMANDS: [&str; 3] = [
    "cargo build --release",
    "cargo test",
    "cargo install --path .",
];

/// Checks a donna command line: its subcommand exists and knows every flag it is given.
fn check_donna_command(arguments: &[String], shown_as: &str) {
    let subcommand: Vec<&str> = arguments
        .iter()
        .map(String::as_str)
        .take_while(|word| !word.starts_with('-') && !word.starts_with('[') && !word.contains('/'))
        .filter(|word| word.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .take(2)
        .collect();
    let output = donna()
        .args(&subcommand)
        .arg("--help")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let help = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success() && help.contains("Usage: donna"),
        "README shows `{shown_as}`, but `donna {} --help` fails",
        subcommand.join(" ")
    );
    for flag in arguments
        .iter()
        .map(|word| word.trim_start_matches('['))
        .filter(|word| word.starts_with("--"))
    {
        let flag = flag.split(['=', ']']).next().unwrap_or(flag);
        assert!(
            help.contains(flag),
            "README shows `{shown_as}`, but donna {} has no {flag}:\n{help}",
            subcommand.join(" ")
        );
    }
}

#[test]
fn every_command_the_readme_shows_is_one_donna_or_a_named_tool_knows() {
    let lines = shell_lines();
    assert!(lines.len() > 10, "{lines:?}");
    let mut donna_commands = 0;
    for line in &lines {
        for words in commands(line) {
            let shown = words.join(" ");
            if let Some(arguments) = donna_arguments(&words) {
                check_donna_command(&arguments, &shown);
                donna_commands += 1;
            } else if words[0] == "cargo" {
                assert!(
                    CARGO_COMMANDS.iter().any(|known| shown.starts_with(known)),
                    "README shows `{shown}`; CI knows only {CARGO_COMMANDS:?}"
                );
            } else {
                assert!(
                    OTHER_TOOLS.contains(&words[0].as_str()),
                    "README shows `{shown}`: a tool this test does not know"
                );
            }
        }
    }
    // The commands table, too.
    for row in document_lines().filter(|l| l.starts_with("| `donna ")) {
        let shown = row
            .trim_start_matches("| `")
            .split('`')
            .next()
            .needed()
            .replace("\\|", "|");
        let words: Vec<String> = shown.split_whitespace().map(str::to_string).collect();
        check_donna_command(&words[1..], &shown);
        donna_commands += 1;
    }
    assert!(donna_commands >= 8, "{donna_commands} donna commands found");
    assert!(
        README.contains("cargo install --path ."),
        "the README must say how `donna` gets on the PATH"
    );
}

#[test]
fn ci_runs_the_test_command_the_readme_gives() {
    let ci = include_str!("../../.ci/run");
    let test_command = shell_lines()
        .into_iter()
        .find(|line| line.starts_with("scripts/test"))
        .unwrap_or_else(|| panic!("the README gives no test command"));
    assert!(
        ci.lines().any(|line| line.trim() == test_command),
        "README's `{test_command}` is not a line of .ci/run"
    );
}

/// Replaces the README's `tsk_…`/`thr_…` with the ids the session got so far.
fn with_ids(text: &str, task: &str, thread: &str) -> String {
    text.replace("tsk_…", task).replace("thr_…", thread)
}

/// Every `"key":value` of an expected answer (values with `…` are left out) found in `actual`.
fn assert_shown_answer(expected: &str, actual: &Value, request: &str) {
    let mut rest = expected;
    let mut checked = 0;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let Some(key_end) = after.find('"') else {
            break;
        };
        let key = &after[..key_end];
        let tail = &after[key_end + 1..];
        let Some(value_text) = tail.strip_prefix(':') else {
            rest = tail;
            continue;
        };
        let value_text = value_text.trim_start();
        let (value, consumed) = if let Some(quoted) = value_text.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            (Some(Value::String(quoted[..end].to_string())), end + 2)
        } else if let Some(stripped) = value_text.strip_prefix("null") {
            (Some(Value::Null), value_text.len() - stripped.len())
        } else {
            (None, 0)
        };
        if let Some(value) = value {
            if !value.as_str().is_some_and(|s| s.contains('…')) {
                assert!(
                    contains_pair(actual, key, &value),
                    "README shows {key:?}: {value} for `{request}`, but Donna answered {actual}"
                );
                checked += 1;
            }
        }
        rest = &value_text[consumed.min(value_text.len())..];
    }
    assert!(checked > 0, "nothing checked in {expected}");
}

fn contains_pair(value: &Value, key: &str, expected: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.get(key) == Some(expected) || map.values().any(|v| contains_pair(v, key, expected))
        }
        Value::Array(items) => items.iter().any(|v| contains_pair(v, key, expected)),
        _ => false,
    }
}

/// The method, path and body of a README curl line.
fn curl_request(line: &str) -> (String, String, Option<Value>) {
    let method = if line.contains("-XPOST") {
        "POST"
    } else {
        "GET"
    };
    let path = line
        .split_whitespace()
        .find_map(|word| word.strip_prefix("127.0.0.1:8080"))
        .unwrap_or_else(|| panic!("no 127.0.0.1:8080 address in `{line}`"))
        .to_string();
    let body = line.split_once("-d '").map(|(_, rest)| {
        let json = rest.rsplit_once('\'').map_or(rest, |(json, _)| json);
        serde_json::from_str(json).unwrap_or_else(|e| panic!("README body {json}: {e}"))
    });
    (method.to_string(), path, body)
}

#[test]
fn the_quick_start_and_the_http_session_answer_as_the_readme_shows() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut running = start(dir.path());
    wait_healthy(&mut running);
    let port = running.port;

    let lines = shell_lines();
    let (mut task, mut thread) = (String::from("tsk_…"), String::from("thr_…"));
    let mut last: Option<(String, Value)> = None;
    let mut session_requests = 0;
    for line in &lines {
        if let Some(expected) = line.strip_prefix("# {") {
            if let Some((request, answer)) = &last {
                assert_shown_answer(&format!("{{{expected}"), answer, request);
            }
            continue;
        }
        if !line.starts_with("curl ") || !line.contains("127.0.0.1:8080") {
            last = None;
            continue;
        }
        if line.starts_with("curl -N ") {
            check_stream_example(port, line, &lines);
            last = None;
            continue;
        }
        let (method, path, body) = curl_request(&with_ids(line, &task, &thread));
        let body = body
            .map(|b| serde_json::from_str(&with_ids(&b.to_string(), &task, &thread)))
            .transpose()
            .unwrap_or_else(|e| panic!("{e}"));
        let answer = http(port, &method, &path, body.as_ref());
        let Some((status, answer)) = answer else {
            panic!("README `{line}`: no answer")
        };
        assert!(
            (200..300).contains(&status),
            "README `{line}` answered {status}: {answer}"
        );
        if let Some(id) = answer["id"].as_str().filter(|id| id.starts_with("tsk_")) {
            task = id.to_string();
        }
        if let Some(id) = answer["thread_id"].as_str() {
            thread = id.to_string();
        }
        if path.starts_with("/api/") {
            session_requests += 1;
        }
        last = Some((line.clone(), answer));
    }
    assert!(session_requests >= 3, "the HTTP session was not found");
}

/// A `curl -N` (event stream) example: subscribe, make a nudge happen, and compare the first
/// event with the README's `# event:` and `# data:` lines.
fn check_stream_example(port: u16, line: &str, lines: &[String]) {
    use std::io::{BufRead, BufReader, Write};
    let (_, path, _) = curl_request(line);
    let shown: Vec<&str> = lines
        .iter()
        .skip_while(|l| l.as_str() != line)
        .skip(1)
        .map_while(|l| l.strip_prefix("# "))
        .collect();
    let shown_event = shown
        .iter()
        .find_map(|l| l.strip_prefix("event: "))
        .unwrap_or_else(|| panic!("README shows no event after `{line}`"));
    let shown_data = shown
        .iter()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or_else(|| panic!("README shows no data after `{line}`"));

    let mut stream =
        std::net::TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap_or_else(|e| panic!("{e}"));
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut reader = BufReader::new(stream.try_clone().unwrap_or_else(|e| panic!("{e}")));
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
        header.clear();
    }
    // Something to see: the README's own task, overdue, nudged.
    let task = common::process::create_task_json(
        port,
        &serde_json::json!({"title": "Pay rent", "deadline": "2025-11-01T09:00:00Z"}),
    );
    let nudge = serde_json::json!({ "task_id": task });
    let _ = http(port, "POST", "/api/nudges", Some(&nudge));

    let mut event = None;
    let mut text = String::new();
    for _ in 0..200 {
        text.clear();
        if reader.read_line(&mut text).map_or(true, |n| n == 0) {
            break;
        }
        let text = text.trim_end();
        if let Some(name) = text.strip_prefix("event: ") {
            event = Some(name.to_string());
        } else if let Some(data) = text.strip_prefix("data: ") {
            if event.as_deref() == Some(shown_event) {
                let data: Value = serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}"));
                assert_shown_answer(shown_data, &data, line);
                return;
            }
        }
    }
    panic!("README `{line}`: no `{shown_event}` event arrived");
}

/// The README is a door: short, naming the contract and the guides, and telling the truth about
/// what a fresh machine needs (the Rust version Cargo.toml asks for, a C compiler, the browser the
/// tests drive and how to name another one).
#[test]
fn the_readme_is_short_and_states_the_true_prerequisites() {
    assert!(
        README.len() <= 12 * 1024,
        "README.md is {} bytes; keep it under 12 KB and move the rest to docs/",
        README.len()
    );
    for document in ["docs/contract.md", "docs/guide.md", "docs/operations.md"] {
        assert!(
            README.contains(document),
            "the README never names {document}"
        );
    }
    let manifest = include_str!("../../Cargo.toml");
    let rust_version = manifest
        .lines()
        .find_map(|line| line.trim().strip_prefix("rust-version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or_else(|| panic!("Cargo.toml states no rust-version"));
    assert!(
        README.contains(&format!("Rust {rust_version}")),
        "Cargo.toml asks for Rust {rust_version}; the README must say so"
    );
    for needed in ["C compiler", "chromium", "CHROMIUM"] {
        assert!(
            README.contains(needed),
            "the README never mentions {needed}"
        );
    }
}

/// The two documents a developer reads whole stay readable whole: the map of the code and the
/// current figures (the history of the figures has its own file, docs/benchmarks-history.md).
#[test]
fn architecture_and_benchmarks_stay_under_30_kb() {
    for (name, text) in [
        ("ARCHITECTURE.md", include_str!("../../ARCHITECTURE.md")),
        ("BENCHMARKS.md", include_str!("../../BENCHMARKS.md")),
    ] {
        assert!(
            text.len() < 30_000,
            "{name} is {} bytes; keep it under 30 KB (state each thing once; history goes to \
             docs/benchmarks-history.md)",
            text.len()
        );
    }
}
