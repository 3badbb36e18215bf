//! A chat's list of tasks costs the same whatever the store holds: it remembers at most 1,000
//! tasks (the soonest, as many as a page of the HTTP API) to page through with "more", and its
//! heading says how many there are in all.

use crate::common;
use crate::common::{Fields, Needed};

use common::start_bot;
use donna::clock::Clock;
use donna::tasks::model::NewTask;
use donna::tasks::repo;

fn reply(result: &serde_json::Value) -> String {
    result["reply"].text().to_string()
}

#[actix_rt::test]
async fn list_my_tasks_pages_through_the_soonest_thousand_and_says_how_many_there_are() {
    let bot = start_bot("").await;
    let now = bot.clock.now();
    bot.app
        .store
        .write(move |conn| {
            for n in 0..1_005_i64 {
                let mut task = NewTask::titled(format!("Errand {n:04}"));
                task.deadline = Some(now + chrono::Duration::hours(n + 1));
                repo::insert(conn, &format!("tsk_{n:05}"), &task, now)?;
            }
            Ok(())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let chat = bot.free_thread().await;
    let first = reply(&bot.say(&chat, "list my tasks").await);
    assert!(
        first.starts_with("Your open tasks, the soonest 1000 of 1005 (1000):"),
        "{first}"
    );
    assert!(first.contains("1. Errand 0000"), "{first}");
    let mut pages = vec![first];
    for _ in 0..60 {
        let last = pages.last().cloned().needed();
        if last.contains("That's all.") {
            break;
        }
        pages.push(reply(&bot.say(&chat, "more").await));
    }
    assert_eq!(pages.len(), 50, "20 a page: {:?}", pages.last());
    let last = pages.last().cloned().needed();
    assert!(last.contains("1000. Errand 0999"), "{last}");
    assert!(last.contains("That's all."), "{last}");
    // The latest five are not in the list; its heading said so.
    for page in &pages {
        assert!(!page.contains("Errand 1000"), "{page}");
    }
}
