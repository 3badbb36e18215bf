//! `GET /api/calendar.ics?token=T`: the calendar feed (RFC 5545, `text/calendar`) a calendar
//! app subscribes to: open tasks with a time and the running automations (`crate::calendar`).
//!
//! A calendar app cannot send an `Authorization` header, so this route alone takes its token
//! in the query and is registered outside the `/api` scope the bearer token guards: T is the
//! value of the variable `http.calendar_token_env` names. Unset: 404 (no feed); a missing or
//! wrong token: 401. The access log prints the path only, never the query, so the token stays
//! out of the log.
//! Invariants: reads only; the token is compared in constant time.

use actix_web::{get, web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::app::App;
use crate::automations::repo as automations;
use crate::tasks::repo as tasks;

use super::error::ApiError;

/// The feed's path (outside the bearer-guarded scope).
pub const PATH: &str = "/api/calendar.ics";

#[derive(Debug, Deserialize, IntoParams)]
pub struct FeedQuery {
    /// The value of the variable `http.calendar_token_env` names.
    token: Option<String>,
}

#[utoipa::path(
    tag = "calendar",
    params(FeedQuery),
    responses(
        (status = 200, description = "The feed, RFC 5545 (text/calendar)", content_type = "text/calendar", body = String),
        (status = 401, description = "Missing or wrong token"),
        (status = 404, description = "No feed: the calendar token's variable is not set"),
    ),
    security(())
)]
#[get("/api/calendar.ics")]
pub async fn feed(
    app: web::Data<App>,
    query: web::Query<FeedQuery>,
) -> Result<HttpResponse, ApiError> {
    let Some(expected) = app.calendar_token.as_deref() else {
        return Err(ApiError::NotFound(
            "no calendar feed: it is on while the variable http.calendar_token_env names is set"
                .into(),
        ));
    };
    let given = query.token.as_deref().unwrap_or_default();
    // Constant time: no timing hint about how much of a guess was right.
    if !bool::from(subtle::ConstantTimeEq::ct_eq(
        given.as_bytes(),
        expected.as_bytes(),
    )) {
        return Err(ApiError::Unauthorized(
            "missing or wrong calendar token (?token=)".into(),
        ));
    }
    let now = app.clock.now();
    let (open, recurring) = app
        .store
        .read(|conn| Ok((tasks::list(conn, None)?, automations::list(conn)?)))
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/calendar; charset=utf-8")
        .body(crate::calendar::feed(&open, &recurring, now)))
}
