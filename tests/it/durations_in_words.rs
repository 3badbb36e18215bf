//! How long a task takes, said with it, through the real turns and HTTP API on a controlled
//! clock: "remind me to go to the dentist tomorrow at 3pm for an hour" sets the task's
//! estimated duration (what the completion check-in needs) and leaves the title; "in an hour"
//! stays a time, "an hour ago" and "for the 3rd time" are no length.
//!
//! The clock starts at Monday 23 November 2026, 10:00 UTC; the config's zone is UTC.

use crate::common;
use crate::common::Fields;

use common::start_bot;
use serde_json::Value;

#[actix_rt::test]
async fn a_length_said_with_a_capture_sets_its_estimate_and_leaves_the_title() {
    let bot = start_bot("").await;
    for (sentence, title, minutes, start) in [
        (
            "remind me to go to the dentist tomorrow at 3pm for an hour",
            "Go to the dentist",
            Some(60),
            Some("2026-11-24T15:00:00"),
        ),
        (
            "remind me to go to the gym at 6pm, 45 min",
            "Go to the gym",
            Some(45),
            Some("2026-11-23T18:00:00"),
        ),
        (
            "add call the bank for half an hour",
            "Call the bank",
            Some(30),
            None,
        ),
        (
            "todo: review the slides friday 10am, should take 20 minutes",
            "Review the slides",
            Some(20),
            Some("2026-11-27T10:00:00"),
        ),
        (
            "add deep work tomorrow from 9:00 to 11:00",
            "Deep work",
            Some(120),
            Some("2026-11-24T09:00:00"),
        ),
        // No length: a time, a past, no amount at all.
        (
            "remind me to call mom in an hour",
            "Call mom",
            None,
            Some("2026-11-23T11:00:00"),
        ),
        (
            "add ask about the invoice for the 3rd time",
            "Ask about the invoice for the 3rd time",
            None,
            None,
        ),
    ] {
        let chat = bot.free_thread().await;
        let said = bot.say(&chat, sentence).await;
        assert_eq!(said["path"], "task_created", "{sentence:?}: {said}");
        let id = said["results"][0]["task_id"].text();
        let (status, task) = bot.get(&format!("/api/tasks/{id}")).await;
        assert_eq!(status, 200, "{task}");
        assert_eq!(task["title"], title, "{sentence:?}: {task}");
        assert_eq!(
            task["estimated_duration_minutes"],
            minutes.map_or(Value::Null, Value::from),
            "{sentence:?}: {task}"
        );
        let scheduled = task["scheduled_start"].as_str();
        assert_eq!(start.is_some(), scheduled.is_some(), "{sentence:?}: {task}");
        if let (Some(start), Some(scheduled)) = (start, scheduled) {
            assert!(scheduled.starts_with(start), "{sentence:?}: {scheduled}");
        }
    }
}

#[actix_rt::test]
async fn a_bare_range_of_numbers_is_also_a_date_so_donna_asks() {
    let bot = start_bot("").await;
    let chat = bot.free_thread().await;
    let said = bot.say(&chat, "add deep work 9-11").await;
    assert_eq!(said["path"], "clarify", "{said}");
    let (status, tasks) = bot.get("/api/tasks").await;
    assert_eq!(status, 200, "{tasks}");
    assert_eq!(tasks.as_array().map(Vec::len), Some(0), "{tasks}");
}
