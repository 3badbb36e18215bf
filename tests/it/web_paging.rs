//! The web page's task list pages through `GET /api/tasks` in a real headless browser: the first
//! 100 open tasks, then "Show more tasks" for the rest; a live refresh keeps what was shown; done
//! tasks never show.

use crate::common;

use common::browser::Browser;
use common::page::{count_in, item_in, never_reloaded, open_page};
use common::start_bot;
use donna::clock::Clock;
use donna::tasks::model::NewTask;
use donna::tasks::{repo, TaskStatus};
use serde_json::{json, Value};

/// How many items the Tasks list shows.
const SHOWN: &str = "document.querySelectorAll('#task-list li').length";
const MORE_SHOWN: &str = "!document.getElementById('more-tasks').hidden";

#[actix_rt::test]
async fn the_task_list_shows_a_hundred_then_the_rest_with_show_more() {
    let bot = start_bot("").await;
    let now = bot.clock.now();
    // 130 open tasks and 40 done ones, written at once.
    bot.app
        .store
        .write(move |conn| {
            for n in 0..170 {
                let id = format!("tsk_{n:03}");
                repo::insert(conn, &id, &NewTask::titled(format!("Errand {n:03}")), now)?;
                if n >= 130 {
                    repo::set_status(conn, &id, TaskStatus::Done, now)?;
                }
            }
            Ok(())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    tab.wait_until("the first page of tasks", &format!("{SHOWN} === 100"))
        .await;
    assert_eq!(tab.eval(MORE_SHOWN).await, json!(true));
    let names = tab.accessible_names().await;
    assert!(
        names.contains(&("button".to_string(), "Show more tasks".to_string())),
        "{names:?}"
    );
    tab.click("document.getElementById('more-tasks')").await;
    tab.wait_until("every open task", &format!("{SHOWN} === 130"))
        .await;
    assert_eq!(tab.eval(MORE_SHOWN).await, json!(false));
    // Each open task once, no done one.
    for n in [0, 57, 99, 100, 129] {
        let one = tab
            .eval(&count_in("Tasks", &format!("Errand {n:03}")))
            .await;
        assert_eq!(one, json!(1), "Errand {n:03}");
    }
    assert_eq!(
        tab.eval(&format!("!!({})", item_in("Tasks", "Errand 130")))
            .await,
        json!(false)
    );
    // A task added now comes live, and the pages shown stay shown.
    bot.task(json!({ "title": "Errand new" })).await;
    tab.wait_until("the new task", &format!("{SHOWN} === 131"))
        .await;
    assert_eq!(tab.eval(MORE_SHOWN).await, json!(false));
    never_reloaded(&tab).await;
    let first: Value = bot.get("/api/tasks?status=open&limit=100").await.1;
    assert_eq!(first.as_array().map(Vec::len), Some(100));
}
