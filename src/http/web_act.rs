//! The web page's changes to one task, where it is shown: Done, Snooze 1h, Tomorrow, a time of
//! the person's choosing, rename and cancel, and Undo of the page's last change. Each is the
//! intent it stands for (`actions::Intent`) said in the page's chat about that task, through the
//! same intake and turn as typed words: "undo" takes it back, the chat remembers the words it
//! stands for, and cancel (a `plan_only` action, `confirm` for the chat) is proposed first, so the
//! page asks once before anything is cancelled.
//!
//! Owns: reading `POST /api/web/act` into an intent (a chosen time read in the page's person's
//! zone, as RFC 3339 or a local date-time; a new title checked like any title) and the checks
//! before the turn (the task exists and is open), which the turn makes again.
//! Takes: `POST /api/web/act` and `POST /api/web/done` (its Done alone, the older route). Sends:
//! `Incoming::clicked` to the intake, naming the task (`about_task`).
//! Invariant: an act names its task, so it never lands on another one; a bad act is refused
//! with 400 before anything is recorded.

use actix_web::{post, web, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::actions::Intent;
use crate::app::App;
use crate::conversation::Channel;
use crate::people;
use crate::tasks::repo;
use crate::turn::intake::Incoming;

use super::error::ApiError;
use super::json::parse_time;
use super::web_chat::{open_web_chat, web_user, WEB_THREAD};

/// What the page asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActIntent {
    Done,
    /// For an hour.
    Snooze,
    /// Tomorrow, at the task's own time of day.
    Tomorrow,
    /// To `when`.
    Reschedule,
    /// To `title`.
    Rename,
    /// Proposed first: the answer is a proposal the page's Yes confirms.
    Cancel,
    /// The page's last change, taken back (names no task).
    Undo,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Act {
    /// The task to change; every intent but `undo` needs it.
    task_id: Option<String>,
    intent: ActIntent,
    /// For `reschedule` only: RFC 3339, or a local date-time ("2026-12-01T15:00") in the page's
    /// person's zone.
    #[schema(example = "2026-12-01T15:00")]
    when: Option<String>,
    /// For `rename` only: the new title.
    title: Option<String>,
}

#[utoipa::path(
    tag = "web",
    request_body = Act,
    responses(
        (status = 200, description = "The turn's result: the intent said in the page's chat about this task (\"undo\" there takes it back; `cancel` answers with a proposal, `pending_plan_id`)", content_type = "application/json"),
        (status = 400, description = "Invalid body: an unknown intent, a missing or extra field, a time that is not one, a title no task may have"),
        (status = 404, description = "No such task"),
        (status = 409, description = "The task is closed already"),
        (status = 429, description = "The chat's queue is full; retry"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/web/act")]
pub async fn act(app: web::Data<App>, body: web::Json<Act>) -> Result<HttpResponse, ApiError> {
    let Act {
        task_id,
        intent,
        when,
        title,
    } = body.into_inner();
    let name = format!("{intent:?}").to_lowercase();
    let extra = |field: &str| ApiError::BadRequest(format!("{field} is not taken by {name}"));
    let needed = |field: &str| ApiError::BadRequest(format!("{name} needs {field}"));
    for (field, given, wanted) in [
        ("when", when.is_some(), intent == ActIntent::Reschedule),
        ("title", title.is_some(), intent == ActIntent::Rename),
    ] {
        match (given, wanted) {
            (false, true) => return Err(needed(field)),
            (true, false) => return Err(extra(field)),
            _ => {}
        }
    }
    if intent == ActIntent::Undo {
        if task_id.is_some() {
            return Err(extra("task_id: undo takes back the page's last change"));
        }
        open_web_chat(&app).await?;
        let undo = Incoming::clicked(Channel::Local, WEB_THREAD, web_user(&app), Intent::Undo);
        return Ok(HttpResponse::Ok().json(app.intake.submit(undo).await?));
    }
    let task_id = task_id.ok_or_else(|| needed("task_id"))?;
    let intent = match intent {
        ActIntent::Done => Intent::Done,
        ActIntent::Snooze => Intent::Snooze,
        ActIntent::Tomorrow => Intent::Tomorrow,
        ActIntent::Cancel => Intent::Cancel,
        ActIntent::Rename => Intent::Rename {
            title: title.unwrap_or_default(),
        },
        ActIntent::Reschedule => {
            let (who, default) = (web_user(&app), app.config.timezone.zone());
            let zone = app
                .store
                .read(move |conn| people::zone_of(conn, Some(&who), default))
                .await?;
            let at = parse_time("when", when.as_deref().unwrap_or_default(), zone)?;
            Intent::Reschedule {
                at: at.with_timezone(&zone).fixed_offset(),
            }
        }
        ActIntent::Undo => Intent::Undo,
    };
    intent.check().map_err(ApiError::bad_request)?;
    click_on_task(&app, task_id, intent).await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Done {
    task_id: String,
}

#[utoipa::path(
    tag = "web",
    request_body = Done,
    responses(
        (status = 200, description = "The turn's result: \"done\" said in the page's chat about this task (\"undo\" there takes it back)", content_type = "application/json"),
        (status = 400, description = "Invalid body"),
        (status = 404, description = "No such task"),
        (status = 409, description = "The task is closed already"),
        (status = 429, description = "The chat's queue is full; retry"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/web/done")]
pub async fn done(app: web::Data<App>, body: web::Json<Done>) -> Result<HttpResponse, ApiError> {
    click_on_task(&app, body.into_inner().task_id, Intent::Done).await
}

/// Says `intent` in the page's chat about task `task_id`, once the task is there and open; the
/// turn's result.
pub(super) async fn click_on_task(
    app: &App,
    task_id: String,
    intent: Intent,
) -> Result<HttpResponse, ApiError> {
    let lookup = task_id.clone();
    match app.store.read(move |conn| repo::get(conn, &lookup)).await? {
        None => return Err(ApiError::NotFound(format!("no task {task_id}"))),
        Some(task) if !task.status.is_open() => {
            return Err(ApiError::Conflict(format!(
                "'{}' is {} already",
                task.title,
                task.status.as_str()
            )))
        }
        Some(_) => {}
    }
    open_web_chat(app).await?;
    let click = Incoming::clicked(Channel::Local, WEB_THREAD, web_user(app), intent).about(task_id);
    Ok(HttpResponse::Ok().json(app.intake.submit(click).await?))
}
