//! The web page (`GET /`) in a real headless browser (Debian's Chromium over the DevTools
//! Protocol, `common::browser`), against the real server, store and turns: what a person sees
//! and does. Typing into "Message Donna" and pressing Enter, clicking Done, Yes and Stop with
//! the mouse, reading names from the accessibility tree. Nothing is reloaded during a test: the
//! page's own `window` marker set at the start must still be there at the end.
//! The token flow is `web_token.rs`; the README's screenshot is `web_screenshot.rs`.

mod common;

use common::browser::{Browser, Tab};
use common::{start_bot, Bot};
use serde_json::{json, Value};

/// Times are shown in the person's zone (here the configured one, 5 hours behind UTC in
/// November), never in UTC or the browser's own.
const NEW_YORK: &str = "timezone: America/New_York\n";

/// A string as a JavaScript literal.
fn js(text: &str) -> String {
    json!(text).to_string()
}

/// The element of the region named `region` whose text includes `text` (an item of a list, a
/// message), as a JavaScript expression.
fn item_in(region: &str, text: &str) -> String {
    format!(
        "[...[...document.querySelectorAll('section')] \
         .find(s => s.querySelector('h2').textContent === {region}) \
         .querySelectorAll('li')].find(li => li.innerText.includes({text}))",
        region = js(region),
        text = js(text)
    )
}

/// The button labelled `label` in that item.
fn button_in(region: &str, text: &str, label: &str) -> String {
    format!(
        "[...({item}).querySelectorAll('button')].find(b => b.textContent.startsWith({label}))",
        item = item_in(region, text),
        label = js(label)
    )
}

/// How many items of the region include `text`.
fn count_in(region: &str, text: &str) -> String {
    format!(
        "[...[...document.querySelectorAll('section')] \
         .find(s => s.querySelector('h2').textContent === {region}) \
         .querySelectorAll('li')].filter(li => li.innerText.includes({text})).length",
        region = js(region),
        text = js(text)
    )
}

/// Opens the page in a new tab and marks its document, so a reload would show.
async fn open_page(bot: &Bot, browser: &Browser, width: u32) -> Tab {
    let tab = browser.tab(width, 760).await;
    tab.open(&format!("{}/", bot.base)).await;
    tab.eval("window.sameDocument = true").await;
    tab
}

/// Focuses "Message Donna" by clicking its label, types `text` and presses Enter.
async fn say_on_page(tab: &Tab, text: &str) {
    tab.click(
        "[...document.querySelectorAll('label')].find(l => l.textContent === 'Message Donna')",
    )
    .await;
    assert_eq!(
        tab.eval("document.activeElement.id").await,
        json!("message"),
        "clicking the label focuses the field"
    );
    tab.type_text(text).await;
    tab.press("Enter").await;
}

async fn never_reloaded(tab: &Tab) {
    assert_eq!(
        tab.eval("window.sameDocument === true").await,
        json!(true),
        "the page was reloaded"
    );
}

async fn task_status(bot: &Bot, id: &str) -> Value {
    bot.task_json(id).await["status"].clone()
}

#[actix_rt::test]
async fn the_regions_and_the_field_have_their_names_and_a_phone_gets_one_column() {
    let bot = start_bot(NEW_YORK).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    let names = tab.accessible_names().await;
    for region in ["Conversation", "Tasks", "Waiting for you", "Recurring"] {
        assert!(
            names.contains(&("region".to_string(), region.to_string())),
            "no region named {region:?} in {names:?}"
        );
    }
    assert!(
        names.contains(&("textbox".to_string(), "Message Donna".to_string())),
        "no field named \"Message Donna\" in {names:?}"
    );
    // Keyboard: Tab from the page's start reaches the field.
    let mut reached = false;
    for _ in 0..10 {
        tab.press("Tab").await;
        if tab.eval("document.activeElement.id").await == json!("message") {
            reached = true;
            break;
        }
    }
    assert!(reached, "Tab never reached the message field");
    // Nothing was fetched from another host.
    let requests = tab.events("Network.requestWillBeSent");
    assert!(!requests.is_empty());
    for request in &requests {
        let url = request["request"]["url"].as_str().unwrap_or_default();
        assert!(
            url.starts_with(&bot.base) || url.starts_with("data:"),
            "the page fetched {url}"
        );
    }
    // Wide: the lists beside the conversation. A phone (400 px): one column.
    let side_by_side = "document.getElementById('tasks').getBoundingClientRect().left > \
                        document.getElementById('conversation').getBoundingClientRect().right";
    assert_eq!(tab.eval(side_by_side).await, json!(true));
    let phone = open_page(&bot, &browser, 400).await;
    let stacked =
        "(() => { const c = document.getElementById('conversation').getBoundingClientRect(); \
                   const t = document.getElementById('tasks').getBoundingClientRect(); \
                   return t.top >= c.bottom && c.right <= 400 && t.right <= 400 \
                   && document.documentElement.scrollWidth <= 400; })()";
    assert_eq!(phone.eval(stacked).await, json!(true));
    let viewport = "document.querySelector('meta[name=viewport]').content";
    assert_eq!(
        phone.eval(viewport).await,
        json!("width=device-width, initial-scale=1")
    );
}

#[actix_rt::test]
async fn a_typed_capture_appears_in_tasks_without_a_reload() {
    let bot = start_bot(NEW_YORK).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    say_on_page(&tab, "remind me to pay rent friday at 3pm").await;
    // Friday 27 November, 15:00 in New York (20:00 UTC).
    tab.wait_until(
        "the capture in Tasks with its time in New York",
        &format!(
            "(() => {{ const li = {}; return !!li && li.innerText.includes('Fri 27 Nov, 15:00'); }})()",
            item_in("Tasks", "Pay rent")
        ),
    )
    .await;
    tab.wait_until(
        "Donna's reply in the conversation",
        &format!("!!({})", item_in("Conversation", "Pay rent")),
    )
    .await;
    assert_eq!(
        tab.eval(&count_in(
            "Conversation",
            "remind me to pay rent friday at 3pm"
        ))
        .await,
        json!(1),
        "what the person typed shows once"
    );
    never_reloaded(&tab).await;
    // It went to the page's own free chat, as the page's person.
    let (status, history) = bot.get("/api/threads/web/messages").await;
    assert_eq!(status, 200, "{history}");
    assert_eq!(history[0]["author_id"], json!("web"), "{history}");
    assert_eq!(
        history[0]["text"],
        json!("remind me to pay rent friday at 3pm")
    );
    let (_, tasks) = bot.get("/api/tasks").await;
    assert_eq!(tasks[0]["origin_thread_id"], json!("web"), "{tasks}");
}

#[actix_rt::test]
async fn nudges_from_any_chat_appear_in_the_conversation_live_and_once() {
    let bot = start_bot(NEW_YORK).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    // A nudge in a chat of its own (opened through the API).
    let task = bot.task(json!({ "title": "Water the plants" })).await;
    let (status, nudge) = bot
        .post(
            "/api/nudges",
            json!({ "task_id": task, "channel": "local" }),
        )
        .await;
    assert_eq!(status, 201, "{nudge}");
    let text = nudge["text"].as_str().unwrap_or_default().to_string();
    assert!(text.contains("Water the plants"), "{nudge}");
    tab.wait_until(
        "the nudge in the conversation",
        &format!("!!({})", item_in("Conversation", &text)),
    )
    .await;
    // A nudge delivered into the page's own chat (the task was captured there): shown once,
    // not once as the nudge and again as Donna's message.
    say_on_page(&tab, "todo: renew passport").await;
    tab.wait_until(
        "the capture",
        &format!("!!({})", item_in("Tasks", "Renew passport")),
    )
    .await;
    let (_, tasks) = bot.get("/api/tasks").await;
    let captured = tasks
        .as_array()
        .and_then(|all| all.iter().find(|t| t["title"] == json!("Renew passport")))
        .map(|t| t["id"].as_str().unwrap_or_default().to_string())
        .unwrap_or_default();
    let (status, here) = bot
        .post("/api/nudges", json!({ "task_id": captured }))
        .await;
    assert_eq!(status, 200, "{here}");
    assert_eq!(here["thread_id"], json!("web"));
    let here_text = here["text"].as_str().unwrap_or_default().to_string();
    tab.wait_until(
        "the nudge in the page's chat",
        &format!("!!({})", item_in("Conversation", &here_text)),
    )
    .await;
    // The next event after it (a task change) has been handled when the list updates; by then
    // a second copy of the nudge would be on the page.
    bot.patch(
        &format!("/api/tasks/{task}"),
        json!({ "title": "Water the ferns" }),
    )
    .await;
    tab.wait_until(
        "the renamed task",
        &format!("!!({})", item_in("Tasks", "Water the ferns")),
    )
    .await;
    assert_eq!(
        tab.eval(&count_in("Conversation", &here_text)).await,
        json!(1)
    );
    never_reloaded(&tab).await;
}

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
    let (_, thread) = bot.post("/api/threads", json!({})).await;
    let thread = thread["thread_id"].as_str().unwrap_or_default().to_string();
    let (status, proposal) = bot
        .post(
            "/api/messages",
            json!({ "thread_id": thread, "user_id": "alice", "text": "every day at 8am remind me to stretch" }),
        )
        .await;
    assert_eq!(status, 200, "{proposal}");
    let plan = proposal["pending_plan_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!plan.is_empty(), "{proposal}");
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    tab.wait_until(
        "alice's proposal, for her only",
        &format!(
            "(() => {{ const li = {}; return !!li && li.innerText.includes('only they can answer it'); }})()",
            item_in("Waiting for you", "Stretch")
        ),
    )
    .await;
    assert_eq!(
        tab.eval(&format!(
            "({}).querySelectorAll('button').length",
            item_in("Waiting for you", "Stretch")
        ))
        .await,
        json!(0)
    );
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

#[actix_rt::test]
async fn the_stream_resumes_with_last_event_id_after_a_dropped_connection() {
    // The server ends a stream after 2 s without events; the browser reconnects by itself.
    let bot = start_bot(&format!("{NEW_YORK}http:\n  event_stream_idle: 2s\n")).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    let first = bot.task(json!({ "title": "First thing" })).await;
    let (status, _) = bot
        .post(
            "/api/nudges",
            json!({ "task_id": first, "channel": "local" }),
        )
        .await;
    assert_eq!(status, 201);
    tab.wait_until(
        "the first nudge",
        &format!("!!({})", item_in("Conversation", "First thing")),
    )
    .await;
    // Wait for the stream to end (idle), then nudge while the page is between connections.
    let stream_ids = || -> Vec<String> {
        tab.events("Network.requestWillBeSent")
            .iter()
            .filter(|r| {
                r["request"]["url"]
                    .as_str()
                    .is_some_and(|u| u.ends_with("/api/events"))
            })
            .map(|r| r["requestId"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    // The stream that delivered it (the latest one opened), until it ends.
    let delivering = stream_ids().last().cloned().unwrap_or_default();
    let deadline = std::time::Instant::now() + common::browser::PAGE_WAIT;
    loop {
        let ended = tab
            .events("Network.loadingFinished")
            .iter()
            .chain(tab.events("Network.loadingFailed").iter())
            .any(|e| e["requestId"] == json!(delivering));
        if ended {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the stream never ended"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let second = bot.task(json!({ "title": "Second thing" })).await;
    let (status, _) = bot
        .post(
            "/api/nudges",
            json!({ "task_id": second, "channel": "local" }),
        )
        .await;
    assert_eq!(status, 201);
    tab.wait_until(
        "the nudge sent between connections",
        &format!("!!({})", item_in("Conversation", "Second thing")),
    )
    .await;
    // The reconnection said where the page had stopped.
    let streams: Vec<Value> = tab
        .events("Network.requestWillBeSent")
        .into_iter()
        .filter(|r| {
            r["request"]["url"]
                .as_str()
                .is_some_and(|u| u.ends_with("/api/events"))
        })
        .collect();
    let resumed: Vec<Value> = streams
        .iter()
        .skip_while(|r| r["requestId"] != json!(delivering))
        .skip(1)
        .cloned()
        .collect();
    // The headers as sent on the wire (the DevTools "extra info"; EventSource adds this one
    // below the page's view of the request).
    let reconnection = resumed
        .first()
        .map(|r| r["requestId"].clone())
        .unwrap_or_default();
    let last_event_id = tab
        .events("Network.requestWillBeSentExtraInfo")
        .iter()
        .find(|extra| extra["requestId"] == reconnection)
        .and_then(|extra| extra["headers"]["Last-Event-ID"].as_str().map(String::from))
        .unwrap_or_default();
    assert!(
        last_event_id
            .rsplit_once('-')
            .is_some_and(|(_, seq)| seq.parse::<u64>().is_ok_and(|n| n >= 2)),
        "the reconnection sent Last-Event-ID {last_event_id:?}: {resumed:?}"
    );
    assert_eq!(
        tab.eval(&count_in("Conversation", "Second thing")).await,
        json!(1)
    );
    never_reloaded(&tab).await;
}

#[actix_rt::test]
async fn titles_and_messages_show_as_text_never_as_html() {
    let bot = start_bot(NEW_YORK).await;
    let hostile = "<img src=x onerror=\"window.pwned=1\"> pay <b>rent</b>";
    bot.task(json!({ "title": hostile })).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    tab.wait_until(
        "the task",
        &format!("!!({})", item_in("Tasks", "pay <b>rent</b>")),
    )
    .await;
    say_on_page(
        &tab,
        "todo: <script>window.pwned=2</script> call <i>mum</i>",
    )
    .await;
    tab.wait_until(
        "the typed words, as typed",
        &format!(
            "!!({})",
            item_in("Conversation", "<script>window.pwned=2</script>")
        ),
    )
    .await;
    tab.wait_until(
        "Donna's answer",
        "document.querySelectorAll('#messages li.donna').length > 0",
    )
    .await;
    assert_eq!(tab.eval("window.pwned === undefined").await, json!(true));
    assert_eq!(
        tab.eval("document.querySelectorAll('main img, main script, main b, main i').length")
            .await,
        json!(0)
    );
}
