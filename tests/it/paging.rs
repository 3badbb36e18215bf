//! The list routes page (`GET /api/tasks`, `/api/automations`, `/api/threads`,
//! `/api/proposals`): `limit` and `cursor` read or refused with a plain 400 (a table of values,
//! good and bad, on every route), at most 1,000 items without `limit`, the answer still an
//! array, `X-Total-Count` and, while more follow, `Link: <URL>; rel="next"` with the same
//! filters; and walking a list page by page while tasks are added and closed shows every item
//! that was there once, never twice (a keyset, newest first, then by id).

use crate::common;
use crate::common::{Fields, Needed};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use common::{start_bot, Bot};
use donna::clock::Clock;
use donna::tasks::model::NewTask;
use donna::tasks::repo;
use serde_json::{json, Value};

const LISTS: [&str; 4] = [
    "/api/tasks",
    "/api/automations",
    "/api/threads",
    "/api/proposals",
];

/// A list answer: status, body, the `Link` header and `X-Total-Count`.
struct Answer {
    status: u16,
    body: Value,
    link: Option<String>,
    total: Option<usize>,
}

impl Answer {
    fn ids(&self) -> Vec<String> {
        self.body
            .as_array()
            .unwrap_or_else(|| panic!("not an array: {}", self.body))
            .iter()
            .map(|item| item["id"].text().to_string())
            .collect()
    }

    /// The URL of the next page, from `<URL>; rel="next"`.
    fn next(&self) -> Option<String> {
        let link = self.link.as_deref()?;
        let (url, rel) = link.split_once(">;")?;
        assert_eq!(rel.trim(), "rel=\"next\"", "{link}");
        Some(url.trim_start_matches('<').to_string())
    }
}

/// GET of a path of this bot, or of a URL a `Link` gave.
async fn get(bot: &Bot, path_or_url: &str) -> Answer {
    let url = if path_or_url.starts_with("http") {
        path_or_url.to_string()
    } else {
        format!("{}{path_or_url}", bot.base)
    };
    let response = bot
        .client
        .get(&url)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string)
    };
    let (link, total) = (header("link"), header("x-total-count"));
    let status = response.status().as_u16();
    let body = response.json().await.unwrap_or(Value::Null);
    Answer {
        status,
        body,
        link,
        total: total.and_then(|total| total.parse().ok()),
    }
}

fn cursor(json: Value) -> String {
    URL_SAFE_NO_PAD.encode(json.to_string())
}

#[actix_rt::test]
async fn limit_and_cursor_are_read_or_refused_plainly_on_every_list() {
    let bot = start_bot("").await;
    for n in 0..3 {
        bot.task(json!({ "title": format!("Task {n}") })).await;
        bot.free_thread().await;
    }
    // A real cursor of the task list, to be refused by the others.
    let tasks_cursor = get(&bot, "/api/tasks?limit=1").await.next().needed();
    let tasks_cursor = tasks_cursor
        .split("cursor=")
        .nth(1)
        .unwrap_or_else(|| panic!("no cursor in {tasks_cursor}"))
        .to_string();
    let at = "2026-11-30T10:00:00.000000Z";
    for list in LISTS {
        let name = list.trim_start_matches("/api/");
        // (query, accepted, what a refusal names)
        let table: Vec<(String, bool, &str)> = vec![
            (String::new(), true, ""),
            ("?limit=1".into(), true, ""),
            ("?limit=1000".into(), true, ""),
            ("?limit= 7".into(), true, ""),
            ("?limit=0".into(), false, "limit"),
            ("?limit=1001".into(), false, "limit"),
            ("?limit=-1".into(), false, "limit"),
            ("?limit=2.5".into(), false, "limit"),
            ("?limit=ten".into(), false, "limit"),
            ("?limit=".into(), false, "limit"),
            ("?limit=99999999999999999999999".into(), false, "limit"),
            ("?cursor=".into(), false, "cursor"),
            ("?cursor=not-a-cursor".into(), false, "cursor"),
            ("?cursor=%00%01".into(), false, "cursor"),
            (format!("?cursor={}", "A".repeat(2000)), false, "cursor"),
            (
                format!(
                    "?cursor={}",
                    cursor(json!({"list": "x", "created_at": at, "id": "a"}))
                ),
                false,
                "cursor",
            ),
            (
                format!(
                    "?cursor={}",
                    cursor(json!({"list": name, "created_at": "yesterday", "id": "a"}))
                ),
                false,
                "cursor",
            ),
            (
                format!(
                    "?cursor={}",
                    cursor(json!({"list": name, "created_at": at, "id": "a\nb"}))
                ),
                false,
                "cursor",
            ),
            (
                format!(
                    "?cursor={}",
                    cursor(json!({"list": name, "created_at": at, "id": "a", "x": 1}))
                ),
                false,
                "cursor",
            ),
            // A cursor Donna could have written is a place in the list, wherever it points.
            (
                format!(
                    "?cursor={}",
                    cursor(json!({"list": name, "created_at": at, "id": "thr_0"}))
                ),
                true,
                "",
            ),
            ("?page=2".into(), false, "page"),
            ("?limit=5&limit=6".into(), false, "limit"),
        ];
        for (query, accepted, names) in &table {
            let answer = get(&bot, &format!("{list}{query}")).await;
            if *accepted {
                assert_eq!(answer.status, 200, "{list}{query}: {}", answer.body);
                assert!(answer.body.is_array(), "{list}{query}: {}", answer.body);
                assert!(answer.total.is_some(), "{list}{query}: no X-Total-Count");
            } else {
                assert_eq!(answer.status, 400, "{list}{query}: {}", answer.body);
                let error = answer.body["error"].text();
                assert!(error.contains(names), "{list}{query}: {error}");
            }
        }
        // Another list's cursor is not this one's.
        let answer = get(&bot, &format!("{list}?cursor={tasks_cursor}")).await;
        let expected = if name == "tasks" { 200 } else { 400 };
        assert_eq!(answer.status, expected, "{list} with the tasks' cursor");
    }
    // The task list's own filter.
    assert_eq!(get(&bot, "/api/tasks?status=open").await.status, 200);
    assert_eq!(get(&bot, "/api/tasks?status=done").await.status, 200);
    let refused = get(&bot, "/api/tasks?status=whenever").await;
    assert_eq!(refused.status, 400, "{}", refused.body);
}

#[actix_rt::test]
async fn walking_the_tasks_while_some_are_added_and_closed_shows_each_once() {
    let bot = start_bot("").await;
    // 30 tasks: three at each instant, so the id orders those made at the same time.
    let mut made = Vec::new();
    for n in 0..30 {
        if n % 3 == 0 {
            bot.clock.advance(chrono::Duration::minutes(1));
        }
        made.push(bot.task(json!({ "title": format!("Task {n}") })).await);
    }
    let whole = get(&bot, "/api/tasks").await;
    assert_eq!(whole.total, Some(30));
    assert!(whole.link.is_none(), "one page holds 30");
    let newest_first = whole.ids();
    assert_eq!(newest_first.len(), 30);

    let (mut seen, mut totals) = (Vec::new(), Vec::new());
    let mut next = Some("/api/tasks?limit=4".to_string());
    while let Some(url) = next {
        let page = get(&bot, &url).await;
        assert_eq!(page.status, 200, "{url}: {}", page.body);
        assert!(page.ids().len() <= 4, "{url}");
        seen.extend(page.ids());
        totals.push(page.total.needed());
        // Two new tasks arrive between pages (newer than any page read so far).
        for _ in 0..2 {
            bot.clock.advance(chrono::Duration::seconds(1));
            bot.task(json!({ "title": "Arrived while paging" })).await;
        }
        next = page.next();
    }
    assert_eq!(seen, newest_first, "every task once, newest first");
    assert_eq!(totals.len(), 8, "30 tasks, 4 a page");
    let grown: Vec<usize> = (0..8).map(|page| 30 + 2 * page).collect();
    assert_eq!(totals, grown, "X-Total-Count counts the list as it is");

    // The open ones, while some are marked done between pages: each task open throughout is
    // shown once; one closed before its page came is not shown at all.
    let open_now = get(&bot, "/api/tasks?status=open").await;
    let open_first = open_now.ids();
    let (mut seen, mut closed) = (Vec::new(), Vec::new());
    let mut next = Some("/api/tasks?status=open&limit=7".to_string());
    while let Some(url) = next {
        let page = get(&bot, &url).await;
        assert_eq!(page.status, 200, "{url}: {}", page.body);
        assert!(
            url.contains("status=open") && url.contains("limit=7"),
            "{url}"
        );
        seen.extend(page.ids());
        // The oldest task not shown yet is closed.
        if let Some(oldest) = open_first.iter().rev().find(|id| !seen.contains(id)) {
            let (status, _) = bot
                .patch(&format!("/api/tasks/{oldest}"), json!({ "status": "done" }))
                .await;
            assert_eq!(status, 200);
            closed.push(oldest.clone());
        }
        next = page.next();
    }
    let expected: Vec<String> = open_first
        .iter()
        .filter(|id| !closed.contains(id))
        .cloned()
        .collect();
    assert_eq!(seen, expected);
    assert!(!closed.is_empty() && made.iter().any(|id| closed.contains(id)));
}

#[actix_rt::test]
async fn a_list_without_limit_answers_1000_and_links_the_rest_with_the_same_filters() {
    let bot = start_bot("").await;
    let now = bot.clock.now();
    bot.app
        .store
        .write(move |conn| {
            for n in 0..1_005 {
                let title = format!("Task {n}");
                repo::insert(conn, &format!("tsk_{n:05}"), &NewTask::titled(title), now)?;
            }
            Ok(())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    for (first, filters) in [
        ("/api/tasks", ""),
        ("/api/tasks?status=backlog", "status=backlog&"),
        ("/api/tasks?status=open", "status=open&"),
    ] {
        let page = get(&bot, first).await;
        assert_eq!(page.status, 200);
        assert_eq!(page.ids().len(), 1_000, "{first}");
        assert_eq!(page.total, Some(1_005), "{first}");
        let link = page.link.clone().needed();
        let prefix = format!("<{}/api/tasks?{filters}cursor=", bot.base);
        assert!(link.starts_with(&prefix), "{first}: {link}");
        assert!(link.ends_with(">; rel=\"next\""), "{link}");
        let rest = get(&bot, &page.next().needed()).await;
        assert_eq!(rest.ids().len(), 5, "{first}");
        assert_eq!(rest.total, Some(1_005));
        assert!(rest.link.is_none(), "{first}: the last page links nothing");
        // Same instant for all: the id orders them, and the two pages meet without a gap.
        let mut all = page.ids();
        all.extend(rest.ids());
        let expected: Vec<String> = (0..1_005).map(|n| format!("tsk_{n:05}")).collect();
        assert_eq!(all, expected, "{first}");
    }
    let none = get(&bot, "/api/tasks?status=done").await;
    assert_eq!(
        (none.body, none.total, none.link),
        (json!([]), Some(0), None)
    );
}

#[actix_rt::test]
async fn threads_page_newest_first_like_tasks() {
    let bot = start_bot("").await;
    let mut made = Vec::new();
    for _ in 0..5 {
        bot.clock.advance(chrono::Duration::minutes(1));
        made.push(bot.free_thread().await);
    }
    made.reverse();
    let (mut seen, mut next) = (Vec::new(), Some("/api/threads?limit=2".to_string()));
    while let Some(url) = next {
        let page = get(&bot, &url).await;
        assert_eq!(page.total, Some(5));
        seen.extend(page.ids());
        next = page.next();
    }
    assert_eq!(seen, made);
}
