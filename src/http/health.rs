//! `GET /health` and `GET /metrics`: what every actor is doing, for people and for Prometheus.
//!
//! /health also shows the model (`model`: provider, model, state, when it was checked, the last
//! error): a model that is unreachable or missing makes the status "degraded" with 200, never
//! 503, because restarting Donna would not bring it back.

use std::fmt::Write;
use std::sync::atomic::Ordering;

use actix_web::{web, HttpResponse};
use actors::{ActorState, HealthSnapshot};
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::app::App;
use crate::llm::probe::ModelStatus;
use crate::metrics::LATENCY_BUCKETS;
use crate::turn::result::TurnPath;

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
}

#[derive(Debug, Serialize)]
struct HealthView {
    status: &'static str,
    actors: Vec<ActorView>,
    conversations: ConversationsView,
    dead_letters: u64,
    reply_gate: ReplyGateView,
    model: ModelView,
}

fn model_view(status: &ModelStatus) -> ModelView {
    let reading = status.reading();
    ModelView {
        provider: status.provider(),
        model: status.model().to_string(),
        state: reading.state.as_str(),
        checked_at: reading
            .checked_at
            .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
        error: reading.error,
    }
}

/// Healthy when every actor runs (or is disabled by configuration). A failed or restarting
/// actor makes the answer 503 "degraded", critical or not, so a supervisor of the process sees
/// it; the process keeps serving what still works. An actor that runs but cannot do all of its
/// work (the store writer when the disk is full) makes the status "degraded" with 200: every
/// actor runs, and restarting the process would not help.
fn is_ok(snapshot: &HealthSnapshot) -> bool {
    snapshot.actors.iter().all(|actor| {
        matches!(
            actor.state,
            ActorState::Running | ActorState::Disabled | ActorState::Stopped
        )
    })
}

pub async fn health(app: web::Data<App>) -> HttpResponse {
    let snapshot = app.health.snapshot();
    let ok = is_ok(&snapshot);
    let model = model_view(&app.model_status);
    let whole = snapshot.actors.iter().all(|actor| actor.degraded.is_none())
        && !app.model_status.state().is_degraded();
    let view = HealthView {
        model,
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

pub async fn metrics(app: web::Data<App>) -> HttpResponse {
    let snapshot = app.health.snapshot();
    let mut out = String::with_capacity(4096);
    let _ = render(&mut out, &app, &snapshot);
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(out)
}

fn render(out: &mut String, app: &App, snapshot: &HealthSnapshot) -> std::fmt::Result {
    writeln!(
        out,
        "# HELP donna_up 1 when every actor runs (or is disabled)."
    )?;
    writeln!(out, "# TYPE donna_up gauge")?;
    writeln!(out, "donna_up {}", u8::from(is_ok(snapshot)))?;
    let families: [(&str, &str, &str); 6] = [
        ("donna_actor_running", "gauge", "1 when the actor runs."),
        (
            "donna_actor_degraded",
            "gauge",
            "1 when the actor runs but cannot do all of its work (e.g. the disk is full).",
        ),
        (
            "donna_actor_restarts_total",
            "counter",
            "Restarts after failures.",
        ),
        ("donna_actor_queue_depth", "gauge", "Messages waiting."),
        (
            "donna_actor_processed_total",
            "counter",
            "Messages handled.",
        ),
        (
            "donna_actor_in_flight_seconds",
            "gauge",
            "Age of the message being handled (0 when idle).",
        ),
    ];
    for (name, kind, help) in families {
        writeln!(out, "# HELP {name} {help}")?;
        writeln!(out, "# TYPE {name} {kind}")?;
        for actor in &snapshot.actors {
            let value = match name {
                "donna_actor_running" => f64::from(u8::from(actor.state == ActorState::Running)),
                "donna_actor_degraded" => f64::from(u8::from(actor.degraded.is_some())),
                "donna_actor_restarts_total" => actor.restarts as f64,
                "donna_actor_queue_depth" => actor.queue_depth as f64,
                "donna_actor_processed_total" => actor.processed as f64,
                _ => actor.in_flight.map_or(0.0, |d| d.as_secs_f64()),
            };
            writeln!(
                out,
                "{name}{{actor=\"{}\",state=\"{}\"}} {value}",
                actor.name,
                actor.state.as_str()
            )?;
        }
    }
    writeln!(out, "# TYPE donna_conversations_live gauge")?;
    writeln!(out, "donna_conversations_live {}", snapshot.keyed_live)?;
    writeln!(out, "# TYPE donna_conversations_passivated_total counter")?;
    writeln!(
        out,
        "donna_conversations_passivated_total {}",
        snapshot.keyed_passivated
    )?;
    writeln!(out, "# TYPE donna_thread_queue_overflows_total counter")?;
    writeln!(
        out,
        "donna_thread_queue_overflows_total {}",
        snapshot.keyed_overflows
    )?;
    writeln!(out, "# TYPE donna_dead_letters_total counter")?;
    writeln!(out, "donna_dead_letters_total {}", snapshot.dead_letters)?;
    writeln!(out, "# TYPE donna_turn_errors_total counter")?;
    writeln!(
        out,
        "donna_turn_errors_total {}",
        app.metrics.errors.load(Ordering::Relaxed)
    )?;
    let gate = &app.gate_metrics;
    writeln!(
        out,
        "# HELP donna_reply_gate_decisions_total Group-chat reply gate decisions."
    )?;
    writeln!(out, "# TYPE donna_reply_gate_decisions_total counter")?;
    for (decision, counter) in [
        ("reply", &gate.replied),
        ("skip", &gate.skipped),
        ("fail_open", &gate.failed_open),
    ] {
        writeln!(
            out,
            "donna_reply_gate_decisions_total{{decision=\"{decision}\"}} {}",
            counter.load(Ordering::Relaxed)
        )?;
    }
    writeln!(out, "# TYPE donna_reply_cap_hits_total counter")?;
    writeln!(
        out,
        "donna_reply_cap_hits_total {}",
        gate.cap_hits.load(Ordering::Relaxed)
    )?;
    let llm = &app.llm_metrics;
    writeln!(out, "# TYPE donna_llm_calls_total counter")?;
    writeln!(
        out,
        "donna_llm_calls_total {}",
        llm.calls.load(Ordering::Relaxed)
    )?;
    writeln!(out, "# TYPE donna_llm_in_flight gauge")?;
    writeln!(
        out,
        "donna_llm_in_flight {}",
        llm.in_flight.load(Ordering::Relaxed)
    )?;
    writeln!(out, "# TYPE donna_llm_peak_in_flight gauge")?;
    writeln!(
        out,
        "donna_llm_peak_in_flight {}",
        llm.peak_in_flight.load(Ordering::Relaxed)
    )?;
    writeln!(
        out,
        "# HELP donna_llm_failures_total Model calls that failed, by kind."
    )?;
    writeln!(out, "# TYPE donna_llm_failures_total counter")?;
    for (kind, count) in llm.failures() {
        writeln!(out, "donna_llm_failures_total{{kind=\"{kind}\"}} {count}")?;
    }
    writeln!(
        out,
        "# HELP donna_turn_duration_seconds Turn latency by path."
    )?;
    writeln!(out, "# TYPE donna_turn_duration_seconds histogram")?;
    for path in TurnPath::ALL {
        let stats = app.metrics.path(path);
        let label = path.as_str();
        for (bound, bucket) in LATENCY_BUCKETS.iter().zip(&stats.buckets) {
            writeln!(
                out,
                "donna_turn_duration_seconds_bucket{{path=\"{label}\",le=\"{bound}\"}} {}",
                bucket.load(Ordering::Relaxed)
            )?;
        }
        let count = stats.count.load(Ordering::Relaxed);
        writeln!(
            out,
            "donna_turn_duration_seconds_bucket{{path=\"{label}\",le=\"+Inf\"}} {count}"
        )?;
        let sum = stats.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        writeln!(
            out,
            "donna_turn_duration_seconds_sum{{path=\"{label}\"}} {sum}"
        )?;
        writeln!(
            out,
            "donna_turn_duration_seconds_count{{path=\"{label}\"}} {count}"
        )?;
    }
    Ok(())
}
