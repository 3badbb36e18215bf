//! Undo of the last capture, and a corrected domain learned for similar captures.

use super::*;
use crate::common::Fields;

#[actix_rt::test]
async fn undo_takes_back_the_last_capture_if_unchanged() {
    let bot = start_bot(PARIS).await;
    let thread = bot.free_thread().await;
    let result = bot.say(&thread, "add buy milk").await;
    let id = result["results"][0]["task_id"].text().to_string();
    let undone = bot.say(&thread, "undo").await;
    assert_eq!(undone["path"], "undone", "{undone}");
    let (status, _) = bot.get(&format!("/api/tasks/{id}")).await;
    assert_eq!(status, 404, "the captured task is gone");
    assert_eq!(
        bot.say(&thread, "undo").await["path"],
        "unhandled",
        "nothing left to undo"
    );
}

#[actix_rt::test]
async fn a_corrected_domain_is_learned_and_applied_to_similar_captures() {
    let bot = start_bot(PARIS).await;
    let thread = bot.free_thread().await;
    let first = bot.say(&thread, "add send weekly report").await;
    let id = first["results"][0]["task_id"].text().to_string();
    let (status, _) = bot
        .patch(
            &format!("/api/tasks/{id}"),
            json!({ "domain": "work", "priority": 1 }),
        )
        .await;
    assert_eq!(status, 200);
    let second = bot.say(&thread, "add send monthly report").await;
    assert_eq!(second["path"], "task_created");
    let reply = second["reply"].text();
    assert!(reply.contains("filed under work"), "{reply}");
    let id = second["results"][0]["task_id"].text();
    let task = bot.task_json(id).await;
    assert_eq!(task["domain"], "work");
    assert_eq!(task["priority"], 1);
    assert_eq!(
        task["applied_preferences"].as_array().map(Vec::len),
        Some(2),
        "{task}"
    );
    // Unlike titles get nothing.
    let other = bot.say(&thread, "add water the plants").await;
    let id = other["results"][0]["task_id"].text();
    let task = bot.task_json(id).await;
    assert_eq!(task["domain"], "personal");
    assert_eq!(task["applied_preferences"], json!([]));
}
