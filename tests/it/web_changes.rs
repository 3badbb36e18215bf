//! Changing a task where the web page shows it, in real Chromium: Snooze 1h, Tomorrow, a time of
//! the person's choosing and a new title each run at once with an Undo beside the tasks; Cancel
//! asks once, in the task's row, and only its Yes cancels; an overdue task is marked; the
//! person's time zone is shown and set on the page. Each change is the intent it stands for in
//! the page's chat, remembered as its words. Buttons and fields are found by their accessible
//! names, the contract with screen readers; the keyboard submits a field with Enter.

use crate::common;

use common::browser::{Browser, Tab};
use common::page::{
    field, fill_in, item_in, js, named, never_reloaded, open_page, press_named, task_status,
    wait_listed, NEW_YORK,
};
use common::{eventually, start_bot, Bot};
use serde_json::{json, Value};
use std::time::Duration;

/// Waits until the page's last change says `text`, and says whether it offers Undo.
async fn last_change(tab: &Tab, text: &str) -> bool {
    tab.wait_until(
        &format!("the last change to say {text:?}"),
        &format!(
            "document.getElementById('last-change-text').textContent.includes({})",
            js(text)
        ),
    )
    .await;
    tab.eval("!document.getElementById('undo').hidden").await == json!(true)
}

async fn undo(tab: &Tab, bot: &Bot, id: &str, back: impl Fn(&Value) -> bool) {
    tab.click("document.getElementById('undo')").await;
    let undone = eventually(Duration::from_secs(10), || async {
        back(&bot.task_json(id).await)
    })
    .await;
    assert!(undone, "not undone: {}", bot.task_json(id).await);
    tab.wait_until("Undo to go", "document.getElementById('undo').hidden")
        .await;
}

async fn field_of(bot: &Bot, id: &str, name: &str) -> Value {
    bot.task_json(id).await[name].clone()
}

#[actix_rt::test]
async fn snooze_tomorrow_a_chosen_time_and_a_new_title_run_at_once_each_with_undo() {
    let bot = start_bot(NEW_YORK).await;
    // Yesterday 15:00 in New York: overdue.
    let rent = bot
        .task(json!({ "title": "Pay rent", "deadline": "2026-11-22T20:00:00Z" }))
        .await;
    bot.task(json!({ "title": "Buy milk" })).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    tab.wait_until(
        "Pay rent marked overdue",
        &format!(
            "(() => {{ const li = {}; return !!li && li.innerText.includes('Overdue'); }})()",
            item_in("Tasks", "Pay rent")
        ),
    )
    .await;
    assert_eq!(
        tab.eval(&format!(
            "({}).innerText.includes('Overdue')",
            item_in("Tasks", "Buy milk")
        ))
        .await,
        json!(false)
    );
    let names = tab.accessible_names().await;
    for name in ["Done", "Snooze 1h", "Tomorrow", "Change"] {
        let name = format!("{name}: Pay rent");
        assert!(
            names.contains(&("button".into(), name.clone())),
            "{name}: {names:?}"
        );
    }

    // Snooze 1h: until 06:00 in New York (now is 05:00 there), with Undo.
    press_named(&tab, "Snooze 1h: Pay rent").await;
    assert!(last_change(&tab, "Snoozed 'Pay rent' for 1 hour").await);
    assert_eq!(
        field_of(&bot, &rent, "snoozed_until").await,
        "2026-11-23T06:00:00-05:00"
    );
    let names = tab.accessible_names().await;
    assert!(
        names.iter().any(|(role, name)| role == "button"
            && name.starts_with("Undo: Snoozed 'Pay rent' for 1 hour")),
        "{names:?}"
    );
    undo(&tab, &bot, &rent, |task| task["snoozed_until"].is_null()).await;

    // Tomorrow: at the task's own time of day.
    press_named(&tab, "Tomorrow: Pay rent").await;
    assert!(last_change(&tab, "Moved 'Pay rent' to tomorrow at 15:00").await);
    assert_eq!(
        field_of(&bot, &rent, "scheduled_start").await,
        "2026-11-24T15:00:00-05:00"
    );
    undo(&tab, &bot, &rent, |task| task["scheduled_start"].is_null()).await;

    // A time of their choosing, in their zone.
    press_named(&tab, "Change: Pay rent").await;
    assert_eq!(
        tab.eval(&format!(
            "({}).getAttribute('aria-expanded')",
            named("Change: Pay rent")
        ))
        .await,
        json!("true")
    );
    tab.eval(&format!(
        "(() => {{ const f = {}; f.value = '2026-12-01T15:00'; \
         f.dispatchEvent(new Event('input', {{bubbles: true}})); }})()",
        field("New time for Pay rent")
    ))
    .await;
    press_named(&tab, "Move: Pay rent").await;
    assert!(last_change(&tab, "Moved 'Pay rent' to").await);
    assert_eq!(
        field_of(&bot, &rent, "scheduled_start").await,
        "2026-12-01T15:00:00-05:00"
    );
    tab.wait_until(
        "the row showing the new time",
        &format!(
            "(() => {{ const li = {}; return !!li && li.innerText.includes('at Tue 1 Dec, 15:00') \
             && !li.querySelector('.change'); }})()",
            item_in("Tasks", "Pay rent")
        ),
    )
    .await;
    undo(&tab, &bot, &rent, |task| task["scheduled_start"].is_null()).await;

    // A new title, typed and sent with Enter.
    press_named(&tab, "Change: Pay rent").await;
    fill_in(&tab, "New title for Pay rent", "Pay the rent").await;
    assert!(last_change(&tab, "Renamed 'Pay rent' to 'Pay the rent'.").await);
    wait_listed(&tab, "Tasks", "Pay the rent", true).await;
    assert_eq!(field_of(&bot, &rent, "title").await, "Pay the rent");
    undo(&tab, &bot, &rent, |task| task["title"] == "Pay rent").await;
    wait_listed(&tab, "Tasks", "Pay the rent", false).await;

    // Each change is in the page's chat as the words it stands for.
    assert_eq!(
        bot.said_in("web", "user").await,
        [
            "snooze 1h",
            "undo",
            "tomorrow",
            "undo",
            "move it to 2026-12-01 15:00",
            "undo",
            "rename it to Pay the rent",
            "undo"
        ]
    );
    assert_ne!(task_status(&bot, &rent).await, json!("done"));
    never_reloaded(&tab).await;
}

#[actix_rt::test]
async fn cancel_asks_once_in_the_tasks_row_and_only_its_yes_cancels() {
    let bot = start_bot(NEW_YORK).await;
    let passport = bot.task(json!({ "title": "Renew passport" })).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    let asked = format!(
        "(() => {{ const li = {}; return !!li && li.innerText.includes(\"Cancel 'Renew passport'? It will not be done.\"); }})()",
        item_in("Tasks", "Renew passport")
    );

    press_named(&tab, "Change: Renew passport").await;
    press_named(&tab, "Cancel task: Renew passport").await;
    tab.wait_until("the question in the task's row", &asked)
        .await;
    // Asked, not done: the task is open and the proposal waits for the page's answer.
    assert_eq!(task_status(&bot, &passport).await, json!("backlog"));
    let (_, waiting) = bot.get("/api/proposals").await;
    assert_eq!(waiting.as_array().map(Vec::len), Some(1), "{waiting}");
    assert_eq!(
        tab.eval("document.getElementById('undo').hidden").await,
        json!(true),
        "nothing to undo yet"
    );
    press_named(&tab, "No, keep: Renew passport").await;
    tab.wait_until("the question to go", &format!("!{asked}"))
        .await;
    assert_eq!(task_status(&bot, &passport).await, json!("backlog"));
    assert_eq!(bot.get("/api/proposals").await.1, json!([]));

    press_named(&tab, "Change: Renew passport").await;
    press_named(&tab, "Cancel task: Renew passport").await;
    tab.wait_until("the question again", &asked).await;
    press_named(&tab, "Yes, cancel: Renew passport").await;
    wait_listed(&tab, "Tasks", "Renew passport", false).await;
    assert_eq!(task_status(&bot, &passport).await, json!("cancelled"));
    assert!(last_change(&tab, "Cancelled 'Renew passport'.").await);
    undo(&tab, &bot, &passport, |task| task["status"] == "backlog").await;
    wait_listed(&tab, "Tasks", "Renew passport", true).await;
    never_reloaded(&tab).await;
}

#[actix_rt::test]
async fn the_page_shows_the_persons_zone_and_sets_another() {
    let bot = start_bot(NEW_YORK).await;
    bot.task(json!({ "title": "Dentist", "deadline": "2026-11-27T20:00:00Z" }))
        .await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    let due = |shown: &str| {
        format!(
            "(() => {{ const li = {}; return !!li && li.innerText.includes({}); }})()",
            item_in("Tasks", "Dentist"),
            js(shown)
        )
    };
    tab.wait_until("the time in New York", &due("due Fri 27 Nov, 15:00"))
        .await;
    assert_eq!(
        tab.eval(&format!("({}).value", field("Time zone"))).await,
        json!("America/New_York")
    );
    // A zone that does not exist: said, and nothing changes.
    fill_in(&tab, "Time zone", "Mars/Olympus").await;
    tab.wait_until(
        "the refusal",
        "document.getElementById('zone-error').textContent.includes('Mars/Olympus')",
    )
    .await;
    assert_eq!(
        bot.get("/api/people/web").await.1["timezone"],
        "America/New_York"
    );
    // Another zone: the page shows every time in it.
    fill_in(&tab, "Time zone", "Europe/Paris").await;
    tab.wait_until("the time in Paris", &due("due Fri 27 Nov, 21:00"))
        .await;
    assert_eq!(
        bot.get("/api/people/web").await.1["timezone"],
        "Europe/Paris"
    );
    assert_eq!(
        tab.eval("document.getElementById('zone').textContent")
            .await,
        json!("Times in Europe/Paris.")
    );
    never_reloaded(&tab).await;
}
