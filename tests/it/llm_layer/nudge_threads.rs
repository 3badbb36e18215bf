//! A task the model proposes in a nudge thread gets the duplicate check and learned preferences.

use super::*;
use crate::common::{Fields, Needed};

/// A task the model proposes in a nudge thread goes through the same duplicate
/// check and learned preferences as any other new task (all but `POST /api/tasks` and
/// automation instances): the proposal says it looks like an open task, and the task it creates
/// gets the learned domain and priority, listed on it and said.
#[actix_rt::test]
async fn a_task_the_model_proposes_in_a_nudge_thread_gets_the_duplicate_check_and_learned_preferences(
) {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama").await;
    // Learned: a report is work, priority 1 (corrected within a day of capturing it).
    let free = bot.free_thread().await;
    let first = bot.say(&free, "add send weekly report").await;
    let weekly = first["results"][0]["task_id"].text().to_string();
    let (status, _) = bot
        .patch(
            &format!("/api/tasks/{weekly}"),
            json!({"domain": "work", "priority": 1}),
        )
        .await;
    assert_eq!(status, 200);

    let (_, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::answer(
        json!([{"name": "create_task", "params": {"title": "Send monthly report"}}]),
        "I'll add it.",
    ));
    let proposed = bot
        .say(
            &thread,
            "not yet, but add a task to send the monthly report",
        )
        .await;
    assert_eq!(proposed["path"], "llm", "{proposed}");
    // The proposal shows the action's own parameters, never Donna's bookkeeping (where the task
    // comes from, which preferences filled it): the person is asked about what they can see.
    let shown: Vec<&str> = proposed["actions"][0]["params"]
        .as_object()
        .map(|params| params.keys().map(String::as_str).collect())
        .needed();
    for own in ["source", "applied_preferences", "origin_thread_id"] {
        assert!(!shown.contains(&own), "{own} shown: {proposed}");
    }
    assert!(shown.contains(&"title"), "{proposed}");
    let confirmed = bot.say(&thread, "yes").await;
    assert_eq!(confirmed["path"], "plan_confirmed", "{confirmed}");
    assert!(
        reply(&confirmed).contains("filed under work"),
        "{confirmed}"
    );
    let id = confirmed["results"][0]["task_id"].text();
    let task = bot.task_json(id).await;
    assert_eq!(task["title"], "Send monthly report");
    assert_eq!(task["source"], "chat");
    assert_eq!(task["domain"], "work", "{task}");
    assert_eq!(task["priority"], 1, "{task}");
    assert_eq!(
        task["applied_preferences"].as_array().map(Vec::len),
        Some(2),
        "{task}"
    );

    // A field the model gave is kept as given.
    fake.push(Script::answer(
        json!([{"name": "create_task", "params": {"title": "Send yearly report", "domain": "family"}}]),
        "Adding it.",
    ));
    bot.say(&thread, "also add a task to send the yearly report")
        .await;
    let confirmed = bot.say(&thread, "yes").await;
    let id = confirmed["results"][0]["task_id"].text();
    let task = bot.task_json(id).await;
    assert_eq!(
        (task["domain"].as_str(), task["priority"].as_i64()),
        (Some("family"), Some(1))
    );

    // A likely duplicate of an open task is said in the proposal; yes still adds another.
    fake.push(Script::answer(
        json!([{"name": "create_task", "params": {"title": "Send the weekly report"}}]),
        "Adding it.",
    ));
    let (_, other) = bot.nudged_task("Call the bank").await;
    let proposed = bot
        .say(&other, "also add a task to send the weekly report")
        .await;
    assert_eq!(proposed["path"], "llm", "{proposed}");
    assert!(
        reply(&proposed).contains("You already have 'Send weekly report'"),
        "{proposed}"
    );
    assert_eq!(bot.say(&other, "yes").await["path"], "plan_confirmed");
    let (_, all) = bot.get("/api/tasks").await;
    let weekly_reports = all
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| {
            t["title"]
                .as_str()
                .is_some_and(|title| title.to_lowercase().contains("weekly report"))
        })
        .count();
    assert_eq!(weekly_reports, 2, "{all}");
}
