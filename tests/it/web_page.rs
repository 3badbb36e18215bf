//! The web page (`GET /`) in a real headless browser (Debian's Chromium over the DevTools
//! Protocol, `common::browser`), against the real server, store and turns: what a person sees.
//! Its names for assistive technology, the phone layout, a capture typed into "Message Donna"
//! (Enter sends) appearing in Tasks, "Donna is thinking…" while the model answers, nudges from
//! any chat, the event stream resumed after a
//! dropped connection, text shown as text. Nothing is reloaded during a test: the page's own
//! `window` marker set at the start must still be there at the end. Its buttons are
//! `web_buttons.rs`, the token flow `web_token.rs`, the README's screenshot `web_screenshot.rs`.

use crate::common;
use crate::common::TestConfig;
use crate::common::{Fields, Needed};
use donna::config::LlmProvider;

use common::browser::Browser;
use common::fake_llm::{out, start_fake_llm, Script};
use common::page::{count_in, item_in, never_reloaded, open_page, say_on_page, NEW_YORK};
use common::start_bot;
use serde_json::{json, Value};
use std::time::Duration;

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
        let url = request["request"]["url"].text();
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
async fn donna_is_thinking_shows_while_the_model_answers_and_goes_with_the_answer() {
    let fake = start_fake_llm();
    let bot = TestConfig::yaml(NEW_YORK)
        .with_llm(&fake, LlmProvider::Ollama, 10, 1)
        .start()
        .await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    let thinking_shown = "!document.getElementById('thinking').hidden";
    // A rule takes this one: no model, nothing to wait for.
    say_on_page(&tab, "remind me to pay rent friday at 3pm").await;
    tab.wait_until(
        "the capture's reply",
        &format!("!!({})", item_in("Conversation", "Pay rent")),
    )
    .await;
    assert_eq!(tab.eval(thinking_shown).await, json!(false));
    // The model takes a while with this one.
    fake.push_for(
        "route",
        Script::Delay(
            Duration::from_secs(3),
            Box::new(out(json!({"intent": "chat", "confidence": 0.9,
                                "reply_to_user": "Sounds like a long one."}))),
        ),
    );
    say_on_page(&tab, "ugh, what a week").await;
    tab.wait_until("Donna is thinking…", thinking_shown).await;
    // A live status line: assistive technology reads it out when it appears.
    assert_eq!(
        tab.eval("document.getElementById('thinking').getAttribute('role')")
            .await,
        json!("status")
    );
    let names = tab.accessible_names().await;
    assert!(
        names.contains(&("StaticText".to_string(), "Donna is thinking…".to_string())),
        "{names:?}"
    );
    tab.wait_until(
        "the answer, and the thinking gone with it",
        &format!(
            "!!({}) && document.getElementById('thinking').hidden",
            item_in("Conversation", "Sounds like a long one.")
        ),
    )
    .await;
    never_reloaded(&tab).await;
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
    let text = nudge["text"].text().to_string();
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
        .map(|t| t["id"].text().to_string())
        .needed();
    let (status, here) = bot
        .post("/api/nudges", json!({ "task_id": captured }))
        .await;
    assert_eq!(status, 200, "{here}");
    assert_eq!(here["thread_id"], json!("web"));
    let here_text = here["text"].text().to_string();
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
            .map(|r| r["requestId"].text().to_string())
            .collect()
    };
    // The stream that delivered it (the latest one opened), until it ends.
    let delivering = stream_ids().last().cloned().needed();
    let ended = common::eventually(common::browser::PAGE_WAIT, || async {
        tab.events("Network.loadingFinished")
            .iter()
            .chain(tab.events("Network.loadingFailed").iter())
            .any(|e| e["requestId"] == json!(delivering))
    })
    .await;
    assert!(ended, "the stream never ended");
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
    let reconnection = resumed.first().map(|r| r["requestId"].clone()).needed();
    let last_event_id = tab
        .events("Network.requestWillBeSentExtraInfo")
        .iter()
        .find(|extra| extra["requestId"] == reconnection)
        .and_then(|extra| extra["headers"]["Last-Event-ID"].as_str().map(String::from))
        .needed();
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
