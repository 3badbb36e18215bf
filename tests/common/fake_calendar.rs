//! A calendar server on loopback: serves scripted iCalendar files by path with an ETag and a
//! Last-Modified, answers 304 to a matching If-None-Match, and can answer an HTTP error, wait,
//! redirect or send a body larger than any bound (streamed, chunk by chunk). It records each
//! request's path and the conditional headers it carried. Bound to an address a test picks
//! (`127.0.0.2` serves as "another host" for the address-guard tests).

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use actix_web::{web, HttpRequest, HttpResponse};
use parking_lot::Mutex;

/// What a path answers.
#[derive(Debug, Clone)]
pub enum Page {
    /// A calendar, with this ETag (304 when the request names it).
    Ics {
        body: String,
        etag: String,
    },
    Status(u16),
    /// Waits this long, then answers the page.
    Slow(Duration, Box<Page>),
    /// 302 to this URL.
    Redirect(String),
    /// A 200 body of this many bytes, streamed in 64 KiB chunks, with no Content-Length.
    Endless(usize),
}

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub path: String,
    pub if_none_match: Option<String>,
    pub if_modified_since: Option<String>,
}

#[derive(Default)]
struct State {
    pages: HashMap<String, Page>,
    seen: Vec<Seen>,
}

#[derive(Clone)]
pub struct FakeCalendar {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    server: actix_web::dev::ServerHandle,
}

impl FakeCalendar {
    /// `http://ADDR` + path.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Serves `body` at `path` with the ETag `etag`.
    pub fn ics(&self, path: &str, body: &str, etag: &str) {
        self.page(
            path,
            Page::Ics {
                body: body.to_string(),
                etag: etag.to_string(),
            },
        );
    }

    pub fn page(&self, path: &str, page: Page) {
        self.state.lock().pages.insert(path.to_string(), page);
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().seen.clone()
    }

    pub async fn stop(&self) {
        self.server.stop(false).await;
    }
}

fn answer(
    page: Page,
    if_none_match: Option<String>,
) -> futures_util::future::LocalBoxFuture<'static, HttpResponse> {
    Box::pin(async move {
        match page {
            Page::Ics { body, etag } => {
                if if_none_match.as_deref() == Some(etag.as_str()) {
                    return HttpResponse::NotModified()
                        .insert_header(("ETag", etag))
                        .finish();
                }
                HttpResponse::Ok()
                    .insert_header(("ETag", etag))
                    .insert_header(("Last-Modified", "Mon, 23 Nov 2026 09:00:00 GMT"))
                    .content_type("text/calendar; charset=utf-8")
                    .body(body)
            }
            Page::Status(code) => HttpResponse::build(
                actix_web::http::StatusCode::from_u16(code)
                    .unwrap_or(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR),
            )
            .body("no calendar here"),
            Page::Slow(wait, then) => {
                actix_rt::time::sleep(wait).await;
                answer(*then, if_none_match).await
            }
            Page::Redirect(to) => HttpResponse::Found()
                .insert_header(("Location", to))
                .finish(),
            Page::Endless(total) => {
                let chunk = web::Bytes::from(vec![b'X'; 64 * 1024]);
                let chunks = total.div_ceil(chunk.len());
                let body = futures_util::stream::iter(
                    (0..chunks).map(move |_| Ok::<_, actix_web::Error>(chunk.clone())),
                );
                HttpResponse::Ok()
                    .content_type("text/calendar")
                    .streaming(body)
            }
        }
    })
}

async fn serve(request: HttpRequest, state: web::Data<Arc<Mutex<State>>>) -> HttpResponse {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string)
    };
    let if_none_match = header("if-none-match");
    let page = {
        let mut state = state.lock();
        state.seen.push(Seen {
            path: request.path().to_string(),
            if_none_match: if_none_match.clone(),
            if_modified_since: header("if-modified-since"),
        });
        state.pages.get(request.path()).cloned()
    };
    match page {
        Some(page) => answer(page, if_none_match).await,
        None => HttpResponse::NotFound().body("not found"),
    }
}

/// Starts a fake calendar server on `ip` (a free port).
pub fn start_fake_calendar_on(ip: &str) -> FakeCalendar {
    let state = Arc::new(Mutex::new(State::default()));
    let data = web::Data::new(state.clone());
    let server = actix_web::HttpServer::new(move || {
        actix_web::App::new()
            .app_data(data.clone())
            .default_service(web::to(serve))
    })
    .workers(1)
    .disable_signals()
    .bind(format!("{ip}:0"))
    .unwrap_or_else(|e| panic!("fake calendar bind: {e}"));
    let addr = server
        .addrs()
        .first()
        .copied()
        .unwrap_or_else(|| panic!("fake calendar has no address"));
    let server = server.run();
    let handle = server.handle();
    actix_rt::spawn(server);
    FakeCalendar {
        addr,
        state,
        server: handle,
    }
}

pub fn start_fake_calendar() -> FakeCalendar {
    start_fake_calendar_on("127.0.0.1")
}
