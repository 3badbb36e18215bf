//! The web page with an API token, against the real `donna` binary in a real headless browser:
//! the page asks for the token once (a form), a wrong token is refused and sets nothing, the
//! right one sets an HttpOnly, SameSite=Strict cookie that /api/* then accepts, and the token
//! is in no URL and no log line. Writes with the cookie are accepted only as the page sends
//! them (JSON, from this server's own origin); the Host check guards the page too.

use crate::common;
use crate::common::{Fields, Needed};

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::Duration;

use common::browser::Browser;
use common::process::{donna, free_port, spawn_run, terminate, wait_healthy, Running};
use serde_json::json;

const TOKEN: &str = "page-token-5f3a9c";

/// Starts `donna run` with the API token in `DONNA_WEB_TOKEN`.
fn start_with_token(dir: &std::path::Path) -> Running {
    let port = free_port();
    let config = dir.join("donna.yaml");
    std::fs::write(
        &config,
        format!(
            "data_dir: data\ntimezone: America/New_York\nhttp:\n  bind: 127.0.0.1:{port}\n  \
             api_token_env: DONNA_WEB_TOKEN\nllm:\n  provider: none\n"
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut with_token = donna();
    with_token.env("DONNA_WEB_TOKEN", TOKEN);
    spawn_run(with_token, &config, port, &[], Stdio::piped())
}

/// One request written by hand (exact headers); returns the status line's code and the head.
fn raw(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut request = format!("{method} {path} HTTP/1.1\r\n");
    if !headers.iter().any(|(name, _)| *name == "Host") {
        request.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    stream
        .write_all(request.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let head = answer.split("\r\n\r\n").next().needed().to_string();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, head)
}

/// `POST /api/tasks` with the page's cookie, this content type and origin: the status.
fn post_task_with_cookie(port: u16, cookie: &str, content_type: &str, origin: Option<&str>) -> u16 {
    let mut headers = vec![("Cookie", cookie), ("Content-Type", content_type)];
    if let Some(origin) = origin {
        headers.push(("Origin", origin));
    }
    raw(
        port,
        "POST",
        "/api/tasks",
        &headers,
        r#"{"title":"From elsewhere"}"#,
    )
    .0
}

#[actix_rt::test]
async fn the_page_asks_for_the_token_once_and_keeps_it_in_an_http_only_strict_cookie() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut running = start_with_token(dir.path());
    wait_healthy(&mut running);
    let port = running.port;
    let base = format!("http://127.0.0.1:{port}");
    let browser = Browser::launch().await;
    let tab = browser.tab(1000, 760).await;
    tab.open(&format!("{base}/")).await;

    // The page itself holds no data and is served without the token; /api answered 401, so it
    // shows the form and none of the regions.
    assert_eq!(
        tab.eval("document.getElementById('token-form').hidden")
            .await,
        json!(false)
    );
    assert_eq!(
        tab.eval("document.getElementById('app').hidden").await,
        json!(true)
    );
    let names = tab.accessible_names().await;
    assert!(
        names.contains(&("textbox".to_string(), "API token".to_string())),
        "{names:?}"
    );
    assert!(!names.contains(&("region".to_string(), "Tasks".to_string())));

    // A wrong token: refused, said so, nothing set.
    tab.click("[...document.querySelectorAll('label')].find(l => l.textContent === 'API token')")
        .await;
    tab.type_text("not-the-token").await;
    tab.press("Enter").await;
    tab.wait_until(
        "the refusal",
        "document.getElementById('token-error').textContent.includes('not the right one')",
    )
    .await;
    assert_eq!(tab.cookies(&base).await, Vec::<serde_json::Value>::new());

    // The right one (the wrong one is still selected, so typing replaces it).
    tab.type_text(TOKEN).await;
    tab.press("Enter").await;
    tab.wait_until("the page to open", "document.body.dataset.ready === 'yes'")
        .await;
    let cookies = tab.cookies(&base).await;
    assert_eq!(cookies.len(), 1, "{cookies:?}");
    let cookie = &cookies[0];
    assert_eq!(cookie["name"], json!("donna_session"));
    assert_eq!(cookie["httpOnly"], json!(true), "{cookie}");
    assert_eq!(cookie["sameSite"], json!("Strict"), "{cookie}");
    assert_eq!(cookie["path"], json!("/"), "{cookie}");
    let value = cookie["value"].text().to_string();
    assert!(!value.is_empty() && !value.contains(TOKEN), "{cookie}");
    // Script on the page cannot read it.
    assert_eq!(tab.eval("document.cookie").await, json!(""));

    // The page works with the cookie: a capture typed and listed.
    tab.click(
        "[...document.querySelectorAll('label')].find(l => l.textContent === 'Message Donna')",
    )
    .await;
    tab.type_text("todo: buy stamps").await;
    tab.press("Enter").await;
    tab.wait_until(
        "the capture in Tasks",
        "document.getElementById('task-list').innerText.includes('Buy stamps')",
    )
    .await;

    // Asked once: a new tab opens straight onto the page.
    let again = browser.tab(1000, 760).await;
    again.open(&format!("{base}/")).await;
    assert_eq!(
        again.eval("document.body.dataset.ready").await,
        json!("yes")
    );

    // No token in any URL the browser asked for.
    for tab in [&tab, &again] {
        assert_eq!(tab.eval("location.href").await, json!(format!("{base}/")));
        for request in tab.events("Network.requestWillBeSent") {
            let url = request["request"]["url"].text();
            assert!(!url.contains(TOKEN), "{url}");
        }
    }

    // The cookie is accepted only as the page uses it.
    let cookie_header = format!("donna_session={value}");
    let own = format!("http://127.0.0.1:{port}");
    let post = |content_type: &str, origin: Option<&str>| {
        post_task_with_cookie(port, &cookie_header, content_type, origin)
    };
    assert_eq!(post("application/json", Some("http://evil.example")), 403);
    assert_eq!(post("text/plain", None), 403);
    assert_eq!(post("application/x-www-form-urlencoded", Some(&own)), 403);
    assert_eq!(post("application/json", Some(&own)), 201);
    let (status, _) = raw(port, "GET", "/api/tasks", &[("Cookie", &cookie_header)], "");
    assert_eq!(status, 200);
    let (status, _) = raw(
        port,
        "GET",
        "/api/tasks",
        &[("Cookie", "donna_session=0000")],
        "",
    );
    assert_eq!(status, 401);
    let (status, _) = raw(port, "GET", "/api/tasks", &[], "");
    assert_eq!(status, 401);
    // A wrong token sets no cookie.
    let (status, head) = raw(
        port,
        "POST",
        "/web/session",
        &[("Content-Type", "application/json")],
        r#"{"token":"guess"}"#,
    );
    assert_eq!(status, 401);
    assert!(!head.to_ascii_lowercase().contains("set-cookie"), "{head}");
    // The Host check guards the page as every route.
    let (status, _) = raw(port, "GET", "/", &[("Host", "evil.example")], "");
    assert_eq!(status, 403);
    let (status, _) = raw(port, "GET", "/", &[], "");
    assert_eq!(status, 200);

    // Refusals were logged (the log is being read), and neither the token nor the cookie is
    // in it.
    drop(browser);
    let code = terminate(&mut running.child);
    assert_eq!(code, Some(0));
    let log = running.stderr();
    assert!(
        log.contains("http request refused") && log.contains("/web/session"),
        "{log}"
    );
    assert!(!log.contains(TOKEN), "the token is in the log:\n{log}");
    assert!(!log.contains(&value), "the cookie is in the log:\n{log}");
}
