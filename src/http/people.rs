//! `/api/people/{user_id}`: a person's own day and calendars. GET answers the zone their times
//! are read and shown in, the quiet hours their nudges are held in, the working hours a slot
//! Donna proposes lies in (the config's `timezone`, `nudges.quiet_hours` and
//! `scheduling.working_hours` when they never set their own) and their calendars
//! (`people_calendars`: addresses cut to scheme and host); PUT sets any of them, and a null
//! `quiet_hours` or `working_hours` gives them back the default.
//! A person is the id they write with: the `user_id` of `POST /api/messages`, a Discord user
//! id, `console`.
//! Invariants: only an IANA name chrono-tz knows is stored, and only quiet and working hours
//! written like "23:00-07:00" (working hours never empty); a request with anything wrong is refused (an unknown zone with the nearest
//! names) and changes nothing.

use std::str::FromStr;

use actix_web::{get, put, web, HttpResponse};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::config::{QuietHours, WorkingHours};
use crate::people::{self, repo, zones, OwnDay};
use crate::subsystems::calendars::CalendarsMsg;

use super::error::ApiError;
use super::json::nullable;
use super::people_calendars::{self, CalendarShown, CalendarUpdate};

/// A person's zone, quiet hours and calendars (theirs, or the defaults).
#[derive(Debug, Serialize, ToSchema)]
pub struct PersonView {
    #[schema(example = "owner")]
    pub user_id: String,
    /// An IANA name.
    #[schema(example = "Europe/Berlin")]
    pub timezone: String,
    /// Local times in `timezone` when no nudge is sent but at a time they stated.
    #[schema(example = "22:00-08:00")]
    pub quiet_hours: String,
    /// Local times in `timezone` a slot Donna proposes for a task lies in.
    #[schema(example = "09:00-18:00")]
    pub working_hours: String,
    /// The person's own calendars, each address cut to its scheme and host.
    pub calendars: Vec<CalendarShown>,
}

/// The zone, quiet hours and calendars to set (what is left out stays as it is).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PersonUpdate {
    /// An IANA name ("Europe/Berlin", "America/New_York", "UTC").
    #[schema(example = "Europe/Berlin")]
    pub timezone: Option<String>,
    /// "23:00-07:00" (local times in the person's zone; equal ends: never quiet), or null for
    /// the config's `nudges.quiet_hours`.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>, example = "23:00-07:00")]
    pub quiet_hours: Option<Option<String>>,
    /// "09:00-18:00" (local times in the person's zone; it may wrap midnight, never empty), or
    /// null for the config's `scheduling.working_hours`.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>, example = "09:00-18:00")]
    pub working_hours: Option<Option<String>>,
    /// The person's own calendars (the whole list: `[]` removes them).
    pub calendars: Option<Vec<CalendarUpdate>>,
}

pub(super) fn checked_user(user_id: String) -> Result<String, ApiError> {
    crate::ids::check(&user_id)
        .map_err(|error| ApiError::BadRequest(format!("user_id {error}")))?;
    Ok(user_id)
}

/// An IANA name, exactly or in another case ("europe/berlin"). A name longer than any zone's is
/// refused before any search; the search itself (the nearest names, linear in the name, over
/// every zone) runs on the blocking pool, never on the HTTP worker that answers the probes.
pub(super) async fn iana(name: &str) -> Result<Tz, ApiError> {
    let name = name.trim().to_string();
    if name.chars().count() > zones::MAX_NAME_CHARS {
        return Err(ApiError::BadRequest(format!(
            "timezone must be at most {} characters: an IANA name such as Europe/Berlin",
            zones::MAX_NAME_CHARS
        )));
    }
    web::block(move || {
        Tz::from_str(&name)
            .ok()
            .or_else(|| {
                chrono_tz::TZ_VARIANTS
                    .iter()
                    .find(|tz| tz.name().eq_ignore_ascii_case(&name))
                    .copied()
            })
            .ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "timezone: {}",
                    people::unknown_zone(&name, &zones::suggest(&name))
                ))
            })
    })
    .await
    .map_err(|error| ApiError::Internal(format!("the zone search failed: {error}")))?
}

#[utoipa::path(
    tag = "people",
    params(("user_id" = String, Path, description = "The id the person writes with")),
    responses(
        (status = 200, description = "The person's zone and quiet hours (the defaults where they set none) and calendars", body = PersonView),
        (status = 400, description = "An id that is empty or too long"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[get("/people/{user_id}")]
pub async fn get(
    app: web::Data<App>,
    user_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user_id = checked_user(user_id.into_inner())?;
    Ok(HttpResponse::Ok().json(view(&app, user_id).await?))
}

/// The defaults of a person who set nothing: the config's zone and quiet hours.
fn defaults(app: &App) -> OwnDay {
    OwnDay {
        zone: app.config.timezone.zone(),
        quiet_hours: app.config.nudges.quiet_hours,
    }
}

/// The person as GET and PUT show them.
async fn view(app: &App, user_id: String) -> Result<PersonView, ApiError> {
    let (who, defaults) = (user_id.clone(), defaults(app));
    let working = app.config.scheduling.working_hours;
    let (work, calendars) = app
        .store
        .read(move |conn| {
            let work = people::work_day_of(conn, &who, defaults, working)?;
            Ok((work, crate::calendar::repo::of_person(conn, &who)?))
        })
        .await?;
    let day = work.day;
    Ok(PersonView {
        user_id,
        timezone: day.zone.name().to_string(),
        quiet_hours: day.quiet_hours.to_string(),
        working_hours: work.working_hours.to_string(),
        calendars: people_calendars::shown(calendars),
    })
}

/// Hours (quiet or working) as the API takes them: set, null (the default again), or left
/// alone; hours that do not read are refused with the field named.
fn hours<T, E: std::fmt::Display>(
    field: &str,
    asked: Option<Option<String>>,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<Option<Option<T>>, ApiError> {
    match asked {
        None => Ok(None),
        Some(None) => Ok(Some(None)),
        Some(Some(text)) => parse(&text)
            .map(|hours| Some(Some(hours)))
            .map_err(|error| ApiError::BadRequest(format!("{field}: {error}"))),
    }
}

#[utoipa::path(
    tag = "people",
    params(("user_id" = String, Path, description = "The id the person writes with")),
    request_body = PersonUpdate,
    responses(
        (status = 200, description = "Set: the person's times are read and shown in the zone from now on, their nudges held in their quiet hours, slots proposed inside their working hours, and their calendars read", body = PersonView),
        (status = 400, description = "An unknown zone (the error names the nearest ones), quiet or working hours not like \"23:00-07:00\", a calendar that is not an http(s) URL, bad JSON or a bad id"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[put("/people/{user_id}")]
pub async fn put(
    app: web::Data<App>,
    user_id: web::Path<String>,
    body: web::Json<PersonUpdate>,
) -> Result<HttpResponse, ApiError> {
    let user_id = checked_user(user_id.into_inner())?;
    let body = body.into_inner();
    // Everything is checked before anything is written.
    let timezone = match body.timezone.as_deref() {
        Some(name) => Some(iana(name).await?),
        None => None,
    };
    let quiet = hours("quiet_hours", body.quiet_hours, QuietHours::parse)?;
    let working = hours("working_hours", body.working_hours, WorkingHours::parse)?;
    let calendars = body
        .calendars
        .as_deref()
        .map(people_calendars::checked)
        .transpose()?;
    let (who, now, changed) = (user_id.clone(), app.clock.now(), calendars.is_some());
    app.store
        .write(move |conn| {
            if let Some(timezone) = timezone {
                repo::set(conn, &who, timezone, now)?;
            }
            if let Some(quiet) = quiet {
                repo::set_quiet_hours(conn, &who, quiet, now)?;
            }
            if let Some(working) = working {
                repo::set_working_hours(conn, &who, working, now)?;
            }
            if let Some(calendars) = calendars {
                crate::calendar::repo::replace_personal(conn, &who, &calendars, now)?;
            }
            Ok(())
        })
        .await?;
    if changed {
        let _ = app
            .calendars
            .actor
            .tell(CalendarsMsg::Refresh { reply: None });
    }
    Ok(HttpResponse::Ok().json(view(&app, user_id).await?))
}
