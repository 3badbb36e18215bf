//! What the web page says as its person: its own free chat and the Yes / No buttons under a
//! proposal (a task's buttons are `web_act`'s). A Yes / No is the intent it stands for, through
//! the same intake and turn as a typed message, so a proposal answers only its requester.
//!
//! Owns: the page's chat (thread [`WEB_THREAD`], a free local thread opened once, on first use,
//! by the same `conversation::threads::open_free` as `POST /api/threads`), the person the page speaks as
//! ([`web_user`]: one user id, since the page has no login of its own beyond the API token), and
//! the checks made before a Yes / No's turn (the plan live and the page's to answer), which the
//! turn makes again.
//! Takes: `POST /api/web/chat`, `POST /api/web/answers` (JSON bodies, like every write). Sends:
//! `Incoming::clicked` to the intake.
//! Invariant: a button's message names what it answers (`answers_plan`), so a click never lands
//! on a newer proposal.

use actix_web::{post, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::actions::Intent;
use crate::app::App;
use crate::conversation::{plans, threads, Channel};
use crate::store::{Refusal, StoreError};
use crate::turn::intake::Incoming;

use super::error::ApiError;

/// The page's own free chat.
pub const WEB_THREAD: &str = crate::conversation::chat_ids::WEB_CHAT;

/// Who the page speaks as (`http.web_user_id`, `web` unless set): its buttons are this
/// person's, a proposal made for them is theirs to answer on the page, and its times are in
/// their zone.
pub(super) fn web_user(app: &App) -> String {
    app.config.http.web_user_id.clone()
}

/// An empty JSON object: the body of a write that needs none (a JSON content type is still
/// required, which a cross-site form cannot send).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Nothing {}

/// The page's chat and who it speaks as.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebChat {
    #[schema(example = "web")]
    thread_id: String,
    /// Who the page speaks as (`http.web_user_id`).
    #[schema(example = "web")]
    user_id: String,
    /// That person's time zone (the configured one when they set none).
    #[schema(example = "Europe/Paris")]
    timezone: String,
}

/// Opens the page's chat if it is not open yet.
pub(super) async fn open_web_chat(app: &App) -> Result<(), ApiError> {
    let now = app.clock.now();
    app.store
        .write(move |conn| match threads::get(conn, WEB_THREAD)? {
            Some(thread) if thread.task_id.is_none() && thread.channel == Channel::Local => Ok(()),
            Some(_) => Err(StoreError::refused(
                Refusal::Conflict,
                format!("thread {WEB_THREAD} exists and is not a free local chat"),
            )),
            None => threads::open_free(
                conn,
                WEB_THREAD.to_string(),
                None,
                false,
                Channel::Local,
                now,
            )
            .map(|_| ()),
        })
        .await?;
    Ok(())
}

#[utoipa::path(
    tag = "web",
    request_body = Nothing,
    responses(
        (status = 200, description = "The page's chat (opened on first use), who the page speaks as and their zone", body = WebChat),
        (status = 400, description = "Not a JSON body"),
        (status = 409, description = "A thread with the page's id exists and is not a free local chat"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/web/chat")]
pub async fn chat(
    app: web::Data<App>,
    _body: web::Json<Nothing>,
) -> Result<HttpResponse, ApiError> {
    open_web_chat(&app).await?;
    let (user_id, default) = (web_user(&app), app.config.timezone.zone());
    let who = user_id.clone();
    let timezone = app
        .store
        .read(move |conn| crate::people::zone_of(conn, Some(&who), default))
        .await?;
    Ok(HttpResponse::Ok().json(WebChat {
        thread_id: WEB_THREAD.into(),
        user_id,
        timezone: timezone.name().into(),
    }))
}

/// A button's answer to a proposal.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Yes,
    No,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerPlan {
    plan_id: String,
    answer: Answer,
}

#[utoipa::path(
    tag = "web",
    request_body = AnswerPlan,
    responses(
        (status = 200, description = "The turn's result: \"yes\" or \"no\" said in the proposal's chat, answering exactly this proposal", content_type = "application/json"),
        (status = 400, description = "Invalid body"),
        (status = 403, description = "The proposal was made for someone else: only they can answer it"),
        (status = 404, description = "No such proposal"),
        (status = 409, description = "The proposal is no longer waiting for an answer"),
        (status = 429, description = "The chat's queue is full; retry"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/web/answers")]
pub async fn answer(
    app: web::Data<App>,
    body: web::Json<AnswerPlan>,
) -> Result<HttpResponse, ApiError> {
    let AnswerPlan { plan_id, answer } = body.into_inner();
    let lookup = plan_id.clone();
    let found = app
        .store
        .read(move |conn| {
            let Some(plan) = plans::get(conn, &lookup)? else {
                return Ok(None);
            };
            let thread = threads::get(conn, &plan.thread_id)?;
            Ok(Some((plan, thread)))
        })
        .await?;
    let Some((plan, Some(thread))) = found else {
        return Err(ApiError::NotFound(format!("no proposal {plan_id}")));
    };
    if !plan.is_live(app.clock.now()) {
        return Err(ApiError::Conflict(
            "this proposal is no longer waiting for an answer".into(),
        ));
    }
    let user = web_user(&app);
    if !plan.answerable_by(&user) {
        return Err(ApiError::Forbidden(
            "this proposal was made for someone else: only they can answer it".into(),
        ));
    }
    let intent = match answer {
        Answer::Yes => Intent::Yes,
        Answer::No => Intent::No,
    };
    let result = app
        .intake
        .submit(Incoming::clicked(thread.channel, thread.id, user, intent).answering_plan(plan.id))
        .await?;
    Ok(HttpResponse::Ok().json(result))
}
