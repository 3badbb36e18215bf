//! "A message is analysed once per turn" (ARCHITECTURE.md, Invariants): the real binary's
//! /metrics counts the analyses (`donna_message_analyses_total`, a counter of this process) and
//! the turns (`donna_turn_duration_seconds_count`, per path); after turns of every room they are
//! equal. A click (the web page's Done) is a turn that reads no words: it is never analysed.
//! A child process, so no other test's turns count.

use crate::common::{Fields, Needed};
use serde_json::json;

use crate::common::process::{self, create_task, http, start, wait_healthy};

/// The value of a sample line `name{...} value` summed over its label sets.
fn sum_of(page: &str, name: &str) -> u64 {
    page.lines()
        .filter(|line| line.starts_with(name) && line[name.len()..].starts_with([' ', '{']))
        .filter_map(|line| line.rsplit(' ').next())
        .filter_map(|value| value.parse::<f64>().ok())
        .map(|value| value as u64)
        .sum()
}

#[test]
fn a_message_is_analysed_once_per_turn() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut running = start(dir.path());
    wait_healthy(&mut running);
    let port = running.port;
    let thread = |body: serde_json::Value| {
        let created = http(port, "POST", "/api/threads", Some(&body));
        match created {
            Some((201, thread)) => thread["thread_id"].text().to_string(),
            other => panic!("open thread: {other:?}"),
        }
    };
    let rent = create_task(port, "Pay rent");
    let invoice = create_task(port, "Send the invoice");
    let rent_thread = thread(json!({ "task_id": rent }));
    let invoice_thread = thread(json!({ "task_id": invoice }));
    let free = thread(json!({}));
    // Every room a message can reach without a model: keywords, times, a report in the task's
    // own verb, a plan answer, undo, the rules' captures, questions, closings, automations, a
    // time zone, the honest answer to words no rule reads.
    let said = [
        (&rent_thread, "ok, remind me at 7pm"),
        (&rent_thread, "sorry, not done yet"),
        (&rent_thread, "ugh, did I pay it?"),
        (&rent_thread, "thanks, you're the best"),
        (&invoice_thread, "yep, all sent off"),
        (&invoice_thread, "undo"),
        (&free, "hey donna, what's due today?"),
        (&free, "add buy milk tomorrow at 9"),
        (&free, "every monday at 9 remind me to water the plants"),
        (&free, "no"),
        (&free, "my time zone is Europe/Berlin"),
        (&free, "when's the rent?"),
        (&free, "more"),
        (&free, "blah blah blah"),
        (&free, "cool, see you tomorrow"),
    ];
    for (thread, text) in said {
        let body = json!({ "thread_id": thread, "user_id": "owner", "text": text });
        let answer = http(port, "POST", "/api/messages", Some(&body));
        assert!(matches!(answer, Some((200, _))), "{text:?}: {answer:?}");
    }
    let page = process::get_text(port, "/metrics").needed();
    let analyses = sum_of(&page, "donna_message_analyses_total");
    let turns = sum_of(&page, "donna_turn_duration_seconds_count");
    assert_eq!(turns, said.len() as u64, "{page}");
    assert_eq!(analyses, turns, "one analysis per turn:\n{page}");
    // A click enters as its intent: a turn, and the task done, with no words analysed.
    let plants = create_task(port, "Water the plants");
    let click = json!({ "task_id": plants, "intent": "done" });
    let answer = http(port, "POST", "/api/web/act", Some(&click));
    assert!(matches!(answer, Some((200, _))), "web Done: {answer:?}");
    let task = http(port, "GET", &format!("/api/tasks/{plants}"), None);
    assert!(
        matches!(&task, Some((200, task)) if task["status"] == "done"),
        "the click marks its task done: {task:?}"
    );
    let page = process::get_text(port, "/metrics").needed();
    assert_eq!(
        sum_of(&page, "donna_turn_duration_seconds_count"),
        said.len() as u64 + 1,
        "{page}"
    );
    assert_eq!(
        sum_of(&page, "donna_message_analyses_total"),
        said.len() as u64,
        "a click is never analysed as words:\n{page}"
    );
}
