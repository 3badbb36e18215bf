//! Configuration as a person meets it on the command line: check-config messages in plain
//! words (no Rust type names, no doubled prefix, a tab named as a tab), `DONNA_CONFIG`,
//! `donna config default`, and `-c/--config` documented in every subcommand.

use crate::common;
use crate::common::{Fields, Needed};

use common::process::donna;
use std::path::Path;
use std::process::Output;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    path
}

fn check_config(yaml: &str) -> Output {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = write(dir.path(), "donna.yaml", yaml);
    donna()
        .args(["check-config", "--config"])
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// `donna check-config` with the config file `path` (None: no option) and `env` set.
fn check_file(path: Option<&Path>, env: &[(&str, &std::ffi::OsStr)]) -> Output {
    let mut command = donna();
    command.arg("check-config");
    if let Some(path) = path {
        command.arg("-c").arg(path);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap_or_else(|e| panic!("{e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

#[test]
fn check_config_says_what_is_wrong_in_plain_words() {
    // (the file, what the message must say)
    let table = [
        (
            "llm:\n  max_concurrency: -3\n",
            "config error: llm.max_concurrency: expected a whole number (0 or more), got -3 at line 2",
        ),
        (
            "llm:\n  max_concurrency: lots\n",
            "llm.max_concurrency: expected a whole number (0 or more), got \"lots\"",
        ),
        (
            "http:\n  bind: [1, 2]\n",
            "http.bind: expected a string, got a list",
        ),
        (
            "llm:\n  provider: chatgpt\n",
            "llm.provider: unknown value \"chatgpt\"; expected one of: ollama, openai, none",
        ),
        (
            "llm:\n  modle: llama3\n",
            "llm.modle: unknown key \"modle\"; expected one of: provider,",
        ),
        (
            "llm:\n\tprovider: none\n",
            "line 2 is indented with a tab; YAML indents with spaces only",
        ),
        (
            "http:\n  bind: nope\n",
            "config error: http.bind: invalid address \"nope\"",
        ),
        (
            "llm: 5\n",
            "llm: expected a section of key: value lines, got 5",
        ),
        (
            "http:\n  web_user_id: \"  \"\n",
            "config error: http.web_user_id: must not be empty",
        ),
    ];
    for (yaml, expected) in table {
        let output = check_config(yaml);
        let message = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{yaml:?}: {message}");
        assert!(message.contains(expected), "{yaml:?}:\n{message}");
        assert!(!message.contains("config: config"), "{message}");
        assert_eq!(message.matches("config error").count(), 1, "{message}");
        for rust in ["usize", "u64", "u32", "struct ", "`"] {
            assert!(
                !message.contains(rust),
                "{yaml:?} leaks {rust:?}: {message}"
            );
        }
    }
}

#[test]
fn durations_that_would_overflow_are_refused_naming_the_key_and_the_maximum() {
    // (the file, the key path, the range it names)
    let table = [
        (
            "plans:\n  expiry: 100000000d\n",
            "plans.expiry",
            "at most 365d",
        ),
        ("plans:\n  expiry: 400d\n", "plans.expiry", "at most 365d"),
        (
            "undo:\n  window: 99999999y\n",
            "undo.window",
            "at most 365d",
        ),
        (
            "reschedule:\n  later: 5000y\n",
            "reschedule.later",
            "at most 365d",
        ),
        (
            "chat:\n  session_ttl: 100000000d\n",
            "chat.session_ttl",
            "at most 365d",
        ),
        (
            "memory:\n  retention: 100000000d\n",
            "memory.retention",
            "at most 3650d",
        ),
        (
            "nudges:\n  min_gap: 100000000d\n",
            "nudges.min_gap",
            "at most 365d",
        ),
        (
            "nudges:\n  interval: 100000000d\n",
            "nudges.interval",
            "at most 1d",
        ),
        (
            "llm:\n  provider: none\n  timeout: 100000000d\n",
            "llm.timeout",
            "at most 1h",
        ),
        (
            "http:\n  event_stream_idle: 1000d\n",
            "http.event_stream_idle",
            "at most 7d",
        ),
        (
            "shutdown:\n  grace: 100000000d\n",
            "shutdown.grace",
            "at most 1h",
        ),
    ];
    for (yaml, key, range) in table {
        let output = check_config(yaml);
        let message = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{yaml:?}: {message}");
        assert!(
            message.contains(&format!("config error: {key}: ")) && message.contains(range),
            "{yaml:?}:\n{message}"
        );
    }
    // At the maximum it passes.
    let output = check_config("llm:\n  provider: none\nplans:\n  expiry: 365d\n");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn donna_config_names_the_file_when_no_option_does_and_the_option_wins() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let bad = write(dir.path(), "bad.yaml", "llm:\n  provider: chatgpt\n");
    let good = write(dir.path(), "good.yaml", "llm:\n  provider: none\n");

    let from_env = check_file(None, &[("DONNA_CONFIG", bad.as_os_str())]);
    assert_eq!(from_env.status.code(), Some(2));
    assert!(
        text(&from_env.stderr).contains("llm.provider"),
        "{from_env:?}"
    );

    let option_wins = check_file(Some(&good), &[("DONNA_CONFIG", bad.as_os_str())]);
    assert!(option_wins.status.success(), "{option_wins:?}");
    assert!(
        text(&option_wins.stdout).contains(&format!("config ok: {}", good.display())),
        "{option_wins:?}"
    );

    let neither = check_file(None, &[]);
    assert!(text(&neither.stdout).contains("config ok (all defaults)"));
}

#[test]
fn config_default_prints_a_commented_file_that_check_config_accepts() {
    let output = donna()
        .args(["config", "default"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let printed = text(&output.stdout);
    assert_eq!(printed, include_str!("../../config/donna.yaml"));
    assert!(
        printed
            .lines()
            .filter(|l| l.trim_start().starts_with('#'))
            .count()
            > 20
    );

    let checked = check_config(&printed);
    assert!(checked.status.success(), "{checked:?}");
}

#[test]
fn every_subcommand_documents_the_config_option_and_its_variable() {
    for subcommand in ["run", "chat", "check-config", "backup"] {
        let output = donna()
            .args([subcommand, "--help"])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let help = text(&output.stdout);
        assert!(
            help.contains("-c, --config <FILE>") && help.contains("DONNA_CONFIG"),
            "{subcommand}: {help}"
        );
        assert!(
            help.contains("every key is optional"),
            "{subcommand}: {help}"
        );
    }
}

#[test]
fn the_shipped_service_and_container_configs_are_valid_and_the_container_needs_a_token() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let service = check_file(Some(&root.join("deploy/donna.yaml")), &[]);
    assert!(service.status.success(), "{service:?}");

    let container = root.join("deploy/docker.yaml");
    let without_token = check_file(Some(&container), &[]);
    assert_eq!(without_token.status.code(), Some(2));
    assert!(
        text(&without_token.stderr).contains("DONNA_API_TOKEN"),
        "{without_token:?}"
    );
    let with_token = check_file(
        Some(&container),
        &[("DONNA_API_TOKEN", "a-long-enough-secret".as_ref())],
    );
    assert!(with_token.status.success(), "{with_token:?}");
}

#[test]
fn a_model_server_over_https_is_checked_without_a_crash() {
    // reqwest brings no TLS provider of its own: building the model client must not panic.
    let output = check_config(
        "llm:\n  provider: openai\n  base_url: https://models.example.com/v1\n  model: any\n",
    );
    assert!(output.status.success(), "{output:?}");
}

#[test]
fn a_chat_actions_file_without_a_safety_level_stops_check_config_naming_the_key() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let shipped = include_str!("../../config/chat_actions.yaml");
    // (the file's change, what the message must say)
    let table = [
        (
            shipped.replace(
                "    safety: write\n    description: Mark a task as completed.",
                "    description: Mark a task as completed.",
            ),
            "actions.mark_done.safety: missing",
        ),
        (
            shipped.replace(
                "  cancel_task:\n    safety: confirm",
                "  cancel_task:\n    safety: sometimes",
            ),
            "actions.cancel_task.safety: unknown level \"sometimes\"",
        ),
        (
            shipped.replace(
                "  query_tasks:\n    safety: read",
                "  query_tasks:\n    safety: write\n    flavour: mild",
            ),
            "actions.query_tasks",
        ),
    ];
    for (actions, expected) in table {
        assert_ne!(actions, shipped, "the change applies: {expected}");
        write(dir.path(), "chat_actions.yaml", &actions);
        let config = write(
            dir.path(),
            "donna.yaml",
            "llm:\n  provider: none\nchat_actions_file: chat_actions.yaml\n",
        );
        let output = check_file(Some(&config), &[]);
        let stderr = text(&output.stderr);
        assert!(!output.status.success(), "{expected}: {stderr}");
        assert!(stderr.contains("chat_actions"), "{stderr}");
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
    write(dir.path(), "chat_actions.yaml", shipped);
    let config = write(
        dir.path(),
        "donna.yaml",
        "llm:\n  provider: none\nchat_actions_file: chat_actions.yaml\n",
    );
    let output = check_file(Some(&config), &[]);
    assert!(output.status.success(), "{}", text(&output.stderr));
}

#[test]
fn donna_run_reads_the_config_again_on_sighup_and_when_the_file_changes() {
    use common::process::{health, start};
    use common::wait_for;
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let running = start(dir.path());
    let until = |what: &str, check: &dyn Fn(&serde_json::Value) -> bool| {
        let found = wait_for(Duration::from_secs(15), || {
            health(running.port)
                .map(|(_, body)| body["config"].clone())
                .filter(|config| check(config))
        });
        found.unwrap_or_else(|| panic!("{what}: timed out"))
    };
    let first = until("up", &|config| config["loaded_at"].is_string());
    // SIGHUP reads it again though nothing changed: the time it was loaded moves (sent again
    // on each look, in case the first came within the same millisecond).
    let loaded_at = first["loaded_at"].clone();
    let pid = running.child.id().to_string();
    until("SIGHUP", &|config| {
        let moved = config["loaded_at"] != loaded_at;
        if !moved {
            let _ = std::process::Command::new("kill")
                .args(["-HUP", &pid])
                .status();
        }
        moved
    });
    // An invalid edit is seen within the poll interval, refused and named.
    let yaml = std::fs::read_to_string(&running.config).needed();
    std::fs::write(&running.config, format!("{yaml}chat:\n  persona: pirate\n"))
        .unwrap_or_else(|e| panic!("{e}"));
    let refused = until("the edit", &|config| config["error"].is_string());
    assert!(
        refused["error"].text().contains("chat.persona"),
        "{refused}"
    );
    // Fixed: in force, the error gone.
    std::fs::write(
        &running.config,
        format!("{yaml}chat:\n  persona: neutral\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    until("the fix", &|config| config["error"].is_null());
}
