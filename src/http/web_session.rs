//! `POST /web/session`: the web page's token form. With the right API token, the answer sets
//! the session cookie (`HttpOnly`, `SameSite=Strict`, `Path=/`) that /api/* then accepts in
//! place of the bearer header (`auth::authorised`); a wrong token is a 401 and sets nothing.
//!
//! Outside the `/api` scope (it is how a browser gets in), behind the Host check like every
//! route. The token comes in a JSON body, never in a URL, so it is in no log (the access log
//! prints method, path and status only). The cookie holds `auth::session_value`, never the
//! token itself.
//! Invariant: a refused request sets no cookie.

use actix_web::cookie::{time::Duration, Cookie, SameSite};
use actix_web::{post, web, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use super::auth::{constant_time_eq, session_value, ApiToken, SESSION_COOKIE};
use super::error::ApiError;

/// How long the browser keeps the cookie: the page asks again after a year, or at once when
/// the token changes.
const KEPT_FOR_DAYS: i64 = 365;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionRequest {
    /// The API token (`http.api_token_env`).
    token: String,
}

#[utoipa::path(
    tag = "web",
    request_body = SessionRequest,
    responses(
        (status = 204, description = "The token is right: the session cookie is set (HttpOnly, SameSite=Strict, Path=/)"),
        (status = 400, description = "Not a JSON body with the token"),
        (status = 401, description = "Wrong token: nothing is set"),
        (status = 404, description = "No API token is configured: the page needs none"),
    )
)]
#[post("/web/session")]
pub async fn open(
    token: web::Data<ApiToken>,
    body: web::Json<SessionRequest>,
) -> Result<HttpResponse, ApiError> {
    let Some(expected) = &token.0 else {
        return Err(ApiError::NotFound(
            "no API token is configured: the page needs none".into(),
        ));
    };
    if !constant_time_eq(body.token.as_bytes(), expected.as_bytes()) {
        return Err(ApiError::Unauthorized("wrong token".into()));
    }
    let cookie = Cookie::build(SESSION_COOKIE, session_value(expected))
        .http_only(true)
        .same_site(SameSite::Strict)
        .path("/")
        .max_age(Duration::days(KEPT_FOR_DAYS))
        .finish();
    Ok(HttpResponse::NoContent().cookie(cookie).finish())
}
