//! The API token and the draining 503 guard routes by where they are registered, never by a
//! string test on the raw request path: every spelling of a path that the router serves as an
//! /api route needs the token, and every route registered under /api is covered.
//!
//! Requests are written by hand on a TCP socket, so the path reaches the server exactly as
//! written (an HTTP client library would normalise dot segments and percent-encodings first).

use crate::common;
use crate::common::{Fields, Needed};

use std::time::Duration;

use common::{start_bot_with, Bot, TestEnv};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const TOKEN: &str = "s3cret-token";

/// How a request authenticates.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Auth {
    None,
    Wrong,
    Right,
}

impl Auth {
    fn header(self) -> String {
        match self {
            Auth::None => String::new(),
            Auth::Wrong => "Authorization: Bearer guess\r\n".to_string(),
            Auth::Right => format!("Authorization: Bearer {TOKEN}\r\n"),
        }
    }
}

/// Sends one request with `target` written as is in the request line; returns the status code
/// (0 when the server closed without one). Only the status line is read, so an event stream
/// that stays open answers too.
async fn status_of(bot: &Bot, method: &str, target: &str, body: Option<&str>, auth: Auth) -> u16 {
    let address = bot.base.trim_start_matches("http://").to_string();
    let mut stream = match tokio::net::TcpStream::connect(&address).await {
        Ok(stream) => stream,
        Err(error) => panic!("connect {address}: {error}"),
    };
    let body = body.unwrap_or("");
    let content = if body.is_empty() {
        String::new()
    } else {
        format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        )
    };
    let request = format!(
        "{method} {target} HTTP/1.1\r\nHost: {address}\r\n{}{content}Connection: close\r\n\r\n{body}",
        auth.header()
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        return 0;
    }
    let mut head = Vec::new();
    let mut buffer = [0u8; 512];
    let read = async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    head.extend_from_slice(&buffer[..n]);
                    if head.windows(2).any(|w| w == b"\r\n") {
                        break;
                    }
                }
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(20), read).await;
    let line = String::from_utf8_lossy(&head);
    line.split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

/// Spellings of a path: the plain one, and the ones an attacker tries on the raw path.
fn spellings(path: &str) -> Vec<String> {
    let rest = path.strip_prefix("/api").unwrap_or(path);
    let mut all = vec![
        path.to_string(),
        format!("/%61pi{rest}"),
        format!("/%61%70%69{rest}"),
        format!("/a%70i{rest}"),
        format!("/ap%69{rest}"),
        format!("/%2561pi{rest}"),
        format!("/%2Fapi{rest}"),
        format!("/%2fapi{rest}"),
        format!("/%41PI{rest}"),
        format!("/API{rest}"),
        format!("/Api{rest}"),
        format!("//api{rest}"),
        format!("//api/{}", rest.trim_start_matches('/').replace('/', "//")),
        format!("/./api{rest}"),
        format!("/x/../api{rest}"),
        format!("/api/.{rest}"),
        format!("/api/./{}", rest.trim_start_matches('/')),
        format!("{path}/"),
        format!("/api%2F{}", rest.trim_start_matches('/')),
        format!("/api%2f{}", rest.trim_start_matches('/')),
        format!("/%2e/api{rest}"),
        format!("/%2E%2E/api{rest}"),
        format!("/api{}", rest.replace('/', "%2F")),
        format!("{path}?x=1"),
        format!("{path}#frag"),
        format!("{path};x=1"),
        format!("/%61pi{}", rest.replace('a', "%61")),
    ];
    if let Some(first) = rest.trim_start_matches('/').chars().next() {
        // The route's own first letter encoded: /api/%74asks.
        let tail = &rest.trim_start_matches('/')[first.len_utf8()..];
        all.push(format!("/api/%{:02X}{tail}", first as u32));
        all.push(format!("/%61pi/%{:02x}{tail}", first as u32));
    }
    all
}

/// The routes the issue named, with a body where the route takes one (a message to a real
/// thread, so a message that got through would be answered 200).
fn named_routes(thread: &str) -> Vec<(&'static str, &'static str, Option<String>)> {
    vec![
        ("GET", "/api/tasks", None),
        (
            "POST",
            "/api/messages",
            Some(json!({"thread_id": thread, "user_id": "owner", "text": "hello"}).to_string()),
        ),
        ("GET", "/api/events", None),
        ("GET", "/api/openapi.json", None),
    ]
}

/// A bot with a token and one free thread (opened with the token): (bot, thread id).
async fn guarded_bot() -> (Bot, String) {
    let bot = start_bot_with("", TestEnv(vec![("DONNA_API_TOKEN", TOKEN)])).await;
    let response = bot
        .client
        .post(format!("{}/api/threads", bot.base))
        .bearer_auth(TOKEN)
        .json(&json!({}))
        .send()
        .await;
    let thread: serde_json::Value = match response {
        Ok(response) => response.json().await.needed(),
        Err(error) => panic!("open a thread: {error}"),
    };
    let id = thread["thread_id"].text().to_string();
    assert!(!id.is_empty(), "no thread id in {thread}");
    (bot, id)
}

/// How many messages a thread holds (read with the token).
async fn messages_in(bot: &Bot, thread: &str) -> usize {
    let response = bot
        .client
        .get(format!("{}/api/threads/{thread}/messages", bot.base))
        .bearer_auth(TOKEN)
        .send()
        .await;
    let history: serde_json::Value = match response {
        Ok(response) => response.json().await.needed(),
        Err(error) => panic!("history: {error}"),
    };
    history.as_array().map_or(0, Vec::len)
}

#[actix_rt::test]
async fn no_spelling_of_an_api_path_is_served_without_the_token() {
    let (bot, thread) = guarded_bot().await;
    let mut served = Vec::new();
    for (method, path, body) in named_routes(&thread) {
        let body = body.as_deref();
        if path == "/api/messages" {
            // Checked first, while the thread is still empty.
            for target in spellings(path) {
                for auth in [Auth::None, Auth::Wrong] {
                    status_of(&bot, method, &target, body, auth).await;
                }
            }
            assert_eq!(
                messages_in(&bot, &thread).await,
                0,
                "a message got through without the token"
            );
        }
        let canonical = status_of(&bot, method, path, body, Auth::Right).await;
        assert!(
            (200..500).contains(&canonical) && canonical != 401,
            "{method} {path} with the token: {canonical}"
        );
        for target in spellings(path) {
            for auth in [Auth::None, Auth::Wrong] {
                let status = status_of(&bot, method, &target, body, auth).await;
                // Refused for the token, or not a route at all (or not a request at all):
                // never anything the route itself answers.
                if !matches!(status, 0 | 400 | 401 | 404) {
                    served.push(format!("{method} {target} {auth:?}: {status}"));
                }
            }
            // With the token, a spelling is either the route itself or no route.
            let status = status_of(&bot, method, &target, body, Auth::Right).await;
            if !matches!(status, 0 | 400 | 404) && status != canonical {
                served.push(format!(
                    "{method} {target} Right: {status} (plain: {canonical})"
                ));
            }
        }
    }
    assert!(
        served.is_empty(),
        "served without the token:\n{}",
        served.join("\n")
    );
}

#[actix_rt::test]
async fn while_draining_no_spelling_of_an_api_path_is_served() {
    let (bot, thread) = guarded_bot().await;
    bot.app.begin_draining();
    let mut served = Vec::new();
    for (method, path, body) in named_routes(&thread) {
        let body = body.as_deref();
        for target in spellings(path) {
            for auth in [Auth::None, Auth::Wrong, Auth::Right] {
                let status = status_of(&bot, method, &target, body, auth).await;
                if !matches!(status, 0 | 400 | 401 | 404 | 503) {
                    served.push(format!("{method} {target} {auth:?}: {status}"));
                }
            }
        }
        assert_eq!(status_of(&bot, method, path, body, Auth::Right).await, 503);
    }
    assert!(
        served.is_empty(),
        "served while draining:\n{}",
        served.join("\n")
    );
    // The probes and the metrics keep serving so the stop can be watched.
    for open in ["/health", "/health/live", "/metrics"] {
        assert_eq!(
            status_of(&bot, "GET", open, None, Auth::None).await,
            200,
            "{open}"
        );
    }
}

/// Every route the server registers (from the OpenAPI document, which registering a handler
/// fills in): each one not in the short open list needs the token, so a route added later
/// cannot skip the guard. Open: the health probes, /metrics, the web page's three files (they
/// hold no data) and its token form (which checks the token it is given itself: `web_token`).
#[actix_rt::test]
async fn every_registered_route_but_health_metrics_and_the_page_needs_the_token() {
    const OPEN: [&str; 8] = [
        "/health",
        "/health/live",
        "/health/ready",
        "/metrics",
        "/",
        "/web/app.js",
        "/web/app.css",
        "/web/session",
    ];
    // The token form answers its own refusals: a body without a token is a 400, not the guard's 401.
    const TOKEN_FORM: &str = "/web/session";
    let (bot, _) = guarded_bot().await;
    let document = match serde_json::to_value(donna::http::api_document()) {
        Ok(document) => document,
        Err(error) => panic!("{error}"),
    };
    let paths = document["paths"].as_object().cloned().needed();
    let mut checked = 0;
    let mut open = Vec::new();
    for (template, item) in &paths {
        // Path parameters filled with a value no row has.
        let path = template
            .split('/')
            .map(|segment| {
                if segment.starts_with('{') {
                    "nope"
                } else {
                    segment
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        let methods = item.as_object().cloned().needed();
        for method in methods.keys() {
            let method = method.to_ascii_uppercase();
            if !["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&method.as_str()) {
                continue;
            }
            let body = (method != "GET" && method != "DELETE").then_some("{}");
            let none = status_of(&bot, &method, &path, body, Auth::None).await;
            let wrong = status_of(&bot, &method, &path, body, Auth::Wrong).await;
            let right = status_of(&bot, &method, &path, body, Auth::Right).await;
            if template == "/api/calendar.ics" {
                // The one route with a token of its own in the query (a calendar app cannot
                // send a header; tests/it/calendar.rs): the API's bearer token never opens it, and
                // with no calendar token set there is no feed.
                assert_eq!((none, wrong, right), (404, 404, 404), "{method} {path}");
                continue;
            }
            if OPEN.contains(&template.as_str()) {
                let expected = if template == TOKEN_FORM { 400 } else { 200 };
                assert_eq!(none, expected, "{method} {path} is open");
                open.push(template.clone());
                continue;
            }
            assert_eq!(none, 401, "{method} {path} without a token");
            assert_eq!(wrong, 401, "{method} {path} with a wrong token");
            assert!(
                right != 401 && right != 0,
                "{method} {path} with the token: {right}"
            );
            // The same route under another spelling is guarded too.
            let encoded = path.replacen("/api", "/%61pi", 1);
            let sneaky = status_of(&bot, &method, &encoded, body, Auth::None).await;
            assert!(
                sneaky == 401 || sneaky == 404,
                "{method} {encoded} without a token: {sneaky}"
            );
            checked += 1;
        }
    }
    open.sort();
    open.dedup();
    assert_eq!(open.len(), OPEN.len(), "the open routes: {open:?}");
    // Every /api route of the contract is in the document (at least these many operations).
    assert!(
        checked >= 14,
        "only {checked} guarded operations found in {paths:?}"
    );
}

#[actix_rt::test]
async fn the_event_stream_needs_the_token_under_any_spelling() {
    let (bot, _) = guarded_bot().await;
    for target in [
        "/api/events",
        "/%61pi/events",
        "/api/%65vents",
        "/%61pi/%65vents",
    ] {
        assert_eq!(
            status_of(&bot, "GET", target, None, Auth::None).await,
            401,
            "{target}"
        );
    }
    // A created task shows nobody without the token, under any spelling.
    let body = json!({"title": "Pay rent"}).to_string();
    for target in ["/%61pi/tasks", "/api/%74asks", "/a%70i/tasks"] {
        assert_eq!(
            status_of(&bot, "POST", target, Some(&body), Auth::None).await,
            401,
            "{target}"
        );
    }
    assert_eq!(
        status_of(&bot, "POST", "/%61pi/tasks", Some(&body), Auth::Right).await,
        201
    );
}
