//! `GET /api/spend`: today's escalation spend (docs/contract.md "Escalation"): the day in `timezone`,
//! what was spent (settled from reported usage), what is reserved (calls in flight or cut off
//! by a restart), the daily budget and the number of calls made.
//! Invariant: read-only; amounts are the ledger's micro-dollars shown as USD.

use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::conversation::escalation_ledger;
use crate::llm::escalation::{micros, usd};

use super::error::ApiError;

/// Today's escalation spend.
#[derive(Debug, Serialize, ToSchema)]
pub struct SpendView {
    /// The day in `timezone`, YYYY-MM-DD.
    #[schema(example = "2026-11-24")]
    pub day: String,
    pub spent_usd: f64,
    pub reserved_usd: f64,
    pub budget_usd: f64,
    /// Calls to the bigger model made (or reserved) today.
    pub calls: i64,
}

#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Today's spend on the bigger model", body = SpendView),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down"),
    )
)]
#[get("/spend")]
pub async fn spend(app: web::Data<App>) -> Result<HttpResponse, ApiError> {
    let day = app
        .clock
        .now()
        .with_timezone(&app.config.timezone.zone())
        .format("%Y-%m-%d")
        .to_string();
    let asked = day.clone();
    let today = app
        .store
        .read(move |conn| escalation_ledger::day(conn, &asked))
        .await?;
    Ok(HttpResponse::Ok().json(SpendView {
        day,
        spent_usd: usd(today.spent),
        reserved_usd: usd(today.reserved),
        budget_usd: usd(micros(app.config.escalation.daily_budget_usd)),
        calls: today.calls,
    }))
}
