//! Who may call the API, decided by route: the bearer token and the draining 503 are a
//! middleware wrapped on the `/api` scope (`api_guard`), so they run for exactly the requests
//! the router matched to a route registered there, however the path was spelled on the wire
//! (`/%61pi/tasks`, `/api/%74asks`: the router matches the decoded path, and so does this
//! guard, because it is the router that put the request in the scope). Nothing here looks at
//! the raw path.
//!
//! Owns: [`authorised`], the one answer to "may this request use the API" (today the bearer
//! header; a cookie or a route's own query token extend it here), and the order of the scope's
//! refusals: 401 before 503, so a stranger learns nothing from a stop.
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

/// Whether `request` may use the routes the token guards: always without a token; with one,
/// only with `Authorization: Bearer <token>` (the scheme in any case, the token exactly,
/// compared in constant time).
pub fn authorised(request: &HttpRequest, token: &ApiToken) -> bool {
    let Some(token) = &token.0 else {
        return true;
    };
    request
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(bearer_token)
        .is_some_and(|given| constant_time_eq(given.as_bytes(), token.as_bytes()))
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
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    bool::from(subtle::ConstantTimeEq::ct_eq(a, b))
}

/// Why the scope refuses a request, if it does: no token (401), then a stop under way (503;
/// the turns in flight still answer theirs, /health and /metrics are outside the scope).
fn refusal(request: &ServiceRequest) -> Option<ApiError> {
    let token = request.app_data::<web::Data<ApiToken>>();
    // No token data at all means the scope was mounted without `configure`: refuse, never open.
    let allowed = token.is_some_and(|token| authorised(request.request(), token));
    if !allowed {
        return Some(ApiError::Unauthorized(
            "missing or wrong bearer token".into(),
        ));
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
}
