//! The web page: `GET /` and its script and style, embedded in the binary from `web/` (plain
//! HTML, CSS and JavaScript: no build step, nothing fetched from another host).
//!
//! Owns: serving the three files with the headers that keep the page to itself (a Content
//! Security Policy allowing only this server's own script, style and connections; no framing,
//! no referrer, no sniffing). The page holds no data: everything it shows comes from /api/*
//! (behind the token: the page asks for it when /api answers 401, `web_session`), so these
//! routes need no token; the Host check applies to them as to every route.
//! Invariant: nothing here reads or writes the store.

use actix_web::http::header;
use actix_web::{get, HttpResponse};

const INDEX: &str = include_str!("../../web/index.html");
const SCRIPT: &str = include_str!("../../web/app.js");
const STYLE: &str = include_str!("../../web/app.css");

/// Only this server's own files and connections; no inline script or style, no plugins, no
/// framing by another site, forms posted only here.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; \
    frame-ancestors 'none'";

fn file(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CONTENT_SECURITY_POLICY, POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::X_FRAME_OPTIONS, "DENY"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        // A new binary may bring a new page: the browser asks again each time.
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

/// The page.
#[utoipa::path(
    tag = "web",
    responses(
        (status = 200, description = "The web page: the conversation, tasks, proposals waiting for an answer and recurring reminders, live", content_type = "text/html"),
    )
)]
#[get("/")]
pub async fn page() -> HttpResponse {
    file("text/html; charset=utf-8", INDEX)
}

/// The page's script.
#[utoipa::path(
    tag = "web",
    responses((status = 200, description = "The web page's script", content_type = "text/javascript"))
)]
#[get("/web/app.js")]
pub async fn script() -> HttpResponse {
    file("text/javascript; charset=utf-8", SCRIPT)
}

/// The page's style sheet.
#[utoipa::path(
    tag = "web",
    responses((status = 200, description = "The web page's style sheet", content_type = "text/css"))
)]
#[get("/web/app.css")]
pub async fn style() -> HttpResponse {
    file("text/css; charset=utf-8", STYLE)
}
