//! `donna export` and `donna import` through the real binary: an export taken while `donna
//! run` serves, imported into an empty data dir, gives the same tasks, automations, preferences
//! and people; importing twice changes nothing; a newer version, malformed JSON, a wrong type or
//! an unknown zone exits 2 naming the JSON path and changes nothing; an import while Donna runs
//! is refused with a clear message.

use crate::common;
use crate::common::Fields;

use std::ffi::OsStr;
use std::path::Path;
use std::process::Output;

use common::process::{self, http, run_once, terminate, text, write_config};
use serde_json::{json, Value};

fn donna(args: &[&OsStr]) -> Output {
    run_once(args)
}

fn export(config: &Path, out: &Path) -> Output {
    donna(&[
        OsStr::new("export"),
        OsStr::new("--config"),
        config.as_os_str(),
        out.as_os_str(),
    ])
}

fn import(config: &Path, input: &Path) -> Output {
    donna(&[
        OsStr::new("import"),
        OsStr::new("--config"),
        config.as_os_str(),
        input.as_os_str(),
    ])
}

/// An export's content without the moment it was taken.
fn content(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    if let Some(object) = value.as_object_mut() {
        object.remove("exported_at");
    }
    value
}

fn ok(output: &Output, what: &str) -> String {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{what}: {}\n{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    text(&output.stdout)
}

fn post(port: u16, path: &str, body: Value) -> Value {
    match http(port, "POST", path, Some(&body)) {
        Some((200 | 201, value)) => value,
        other => panic!("POST {path} {body}: {other:?}"),
    }
}

/// A Donna with a little of everything: tasks (one captured in a chat, one done, one with a
/// deadline), an automation in a person's zone, a learned preference, two people.
fn fill(port: u16) {
    let thread = post(port, "/api/threads", json!({}))["thread_id"].clone();
    let say = |text: &str| {
        post(
            port,
            "/api/messages",
            json!({"thread_id": thread, "user_id": "owner", "text": text}),
        )
    };
    assert_eq!(say("my time zone is Europe/Berlin")["path"], "chat");
    let captured = say("remind me to renew the passport tomorrow at 9am");
    assert_eq!(captured["path"], "task_created", "{captured}");
    let passport = captured["results"][0]["task_id"].text().to_string();
    // Filed under work within a day: a learned preference.
    let patched = http(
        port,
        "PATCH",
        &format!("/api/tasks/{passport}"),
        Some(&json!({"domain": "work"})),
    );
    assert!(matches!(patched, Some((200, _))), "{patched:?}");
    assert_eq!(
        say("every monday at 9 remind me to submit the timesheet")["path"],
        "automation_proposed"
    );
    assert_eq!(say("yes")["path"], "plan_confirmed");
    process::create_task_json(
        port,
        &json!({"title": "File taxes", "deadline": "2030-04-30T17:00:00Z", "priority": 4}),
    );
    let done = process::create_task(port, "Old errand");
    let closed = http(
        port,
        "PATCH",
        &format!("/api/tasks/{done}"),
        Some(&json!({"status": "done"})),
    );
    assert!(matches!(closed, Some((200, _))), "{closed:?}");
    let put = http(
        port,
        "PUT",
        "/api/people/friend",
        Some(
            &json!({"timezone": "Asia/Tokyo", "quiet_hours": "23:30-06:30", "working_hours": "10:00-16:00"}),
        ),
    );
    assert!(matches!(put, Some((200, _))), "{put:?}");
}

#[test]
fn an_export_taken_while_donna_runs_imports_into_an_empty_data_dir_as_the_same_data_once() {
    let source = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let target = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let files = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut running = process::start(source.path());
    process::wait_healthy(&mut running);
    fill(running.port);
    let exported = files.path().join("donna-export.json");
    // Online: donna run holds the data-dir lock meanwhile.
    let said = ok(&export(&running.config, &exported), "export while running");
    assert!(
        said.contains("3 tasks, 1 automations, 1 preferences, 2 people"),
        "{said}"
    );
    // Never over an existing file.
    let again = export(&running.config, &exported);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stderr));
    assert!(text(&again.stderr).contains("already exists"));
    // An import while Donna runs is refused, clearly, and changes nothing.
    let refused = import(&running.config, &exported);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("stop Donna first"),
        "{}",
        text(&refused.stderr)
    );
    assert_eq!(terminate(&mut running.child), Some(0));

    let empty = write_config(target.path(), process::free_port());
    let said = ok(&import(&empty, &exported), "import");
    assert!(
        said.contains("tasks: 3 added, 0 updated, 0 unchanged"),
        "{said}"
    );
    let round = files.path().join("round-trip.json");
    ok(&export(&empty, &round), "export of the import");
    let (before, after) = (content(&exported), content(&round));
    for key in ["tasks", "automations", "preferences", "people", "threads"] {
        assert_eq!(before[key], after[key], "{key}");
    }
    assert_eq!(before["tasks"].as_array().map(Vec::len), Some(3));
    assert_eq!(before["people"].as_array().map(Vec::len), Some(2));
    assert_eq!(before["automations"][0]["timezone"], "Europe/Berlin");
    // "every monday at 9": a time the person said; on its schedule.
    assert_eq!(before["automations"][0]["time_stated"], true);
    assert_eq!(before["automations"][0]["repeat_from"], "schedule");
    assert_eq!(before["preferences"][0]["value"], "work");

    // Twice: nothing changes.
    let said = ok(&import(&empty, &exported), "second import");
    for kind in ["tasks", "automations", "preferences", "people"] {
        assert!(
            said.contains(&format!("{kind}: 0 added, 0 updated")),
            "{said}"
        );
    }
    let twice = files.path().join("twice.json");
    ok(&export(&empty, &twice), "export after the second import");
    assert_eq!(content(&twice), after);

    // The imported Donna serves what was imported, nudges included.
    let mut imported = process::start(target.path());
    process::wait_healthy(&mut imported);
    let listed = http(imported.port, "GET", "/api/tasks", None);
    assert!(
        matches!(&listed, Some((200, tasks)) if tasks.as_array().map(Vec::len) == Some(3)),
        "{listed:?}"
    );
    let person = http(imported.port, "GET", "/api/people/owner", None);
    assert!(
        matches!(&person, Some((200, p)) if p["timezone"] == "Europe/Berlin"),
        "{person:?}"
    );
    let friend = http(imported.port, "GET", "/api/people/friend", None);
    assert!(
        matches!(&friend, Some((200, p)) if p["quiet_hours"] == "23:30-06:30" && p["working_hours"] == "10:00-16:00"),
        "{friend:?}"
    );
    assert_eq!(terminate(&mut imported.child), Some(0));
}

#[test]
fn a_newer_version_or_a_malformed_file_exits_2_naming_the_problem_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let files = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = write_config(dir.path(), process::free_port());
    let valid = json!({
        "version": 1,
        "exported_at": "2026-11-27T10:00:00Z",
        "tasks": [{
            "id": "tsk_one", "title": "Pay rent", "description": null, "domain": "personal",
            "priority": 2, "status": "backlog", "estimated_duration_minutes": null,
            "deadline": null, "scheduled_start": null, "completed_at": null,
            "snoozed_until": null, "reschedule_count": 0, "nudge_count": 0,
            "unanswered_nudges": 0, "last_nudged_at": null,
            "created_at": "2026-11-27T10:00:00Z", "updated_at": "2026-11-27T10:00:00Z"
        }],
        "automations": [],
        "preferences": [],
        "people": [{"user_id": "owner", "timezone": "Europe/Berlin", "updated_at": "2026-11-27T10:00:00Z"}]
    });
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "newer",
            json!({"version": 2, "tasks": []}).to_string(),
            "version: 2 is newer",
        ),
        (
            "not json",
            "{\"version\": 1, \"tasks\": [".to_string(),
            "(file): not JSON",
        ),
        (
            "not an object",
            "[1, 2]".to_string(),
            "(file): not a JSON object",
        ),
        (
            "no version",
            json!({"tasks": []}).to_string(),
            "version: missing",
        ),
        (
            "wrong type",
            {
                let mut bad = valid.clone();
                bad["tasks"][0]["priority"] = json!("high");
                bad.to_string()
            },
            "tasks[0].priority: invalid type",
        ),
        (
            "unknown status",
            {
                let mut bad = valid.clone();
                bad["tasks"][0]["status"] = json!("finished");
                bad.to_string()
            },
            "tasks[0].status",
        ),
        (
            "out of range",
            {
                let mut bad = valid.clone();
                bad["tasks"][0]["priority"] = json!(9);
                bad.to_string()
            },
            "tasks[0].priority: priority must be between 1 and 5",
        ),
        (
            "unknown zone",
            {
                let mut bad = valid.clone();
                bad["people"][0]["timezone"] = json!("Mars/Olympus");
                bad.to_string()
            },
            "people[0].timezone",
        ),
        (
            "bad quiet hours",
            {
                let mut bad = valid.clone();
                bad["people"][0]["quiet_hours"] = json!("all night");
                bad.to_string()
            },
            "people[0].quiet_hours",
        ),
        (
            "empty working hours",
            {
                let mut bad = valid.clone();
                bad["people"][0]["working_hours"] = json!("09:00-09:00");
                bad.to_string()
            },
            "people[0].working_hours",
        ),
        (
            "missing list",
            {
                let mut bad = valid.clone();
                bad.as_object_mut().map(|o| o.remove("automations"));
                bad.to_string()
            },
            "missing field `automations`",
        ),
    ];
    for (name, body, named) in &cases {
        let file = files
            .path()
            .join(format!("{}.json", name.replace(' ', "-")));
        std::fs::write(&file, body).unwrap_or_else(|e| panic!("{e}"));
        let output = import(&config, &file);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(named), "{name}: {stderr}");
        assert!(stderr.contains("nothing changed"), "{name}: {stderr}");
        assert!(
            !process::database(dir.path()).exists(),
            "{name}: a refused file created a database"
        );
    }
    // The valid one goes in; a bad file after it leaves the data as it was.
    let good = files.path().join("good.json");
    std::fs::write(&good, valid.to_string()).unwrap_or_else(|e| panic!("{e}"));
    ok(&import(&config, &good), "valid import");
    let before = files.path().join("before.json");
    ok(&export(&config, &before), "export");
    let mut bad = valid.clone();
    bad["tasks"][0]["title"] = json!("Pay rent, changed");
    bad["people"][0]["timezone"] = json!("Nowhere/Special");
    let file = files.path().join("half-bad.json");
    std::fs::write(&file, bad.to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(import(&config, &file).status.code(), Some(2));
    let after = files.path().join("after.json");
    ok(&export(&config, &after), "export");
    assert_eq!(content(&before), content(&after));
}
