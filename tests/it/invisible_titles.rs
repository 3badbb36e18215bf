//! A title made only of what nobody can see (zero-width spaces and joiners, word joiners, byte
//! order marks, bidi marks, combining marks alone, spaces of every kind, Hangul fillers) is
//! refused wherever a title is set: `POST /api/tasks` and `PATCH /api/tasks/{id}` answer 400
//! with a clear error and store nothing; a capture in chat creates no task.

use crate::common;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use common::fake_llm::{out, start_fake_llm};
use common::start_bot;
use serde_json::{json, Value};

/// Titles nobody can see, one per kind.
const INVISIBLE: [&str; 10] = [
    "\u{200B}",
    "\u{200B}\u{200C}\u{200D}",
    "\u{2060}",
    "\u{FEFF}\u{FEFF}",
    "\u{200E}\u{200F}\u{202E}\u{2066}",
    "\u{301}\u{308}",
    "\u{00A0}\u{2003}\u{3000}\u{2009}",
    "\u{3164}",
    "\u{180E}\u{00AD}",
    " \u{200B} \u{2060} ",
];

/// Titles that look odd but show something: accepted.
const VISIBLE: [&str; 5] = ["🎉", "…", "e\u{301}", "\u{200B}Pay rent", "日本"];

async fn task_count(bot: &common::Bot) -> usize {
    let (_, tasks) = bot.get("/api/tasks").await;
    tasks.as_array().map_or(0, Vec::len)
}

fn says_visible(answer: &Value) -> bool {
    answer["error"].as_str().is_some_and(|error| {
        error.contains("title") && (error.contains("visible") || error.contains("empty"))
    })
}

#[actix_rt::test]
async fn the_api_refuses_invisible_titles_with_400_and_stores_nothing() {
    let bot = start_bot("").await;
    let kept = bot.task(json!({"title": "Pay rent"})).await;
    for title in INVISIBLE {
        let (status, answer) = bot.post("/api/tasks", json!({ "title": title })).await;
        assert_eq!(status, 400, "POST {title:?}: {answer}");
        assert!(says_visible(&answer), "POST {title:?}: {answer}");
        let (status, answer) = bot
            .patch(&format!("/api/tasks/{kept}"), json!({ "title": title }))
            .await;
        assert_eq!(status, 400, "PATCH {title:?}: {answer}");
        assert!(says_visible(&answer), "PATCH {title:?}: {answer}");
    }
    assert_eq!(task_count(&bot).await, 1);
    assert_eq!(bot.task_json(&kept).await["title"], "Pay rent");
    for title in VISIBLE {
        let (status, answer) = bot.post("/api/tasks", json!({ "title": title })).await;
        assert_eq!(status, 201, "POST {title:?}: {answer}");
    }
}

#[actix_rt::test]
async fn a_capture_of_an_invisible_title_creates_no_task() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    for title in INVISIBLE {
        for sentence in [
            format!("add {title}"),
            format!("todo: {title}"),
            format!("new task: {title}"),
            format!("don't forget to {title}"),
        ] {
            let (status, result) = bot
                .post(
                    "/api/messages",
                    json!({"thread_id": thread, "user_id": "owner", "text": sentence}),
                )
                .await;
            assert_eq!(status, 200, "{sentence:?}: {result}");
            assert_ne!(result["path"], "captured", "{sentence:?}: {result}");
            // Whatever was asked meanwhile is dropped, so the next sentence starts afresh.
            bot.say(&thread, "never mind").await;
        }
    }
    let (_, tasks) = bot.get("/api/tasks").await;
    assert_eq!(task_count(&bot).await, 0, "{tasks}");
}

#[actix_rt::test]
async fn a_model_capture_with_an_invisible_title_creates_no_task() {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 2, 2)
        .start()
        .await;
    for (index, title) in INVISIBLE.iter().enumerate() {
        let thread = bot.free_thread().await;
        fake.push_for(
            "route",
            out(json!({"intent": "capture", "confidence": 0.9})),
        );
        fake.push_for(
            "parse_task",
            out(json!({"title": title, "confidence": 0.9})),
        );
        let result = bot
            .say(&thread, &format!("I must handle thing number {index} soon"))
            .await;
        assert_ne!(result["path"], "task_created", "{title:?}: {result}");
    }
    assert_eq!(task_count(&bot).await, 0);
}
