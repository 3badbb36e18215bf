//! The HTTP server (actix-web): health, probes, metrics, the OpenAPI document, the local API
//! of docs/contract.md's contract, the event stream (`events`: `GET /api/events`, Server-Sent
//! Events) and the web page (`page`: `GET /` and its files; `web_session`: its token form;
//! `web_chat`: its chat and its Yes / No; `web_act`: its changes to a task; `proposals`: what
//! waits for a yes or no).
//!
//! Owns: routing (`routes`: the one list of routes, which is also what the OpenAPI document is
//! generated from), the guards every request passes (Host header against DNS rebinding, the body
//! limit; the bearer token and the draining 503 are `auth::api_guard`, wrapped on the `/api`
//! scope, so they guard by route, never by a test on the raw path; the calendar feed is
//! registered outside that scope and checks its own token from the query) and the mapping of
//! errors to `{"error": ...}` answers.
//! Every answer of 400 or more is logged (`access_log`: method, path without the query, status,
//! milliseconds); never a header or a body, so the bearer token and people's words stay out of
//! the log, and the path decoded with anything in it that looks like a secret cut (`redact`:
//! a mistyped feed URL puts its token in the path).
//! Invariant: a request refused by a guard or by validation changes nothing.

mod auth;
mod automations;
mod calendar;
mod calendar_events;
mod error;
mod events;
mod health;
mod json;
mod metrics;
mod openapi;
mod page;
mod paging;
mod people;
mod people_calendars;
mod probes;
mod proposals;
mod redact;
mod spend;
mod tasks;
mod threads;
mod web_act;
mod web_chat;
mod web_session;

use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceRequest, ServiceResponse};
use actix_web::error::{JsonPayloadError, QueryPayloadError};
use actix_web::middleware::{from_fn, Next};
use actix_web::{web, HttpRequest, HttpResponse};
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_actix_web::{scope, AppExt};

use crate::app::App;
pub use error::ApiError;
pub use tasks::TaskView;

/// Who may call at all: the Host names accepted (against DNS rebinding). The token is checked
/// by route, in `auth`.
#[derive(Debug, Clone)]
struct Guard {
    allowed_hosts: Vec<String>,
    any_host: bool,
}

impl Guard {
    fn new(bind: SocketAddr) -> Self {
        let port = bind.port();
        let mut allowed_hosts = vec![
            bind.to_string(),
            "localhost".to_string(),
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            "127.0.0.1".to_string(),
            format!("[::1]:{port}"),
            "[::1]".to_string(),
        ];
        allowed_hosts.push(bind.ip().to_string());
        Self {
            allowed_hosts,
            // Bound to every interface (only allowed with a token): any name may reach it.
            any_host: bind.ip().is_unspecified(),
        }
    }

    fn check(&self, request: &ServiceRequest) -> Result<(), ApiError> {
        let host = request
            .headers()
            .get(actix_web::http::header::HOST)
            .and_then(|value| value.to_str().ok())
            .map(|host| host.to_ascii_lowercase());
        let host_ok = self.any_host
            || host
                .as_ref()
                .is_some_and(|host| self.allowed_hosts.contains(host));
        if !host_ok {
            return Err(ApiError::Forbidden(format!(
                "host {:?} is not this server's address or localhost",
                host.unwrap_or_default()
            )));
        }
        Ok(())
    }
}

/// The Host check, for every request.
async fn host_guard(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let checked = request
        .app_data::<web::Data<Guard>>()
        .map_or(Ok(()), |guard| guard.check(&request));
    match checked {
        Ok(()) => Ok(next.call(request).await?.map_into_left_body()),
        Err(error) => {
            let response = actix_web::ResponseError::error_response(&error);
            Ok(request.into_response(response).map_into_right_body())
        }
    }
}

/// Logs the answers that went wrong (4xx at INFO, 5xx at WARN); successes are the metrics' job.
async fn access_log(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = std::time::Instant::now();
    let method = request.method().clone();
    // The path only (a query string may carry what the person typed), and never anything in it
    // that looks like a secret, whatever the route (`redact`).
    let path = {
        let api_token = request
            .app_data::<web::Data<auth::ApiToken>>()
            .and_then(|token| token.0.clone());
        let calendar_token = request
            .app_data::<web::Data<App>>()
            .and_then(|app| app.calendar_token.clone());
        let session = api_token.as_deref().map(auth::session_value);
        let secrets: Vec<&str> = [&api_token, &calendar_token, &session]
            .into_iter()
            .filter_map(|secret| secret.as_deref())
            .collect();
        redact::shown_path(request.path(), &secrets)
    };
    let response = next.call(request).await?;
    let status = response.status().as_u16();
    let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    if status >= 500 {
        tracing::warn!(%method, path = %path, status, ms, "http request failed");
    } else if status >= 400 {
        tracing::info!(%method, path = %path, status, ms, "http request refused");
    }
    Ok(response)
}

fn json_error(error: JsonPayloadError, _request: &HttpRequest) -> actix_web::Error {
    let api = match &error {
        JsonPayloadError::Overflow { limit }
        | JsonPayloadError::OverflowKnownLength { limit, .. } => {
            ApiError::TooLarge(format!("body is larger than {limit} bytes"))
        }
        JsonPayloadError::ContentType => {
            ApiError::BadRequest("send JSON with Content-Type: application/json".into())
        }
        other => ApiError::BadRequest(format!("invalid JSON body: {other}")),
    };
    api.into()
}

fn query_error(error: QueryPayloadError, _request: &HttpRequest) -> actix_web::Error {
    ApiError::BadRequest(format!("invalid query: {error}")).into()
}

async fn not_found() -> HttpResponse {
    HttpResponse::NotFound().json(serde_json::json!({"error": "not found"}))
}

/// Every route. Registering a handler here documents it: utoipa-actix-web takes the path, the
/// method and the description from the handler's actix method attribute and
/// `#[utoipa::path]`, so a new route is one `.service(module::handler)` line (and a handler
/// without `#[utoipa::path]` does not compile here).
fn routes(cfg: &mut ServiceConfig) {
    cfg.service(health::health)
        .service(probes::live)
        .service(probes::ready)
        .service(metrics::metrics)
        .service(page::page)
        .service(page::script)
        .service(page::style)
        .service(web_session::open)
        // Before the /api scope, which would otherwise take the path: a calendar app cannot
        // send the bearer token, so the feed checks its own (`?token=`).
        .service(calendar::feed)
        .service(
            // Everything in this scope is behind the token and the draining 503: the router
            // decides what is in it, on the decoded path, so no spelling of a path escapes.
            scope("/api")
                .wrap(from_fn(auth::api_guard))
                .service(openapi::openapi_json)
                .service(tasks::create)
                .service(tasks::list)
                .service(tasks::get)
                .service(tasks::patch)
                .service(threads::open_nudge)
                .service(threads::open_thread)
                .service(threads::list_threads)
                .service(threads::history)
                .service(threads::post_message)
                .service(events::events)
                .service(automations::list)
                .service(automations::create)
                .service(automations::remove)
                .service(spend::spend)
                .service(proposals::list)
                .service(web_chat::chat)
                .service(web_act::done)
                .service(web_chat::answer)
                .service(web_act::act)
                .service(people::get)
                .service(people::put)
                .service(calendar_events::events),
        );
}

/// The OpenAPI 3 document of every route `routes` registers (served at /api/openapi.json).
pub fn api_document() -> utoipa::openapi::OpenApi {
    let (_, collected) = actix_web::App::new()
        .into_utoipa_app()
        .configure(routes)
        .split_for_parts();
    openapi::document(collected)
}

/// Registers every route and guard on an actix-web app (used by the server and by tests).
pub fn configure(app: Arc<App>, bind: SocketAddr) -> impl Fn(&mut web::ServiceConfig) + Clone {
    let guard = web::Data::new(Guard::new(bind));
    let token = web::Data::new(auth::ApiToken(app.api_token.clone()));
    let data = web::Data::from(app);
    let document = web::Data::new(openapi::Served::new(&api_document()));
    let streams = web::Data::new(events::EventStreams::new(
        data.config.http.max_event_streams,
        data.config.http.event_stream_idle.get(),
    ));
    move |cfg: &mut web::ServiceConfig| {
        let max_body = data.config.http.max_body;
        cfg.app_data(data.clone())
            .app_data(guard.clone())
            .app_data(token.clone())
            .app_data(streams.clone())
            .app_data(document.clone())
            .app_data(
                web::JsonConfig::default()
                    .limit(max_body)
                    .error_handler(json_error),
            )
            .app_data(web::PayloadConfig::default().limit(max_body))
            .app_data(web::QueryConfig::default().error_handler(query_error));
        routes(&mut ServiceConfig::new(cfg));
        cfg.default_service(web::to(not_found));
    }
}

/// Why Donna cannot listen for HTTP.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("http.bind {bind:?} is not an address like 127.0.0.1:8080: {reason}")]
    BadAddress { bind: String, reason: String },
    #[error("cannot listen on {bind}: the address is in use (another Donna, or another program, has this port); stop it or set http.bind to another address")]
    InUse { bind: String },
    #[error("cannot listen on {bind}: {source}")]
    Io {
        bind: String,
        source: std::io::Error,
    },
}

/// Takes the HTTP port. `donna run` does this before anything else, so a second process on a
/// busy port stops here, before it touches the data directory.
pub fn listen(bind: &str) -> Result<std::net::TcpListener, ListenError> {
    let address: SocketAddr =
        bind.parse()
            .map_err(|e: std::net::AddrParseError| ListenError::BadAddress {
                bind: bind.to_string(),
                reason: e.to_string(),
            })?;
    std::net::TcpListener::bind(address).map_err(|source| match source.kind() {
        std::io::ErrorKind::AddrInUse => ListenError::InUse {
            bind: bind.to_string(),
        },
        _ => ListenError::Io {
            bind: bind.to_string(),
            source,
        },
    })
}

/// Binds `http.bind` and serves on it (tests and tools; `donna run` listens first).
pub fn serve(app: Arc<App>) -> Result<(Server, SocketAddr), ListenError> {
    let bind = app.config.http.bind.clone();
    let listener = listen(&bind)?;
    serve_on(app, listener).map_err(|source| ListenError::Io { bind, source })
}

/// Serves on a listener already taken (it runs once awaited or spawned). Signals are handled
/// by the caller; stopping it is the last step of a shutdown, after the turns in flight have
/// answered, so its own grace only covers writing those answers out.
pub fn serve_on(
    app: Arc<App>,
    listener: std::net::TcpListener,
) -> std::io::Result<(Server, SocketAddr)> {
    let local = listener.local_addr()?;
    let routes = configure(app, local);
    let server = actix_web::HttpServer::new(move || {
        actix_web::App::new()
            .wrap(from_fn(host_guard))
            // Outermost, so the guards' refusals (401, 403, 503) are logged too.
            .wrap(from_fn(access_log))
            .configure(routes.clone())
    })
    .workers(2)
    .disable_signals()
    .shutdown_timeout(2)
    .listen(listener)?
    .run();
    Ok((server, local))
}
