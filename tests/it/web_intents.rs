//! The web page's buttons enter the turn as the intents they stand for, never as their words
//! read back. With a vocabulary in which "yes" says no and "done" moves a task
//! (`common::swapped_words`): the page's Yes confirms its proposal where a typed "yes" rejects
//! one, Done finishes its task and "undo" in the page's chat takes it back (in real Chromium);
//! and a click still in the inbox when Donna stopped does what its button said after the
//! restart, never what its words would read as.

use crate::common;
use crate::parked::{inbox_row, poison, restart_with};

use common::browser::Browser;
use common::page::{
    button_in, never_reloaded, open_page, say_on_page, task_status, wait_listed, NEW_YORK,
};
use common::swapped_words::swapped_words;
use common::{start_bot, start_bot_in, Bot, TestEnv};
use serde_json::{json, Value};
use std::time::Duration;

async fn automations(bot: &Bot) -> Value {
    bot.get("/api/automations").await.1
}

#[actix_rt::test]
async fn the_pages_yes_and_done_do_what_they_say_where_their_words_read_otherwise() {
    let (_vocabulary, intents) = swapped_words();
    let bot = start_bot(&format!("{NEW_YORK}{intents}")).await;
    let rent = bot.task(json!({ "title": "Pay rent" })).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    let ask = "every monday at 9 remind me to submit the timesheet";
    let proposal = format!(
        "!!({})",
        button_in("Waiting for you", "Submit the timesheet", "Yes")
    );

    // Typed, "yes" says no in this vocabulary.
    say_on_page(&tab, ask).await;
    tab.wait_until("the first proposal", &proposal).await;
    say_on_page(&tab, "yes").await;
    tab.wait_until(
        "Donna's no",
        "[...document.querySelectorAll('#messages li.donna')].some(li => li.innerText.includes(\"OK, I won't do that.\"))",
    )
    .await;
    assert_eq!(
        automations(&bot).await,
        json!([]),
        "typed yes: nothing runs"
    );
    tab.wait_until(
        "the rejected proposal to leave Waiting for you",
        "document.querySelectorAll('#proposal-list li').length === 0",
    )
    .await;

    // The Yes button says yes.
    say_on_page(&tab, ask).await;
    tab.wait_until("the second proposal", &proposal).await;
    tab.click(&button_in("Waiting for you", "Submit the timesheet", "Yes"))
        .await;
    wait_listed(&tab, "Recurring", "Submit the timesheet", true).await;
    assert_eq!(automations(&bot).await.as_array().map(Vec::len), Some(1));

    // Done finishes its task; "undo" in the page's chat takes it back.
    tab.click(&button_in("Tasks", "Pay rent", "Done")).await;
    wait_listed(&tab, "Tasks", "Pay rent", false).await;
    assert_eq!(task_status(&bot, &rent).await, json!("done"));
    say_on_page(&tab, "undo").await;
    wait_listed(&tab, "Tasks", "Pay rent", true).await;
    assert_ne!(task_status(&bot, &rent).await, json!("done"));
    // The chat remembers each click as the answer it stands for.
    assert_eq!(
        bot.said_in("web", "user").await,
        [ask, "yes", ask, "yes", "done", "undo"]
    );
    never_reloaded(&tab).await;
}

/// Takes the damaged row `parked::poison` wrote out again, as a repair would.
fn heal(bot: &Bot) {
    let database = bot.dir.path().join("data").join("donna.db");
    let conn = rusqlite::Connection::open(database).unwrap_or_else(|e| panic!("{e}"));
    let healed = conn.execute("DELETE FROM plan WHERE id = 'pln_poison'", []);
    assert!(matches!(healed, Ok(1)), "{healed:?}");
}

#[actix_rt::test]
async fn a_click_left_in_the_inbox_by_a_failed_turn_does_its_intent_after_the_restart() {
    let (_vocabulary, intents) = swapped_words();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let bot = start_bot_in(dir, &intents, TestEnv(Vec::new())).await;
    let rent = bot.task(json!({ "title": "Pay rent" })).await;
    assert_eq!(bot.post("/api/web/chat", json!({})).await.0, 200);
    // A damaged row in the page's chat: every turn there fails while loading its context, after
    // the click's inbox row is written, so the click stays in the inbox as it was accepted.
    poison(&bot, "web");
    let (status, answer) = bot.post("/api/web/done", json!({ "task_id": rent })).await;
    assert_eq!(status, 500, "{answer}");
    let stored = bot
        .app
        .store
        .read(donna::conversation::inbox::unfinished)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stored.len(), 1, "{stored:?}");
    let kept = stored[0].clone();
    assert_eq!(kept.intent, Some(donna::actions::Intent::Done));
    assert_eq!(inbox_row(&bot, &kept.message_id).await.0, "pending");
    assert_eq!(task_status(&bot, &rent).await, json!("backlog"));

    heal(&bot);
    let (bot, recovered) = restart_with(bot, &intents).await;
    assert_eq!(recovered, 1);
    let done = common::eventually(Duration::from_secs(10), || async {
        task_status(&bot, &rent).await == json!("done")
    })
    .await;
    // Read back as words, "done" would have moved the task in this vocabulary.
    let task = bot.task_json(&rent).await;
    assert!(done, "{task}");
    assert!(task["scheduled_start"].is_null(), "{task}");
    assert_eq!(bot.said_in("web", "user").await, ["done"]);
    // And "undo" in the page's chat takes the recovered click back.
    let (status, undone) = bot
        .post(
            "/api/messages",
            json!({ "thread_id": "web", "user_id": "web", "text": "undo" }),
        )
        .await;
    assert_eq!(status, 200, "{undone}");
    assert_eq!(undone["path"], "undone", "{undone}");
    assert_eq!(task_status(&bot, &rent).await, json!("backlog"));
}
