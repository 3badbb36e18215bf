//! `donna import` through the real binary: a file is taken only if every value in it is one
//! Donna's own doors would store (the same checks the HTTP API and the chat call), else exit 2
//! naming the record, the field and why, and nothing changes; only a regular file of at most
//! 256 MiB is read (a FIFO and /dev/zero are refused at once); a done task it writes keeps no
//! open nudge thread.

use crate::common;
use crate::common::Needed;

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use common::process::{self, http, run_once, terminate, text, write_config};
use serde_json::{json, Value};

use super::valid_export;

fn import_command(config: &Path, input: &Path) -> std::process::Command {
    let mut command = process::donna();
    command
        .arg("import")
        .arg("--config")
        .arg(config)
        .arg(input)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn import(config: &Path, input: &Path) -> Output {
    run_once(&[
        OsStr::new("import"),
        OsStr::new("--config"),
        config.as_os_str(),
        input.as_os_str(),
    ])
}

/// `valid_export()` with `change` applied.
fn spoiled(change: impl Fn(&mut Value)) -> Value {
    let mut document = valid_export();
    change(&mut document);
    document
}

#[test]
fn every_value_donna_would_not_store_is_refused_naming_the_record_field_and_why() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let files = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = write_config(dir.path(), process::free_port());
    let task =
        |field: &'static str, value: Value| spoiled(move |d| d["tasks"][0][field] = value.clone());
    let rule = |rrule: &'static str| spoiled(move |d| d["automations"][0]["rrule"] = json!(rrule));
    let chat = |id: &'static str, channel: &'static str, chat_id: &'static str, group: bool| {
        spoiled(move |d| {
            d["threads"][0] = json!({"id": id, "channel": channel, "chat_id": chat_id,
                "is_group": group, "open": true, "created_at": "2026-11-19T10:00:00Z"});
            d["tasks"][0]["origin_thread_id"] = json!(id);
            d["automations"][0]["origin_thread_id"] = json!(id);
        })
    };
    // (what, the file, what stderr must name)
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "an estimate past any time",
            task("estimated_duration_minutes", json!(i64::MAX)),
            "tasks[0].estimated_duration_minutes: estimated_duration_minutes must be between 1 and 100000",
        ),
        (
            "an estimate of 10^15 minutes",
            task("estimated_duration_minutes", json!(1_000_000_000_000_000_i64)),
            "tasks[0].estimated_duration_minutes: estimated_duration_minutes must be between 1 and 100000",
        ),
        (
            "a negative estimate",
            task("estimated_duration_minutes", json!(-5)),
            "tasks[0].estimated_duration_minutes",
        ),
        (
            "a nudge count no + 1 can follow",
            task("nudge_count", json!(i64::MAX)),
            "tasks[0].nudge_count: 9223372036854775807 is not between 0 and 1000000",
        ),
        (
            "a negative nudge count",
            task("nudge_count", json!(-7)),
            "tasks[0].nudge_count: -7 is not between 0 and 1000000",
        ),
        (
            "unanswered nudges past the bound",
            task("unanswered_nudges", json!(1_000_001)),
            "tasks[0].unanswered_nudges",
        ),
        (
            "a 100,000-character description",
            task("description", json!("x".repeat(100_000))),
            "tasks[0].description: description must be at most 4000 characters",
        ),
        (
            "a task id with CR LF",
            task("id", json!("tsk_x\r\nBEGIN:VEVENT\r\nSUMMARY:Injected")),
            "tasks[0].id: must not contain control characters",
        ),
        (
            "a 10 KB creator id",
            task("created_by", json!(format!("{}\u{1}", "p".repeat(10_000)))),
            "tasks[0].created_by: must be at most 200 characters",
        ),
        (
            "eleven tags",
            task("tags", json!(vec!["home"; 11])),
            "tasks[0].tags",
        ),
        (
            "a 10 KB person id with a control character",
            spoiled(|d| d["people"][0]["user_id"] = json!(format!("{}\u{7}", "o".repeat(10_000)))),
            "people[0].user_id: must be at most 200 characters",
        ),
        (
            "a person id with a control character",
            spoiled(|d| d["people"][0]["user_id"] = json!("own\ner")),
            "people[0].user_id: must not contain control characters",
        ),
        (
            "a reminder every second",
            rule("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30"),
            "automations[0].rrule: the recurrence rule \"FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30\" is not one Donna keeps: a reminder repeats at most daily",
        ),
        (
            "a reminder every minute",
            rule("FREQ=MINUTELY"),
            "automations[0].rrule",
        ),
        (
            "a reminder every hour",
            rule("FREQ=HOURLY"),
            "automations[0].rrule",
        ),
        (
            "a reminder at every hour of the day",
            rule("FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12;BYMINUTE=0;BYSECOND=0"),
            "a reminder has one time of day",
        ),
        (
            "a reminder that never occurs",
            rule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
            "automations[0].rrule: the recurrence rule \"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;BYHOUR=9;BYMINUTE=0;BYSECOND=0\" has no occurrence after its start",
        ),
        (
            "a reminder counting a million times",
            rule("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=1000000"),
            "a reminder counts at most 1000 times",
        ),
        (
            "a rule with a line break",
            rule("FREQ=DAILY;BYHOUR=9\r\nBEGIN:VEVENT"),
            "automations[0].rrule",
        ),
        (
            "the web page's chat as a Discord chat",
            chat("web", "discord", "web", false),
            "threads[0].id: \"web\" is not a Discord channel id",
        ),
        (
            "the web page's chat as a group",
            chat("web", "local", "web", true),
            "threads[0].id: \"web\" is Donna's own chat",
        ),
        (
            "the console's chat under another chat id",
            chat("console", "local", "elsewhere", false),
            "threads[0].id: \"console\" is Donna's own chat",
        ),
        (
            "a local chat with a Discord channel's id",
            chat("123456789012345678", "local", "123456789012345678", false),
            "threads[0].id: \"123456789012345678\" is a Discord channel's id",
        ),
        (
            "a Discord chat whose id is not Discord's",
            chat("thr_1", "discord", "thr_1", false),
            "threads[0].id: \"thr_1\" is not a Discord channel id",
        ),
        (
            "a chat id with a line break",
            spoiled(|d| d["threads"][0]["chat_id"] = json!("family\nchat")),
            "threads[0].chat_id: must not contain control characters",
        ),
    ];
    for (what, document, named) in &cases {
        let file = files.path().join("spoiled.json");
        std::fs::write(&file, document.to_string()).unwrap_or_else(|e| panic!("{e}"));
        let output = import(&config, &file);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert!(stderr.contains(named), "{what}: {named}\n{stderr}");
        assert!(stderr.contains("nothing changed"), "{what}: {stderr}");
        assert!(
            !process::database(dir.path()).exists(),
            "{what}: a refused file created a database"
        );
    }
    // The file they were spoiled from goes in: the checks are the doors', not stricter.
    let file = files.path().join("valid.json");
    std::fs::write(&file, valid_export().to_string()).unwrap_or_else(|e| panic!("{e}"));
    let output = import(&config, &file);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn only_a_regular_file_of_at_most_256_mib_is_read_and_a_fifo_never_blocks() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let files = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = write_config(dir.path(), process::free_port());
    let fifo = files.path().join("export.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    // A file one byte over the bound (sparse: nothing is written).
    let huge = files.path().join("huge.json");
    let sparse = std::fs::File::create(&huge).and_then(|file| file.set_len(256 * 1024 * 1024 + 1));
    assert!(sparse.is_ok(), "{sparse:?}");
    // (the input, what stderr must say)
    let cases = [
        (fifo.as_path(), "is a FIFO (named pipe), not a regular file"),
        (
            Path::new("/dev/zero"),
            "is a character device, not a regular file",
        ),
        (files.path(), "is a directory, not a regular file"),
        (
            huge.as_path(),
            "larger than the limit of 256 MiB (268435456 bytes) for an import file",
        ),
    ];
    for (input, said) in cases {
        let mut child = import_command(&config, input)
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        // Before, the FIFO blocked the import forever and /dev/zero was read until memory ran
        // out: each must end at once.
        let code = process::wait_exit_within(&mut child, Duration::from_secs(20));
        if code.is_none() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let output = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        let stderr = text(&output.stderr);
        assert_eq!(code, Some(2), "{}: {stderr}", input.display());
        assert!(stderr.contains(said), "{}: {stderr}", input.display());
        assert!(stderr.contains("nothing changed"), "{stderr}");
        assert!(!process::database(dir.path()).exists());
    }
}

/// A task nudged (so it has an open nudge thread) in a running Donna, exported to `out`; the
/// task's id, and the config and port Donna ran with.
fn nudged_export(dir: &Path, out: &Path) -> (String, std::path::PathBuf, u16) {
    let mut running = process::start(dir);
    process::wait_healthy(&mut running);
    let task = process::create_task(running.port, "Pay rent");
    let nudged = http(
        running.port,
        "POST",
        "/api/nudges",
        Some(&json!({"task_id": task})),
    );
    let Some((201, nudge)) = nudged else {
        panic!("nudge: {nudged:?}");
    };
    let thread = nudge["thread_id"].clone();
    let shown = http(running.port, "GET", &format!("/api/tasks/{task}"), None);
    assert!(
        matches!(&shown, Some((200, view)) if view["open_thread_id"] == thread),
        "{shown:?}"
    );
    let exported = run_once(&[
        OsStr::new("export"),
        OsStr::new("--config"),
        running.config.as_os_str(),
        out.as_os_str(),
    ]);
    assert_eq!(
        exported.status.code(),
        Some(0),
        "{}",
        text(&exported.stderr)
    );
    assert_eq!(terminate(&mut running.child), Some(0));
    (task, running.config.clone(), running.port)
}

#[test]
fn a_done_task_an_import_writes_keeps_no_open_nudge_thread() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let files = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = files.path().join("export.json");
    let (task, config, port) = nudged_export(dir.path(), &out);
    // The same task, done (as another Donna of the person's would export it).
    let mut document: Value = serde_json::from_str(&std::fs::read_to_string(&out).needed())
        .unwrap_or_else(|e| panic!("{e}"));
    let Some(exported) = document["tasks"]
        .as_array_mut()
        .and_then(|tasks| tasks.iter_mut().find(|t| t["id"] == json!(task)))
    else {
        panic!("the task is not in the export: {document}");
    };
    exported["status"] = json!("done");
    exported["completed_at"] = json!("2026-11-27T10:00:00Z");
    let done = files.path().join("done.json");
    std::fs::write(&done, document.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let output = import(&config, &done);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("tasks: 0 added, 1 updated"));

    let mut running = process::run(&config, port);
    process::wait_healthy(&mut running);
    let shown = http(running.port, "GET", &format!("/api/tasks/{task}"), None);
    assert!(
        matches!(&shown, Some((200, view)) if view["status"] == "done" && view["open_thread_id"].is_null()),
        "{shown:?}"
    );
    assert_eq!(terminate(&mut running.child), Some(0));
}
