//! The README's picture of the web page (docs/web.png), made by the same headless browser as
//! the page's tests, on a page filled the way a person fills it: captures typed into the chat,
//! a proposal answered with its Yes button, one waiting, a nudge from another chat.
//! `scripts/screenshot_web.sh` runs this test with `DONNA_WEB_SCREENSHOT` set to write the file;
//! without it the test still runs and checks the picture, and writes nothing.

use crate::common;

use common::browser::Tab;
use serde_json::json;

async fn say_on_page(tab: &Tab, text: &str, then_shows: &str) {
    tab.click("document.getElementById('message')").await;
    tab.type_text(text).await;
    tab.press("Enter").await;
    tab.wait_until(
        then_shows,
        &format!(
            "document.querySelectorAll('#messages li.donna').length > 0 && \
             document.body.innerText.includes({})",
            json!(then_shows)
        ),
    )
    .await;
}

#[actix_rt::test]
async fn the_page_as_the_readme_shows_it() {
    let bot = common::start_bot("timezone: Europe/London\n").await;
    let rent = bot
        .task(json!({ "title": "Pay rent", "deadline": "2026-11-27T17:00:00Z" }))
        .await;
    let browser = common::browser::Browser::launch().await;
    let tab = browser.tab(1000, 720).await;
    tab.open(&format!("{}/", bot.base)).await;
    say_on_page(&tab, "remind me to call mum tomorrow at 6pm", "Call mum").await;
    say_on_page(
        &tab,
        "every day at 8pm remind me to take my pills",
        "Take my pills",
    )
    .await;
    tab.wait_until(
        "the first proposal's Yes",
        "[...document.querySelectorAll('#proposal-list button')].some(b => b.textContent === 'Yes')",
    )
    .await;
    tab.click("[...document.querySelectorAll('#proposal-list button')].find(b => b.textContent === 'Yes')")
        .await;
    tab.wait_until(
        "the reminder in Recurring",
        "document.getElementById('automation-list').innerText.includes('Take my pills')",
    )
    .await;
    say_on_page(
        &tab,
        "every monday at 9 remind me to submit the timesheet",
        "Submit the timesheet",
    )
    .await;
    let (status, _) = bot
        .post(
            "/api/nudges",
            json!({ "task_id": rent, "channel": "local" }),
        )
        .await;
    assert_eq!(status, 201);
    tab.wait_until(
        "everything on the page",
        "document.querySelectorAll('#messages li.nudge').length === 1 \
         && document.querySelectorAll('#proposal-list li').length === 1 \
         && document.querySelectorAll('#task-list li').length === 2",
    )
    .await;
    // No focus ring or caret in the picture, and the page from its top (the clicks above may
    // have scrolled it).
    tab.eval("document.activeElement.blur(); window.scrollTo(0, 0)")
        .await;
    let png = tab.screenshot().await;
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(
        (10_000..400_000).contains(&png.len()),
        "a screenshot of {} bytes: blank, or too big for the README",
        png.len()
    );
    if let Some(path) = std::env::var_os("DONNA_WEB_SCREENSHOT") {
        std::fs::write(&path, &png).unwrap_or_else(|e| panic!("{}: {e}", path.to_string_lossy()));
    }
}
