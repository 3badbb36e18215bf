//! A reply in a task's thread that says how long the task takes ("it takes about an hour",
//! "that's a 2 hour job") sets its estimated duration by a rule, without the model, as an
//! undoable action; sentences about other times and lengths change nothing. Through the real
//! HTTP API, turns and store, with no model configured.

use crate::common;

use common::{start_bot, Bot};
use serde_json::{json, Value};

/// A task with an estimate (or none) and an open nudge thread: (task id, thread id).
async fn nudged(bot: &Bot, minutes: Option<i64>) -> (String, String) {
    let mut body = json!({ "title": "Write the report" });
    if let Some(minutes) = minutes {
        body["estimated_duration_minutes"] = json!(minutes);
    }
    let task = bot.task(body).await;
    let thread = bot.nudge(&task).await;
    (task, thread)
}

async fn estimate_of(bot: &Bot, task: &str) -> Value {
    bot.task_json(task).await["estimated_duration_minutes"].clone()
}

#[actix_rt::test]
async fn a_reply_saying_how_long_the_task_takes_sets_its_estimate_and_says_so() {
    let bot = start_bot("").await;
    for (reply, minutes) in [
        ("it takes about an hour", 60),
        ("should take 20 minutes", 20),
        ("that's a 2 hour job", 120),
        ("ok, it'll take me 45 min or so, thanks!", 45),
        ("sorry, I think it's about an hour and a half", 90),
        ("hmm prob a 30 minute thing", 30),
    ] {
        let (task, thread) = nudged(&bot, None).await;
        let said = bot.say(&thread, reply).await;
        assert_eq!(said["path"], "fast", "{reply:?}: {said}");
        assert_eq!(said["results"][0]["name"], "set_estimate", "{said}");
        assert_eq!(estimate_of(&bot, &task).await, json!(minutes), "{reply:?}");
        let answer = said["reply"].as_str().unwrap_or_default();
        assert!(answer.contains("it takes about"), "{reply:?}: {answer}");
        // The conversation keeps Donna's answer like any other change.
        let donna = bot.said_in(&thread, "donna").await;
        assert!(donna.iter().any(|text| text == answer), "{donna:?}");
    }
}

#[actix_rt::test]
async fn undo_puts_the_previous_estimate_back_none_included() {
    let bot = start_bot("").await;
    let (task, thread) = nudged(&bot, None).await;
    assert_eq!(
        bot.say(&thread, "it takes about an hour").await["path"],
        "fast"
    );
    assert_eq!(estimate_of(&bot, &task).await, json!(60));
    let undone = bot.say(&thread, "undo").await;
    assert_eq!(undone["path"], "undone", "{undone}");
    assert_eq!(
        undone["reply"], "Undone: 'Write the report' has its estimate back (none).",
        "{undone}"
    );
    assert_eq!(estimate_of(&bot, &task).await, Value::Null, "{undone}");

    let (task, thread) = nudged(&bot, Some(30)).await;
    assert_eq!(
        bot.say(&thread, "that's a 2 hour job").await["path"],
        "fast"
    );
    assert_eq!(estimate_of(&bot, &task).await, json!(120));
    let undone = bot.say(&thread, "undo").await;
    assert_eq!(
        undone["reply"], "Undone: 'Write the report' has its estimate back (30 minutes).",
        "{undone}"
    );
    assert_eq!(estimate_of(&bot, &task).await, json!(30));
}

#[actix_rt::test]
async fn replies_about_other_times_and_lengths_leave_the_estimate_alone() {
    let bot = start_bot("").await;
    for reply in [
        "it took me an hour to find the form",
        "I have an hour free",
        "an hour ago",
        "it takes forever",
        "does it take an hour?",
        "it doesn't take an hour",
        "the meeting takes an hour",
        "took 2 days to arrive",
        "if it takes an hour I'll skip it",
        "it takes an hour to get there",
        "about 45 min",
    ] {
        let (task, thread) = nudged(&bot, Some(30)).await;
        let said = bot.say(&thread, reply).await;
        assert_ne!(
            said["results"][0]["name"], "set_estimate",
            "{reply:?}: {said}"
        );
        assert_eq!(
            estimate_of(&bot, &task).await,
            json!(30),
            "{reply:?}: {said}"
        );
    }
    // "in an hour" is still a time: the task moves, its estimate stays.
    let (task, thread) = nudged(&bot, Some(30)).await;
    let moved = bot.say(&thread, "in an hour").await;
    assert_eq!(moved["path"], "fast", "{moved}");
    assert_ne!(moved["results"][0]["name"], "set_estimate", "{moved}");
    assert_eq!(estimate_of(&bot, &task).await, json!(30));
}

#[actix_rt::test]
async fn an_estimate_outside_the_bounds_every_door_checks_sets_nothing() {
    let bot = start_bot("").await;
    let (task, thread) = nudged(&bot, Some(30)).await;
    // 100 weeks is more than 100,000 minutes: the API refuses it, and so does a reply.
    let said = bot.say(&thread, "it takes 100 weeks").await;
    assert_ne!(said["results"][0]["name"], "set_estimate", "{said}");
    assert_eq!(estimate_of(&bot, &task).await, json!(30));
}
