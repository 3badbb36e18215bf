//! The web page's buttons in a real headless browser, clicked with the mouse: Done (the same
//! turn as "done" said about that task in the page's chat, so "undo" there takes it back, and a
//! proposal waiting there stays), a proposal's Yes (it runs only then) and a reminder's Stop; a
//! proposal made for someone else shows no buttons and its answer from the page is refused.

use crate::common;
use crate::common::Fields;

use common::browser::Browser;
use common::page::{
    button_in, for_someone_else, item_in, never_reloaded, open_page, say_on_page, task_status,
    NEW_YORK,
};
use common::start_bot;
use serde_json::json;

#[actix_rt::test]
async fn done_marks_a_task_done_and_undo_in_the_page_chat_takes_it_back() {
    let bot = start_bot(NEW_YORK).await;
    let browser = Browser::launch().await;
    let rent = bot
        .task(json!({ "title": "Pay rent", "deadline": "2026-11-27T20:00:00Z" }))
        .await;
    let milk = bot.task(json!({ "title": "Buy milk" })).await;
    let open = task_status(&bot, &rent).await;
    assert_ne!(open, json!("done"));
    let tab = open_page(&bot, &browser, 1000).await;
    tab.wait_until(
        "the task with its deadline in New York",
        &format!(
            "(() => {{ const li = {}; return !!li && li.innerText.includes('due Fri 27 Nov, 15:00'); }})()",
            item_in("Tasks", "Pay rent")
        ),
    )
    .await;
    let names = tab.accessible_names().await;
    assert!(
        names.contains(&("button".to_string(), "Done: Pay rent".to_string())),
        "{names:?}"
    );
    // A proposal waiting in the page's chat is no business of a Done button.
    say_on_page(&tab, "every monday at 9 remind me to submit the timesheet").await;
    tab.wait_until(
        "the proposal",
        &format!(
            "!!({})",
            button_in("Waiting for you", "Submit the timesheet", "Yes")
        ),
    )
    .await;
    tab.click(&button_in("Tasks", "Pay rent", "Done")).await;
    tab.wait_until(
        "the task to leave Tasks",
        &format!("!({})", item_in("Tasks", "Pay rent")),
    )
    .await;
    assert_eq!(task_status(&bot, &rent).await, json!("done"));
    let (_, waiting) = bot.get("/api/proposals").await;
    assert_eq!(waiting.as_array().map(Vec::len), Some(1), "{waiting}");
    assert_eq!(
        tab.eval(&format!(
            "!!({})",
            item_in("Waiting for you", "Submit the timesheet")
        ))
        .await,
        json!(true)
    );
    // Only that task: the other one is still open and listed.
    assert_eq!(task_status(&bot, &milk).await, open);
    assert_eq!(
        tab.eval(&format!("!!({})", item_in("Tasks", "Buy milk")))
            .await,
        json!(true)
    );
    // Donna says so in the page's chat, and "undo" there takes it back.
    tab.wait_until(
        "Donna's answer to Done",
        "[...document.querySelectorAll('#messages li.donna')].some(li => li.innerText.includes('Pay rent'))",
    )
    .await;
    say_on_page(&tab, "undo").await;
    tab.wait_until(
        "the task back in Tasks",
        &format!("!!({})", item_in("Tasks", "Pay rent")),
    )
    .await;
    assert_eq!(task_status(&bot, &rent).await, open);
    never_reloaded(&tab).await;
    // A Done for a task already closed changes nothing and says why.
    bot.patch(&format!("/api/tasks/{milk}"), json!({ "status": "done" }))
        .await;
    let (status, answer) = bot.post("/api/web/done", json!({ "task_id": milk })).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(task_status(&bot, &rent).await, open);
}

#[actix_rt::test]
async fn a_proposals_yes_button_confirms_it_and_stop_ends_the_reminder() {
    let bot = start_bot(NEW_YORK).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    say_on_page(&tab, "every monday at 9 remind me to submit the timesheet").await;
    tab.wait_until(
        "the proposal with Yes and No",
        &format!(
            "!!({})",
            button_in("Waiting for you", "Submit the timesheet", "Yes")
        ),
    )
    .await;
    // Nothing runs before the yes.
    let (_, automations) = bot.get("/api/automations").await;
    assert_eq!(automations, json!([]));
    tab.click(&button_in("Waiting for you", "Submit the timesheet", "Yes"))
        .await;
    tab.wait_until(
        "the reminder in Recurring",
        &format!(
            "(() => {{ const li = {}; return !!li && li.innerText.includes('every Monday at 09:00'); }})()",
            item_in("Recurring", "Submit the timesheet")
        ),
    )
    .await;
    tab.wait_until(
        "the proposal to leave Waiting for you",
        "document.querySelectorAll('#proposal-list li').length === 0",
    )
    .await;
    let (_, automations) = bot.get("/api/automations").await;
    assert_eq!(
        automations.as_array().map(Vec::len),
        Some(1),
        "{automations}"
    );
    tab.click(&button_in("Recurring", "Submit the timesheet", "Stop"))
        .await;
    tab.wait_until(
        "the reminder to leave Recurring",
        "document.querySelectorAll('#automation-list li').length === 0",
    )
    .await;
    let (_, automations) = bot.get("/api/automations").await;
    assert_eq!(automations, json!([]));
    never_reloaded(&tab).await;
}

#[actix_rt::test]
async fn a_proposal_made_for_someone_else_shows_no_buttons_and_its_answer_is_refused() {
    let bot = start_bot(NEW_YORK).await;
    let thread = bot.free_thread().await;
    let (status, proposal) = bot
        .post(
            "/api/messages",
            json!({ "thread_id": thread, "user_id": "alice", "text": "every day at 8am remind me to stretch" }),
        )
        .await;
    assert_eq!(status, 200, "{proposal}");
    let plan = proposal["pending_plan_id"].text().to_string();
    assert!(!plan.is_empty(), "{proposal}");
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    for_someone_else(&tab, "Stretch").await;
    let (status, refused) = bot
        .post(
            "/api/web/answers",
            json!({ "plan_id": plan, "answer": "yes" }),
        )
        .await;
    assert_eq!(status, 403, "{refused}");
    let (_, live) = bot.get("/api/proposals").await;
    assert_eq!(live[0]["id"], json!(plan), "{live}");
    assert_eq!(live[0]["requester_id"], json!("alice"));
    let (_, automations) = bot.get("/api/automations").await;
    assert_eq!(automations, json!([]));
}
