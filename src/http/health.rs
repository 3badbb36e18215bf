//! `GET /health`: what every actor is doing, for people (/metrics, for Prometheus, is in
//! `metrics.rs`; the probes are in `probes.rs`).
//!
//! /health also shows the calendars Donna reads (`calendars`: each one's state, events kept,
//! last refresh and error, never its address) and the model (`model`: provider, model, state,
//! when it was checked, the last error, and `context`: the context it runs with and what that
//! leaves a prompt and the chat room): a model that is unreachable or missing makes the status
//! "degraded" with 200, never
//! 503, because restarting Donna would not bring it back.

use std::sync::atomic::Ordering;

use actix_web::{get, web, HttpResponse};
use actors::{ActorState, HealthSnapshot};
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::app::{App, ContextFigures};
use crate::llm::probe::ModelStatus;

#[derive(Debug, Serialize)]
struct FailureView {
    at: String,
    message: String,
}

#[derive(Debug, Serialize)]
struct ActorView {
    name: String,
    state: &'static str,
    restarts: u64,
    last_failure: Option<FailureView>,
    queue_depth: usize,
    processed: u64,
    in_flight_ms: Option<u64>,
}

#[derive(Debug, Serialize)]
struct ConversationsView {
    live: usize,
    passivated: u64,
}

/// The group-chat reply gate's decisions and the rate cap's refusals.
#[derive(Debug, Serialize)]
struct ReplyGateView {
    reply: u64,
    skip: u64,
    fail_open: u64,
    cap_hits: u64,
}

/// The configured model and whether it is there.
#[derive(Debug, Serialize)]
struct ModelView {
    provider: &'static str,
    model: String,
    state: &'static str,
    checked_at: Option<String>,
    error: Option<String>,
    context: ContextFigures,
}

#[derive(Debug, Serialize)]
struct HealthView {
    status: &'static str,
    actors: Vec<ActorView>,
    conversations: ConversationsView,
    dead_letters: u64,
    /// Messages set aside after their turn failed every try (never run again; the log names
    /// each one's thread and message id).
    parked_messages: u64,
    reply_gate: ReplyGateView,
    model: ModelView,
    config: ConfigView,
    /// Every calendar Donna reads: its state, never its address.
    calendars: Vec<CalendarView>,
    timezone: ZoneView,
}

/// The zone times are read and shown in by default (a person's own zone aside), and where it
/// came from: `config`, `TZ`, `/etc/localtime` or `default` (UTC, nothing named one).
#[derive(Debug, Serialize)]
struct ZoneView {
    zone: &'static str,
    source: &'static str,
}

/// One calendar's state (no URL, no path: a calendar's address is a credential).
#[derive(Debug, Serialize)]
struct CalendarView {
    name: String,
    for_user_id: String,
    state: &'static str,
    /// Events kept (31 days back to 367 ahead).
    events: usize,
    /// Events left out: an unknown time zone, a recurrence that does not read.
    skipped: usize,
    refreshed_at: Option<String>,
    error: Option<String>,
}

fn calendar_views(app: &App) -> Vec<CalendarView> {
    app.calendars
        .book
        .statuses()
        .into_iter()
        .map(|status| CalendarView {
            name: status.name,
            for_user_id: status.for_user_id,
            state: if status.ok { "ok" } else { "error" },
            events: status.events,
            skipped: status.skipped,
            refreshed_at: status
                .refreshed_at
                .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
            error: status.error,
        })
        .collect()
}

/// The config in force (hot reload): when it was loaded and why the last edit was refused.
#[derive(Debug, Serialize)]
struct ConfigView {
    loaded_at: String,
    error: Option<String>,
}

fn model_view(status: &ModelStatus, context: ContextFigures) -> ModelView {
    let reading = status.reading();
    ModelView {
        provider: status.provider(),
        model: status.model().to_string(),
        state: reading.state.as_str(),
        checked_at: reading
            .checked_at
            .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
        error: reading.error,
        context,
    }
}

/// Healthy when every actor runs (or is disabled by configuration). A failed or restarting
/// actor makes the answer 503 "degraded", critical or not, so a supervisor of the process sees
/// it; the process keeps serving what still works. An actor that runs but cannot do all of its
/// work (the store writer when the disk is full) makes the status "degraded" with 200: every
/// actor runs, and restarting the process would not help.
pub(super) fn is_ok(snapshot: &HealthSnapshot) -> bool {
    snapshot.actors.iter().all(|actor| {
        matches!(
            actor.state,
            ActorState::Running | ActorState::Disabled | ActorState::Stopped
        )
    })
}

/// Every actor's state, the conversations, the reply gate: for people.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Every actor runs (status ok, or degraded when one cannot do all of its work)", content_type = "application/json"),
        (status = 503, description = "An actor failed or is restarting (status degraded)", content_type = "application/json"),
    )
)]
#[get("/health")]
pub async fn health(app: web::Data<App>) -> HttpResponse {
    let snapshot = app.health.snapshot();
    let ok = is_ok(&snapshot);
    let model = model_view(&app.model_status, app.context_figures());
    let whole = snapshot.actors.iter().all(|actor| actor.degraded.is_none())
        && !app.model_status.state().is_degraded();
    let status = app.config_status();
    let view = HealthView {
        calendars: calendar_views(&app),
        model,
        timezone: ZoneView {
            zone: app.config.timezone.zone().name(),
            source: app.config.timezone.source().as_str(),
        },
        config: ConfigView {
            loaded_at: status
                .loaded_at
                .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            error: status.error,
        },
        status: if ok && whole { "ok" } else { "degraded" },
        actors: snapshot
            .actors
            .iter()
            .map(|actor| ActorView {
                name: actor.name.clone(),
                state: actor.state.as_str(),
                restarts: actor.restarts,
                last_failure: actor.last_failure.as_ref().map(|failure| FailureView {
                    at: DateTime::<Utc>::from(failure.at)
                        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
                    message: failure.message.clone(),
                }),
                queue_depth: actor.queue_depth,
                processed: actor.processed,
                in_flight_ms: actor
                    .in_flight
                    .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            })
            .collect(),
        conversations: ConversationsView {
            live: snapshot.keyed_live,
            passivated: snapshot.keyed_passivated,
        },
        dead_letters: snapshot.dead_letters,
        parked_messages: app.metrics.parked.load(Ordering::Relaxed),
        reply_gate: ReplyGateView {
            reply: app.gate_metrics.replied.load(Ordering::Relaxed),
            skip: app.gate_metrics.skipped.load(Ordering::Relaxed),
            fail_open: app.gate_metrics.failed_open.load(Ordering::Relaxed),
            cap_hits: app.gate_metrics.cap_hits.load(Ordering::Relaxed),
        },
    };
    if ok {
        HttpResponse::Ok().json(view)
    } else {
        HttpResponse::ServiceUnavailable().json(view)
    }
}
