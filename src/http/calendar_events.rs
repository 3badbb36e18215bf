//! `GET /api/calendar/events?from=&to=&user_id=`: a person's events from the calendars Donna
//! reads (their own and the operator's sources for them), oldest first.
//!
//! Invariants: only the events of the calendars of `user_id` (the API token is the owner's and
//! the route serves what it is asked for; the chat shows a person's events only to that
//! person); a window of at most 366 days, `to` after `from` (else 400); times in the person's
//! zone, RFC 3339 with the offset.

use actix_web::{get, web, HttpResponse};
use chrono::Duration;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::App;

use super::error::ApiError;
use super::json::{parse_time, show};
use super::people::checked_user;

/// The longest window asked for.
const MAX_WINDOW_DAYS: i64 = 366;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// Start of the window (RFC 3339).
    from: String,
    /// End of the window (RFC 3339), at most 366 days after `from`.
    to: String,
    /// Whose calendars.
    user_id: String,
}

/// One event, as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventView {
    /// The calendar's name.
    pub calendar: String,
    pub uid: String,
    pub title: String,
    pub start: String,
    pub end: String,
    pub all_day: bool,
}

#[utoipa::path(
    tag = "calendars",
    params(EventsQuery),
    responses(
        (status = 200, description = "The person's events overlapping the window, oldest first", body = [EventView]),
        (status = 400, description = "A time that does not read, `to` not after `from`, a window over 366 days, or a bad id"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[get("/calendar/events")]
pub async fn events(
    app: web::Data<App>,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let user_id = checked_user(query.user_id)?;
    let (who, default) = (user_id.clone(), app.config.timezone.zone());
    let zone = app
        .store
        .read(move |conn| crate::people::zone_of(conn, Some(&who), default))
        .await?;
    let from = parse_time("from", &query.from, zone)?;
    let to = parse_time("to", &query.to, zone)?;
    if to <= from {
        return Err(ApiError::BadRequest("to must be after from".into()));
    }
    if to - from > Duration::days(MAX_WINDOW_DAYS) {
        return Err(ApiError::BadRequest(format!(
            "the window is at most {MAX_WINDOW_DAYS} days"
        )));
    }
    let shown: Vec<EventView> = app
        .calendars
        .book
        .events_of(&user_id, from, to)
        .into_iter()
        .map(|event| EventView {
            calendar: event.calendar,
            uid: event.uid,
            title: event.title,
            start: show(event.start, zone),
            end: show(event.end, zone),
            all_day: event.all_day,
        })
        .collect();
    Ok(HttpResponse::Ok().json(shown))
}
