//! `donna chat` as a person uses it: the real binary, its stdin piped, its stdout read as it
//! comes. Task numbers right after `add`, the answers to commands that cannot work, Ctrl-D and
//! Ctrl-C ending cleanly, and a nudge the scheduler sends printed while the console runs.

use crate::common;
use crate::common::Needed;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::process::{create_task, donna, free_port, run, terminate, wait_exit, wait_healthy};
use common::wait_for;
use serde_json::json;

/// A `donna chat` child: its stdin, and its stdout collected as it arrives.
struct Chat {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Arc<Mutex<String>>,
}

impl Drop for Chat {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes a chat config (no model, no quiet hours) with `extra` YAML and returns its path.
fn config(dir: &Path, extra: &str) -> PathBuf {
    let path = dir.join("chat.yaml");
    std::fs::write(
        &path,
        format!("data_dir: data\ntimezone: UTC\nllm:\n  provider: none\nnudges:\n  quiet_hours: \"00:00-00:00\"\n{extra}"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    path
}

impl Chat {
    fn start(config: &Path) -> Chat {
        let mut child = donna()
            .env("RUST_LOG", "warn")
            .args(["chat", "--config"])
            .arg(config)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        let out = Arc::new(Mutex::new(String::new()));
        if let Some(mut stdout) = child.stdout.take() {
            let out = out.clone();
            std::thread::spawn(move || {
                let mut buffer = [0u8; 4096];
                while let Ok(n) = stdout.read(&mut buffer) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut out) = out.lock() {
                        out.push_str(&String::from_utf8_lossy(&buffer[..n]));
                    }
                }
            });
        }
        let chat = Chat {
            stdin: child.stdin.take(),
            child,
            out,
        };
        chat.wait_for("Donna is listening.");
        chat
    }

    fn output(&self) -> String {
        self.out.lock().map(|out| out.clone()).needed()
    }

    /// Waits until stdout contains `needle` (30 s at most) and returns everything so far.
    fn wait_for(&self, needle: &str) -> String {
        wait_for(Duration::from_secs(30), || {
            Some(self.output()).filter(|out| out.contains(needle))
        })
        .unwrap_or_else(|| panic!("no {needle:?} in the console's output:\n{}", self.output()))
    }

    /// Types a line and waits for `expect` to appear after it.
    fn say(&mut self, line: &str, expect: &str) -> String {
        let before = self.output().len();
        if let Some(stdin) = &mut self.stdin {
            writeln!(stdin, "{line}").unwrap_or_else(|e| panic!("{e}"));
            stdin.flush().unwrap_or_else(|e| panic!("{e}"));
        }
        wait_for(Duration::from_secs(30), || {
            let out = self.output();
            Some(out.get(before..).needed().to_string()).filter(|after| after.contains(expect))
        })
        .unwrap_or_else(|| {
            panic!(
                "{line:?}: no {expect:?} after it; the console printed:\n{}",
                self.output()
            )
        })
    }

    /// Closes stdin (Ctrl-D) and returns the exit code.
    fn end_input(&mut self) -> Option<i32> {
        self.stdin = None;
        wait_exit(&mut self.child)
    }
}

#[test]
fn a_task_added_can_be_nudged_by_its_number_at_once_and_answered() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut chat = Chat::start(&config(dir.path(), ""));
    let added = chat.say("add Pay rent", "(nudge 1 to talk about it)");
    assert!(added.contains("added 1. Pay rent [backlog]"), "{added}");
    let second = chat.say("add Water plants", "(nudge 2 to talk about it)");
    assert!(second.contains("added 2. Water plants"), "{second}");
    let nudged = chat.say(
        "nudge 1",
        "donna: Time for 'Pay rent'. How is it going: done, later, or busy?",
    );
    assert!(
        !nudged.contains("[nudge]"),
        "the console's own nudge is not repeated: {nudged}"
    );
    let answered = chat.say("done", "donna: ");
    assert_eq!(chat.end_input(), Some(0));
    let reply = answered
        .lines()
        .find_map(|line| line.split("donna: ").nth(1))
        .needed()
        .to_string();
    assert!(reply.contains("Pay rent"), "{answered}");
    let out = chat.output();
    assert_eq!(
        out.matches(reply.as_str()).count(),
        1,
        "printed once:\n{out}"
    );
}

#[test]
fn commands_that_cannot_work_say_what_they_need() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut chat = Chat::start(&config(dir.path(), ""));
    chat.say(
        "nudge",
        "nudge <number or task id>; type tasks to see numbers",
    );
    chat.say("nudge 99", "no task 99; type tasks to see numbers");
    chat.say(
        "nudge tsk_nope",
        "no task tsk_nope; type tasks to see numbers",
    );
    chat.say("use nope", "no thread nope; type threads to list them");
    // Refused means not switched: a line still goes to the console's own free thread, where
    // free text is answered since issue 13 (it used to say "no thread yet").
    let after = chat.say("hello", "donna: Hi!");
    assert!(!after.contains("nope>"), "{after}");
    assert_eq!(chat.end_input(), Some(0));
}

#[test]
fn end_of_input_ends_the_console_with_a_newline_and_exit_0() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut chat = Chat::start(&config(dir.path(), ""));
    chat.say("tasks", "no open tasks");
    assert_eq!(chat.end_input(), Some(0));
    let out = chat.output();
    assert!(out.ends_with("> \n"), "the prompt's line is ended: {out:?}");
}

#[test]
fn ctrl_c_ends_the_console_with_a_newline_and_exit_0() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut chat = Chat::start(&config(dir.path(), ""));
    chat.say("add Pay rent", "(nudge 1 to talk about it)");
    let interrupted = Command::new("kill")
        .args(["-INT", &chat.child.id().to_string()])
        .status()
        .map(|status| status.success());
    assert_eq!(interrupted.ok(), Some(true));
    assert_eq!(wait_exit(&mut chat.child), Some(0));
    let out = chat.output();
    assert!(out.ends_with("> \n"), "the prompt's line is ended: {out:?}");
}

#[test]
fn a_nudge_the_scheduler_sends_while_the_console_runs_is_printed() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // An overdue task, created over HTTP by `donna run` (the console cannot set a deadline);
    // its nudger waits a day, so the task is still un-nudged when it stops.
    let port = free_port();
    let run_config = dir.path().join("run.yaml");
    std::fs::write(
        &run_config,
        format!("data_dir: data\ntimezone: UTC\nhttp:\n  bind: 127.0.0.1:{port}\nllm:\n  provider: none\nnudges:\n  interval: 24h\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut running = run(&run_config, port);
    wait_healthy(&mut running);
    let task = create_task(port, "Pay rent");
    let body = json!({"deadline": "2020-01-01T09:00:00Z"});
    let patched = common::process::http(port, "PATCH", &format!("/api/tasks/{task}"), Some(&body));
    assert_eq!(patched.map(|(status, _)| status), Some(200));
    assert_eq!(terminate(&mut running.child), Some(0));

    let mut chat = Chat::start(&config(dir.path(), "  interval: 1s\n"));
    let out = chat
        .wait_for("[nudge] 'Pay rent' is overdue (due Wed 1 Jan 2020 at 09:00). Done? (thread ");
    let thread = out
        .split("type: use ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .needed()
        .to_string();
    assert!(thread.starts_with("thr_"), "{out}");
    chat.say(&format!("use {thread}"), &format!("{thread}> "));
    chat.say("done", "donna: ");
    assert_eq!(chat.end_input(), Some(0));
}

#[actix_rt::test]
async fn free_lines_go_to_the_chat_engine_and_a_nudge_reply_still_acts_on_its_task() {
    use common::fake_llm::{out, start_fake_llm};
    let fake = start_fake_llm();
    for answer in ["Sounds like a long day.", "Glad that one is off your list."] {
        fake.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
        fake.push_for("chat", out(json!({"reply_to_user": answer, "actions": []})));
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("chat.yaml");
    std::fs::write(
        &path,
        format!(
            "data_dir: data\ntimezone: UTC\nnudges:\n  quiet_hours: \"00:00-00:00\"\n{}",
            fake.config("ollama", "10s", 2)
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // The console blocks on its pipes: off the runtime that serves the fake model.
    let (vented, done, after) = actix_rt::task::spawn_blocking(move || {
        let mut chat = Chat::start(&path);
        let vented = chat.say("ugh, what a day", "donna: ");
        chat.say("add Pay rent", "(nudge 1 to talk about it)");
        chat.say("nudge 1", "Time for 'Pay rent'");
        let done = chat.say("done", "donna: ");
        // Back to the console's own chat (the nudge opened the task's thread).
        chat.say("use console", "console> ");
        let after = chat.say("that felt good", "donna: ");
        assert_eq!(chat.end_input(), Some(0));
        (vented, done, after)
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(vented.contains("Sounds like a long day."), "{vented}");
    assert!(done.contains("Pay rent"), "{done}");
    assert!(after.contains("Glad that one is off your list."), "{after}");
    assert_eq!(fake.count("chat"), 2, "the nudge reply took no model");
}
