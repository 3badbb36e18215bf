//! `/api/automations`: the recurring reminders and daily digests Donna keeps (listed with their
//! kind and next run) and stopping one. Automations are created only through a confirmed proposal in a chat, never
//! here.
//! Invariant: a deleted automation fires no more occurrences; the tasks it already made stay.

use actix_web::{delete, get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::automations::{repo, Automation};

use super::error::ApiError;
use super::json::show;

/// An automation as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AutomationView {
    pub id: String,
    /// What each occurrence does: `reminder` (a task, nudged) or `digest` (the person's agenda,
    /// sent to the chat it was made in).
    #[schema(example = "reminder")]
    pub kind: String,
    pub title: String,
    /// The schedule in words: "every Monday at 09:00".
    #[schema(example = "every Monday at 09:00")]
    pub schedule: String,
    /// The RFC 5545 RRULE value, expanded from its first occurrence in `timezone`.
    #[schema(example = "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0")]
    pub rrule: String,
    #[schema(example = "Europe/Paris")]
    pub timezone: String,
    /// The next occurrence, RFC 3339 in `timezone` (null if the rule has none left).
    pub next_run: Option<String>,
    pub created_at: String,
}

impl AutomationView {
    fn new(automation: Automation, now: chrono::DateTime<chrono::Utc>) -> Self {
        let tz = automation.schedule.timezone;
        let next_run = match automation.schedule.first_run_after(now) {
            Ok(next) => next.map(|at| show(at, tz)),
            Err(error) => {
                tracing::warn!(automation = %automation.id, %error, "automation rule unusable");
                None
            }
        };
        Self {
            next_run,
            created_at: show(automation.created_at, tz),
            timezone: tz.name().to_string(),
            rrule: automation.schedule.rrule,
            schedule: automation.schedule.words,
            title: automation.title,
            kind: automation.kind.as_str().to_string(),
            id: automation.id,
        }
    }
}

#[utoipa::path(
    tag = "automations",
    responses(
        (status = 200, description = "Every automation, oldest first", body = [AutomationView]),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[get("/automations")]
pub async fn list(app: web::Data<App>) -> Result<HttpResponse, ApiError> {
    let now = app.clock.now();
    // The next runs are searched where the rows are read, on the blocking pool: a search is
    // bounded, but never on the HTTP worker that answers the probes.
    let views: Vec<AutomationView> = app
        .store
        .read(move |conn| {
            Ok(repo::list(conn)?
                .into_iter()
                .map(|automation| AutomationView::new(automation, now))
                .collect())
        })
        .await?;
    Ok(HttpResponse::Ok().json(views))
}

#[utoipa::path(
    tag = "automations",
    params(("id" = String, Path, description = "Automation id")),
    responses(
        (status = 204, description = "Stopped: no more occurrences fire"),
        (status = 404, description = "No such automation"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[delete("/automations/{id}")]
pub async fn remove(app: web::Data<App>, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let target = id.clone();
    let removed = app
        .store
        .write(move |conn| repo::delete(conn, &target))
        .await?;
    if removed {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::NotFound(format!("no automation {id}")))
    }
}
