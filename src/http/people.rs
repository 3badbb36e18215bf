//! `/api/people/{user_id}`: a person's time zone. GET answers the zone their times are read
//! and shown in (the config's `timezone` when they never set one); PUT sets it.
//! A person is the id they write with: the `user_id` of `POST /api/messages`, a Discord user
//! id, `console`.
//! Invariant: only an IANA name chrono-tz knows is stored; an unknown one is refused with the
//! nearest names and changes nothing.

use std::str::FromStr;

use actix_web::{get, put, web, HttpResponse};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::people::{self, repo, zones};

use super::error::ApiError;

/// A person's time zone.
#[derive(Debug, Serialize, ToSchema)]
pub struct PersonView {
    #[schema(example = "owner")]
    pub user_id: String,
    /// An IANA name.
    #[schema(example = "Europe/Berlin")]
    pub timezone: String,
}

/// The zone to set.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PersonUpdate {
    /// An IANA name ("Europe/Berlin", "America/New_York", "UTC").
    #[schema(example = "Europe/Berlin")]
    pub timezone: String,
}

fn checked_user(user_id: String) -> Result<String, ApiError> {
    crate::ids::check(&user_id)
        .map_err(|error| ApiError::BadRequest(format!("user_id {error}")))?;
    Ok(user_id)
}

/// An IANA name, exactly or in another case ("europe/berlin"). A name longer than any zone's is
/// refused before any search; the search itself (the nearest names, linear in the name, over
/// every zone) runs on the blocking pool, never on the HTTP worker that answers the probes.
async fn iana(name: &str) -> Result<Tz, ApiError> {
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
        (status = 200, description = "The person's zone (the default when they set none)", body = PersonView),
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
    let (who, default) = (user_id.clone(), app.config.timezone);
    let timezone = app
        .store
        .read(move |conn| people::zone_of(conn, Some(&who), default))
        .await?;
    Ok(HttpResponse::Ok().json(PersonView {
        user_id,
        timezone: timezone.name().to_string(),
    }))
}

#[utoipa::path(
    tag = "people",
    params(("user_id" = String, Path, description = "The id the person writes with")),
    request_body = PersonUpdate,
    responses(
        (status = 200, description = "Set: the person's times are read and shown in it from now on", body = PersonView),
        (status = 400, description = "An unknown zone (the error names the nearest ones), bad JSON or a bad id"),
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
    let timezone = iana(&body.timezone).await?;
    let (who, now) = (user_id.clone(), app.clock.now());
    app.store
        .write(move |conn| repo::set(conn, &who, timezone, now))
        .await?;
    Ok(HttpResponse::Ok().json(PersonView {
        user_id,
        timezone: timezone.name().to_string(),
    }))
}
