//! Who may call the API, decided by route: the bearer token and the draining 503 are a
//! middleware wrapped on the `/api` scope (`api_guard`), so they run for exactly the requests
//! the router matched to a route registered there, however the path was spelled on the wire
//! (`/%61pi/tasks`, `/api/%74asks`: the router matches the decoded path, and so does this
//! guard, because it is the router that put the request in the scope). Nothing here looks at
//! the raw path.
//!
//! Owns: [`authorised`], the one answer to "may this request use the API": the bearer header,
//! or the web page's session cookie ([`SESSION_COOKIE`], set by `POST /web/session`); and the
//! order of the scope's refusals: 401 before 503, so a stranger learns nothing from a stop.
//! Cross-site requests: the cookie is `SameSite=Strict`, so another site's page never sends it;
//! on top of that a write authorised by the cookie alone must be `Content-Type:
//! application/json` (which a cross-site form cannot send), and its `Origin`, when the browser
//! sends one, must be this server's own (`Sec-Fetch-Site` likewise, when sent).
//! Invariant: a request refused here reaches no handler and changes nothing.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest};

use super::error::ApiError;
use crate::app::App;

/// The API token (`http.api_token_env`), when one is required.
#[derive(Debug, Clone)]
pub struct ApiToken(pub Option<String>);

/// The cookie the web page keeps once the person typed the token (`POST /web/session`).
pub const SESSION_COOKIE: &str = "donna_session";

/// The session cookie's value for `token`: SHA-256 of a fixed label and the token, in hex. The
/// browser keeps this, never the token itself; it stops working when the token changes.
pub fn session_value(token: &str) -> String {
    let mut context = ring::digest::Context::new(&ring::digest::SHA256);
    context.update(b"donna web session\0");
    context.update(token.as_bytes());
    context
        .finish()
        .as_ref()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Whether `request` may use the routes the token guards: always without a token; with one,
/// with `Authorization: Bearer <token>` (the scheme in any case, the token exactly, compared in
/// constant time), or with the web page's session cookie (a write then only as the page sends
/// it: JSON, from this server's own origin). 401 otherwise, 403 for a cookie write that could
/// come from another site.
pub fn authorised(request: &HttpRequest, token: &ApiToken) -> Result<(), ApiError> {
    let Some(token) = &token.0 else {
        return Ok(());
    };
    let bearer = request
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(bearer_token);
    if bearer.is_some_and(|given| constant_time_eq(given.as_bytes(), token.as_bytes())) {
        return Ok(());
    }
    let cookie = request.cookie(SESSION_COOKIE);
    let expected = session_value(token);
    if cookie.is_some_and(|given| constant_time_eq(given.value().as_bytes(), expected.as_bytes())) {
        return same_site_write(request);
    }
    Err(ApiError::Unauthorized(
        "missing or wrong bearer token".into(),
    ))
}

/// A request authorised by the cookie alone: reads pass; a write must be JSON and come from this
/// server's own page (its `Origin` and `Sec-Fetch-Site`, when the browser sends them).
fn same_site_write(request: &HttpRequest) -> Result<(), ApiError> {
    use actix_web::http::{header, Method};
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return Ok(());
    }
    // A header value that is not visible ASCII reads as "\0", which matches nothing allowed.
    let header_text = |name| {
        request.headers().get(name).map(|value| {
            value
                .to_str()
                .unwrap_or("\u{0}")
                .trim()
                .to_ascii_lowercase()
        })
    };
    let json = header_text(header::CONTENT_TYPE)
        .is_some_and(|value| value.split(';').next().map(str::trim) == Some("application/json"));
    if !json {
        return Err(ApiError::Forbidden(
            "a write with the page's cookie must send Content-Type: application/json".into(),
        ));
    }
    let host = header_text(header::HOST).unwrap_or_default();
    let own_origin = header_text(header::ORIGIN).is_none_or(|origin| {
        origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|rest| !host.is_empty() && rest == host)
    });
    let fetch_site = header_text(header::HeaderName::from_static("sec-fetch-site"));
    let same_origin = fetch_site.is_none_or(|site| site == "same-origin" || site == "none");
    if !(own_origin && same_origin) {
        return Err(ApiError::Forbidden(
            "a write with the page's cookie must come from this server's own page".into(),
        ));
    }
    Ok(())
}

/// The token of an `Authorization: Bearer <token>` value. The scheme is case-insensitive and
/// followed by one or more spaces (RFC 7235, 2.1); the token is taken as it is.
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim_start_matches(' '))
}

/// Compares without stopping at the first difference (no timing hint about the token), with the
/// `subtle` crate's comparison, which keeps the optimiser from adding an early exit.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    bool::from(subtle::ConstantTimeEq::ct_eq(a, b))
}

/// Why the scope refuses a request, if it does: no token (401), then a stop under way (503;
/// the turns in flight still answer theirs, /health and /metrics are outside the scope).
fn refusal(request: &ServiceRequest) -> Option<ApiError> {
    // No token data at all means the scope was mounted without `configure`: refuse, never open.
    let Some(token) = request.app_data::<web::Data<ApiToken>>() else {
        return Some(ApiError::Unauthorized(
            "missing or wrong bearer token".into(),
        ));
    };
    if let Err(refused) = authorised(request.request(), token) {
        return Some(refused);
    }
    let draining = request
        .app_data::<web::Data<App>>()
        .is_some_and(|app| app.is_draining());
    draining.then(|| ApiError::Unavailable("shutting down".into()))
}

/// The `/api` scope's middleware: the token, then draining.
pub async fn api_guard(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    match refusal(&request) {
        None => Ok(next.call(request).await?.map_into_left_body()),
        Some(error) => {
            let response = actix_web::ResponseError::error_response(&error);
            Ok(request.into_response(response).map_into_right_body())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_scheme_is_any_case_and_the_token_exact() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bEaReR   abc"), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer"), None);
    }

    #[test]
    fn the_session_cookie_is_a_hash_of_the_token_never_the_token() {
        let value = session_value("s3cret");
        assert_eq!(value.len(), 64);
        assert!(value.chars().all(|c| c.is_ascii_hexdigit()));
        assert!(!value.contains("s3cret"));
        assert_eq!(value, session_value("s3cret"));
        assert_ne!(value, session_value("s3cret2"));
    }
}
