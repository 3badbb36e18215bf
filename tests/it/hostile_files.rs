//! Config and rule files that are not what they should be: a `.env` file, /etc/passwd, a FIFO,
//! /dev/zero, a 2 MiB file. Each is refused naming the key and the reason; the file's contents
//! never appear in /health, in the log or on the terminal; a reload never freezes turns or a
//! stop. The real binary throughout (`check-config`, `run`, a reload by editing the config).

use crate::common;
use crate::common::Fields;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::process::{self, donna, health, http, terminate, wait_healthy, Running};
use common::{wait_for, wait_until};
use serde_json::{json, Value};

/// What a `.env` file holds: the secret must never be shown anywhere.
const SECRET: &str = "sk-very-secret-123";
const RULE_KEYS: [&str; 3] = ["intents_file", "actions_file", "chat_actions_file"];

/// Secret-looking files of several shapes, in `dir`: (name, contents).
fn secret_files(dir: &Path) -> Vec<PathBuf> {
    let files = [
        ("secret.env", format!("API_KEY={SECRET}\n")),
        (
            "exported.env",
            format!("export DB_USER=admin\nexport API_KEY={SECRET}\n"),
        ),
        ("secret.yaml", format!("API_KEY: {SECRET}\n")),
        ("keyed.json", format!("{{\"{SECRET}\": 1}}")),
        (
            "passwd",
            format!(
                "root:x:0:0:root:/root:/bin/bash\nalice:{SECRET}:1000:1000::/home/alice:/bin/sh\n"
            ),
        ),
        ("list.yaml", format!("- {SECRET}\n- another line\n")),
    ];
    files
        .iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
            path
        })
        .collect()
}

fn check_config(config: &Path) -> (Option<i32>, String) {
    let output = donna()
        .arg("check-config")
        .arg("-c")
        .arg(config)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let all = format!(
        "{}{}",
        process::text(&output.stdout),
        process::text(&output.stderr)
    );
    (output.status.code(), all)
}

#[test]
fn check_config_refuses_a_secret_file_as_any_rule_file_or_as_the_config_without_showing_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for secret in secret_files(dir.path()) {
        for key in RULE_KEYS {
            let config = dir.path().join("donna.yaml");
            std::fs::write(
                &config,
                format!("{key}: {}\nllm:\n  provider: none\n", secret.display()),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            let (code, output) = check_config(&config);
            assert_eq!(code, Some(2), "{key} = {}: {output}", secret.display());
            assert!(
                output.contains(key) && output.contains(&secret.display().to_string()),
                "the message names the key and the file: {output}"
            );
            assert!(
                !output.contains(SECRET),
                "{key} = {}: {output}",
                secret.display()
            );
            assert!(!output.contains("alice"), "{output}");
        }
        let (code, output) = check_config(&secret);
        assert_eq!(code, Some(2), "{}: {output}", secret.display());
        assert!(
            !output.contains(SECRET),
            "the config {}: {output}",
            secret.display()
        );
        assert!(!output.contains("alice"), "{output}");
    }
}

#[test]
fn run_refuses_a_secret_rule_file_at_startup_without_showing_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let secrets = secret_files(dir.path());
    for (secret, key) in secrets.iter().zip(RULE_KEYS.iter().cycle()) {
        let mut running =
            process::start_with(dir.path(), &format!("{key}: {}\n", secret.display()), &[]);
        let code = process::wait_exit(&mut running.child);
        let stderr = running.stderr();
        assert!(
            code.is_some_and(|code| code != 0),
            "{key}: {code:?} {stderr}"
        );
        assert!(
            stderr.contains(key) && stderr.contains(&secret.display().to_string()),
            "{stderr}"
        );
        assert!(!stderr.contains(SECRET), "{key}: {stderr}");
    }
    // The config itself a secret file.
    let output = donna()
        .args(["run", "--config"])
        .arg(&secrets[0])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(output.status.code(), Some(0));
    let all = format!(
        "{}{}",
        process::text(&output.stdout),
        process::text(&output.stderr)
    );
    assert!(!all.contains(SECRET), "{all}");
}

/// Rewrites the config of `running` with `extra` lines, keeping its port and data dir, and
/// asks for a reload at once (SIGHUP; the poll would see it within 2 s too).
fn rewrite(running: &Running, extra: &str) {
    let text = format!(
        "data_dir: data\ntimezone: UTC\nhttp:\n  bind: 127.0.0.1:{}\nllm:\n  provider: none\n{extra}",
        running.port
    );
    std::fs::write(&running.config, text).unwrap_or_else(|e| panic!("{e}"));
    hang_up(running);
}

fn hang_up(running: &Running) {
    let _ = std::process::Command::new("kill")
        .args(["-HUP", &running.child.id().to_string()])
        .status();
}

/// Waits (up to 20 s) until /health's `config.error` satisfies `wanted`; returns the body.
fn wait_config_error(port: u16, wanted: impl Fn(&str) -> bool) -> Value {
    let mut last = Value::Null;
    let matched = wait_for(Duration::from_secs(20), || {
        let (_, body) = health(port)?;
        if body["config"]["error"].as_str().is_some_and(&wanted) {
            return Some(body);
        }
        last = body;
        None
    });
    matched.unwrap_or_else(|| panic!("config.error never matched: {last}"))
}

/// A free thread and a message to it answered (rules, no model): the turn pipeline works.
fn a_turn_is_answered(port: u16) {
    let opened = http(port, "POST", "/api/threads", Some(&json!({})));
    let Some((201, thread)) = opened else {
        panic!("open a thread: {opened:?}");
    };
    let id = thread["thread_id"].text();
    let answer = http(
        port,
        "POST",
        "/api/messages",
        Some(&json!({"thread_id": id, "user_id": "owner", "text": "add buy milk"})),
    );
    assert!(
        matches!(answer, Some((200, ref result)) if result["reply"].is_string()),
        "{answer:?}"
    );
}

#[test]
fn a_reload_refuses_secret_files_and_shows_their_contents_nowhere() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let secrets = secret_files(dir.path());
    let mut running = process::start(dir.path());
    wait_healthy(&mut running);
    for secret in &secrets {
        for key in RULE_KEYS {
            rewrite(&running, &format!("{key}: {}\n", secret.display()));
            let body = wait_config_error(running.port, |error| {
                error.contains(key) && error.contains(&secret.display().to_string())
            });
            assert!(!body.to_string().contains(SECRET), "{body}");
            // A good config again, so the next refusal is a new one.
            rewrite(&running, "");
            wait_config_error_cleared(running.port);
        }
        // The config file itself replaced by the secret file.
        std::fs::copy(secret, &running.config).unwrap_or_else(|e| panic!("{e}"));
        hang_up(&running);
        let body = wait_config_error(running.port, |error| error.contains("config"));
        assert!(!body.to_string().contains(SECRET), "{body}");
        rewrite(&running, "");
        wait_config_error_cleared(running.port);
    }
    a_turn_is_answered(running.port);
    assert_eq!(terminate(&mut running.child), Some(0));
    let log = running.stderr();
    assert!(log.contains("config edit refused"), "{log}");
    assert!(!log.contains(SECRET), "the log shows the secret:\n{log}");
    assert!(!log.contains("alice"), "the log shows the file:\n{log}");
}

fn wait_config_error_cleared(port: u16) {
    let cleared = wait_until(Duration::from_secs(20), || {
        health(port).is_some_and(|(_, body)| body["config"]["error"].is_null())
    });
    assert!(cleared, "config.error was never cleared");
}

#[test]
fn a_fifo_or_dev_zero_as_a_rule_file_is_refused_turns_go_on_and_sigterm_stops_at_once() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let fifo = dir.path().join("intents.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    let mut running = process::start(dir.path());
    wait_healthy(&mut running);

    rewrite(&running, &format!("intents_file: {}\n", fifo.display()));
    wait_config_error(running.port, |error| error.contains("FIFO"));
    a_turn_is_answered(running.port);

    rewrite(&running, "actions_file: /dev/zero\n");
    wait_config_error(running.port, |error| error.contains("character device"));
    a_turn_is_answered(running.port);

    // Still pointing at the FIFO while the poll keeps looking: a stop is prompt.
    rewrite(
        &running,
        &format!("chat_actions_file: {}\n", fifo.display()),
    );
    wait_config_error(running.port, |error| error.contains("FIFO"));
    let asked = Instant::now();
    assert_eq!(terminate(&mut running.child), Some(0));
    let took = asked.elapsed();
    assert!(took < Duration::from_secs(10), "SIGTERM took {took:?}");
}

#[test]
fn a_two_mib_rule_file_is_refused_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let big = dir.path().join("big.yaml");
    // Valid YAML (comments) all the way: only its size is wrong.
    let line = "# a comment line of a rule file that grew far too large\n";
    let text = line.repeat(2 * 1024 * 1024 / line.len() + 1);
    std::fs::write(&big, text).unwrap_or_else(|e| panic!("{e}"));

    let config = dir.path().join("check.yaml");
    std::fs::write(
        &config,
        format!("intents_file: {}\nllm:\n  provider: none\n", big.display()),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (code, output) = check_config(&config);
    assert_eq!(code, Some(2), "{output}");
    assert!(output.contains("1 MiB"), "{output}");
    // The config itself too large.
    let (code, output) = check_config(&big);
    assert_eq!(code, Some(2), "{output}");
    assert!(output.contains("1 MiB"), "{output}");

    let mut running = process::start(dir.path());
    wait_healthy(&mut running);
    rewrite(&running, &format!("actions_file: {}\n", big.display()));
    let body = wait_config_error(running.port, |error| error.contains("1 MiB"));
    assert!(
        body["config"]["error"]
            .as_str()
            .is_some_and(|error| error.contains("actions_file")),
        "{body}"
    );
    a_turn_is_answered(running.port);
    assert_eq!(terminate(&mut running.child), Some(0));
}
