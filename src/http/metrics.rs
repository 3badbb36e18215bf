//! `GET /metrics`: the Prometheus/OpenMetrics page.
//!
//! Gathers one `metrics::Scrape` from the app (the actors' health, the gateway's and the gate's
//! counters, the outbox backlog read through the store's read pool) and has
//! `metrics::render` encode it. Invariant: a scrape changes nothing and never waits on the store
//! writer (the backlog is a read on the read pool; if it fails the family is left empty).

use std::sync::atomic::Ordering;

use actix_web::{get, web, HttpResponse};

use crate::app::App;
use crate::metrics::{render, DiscordFigures, GateFigures, Scrape, CONTENT_TYPE};

/// The metrics page, in the OpenMetrics text format.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Every metric family, OpenMetrics text format", content_type = "application/openmetrics-text", body = String),
        (status = 500, description = "The page could not be encoded"),
    )
)]
#[get("/metrics")]
pub async fn metrics(app: web::Data<App>) -> HttpResponse {
    let snapshot = app.health.snapshot();
    let outbox_backlog = match app.store.read(crate::conversation::outbox::backlog).await {
        Ok(rows) => Some(rows),
        Err(error) => {
            tracing::warn!(%error, "metrics: cannot count the outbox backlog");
            None
        }
    };
    let gate = &app.gate_metrics;
    let discord = app
        .discord_shared
        .as_ref()
        .map_or_else(DiscordFigures::default, |shared| DiscordFigures {
            received: shared.received.load(Ordering::Relaxed),
            ignored: shared.ignored.load(Ordering::Relaxed),
            delivered: shared.delivered.load(Ordering::Relaxed),
            send_failures: shared.send_failures.load(Ordering::Relaxed),
        });
    let scrape = Scrape {
        version: env!("CARGO_PKG_VERSION"),
        up: super::health::is_ok(&snapshot),
        conversations_live: snapshot.keyed_live,
        conversations_passivated: snapshot.keyed_passivated,
        thread_queue_overflows: snapshot.keyed_overflows,
        dead_letters: snapshot.dead_letters,
        actors: snapshot.actors,
        gate: GateFigures {
            replied: gate.replied.load(Ordering::Relaxed),
            skipped: gate.skipped.load(Ordering::Relaxed),
            failed_open: gate.failed_open.load(Ordering::Relaxed),
            cap_hits: gate.cap_hits.load(Ordering::Relaxed),
        },
        discord,
        outbox_backlog,
        turns: app.metrics.clone(),
        llm: app.llm_metrics.clone(),
        nudges: app.nudge_metrics.clone(),
        skipped: app.skipped_rows.clone(),
        message_analyses: crate::sentence::analyses_total(),
    };
    match render(scrape) {
        Ok(page) => HttpResponse::Ok().content_type(CONTENT_TYPE).body(page),
        Err(error) => {
            tracing::error!(%error, "metrics: cannot encode the page");
            HttpResponse::InternalServerError()
                .json(serde_json::json!({"error": "cannot encode the metrics"}))
        }
    }
}
