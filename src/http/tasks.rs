//! `/api/tasks`: create, list, read and edit tasks. A committed create or edit is published as
//! a `task` event (`created`, `status` when the status changed, else `updated`). A
//! `scheduled_start` or `deadline` set here is an exact instant the client chose: it is recorded
//! as explicit (`tasks::nudge_marks`), so its nudge fires at that time even in quiet hours.

use actix_web::{get, patch, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::App;
use crate::events::{Payload, TaskChange};
use crate::tasks::fields::{
    check_description, check_domain, check_estimate, check_priority, clean_title,
};
use crate::tasks::model::NewTask;
use crate::tasks::repo::Shown;
use crate::tasks::{nudge_marks, repo};
use crate::tasks::{Task, TaskStatus};

use super::error::ApiError;
use super::json::{nullable, parse_time, show, show_opt};
use super::paging;

/// A task as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TaskView {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub domain: String,
    pub priority: i64,
    #[schema(value_type = String, example = "open")]
    pub status: TaskStatus,
    pub deadline: Option<String>,
    pub scheduled_start: Option<String>,
    pub estimated_duration_minutes: Option<i64>,
    pub completed_at: Option<String>,
    pub snoozed_until: Option<String>,
    pub reschedule_count: i64,
    pub nudge_count: i64,
    pub created_at: String,
    pub updated_at: String,
    pub open_thread_id: Option<String>,
    /// api | capture | chat | automation
    #[schema(value_type = String, example = "capture")]
    pub source: crate::tasks::TaskSource,
    pub tags: Vec<String>,
    /// Learned preferences applied when it was captured: `[{field, value, reason}]`.
    #[schema(value_type = Vec<Object>)]
    pub applied_preferences: Vec<crate::tasks::AppliedPreference>,
    /// The chat it was captured in (its nudges go there), if any.
    pub origin_thread_id: Option<String>,
    /// The automation whose occurrence made it, if any.
    pub automation_id: Option<String>,
    /// Who captured it (the id they write with; its nudges show times in their zone), or null
    /// for a task from this API.
    pub created_by: Option<String>,
    /// Open, and its deadline has passed (what "what's overdue?" lists).
    pub overdue: bool,
}

impl TaskView {
    pub fn new(
        task: Task,
        open_thread_id: Option<String>,
        timezone: chrono_tz::Tz,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Self {
        Self {
            overdue: task.is_overdue(now),
            deadline: show_opt(task.deadline, timezone),
            scheduled_start: show_opt(task.scheduled_start, timezone),
            completed_at: show_opt(task.completed_at, timezone),
            snoozed_until: show_opt(task.snoozed_until, timezone),
            created_at: show(task.created_at, timezone),
            updated_at: show(task.updated_at, timezone),
            id: task.id,
            title: task.title,
            description: task.description,
            domain: task.domain,
            priority: task.priority,
            status: task.status,
            estimated_duration_minutes: task.estimated_duration_minutes,
            reschedule_count: task.reschedule_count,
            nudge_count: task.nudge_count,
            open_thread_id,
            source: task.source,
            tags: task.tags,
            applied_preferences: task.applied_preferences,
            origin_thread_id: task.origin_thread_id,
            automation_id: task.automation_id,
            created_by: task.created_by,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTask {
    title: String,
    description: Option<String>,
    domain: Option<String>,
    priority: Option<i64>,
    deadline: Option<String>,
    scheduled_start: Option<String>,
    estimated_duration_minutes: Option<i64>,
}

#[utoipa::path(
    tag = "tasks",
    request_body = CreateTask,
    responses(
        (status = 201, description = "Created", body = TaskView),
        (status = 400, description = "Invalid body or parameters"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/tasks")]
pub async fn create(
    app: web::Data<App>,
    body: web::Json<CreateTask>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let tz = app.config.timezone.zone();
    let title = clean_title(&body.title).map_err(ApiError::bad_request)?;
    let domain = body.domain.unwrap_or_else(|| "personal".into());
    check_domain(&domain).map_err(ApiError::bad_request)?;
    let priority = body.priority.unwrap_or(2);
    check_priority(priority).map_err(ApiError::bad_request)?;
    let new = NewTask {
        title,
        description: check_description(body.description.as_deref())
            .map_err(ApiError::bad_request)?,
        domain,
        priority,
        deadline: body
            .deadline
            .map(|t| parse_time("deadline", &t, tz))
            .transpose()?,
        scheduled_start: body
            .scheduled_start
            .map(|t| parse_time("scheduled_start", &t, tz))
            .transpose()?,
        estimated_duration_minutes: check_estimate(body.estimated_duration_minutes)
            .map_err(ApiError::bad_request)?,
        ..NewTask::titled(String::new())
    };
    let now = app.clock.now();
    let task = app
        .store
        .write(move |conn| {
            let task = repo::insert(conn, &crate::ids::new_id("tsk"), &new, now)?;
            // An exact instant a client set is explicit: its nudge fires then, quiet or not.
            if let Some(at) = new.scheduled_start.or(new.deadline) {
                nudge_marks::set_explicit(conn, &task.id, Some(at))?;
            }
            Ok(task)
        })
        .await?;
    publish(&app, &task, TaskChange::Created);
    Ok(HttpResponse::Created().json(TaskView::new(task, None, tz, now)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only tasks in this status, or `open` for every status but done and cancelled.
    status: Option<String>,
    /// At most this many tasks (1 to 1000; 1000 without it).
    limit: Option<String>,
    /// Where the page starts: the `cursor` of the `Link` header of the page before.
    cursor: Option<String>,
}

#[utoipa::path(
    tag = "tasks",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of the tasks, newest first, then by id", body = [TaskView],
            headers(
                ("X-Total-Count" = u64, description = "How many tasks the whole list holds"),
                ("Link" = String, description = "`<URL>; rel=\"next\"`: the next page (same filters), when more tasks follow"),
            )),
        (status = 400, description = "Invalid body or parameters (a bad status, limit or cursor)"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[get("/tasks")]
pub async fn list(
    app: web::Data<App>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let shown = match query.status.as_deref() {
        None => Shown::Every,
        Some("open") => Shown::Open,
        Some(status) => Shown::Status(status.parse().map_err(ApiError::bad_request)?),
    };
    let ask = paging::asked("tasks", query.limit.as_deref(), query.cursor.as_deref())?;
    let (tz, now) = (app.config.timezone.zone(), app.clock.now());
    let page = app
        .store
        .read(move |conn| {
            let page = repo::page(conn, shown, &ask)?;
            let mut threads = Vec::with_capacity(page.items.len());
            for task in &page.items {
                threads.push(repo::open_thread_id(conn, &task.id)?);
            }
            Ok((page, threads))
        })
        .await;
    let (page, threads) = page?;
    let mut threads = threads.into_iter();
    let filters: Vec<(&str, &str)> = [("status", &query.status), ("limit", &query.limit)]
        .into_iter()
        .filter_map(|(name, value)| Some((name, value.as_deref()?)))
        .collect();
    Ok(paging::answer(&request, "tasks", &filters, page, |task| {
        TaskView::new(task, threads.next().flatten(), tz, now)
    }))
}

#[utoipa::path(
    tag = "tasks",
    params(("id" = String, Path, description = "Task id")),
    responses(
        (status = 200, description = "The task", body = TaskView),
        (status = 404, description = "No such task"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[get("/tasks/{id}")]
pub async fn get(app: web::Data<App>, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let (tz, now) = (app.config.timezone.zone(), app.clock.now());
    let found = app
        .store
        .read(move |conn| {
            let Some(task) = repo::get(conn, &id)? else {
                return Ok(Err(id));
            };
            let thread = repo::open_thread_id(conn, &task.id)?;
            Ok(Ok(TaskView::new(task, thread, tz, now)))
        })
        .await?;
    match found {
        Ok(view) => Ok(HttpResponse::Ok().json(view)),
        Err(id) => Err(ApiError::NotFound(format!("no task {id}"))),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchTask {
    title: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    description: Option<Option<String>>,
    domain: Option<String>,
    priority: Option<i64>,
    #[serde(default, deserialize_with = "nullable")]
    deadline: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    scheduled_start: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    estimated_duration_minutes: Option<Option<i64>>,
    status: Option<String>,
}

#[utoipa::path(
    tag = "tasks",
    params(("id" = String, Path, description = "Task id")),
    request_body = PatchTask,
    responses(
        (status = 200, description = "The changed task", body = TaskView),
        (status = 400, description = "Invalid body or parameters"),
        (status = 404, description = "No such task"),
        (status = 409, description = "The change is not allowed in the task's state"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[patch("/tasks/{id}")]
pub async fn patch(
    app: web::Data<App>,
    id: web::Path<String>,
    body: web::Json<PatchTask>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let body = body.into_inner();
    let tz = app.config.timezone.zone();
    // Validate everything before touching the store: a bad field changes nothing.
    let title = body
        .title
        .as_deref()
        .map(clean_title)
        .transpose()
        .map_err(ApiError::bad_request)?;
    if let Some(domain) = &body.domain {
        check_domain(domain).map_err(ApiError::bad_request)?;
    }
    if let Some(priority) = body.priority {
        check_priority(priority).map_err(ApiError::bad_request)?;
    }
    let description = body
        .description
        .map(|d| check_description(d.as_deref()))
        .transpose()
        .map_err(ApiError::bad_request)?;
    let deadline = body
        .deadline
        .map(|d| d.map(|t| parse_time("deadline", &t, tz)).transpose())
        .transpose()?;
    let scheduled_start = body
        .scheduled_start
        .map(|d| d.map(|t| parse_time("scheduled_start", &t, tz)).transpose())
        .transpose()?;
    let estimate = body
        .estimated_duration_minutes
        .map(check_estimate)
        .transpose()
        .map_err(ApiError::bad_request)?;
    let status = body
        .status
        .as_deref()
        .map(str::parse::<TaskStatus>)
        .transpose()
        .map_err(ApiError::bad_request)?;
    let domain = body.domain;
    let priority = body.priority;
    let now = app.clock.now();
    let (task, status_changed, view) = app
        .store
        .write(move |conn| {
            let mut task = repo::require(conn, &id)?;
            let before = task.clone();
            let status_before = task.status;
            if let Some(status) = status {
                if status != task.status {
                    task = repo::set_status(conn, &id, status, now)?;
                }
            }
            if let Some(title) = title {
                task.title = title;
            }
            if let Some(description) = description {
                task.description = description;
            }
            if let Some(domain) = domain {
                task.domain = domain;
            }
            if let Some(priority) = priority {
                task.priority = priority;
            }
            if let Some(deadline) = deadline {
                task.deadline = deadline;
            }
            if let Some(start) = scheduled_start {
                task.scheduled_start = start;
            }
            if let Some(estimate) = estimate {
                task.estimated_duration_minutes = estimate;
            }
            let task = repo::save(conn, &task, now)?;
            // A time set here is an exact instant: explicit, like one set at creation.
            if let Some(at) = scheduled_start.flatten().or(deadline.flatten()) {
                nudge_marks::set_explicit(conn, &task.id, Some(at))?;
            }
            // A correction of a captured task teaches a preference for titles like it.
            crate::capture::preferences::learn(conn, &before, &task, now)?;
            let thread = repo::open_thread_id(conn, &task.id)?;
            let changed = task.status != status_before;
            Ok((task.clone(), changed, TaskView::new(task, thread, tz, now)))
        })
        .await?;
    let change = if status_changed {
        TaskChange::Status
    } else {
        TaskChange::Updated
    };
    publish(&app, &task, change);
    Ok(HttpResponse::Ok().json(view))
}

/// Tells the event stream about a committed change to `task`.
fn publish(app: &App, task: &Task, change: TaskChange) {
    app.events.publish(Payload::Task {
        task_id: task.id.clone(),
        change,
        status: task.status.to_string(),
        title: task.title.clone(),
    });
}
