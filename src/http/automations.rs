//! `/api/automations`: the recurring reminders and daily digests Donna keeps (listed with their
//! kind, next run, whether their time was stated and what they repeat from), one made by a
//! client (`POST`: a reminder on an RRULE, from its schedule or from completion), and stopping
//! one. In chat an automation is made only through a confirmed proposal; a client holding the
//! API token asks plainly, as it does for `POST /api/tasks`.
//! Invariants: a deleted automation fires no more occurrences; the tasks it already made stay;
//! a created one is checked whole (title, zone, rule, first run, what it repeats from) before
//! anything is written.

use actix_web::{delete, get, post, web, HttpResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::App;
use crate::automations::completion::{self, checked_repeat, Progress};
use crate::automations::{
    client_rule, repo, runner, Automation, AutomationKind, RepeatFrom, Schedule,
};
use crate::people;
use crate::tasks::fields::{check_domain, check_priority, clean_title};

use super::error::ApiError;
use super::json::{parse_time, show};
use super::paging::{PageQuery, PageRefusals, PageRequest};
use super::people::{checked_user, iana};
use crate::store::page::Page;

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
    /// The next occurrence, RFC 3339 in `timezone` (null if the rule has none left, or, when it
    /// repeats from completion, while the last one is still open).
    pub next_run: Option<String>,
    /// Whether the person stated its time of day: its occurrences fire at that time even in
    /// quiet hours.
    pub time_stated: bool,
    /// `schedule` (the rule's occurrences) or `completion` (the rule's interval after the last
    /// one was done).
    #[schema(example = "schedule")]
    pub repeat_from: String,
    pub created_at: String,
}

impl AutomationView {
    /// `progress`: where it stands, for one that repeats from completion.
    fn new(automation: Automation, progress: Option<Progress>, now: DateTime<Utc>) -> Self {
        let tz = automation.schedule.timezone;
        let next = match progress {
            Some(progress) => completion::next_occurrence(&automation, progress),
            None => automation.schedule.first_run_after(now),
        };
        let next_run = match next {
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
            time_stated: automation.time_stated,
            repeat_from: automation.repeat_from.as_str().to_string(),
            id: automation.id,
        }
    }
}

/// Where `automation` stands when it repeats from completion (None when it repeats from its
/// schedule).
fn progress_of(
    conn: &rusqlite::Connection,
    automation: &Automation,
) -> Result<Option<Progress>, crate::store::StoreError> {
    Ok(match automation.repeat_from {
        RepeatFrom::Completion => Some(runner::progress(conn, automation)?),
        RepeatFrom::Schedule => None,
    })
}

#[utoipa::path(
    tag = "automations",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of the automations not stopped, newest first, then by id", body = [AutomationView],
            headers(
                ("X-Total-Count" = u64, description = "How many the whole list holds"),
                ("Link" = String, description = "`<URL>; rel=\"next\"`: the next page, when more follow"),
            )),
        PageRefusals,
    )
)]
#[get("/automations")]
pub async fn list(app: web::Data<App>, asked: PageRequest) -> Result<HttpResponse, ApiError> {
    let now = app.clock.now();
    // The next runs are searched where the rows are read, on the blocking pool: a search is
    // bounded, but never on the HTTP worker that answers the probes.
    asked
        .serve(&app, "automations", move |conn, ask| {
            let page = repo::page(conn, ask)?;
            let mut items = Vec::with_capacity(page.items.len());
            for automation in page.items {
                let progress = progress_of(conn, &automation)?;
                items.push(AutomationView::new(automation, progress, now));
            }
            Ok(Page {
                items,
                next: page.next,
                total: page.total,
            })
        })
        .await
}

/// A recurring reminder a client asks for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateAutomation {
    /// What each occurrence reminds of (the title of its task).
    #[schema(example = "Descale the kettle")]
    title: String,
    /// The RFC 5545 RRULE value alone, repeating by days, weeks, months or years.
    #[schema(example = "FREQ=WEEKLY;INTERVAL=2;BYHOUR=10;BYMINUTE=0;BYSECOND=0")]
    rrule: String,
    /// The IANA zone the rule is expanded in; default: the person's (`user_id`), else the
    /// config's `timezone`.
    timezone: Option<String>,
    /// The first occurrence (RFC 3339, or local in the zone); default: the rule's first after
    /// now.
    first_run: Option<String>,
    /// The schedule in words, as Donna says it back; default: written from the rule.
    schedule: Option<String>,
    /// `schedule` (default) or `completion`.
    #[schema(example = "completion")]
    repeat_from: Option<String>,
    /// Whether its time of day is one the person chose (it then fires in quiet hours); default:
    /// true when the rule names an hour (BYHOUR) or `first_run` is given, as an exact time a
    /// client sets on a task is explicit.
    time_stated: Option<bool>,
    /// Whose reminder it is: its tasks are theirs (their zone, their quiet hours).
    user_id: Option<String>,
    domain: Option<String>,
    priority: Option<i64>,
}

/// The automation `body` asks for, checked whole (the rule as every door checks it:
/// `Schedule::check`); `zone` is the one asked for, else the person's or the config's.
fn automation_of(
    body: CreateAutomation,
    zone: chrono_tz::Tz,
    now: DateTime<Utc>,
) -> Result<Automation, ApiError> {
    let bad = |reason: String| ApiError::BadRequest(reason);
    let title = clean_title(&body.title).map_err(ApiError::bad_request)?;
    client_rule::check(&body.rrule).map_err(bad)?;
    let repeat_from = match body.repeat_from.as_deref() {
        None => RepeatFrom::Schedule,
        Some(text) => RepeatFrom::parse(text).ok_or_else(|| {
            bad(format!(
                "repeat_from: {text:?} is not \"schedule\" or \"completion\""
            ))
        })?,
    };
    let words = match body.schedule.as_deref().map(str::trim) {
        Some(words) if !words.is_empty() => words.to_string(),
        _ => client_rule::words(&body.rrule, repeat_from),
    };
    let stated = body
        .time_stated
        .unwrap_or(body.first_run.is_some() || body.rrule.to_ascii_uppercase().contains("BYHOUR="));
    let invalid = |error: crate::automations::ScheduleError| bad(format!("rrule: {error}"));
    let schedule = match body.first_run.as_deref() {
        Some(text) => {
            let first = parse_time("first_run", text, zone)?;
            if first < now {
                return Err(bad(format!("first_run: {text:?} is in the past")));
            }
            Schedule::from_first(&body.rrule, zone, &words, first).map_err(invalid)?
        }
        None => Schedule::starting_after(&body.rrule, zone, &words, now).map_err(invalid)?,
    };
    schedule.check().map_err(invalid)?;
    checked_repeat(AutomationKind::Reminder, repeat_from, &schedule)
        .map_err(|reason| bad(reason.to_string()))?;
    let domain = body.domain.unwrap_or_else(|| "personal".into());
    check_domain(&domain).map_err(ApiError::bad_request)?;
    let priority = body.priority.unwrap_or(2);
    check_priority(priority).map_err(ApiError::bad_request)?;
    Ok(Automation {
        id: crate::ids::new_id("aut"),
        kind: AutomationKind::Reminder,
        for_user_id: None,
        title,
        schedule,
        origin_thread_id: None,
        domain,
        priority,
        last_occurrence_at: None,
        created_at: now,
        created_by: body.user_id,
        stopped_at: None,
        time_stated: stated,
        repeat_from,
    })
}

#[utoipa::path(
    tag = "automations",
    request_body = CreateAutomation,
    responses(
        (status = 201, description = "Stored: its occurrences become tasks from its first run", body = AutomationView),
        (status = 400, description = "A bad title, zone, rule (faster than daily, or one that does not expand), first run, or a rule that cannot repeat from completion"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[post("/automations")]
pub async fn create(
    app: web::Data<App>,
    body: web::Json<CreateAutomation>,
) -> Result<HttpResponse, ApiError> {
    let mut body = body.into_inner();
    body.user_id = body.user_id.map(checked_user).transpose()?;
    let (now, default) = (app.clock.now(), app.config.timezone.zone());
    let zone = match body.timezone.as_deref() {
        Some(name) => iana(name).await?,
        None => {
            let who = body.user_id.clone();
            app.store
                .read(move |conn| people::zone_of(conn, who.as_deref(), default))
                .await?
        }
    };
    let automation = automation_of(body, zone, now)?;
    let stored = automation.clone();
    app.store
        .write(move |conn| repo::insert(conn, &stored))
        .await?;
    let progress =
        (automation.repeat_from == RepeatFrom::Completion).then_some(Progress::NeverFired);
    Ok(HttpResponse::Created().json(AutomationView::new(automation, progress, now)))
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
