//! `GET /api/proposals`: the proposals still waiting for a yes or no, in every chat, newest
//! first, a page at a time (`paging`), with who may answer each (read-only; an answer is a message in the proposal's chat,
//! or the web page's Yes / No, `web_chat`).
//! Invariant: lists only live proposals (pending and not past their expiry at the request's
//! `now`, whether or not the sweep has marked them expired yet).

use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::App;
use crate::conversation::plans;

use super::error::ApiError;
use super::json::show;
use super::paging::{PageQuery, PageRefusals, PageRequest};

/// A proposal as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProposalView {
    #[schema(example = "pln_01J...")]
    id: String,
    /// The chat it was made in (its yes or no is said there).
    thread_id: String,
    /// What Donna said when she proposed it.
    text: String,
    /// The only person who may answer it; null for proposals older than requesters, which anyone
    /// in its chat may answer.
    requester_id: Option<String>,
    /// When it lapses unanswered, RFC 3339 in the configured time zone.
    expires_at: String,
}

#[utoipa::path(
    tag = "threads",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of the live proposals, newest first, then by id", body = [ProposalView],
            headers(
                ("X-Total-Count" = u64, description = "How many the whole list holds"),
                ("Link" = String, description = "`<URL>; rel=\"next\"`: the next page, when more follow"),
            )),
        PageRefusals,
    )
)]
#[get("/proposals")]
pub async fn list(app: web::Data<App>, asked: PageRequest) -> Result<HttpResponse, ApiError> {
    let (now, tz) = (app.clock.now(), app.config.timezone.zone());
    asked
        .serve(&app, "proposals", move |conn, ask| {
            let page = plans::live_page(conn, now, ask)?;
            Ok(page.map(|proposal| ProposalView {
                id: proposal.id,
                thread_id: proposal.thread_id,
                text: proposal.text,
                requester_id: proposal.requester_id,
                expires_at: show(proposal.expires_at, tz),
            }))
        })
        .await
}
