//! `/api/nudges`, `/api/threads`, `/api/messages`: opening conversations and talking in them.
//! A committed nudge is published on the event bus (the turns publish their own replies).

use std::collections::HashMap;

use actix_web::{get, post, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::App;
use crate::conversation::memory::{MemoryEntry, Role};
use crate::conversation::{pins, threads, Channel, ContextType, Thread};
use crate::nudges::{NudgeFailure, NudgeRequest};
use crate::store::{Refusal, StoreError};
use crate::subsystems::thread_memory::MemoryMsg;
use crate::turn::intake::Incoming;

use super::error::ApiError;
use super::json::show;
use super::paging::{PageQuery, PageRefusals, PageRequest};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenNudge {
    task_id: String,
    context_type: Option<String>,
    channel: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NudgeView {
    thread_id: String,
    text: String,
}

#[utoipa::path(
    tag = "threads",
    request_body = OpenNudge,
    responses(
        (status = 201, description = "A nudge thread was opened", body = NudgeView),
        (status = 200, description = "The task's nudge thread was already open, or (no `channel` given) the nudge went into the chat the task was captured in", body = NudgeView),
        (status = 400, description = "Invalid body or parameters"),
        (status = 404, description = "No such task"),
        (status = 409, description = "The task is closed, or Discord is off"),
        (status = 502, description = "Discord refused"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/nudges")]
pub async fn open_nudge(
    app: web::Data<App>,
    body: web::Json<OpenNudge>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let context = body
        .context_type
        .as_deref()
        .map(ContextType::parse)
        .transpose()
        .map_err(ApiError::bad_request)?;
    let channel = match body.channel.as_deref() {
        None => None,
        Some("local") => Some(Channel::Local),
        Some("discord") => Some(Channel::Discord),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "channel must be local or discord, not {other:?}"
            )))
        }
    };
    let request = NudgeRequest {
        task_id: body.task_id,
        context,
        channel,
    };
    let opened = app
        .nudge_desk()
        .open(request)
        .await
        .map_err(|failure| match failure {
            NudgeFailure::NoTask(id) => ApiError::NotFound(format!("no task {id}")),
            NudgeFailure::Conflict(reason) => ApiError::Conflict(reason),
            NudgeFailure::Discord(reason) => ApiError::BadGateway(reason),
            NudgeFailure::Unavailable(cause) => ApiError::Unavailable(cause.to_string()),
            // The same answer as every other store error of the API.
            NudgeFailure::Store(error) => ApiError::from(error),
        })?
        .opened;
    app.nudge_metrics.record_requested();
    let view = NudgeView {
        thread_id: opened.thread_id,
        text: opened.text,
    };
    // 201 only when a thread was opened for it (never for a nudge in the task's chat).
    Ok(if opened.created {
        HttpResponse::Created().json(view)
    } else {
        HttpResponse::Ok().json(view)
    })
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenThread {
    chat_id: Option<String>,
    is_group: Option<bool>,
    /// A free chat pinned to this task: the task is in every chat prompt of the thread (it is
    /// not the thread's `task_id`; nudges never reuse the thread).
    task_id: Option<String>,
}

/// Like every other route, the body must be JSON (`{}` at least) with a JSON content type: a
/// plain cross-site POST (text/plain, a form) cannot open threads, and an ill-typed or unknown
/// field is a 400 naming it, not a thread with defaults.
#[utoipa::path(
    tag = "threads",
    request_body = OpenThread,
    responses(
        (status = 201, description = "`{\"thread_id\": ...}`: a free thread bound to no task", content_type = "application/json"),
        (status = 400, description = "Invalid body or parameters"),
        (status = 404, description = "No such task (`task_id`)"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/threads")]
pub async fn open_thread(
    app: web::Data<App>,
    body: web::Json<OpenThread>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    if let Some(chat_id) = &body.chat_id {
        crate::ids::check(chat_id)
            .map_err(|error| ApiError::BadRequest(format!("chat_id {error}")))?;
    }
    let now = app.clock.now();
    let pinned = body.task_id;
    let thread = app
        .store
        .write(move |conn| {
            // The task is checked before the thread exists: an unknown one opens nothing.
            if let Some(task_id) = &pinned {
                if crate::tasks::repo::get(conn, task_id)?.is_none() {
                    return Err(StoreError::refused(
                        Refusal::NotFound,
                        format!("no task {task_id}"),
                    ));
                }
            }
            let thread = threads::open_free(
                conn,
                crate::ids::new_id("thr"),
                body.chat_id,
                body.is_group.unwrap_or(false),
                Channel::Local,
                now,
            )?;
            if let Some(task_id) = &pinned {
                pins::pin(conn, &thread.id, task_id)?;
            }
            Ok(thread)
        })
        .await?;
    Ok(HttpResponse::Created().json(serde_json::json!({ "thread_id": thread.id })))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ThreadView {
    id: String,
    task_id: Option<String>,
    #[schema(value_type = String, example = "local")]
    channel: Channel,
    chat_id: String,
    is_group: bool,
    #[schema(value_type = Option<String>)]
    context_type: Option<ContextType>,
    /// The task a free chat is pinned to, or null.
    pinned_task_id: Option<String>,
    created_at: String,
}

fn thread_view(
    thread: Thread,
    pins: &HashMap<String, String>,
    timezone: chrono_tz::Tz,
) -> ThreadView {
    ThreadView {
        pinned_task_id: pins.get(&thread.id).cloned(),
        created_at: show(thread.created_at, timezone),
        id: thread.id,
        task_id: thread.task_id,
        channel: thread.channel,
        chat_id: thread.chat_id,
        is_group: thread.is_group,
        context_type: thread.context_type,
    }
}

#[utoipa::path(
    tag = "threads",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of the threads, newest first, then by id", body = [ThreadView],
            headers(
                ("X-Total-Count" = u64, description = "How many the whole list holds"),
                ("Link" = String, description = "`<URL>; rel=\"next\"`: the next page, when more follow"),
            )),
        PageRefusals,
    )
)]
#[get("/threads")]
pub async fn list_threads(
    app: web::Data<App>,
    asked: PageRequest,
) -> Result<HttpResponse, ApiError> {
    let tz = app.config.timezone.zone();
    asked
        .serve(&app, "threads", move |conn, ask| {
            let (page, pins) = (threads::page(conn, ask)?, pins::all(conn)?);
            Ok(page.map(|thread| thread_view(thread, &pins, tz)))
        })
        .await
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct HistoryQuery {
    /// At most this many messages, the latest.
    limit: Option<usize>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MessageView {
    #[schema(value_type = String, example = "user")]
    role: Role,
    author_id: Option<String>,
    text: String,
    created_at: String,
}

#[utoipa::path(
    tag = "threads",
    params(("id" = String, Path, description = "Thread id"), HistoryQuery),
    responses(
        (status = 200, description = "The thread's messages, oldest first", body = [MessageView]),
        (status = 400, description = "Invalid body or parameters"),
        (status = 404, description = "No such thread"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[get("/threads/{id}/messages")]
pub async fn history(
    app: web::Data<App>,
    id: web::Path<String>,
    query: web::Query<HistoryQuery>,
) -> Result<HttpResponse, ApiError> {
    let thread_id = id.into_inner();
    let lookup = thread_id.clone();
    if app
        .store
        .read(move |conn| threads::get(conn, &lookup))
        .await?
        .is_none()
    {
        return Err(ApiError::NotFound(format!("no thread {thread_id}")));
    }
    let limit = query.limit;
    let entries: Vec<MemoryEntry> = app
        .memory
        .ask(|reply| MemoryMsg::Recent {
            thread_id,
            limit,
            reply,
        })
        .await
        .map_err(|error| ApiError::Unavailable(error.to_string()))??;
    let tz = app.config.timezone.zone();
    let views: Vec<MessageView> = entries
        .into_iter()
        .map(|entry| MessageView {
            role: entry.role,
            author_id: entry.author_id,
            text: entry.content,
            created_at: show(entry.created_at, tz),
        })
        .collect();
    Ok(HttpResponse::Ok().json(views))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PostMessage {
    thread_id: String,
    user_id: String,
    text: String,
    message_id: Option<String>,
}

#[utoipa::path(
    tag = "threads",
    request_body = PostMessage,
    responses(
        (status = 200, description = "The turn's result: path, reply, actions, pending plan", content_type = "application/json"),
        (status = 400, description = "Invalid body or parameters"),
        (status = 404, description = "No such thread"),
        (status = 429, description = "The thread's queue is full; retry"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/messages")]
pub async fn post_message(
    app: web::Data<App>,
    body: web::Json<PostMessage>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let result = app
        .intake
        .submit(
            Incoming::typed(Channel::Local, body.thread_id, body.user_id, body.text)
                .with_message_id(body.message_id),
        )
        .await?;
    Ok(HttpResponse::Ok().json(result))
}
