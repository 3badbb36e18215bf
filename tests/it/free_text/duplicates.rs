//! A likely duplicate proposed and created only after a yes, also across a restart.

use super::*;
use crate::common::{Fields, Needed};

#[actix_rt::test]
async fn a_likely_duplicate_is_proposed_and_created_only_after_a_yes() {
    let bot = start_bot(PARIS).await;
    let thread = bot.free_thread().await;
    assert_eq!(
        bot.say(&thread, "add Renew passport").await["path"],
        "task_created"
    );
    let proposal = bot.say(&thread, "add renew the Passport!").await;
    assert_eq!(proposal["path"], "duplicate", "{proposal}");
    assert!(proposal["pending_plan_id"].is_string());
    let reply = proposal["reply"].text();
    assert!(
        reply.contains("You already have 'Renew passport'"),
        "{reply}"
    );
    assert_eq!(tasks(&bot).await.len(), 1, "proposed, not created");
    let no = bot.say(&thread, "no").await;
    assert_eq!(no["path"], "plan_rejected");
    assert_eq!(tasks(&bot).await.len(), 1);
    assert_eq!(
        bot.say(&thread, "add renew passport").await["path"],
        "duplicate"
    );
    let yes = bot.say(&thread, "yes").await;
    assert_eq!(yes["path"], "plan_confirmed", "{yes}");
    assert_eq!(tasks(&bot).await.len(), 2, "yes creates it");
    // A done task is no duplicate.
    let first = tasks(&bot).await[1]["id"].text().to_string();
    bot.patch(&format!("/api/tasks/{first}"), json!({ "status": "done" }))
        .await;
    let second = tasks(&bot).await[0]["id"].text().to_string();
    bot.patch(
        &format!("/api/tasks/{second}"),
        json!({ "status": "cancelled" }),
    )
    .await;
    assert_eq!(
        bot.say(&thread, "add renew passport").await["path"],
        "task_created"
    );
}

/// Tasks stored before the word index of open titles existed (or written by hand) are found
/// after a restart; a retitled task is found by its new title, not its old one.
#[actix_rt::test]
async fn duplicates_are_found_among_tasks_the_title_index_did_not_hold_before_a_restart() {
    let bot = start_bot(PARIS).await;
    for title in ["Renew passport", "Pay rent"] {
        let (status, _) = bot.post("/api/tasks", json!({ "title": title })).await;
        assert_eq!(status, 201);
    }
    bot.stop().await;
    bot.stop_server_now().await;
    let Bot { app, dir, .. } = bot;
    drop(app);
    let database = dir.path().join("data").join("donna.db");
    let conn = rusqlite::Connection::open(&database).unwrap_or_else(|e| panic!("{e}"));
    conn.execute_batch("DELETE FROM open_title_word; DELETE FROM open_title_word_count;")
        .unwrap_or_else(|e| panic!("{e}"));
    drop(conn);

    let bot = start_bot_in(dir, PARIS, TestEnv(Vec::new())).await;
    let thread = bot.free_thread().await;
    for (sentence, path) in [
        ("add renew the Passport!", "duplicate"),
        ("no", "plan_rejected"),
        ("add pay the rent", "duplicate"),
        ("no", "plan_rejected"),
        ("add pay rent to Anna", "task_created"),
    ] {
        let result = bot.say(&thread, sentence).await;
        assert_eq!(result["path"], path, "{sentence}: {result}");
    }
    let passport = tasks(&bot)
        .await
        .into_iter()
        .find(|task| task["title"] == "Renew passport")
        .and_then(|task| task["id"].as_str().map(str::to_string))
        .needed();
    bot.patch(
        &format!("/api/tasks/{passport}"),
        json!({ "title": "Renew driving licence" }),
    )
    .await;
    for (sentence, path) in [
        ("add renew passport", "task_created"),
        ("add renew the driving licence", "duplicate"),
    ] {
        let result = bot.say(&thread, sentence).await;
        assert_eq!(result["path"], path, "{sentence}: {result}");
    }
}
