//! `GET /health/live` and `GET /health/ready`: the two probes a service manager (Kubernetes,
//! a load balancer, the Docker health check) asks, beside the detailed `/health`.
//!
//! Invariants: live answers 200 whenever this process serves HTTP, whatever its actors do, so
//! a liveness probe never restart-loops Donna over something a restart cannot fix (a bad
//! Discord token, a full disk). Ready answers 200 only when every critical actor runs, the
//! store writer is not degraded (it can write) and the app is not draining; otherwise 503 with
//! every reason.

use actix_web::{get, web, HttpResponse};
use actors::{ActorState, HealthSnapshot};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;

/// The actor that owns the only write connection; degraded means it cannot write (disk full).
const STORE_WRITER: &str = "store_writer";

/// The liveness answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct LiveView {
    /// Always `live`.
    #[schema(example = "live")]
    status: &'static str,
}

/// The readiness answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReadyView {
    /// `ready` or `not_ready`.
    #[schema(example = "not_ready")]
    status: &'static str,
    /// Why not ready, one sentence each (absent when ready).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    reasons: Vec<String>,
}

/// The process serves HTTP.
#[utoipa::path(
    tag = "operations",
    responses((status = 200, description = "The process serves HTTP", body = LiveView))
)]
#[get("/health/live")]
pub async fn live() -> HttpResponse {
    HttpResponse::Ok().json(LiveView { status: "live" })
}

/// Ready to take traffic: critical actors run, the store can write, no stop is under way.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Ready", body = ReadyView),
        (status = 503, description = "Not ready, with every reason", body = ReadyView),
    )
)]
#[get("/health/ready")]
pub async fn ready(app: web::Data<App>) -> HttpResponse {
    let reasons = not_ready_reasons(&app.health.snapshot(), app.is_draining());
    if reasons.is_empty() {
        HttpResponse::Ok().json(ReadyView {
            status: "ready",
            reasons,
        })
    } else {
        HttpResponse::ServiceUnavailable().json(ReadyView {
            status: "not_ready",
            reasons,
        })
    }
}

/// Every reason the app is not ready; empty when it is.
fn not_ready_reasons(snapshot: &HealthSnapshot, draining: bool) -> Vec<String> {
    let mut reasons = Vec::new();
    if draining {
        reasons.push("shutting down".to_string());
    }
    for actor in &snapshot.actors {
        // A critical actor turned off by configuration is not a fault; any other state but
        // running (restarting, failed, stopped) means its work is not being done.
        if actor.critical && !matches!(actor.state, ActorState::Running | ActorState::Disabled) {
            reasons.push(format!(
                "critical actor {} is {}",
                actor.name,
                match actor.state {
                    ActorState::Stopped => "stopped",
                    other => other.as_str(),
                }
            ));
        }
        if actor.name == STORE_WRITER {
            if let Some(why) = &actor.degraded {
                reasons.push(format!("the store cannot write: {why}"));
            }
        }
    }
    if snapshot.actor(STORE_WRITER).is_none() {
        reasons.push("the store writer is not registered".to_string());
    }
    reasons
}
