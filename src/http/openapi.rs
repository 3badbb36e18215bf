//! `GET /api/openapi.json`: the OpenAPI 3 description of the HTTP API, generated from the
//! handlers' `#[utoipa::path]` attributes as they are registered (utoipa-actix-web), never
//! written by hand.
//!
//! Owns the document's frame (title, version, the bearer security scheme, tags) and the
//! handler that serves it. Invariant: every route `http::routes` registers is in the document,
//! because registering a handler there is what documents it; every `/api/*` operation carries
//! the bearer requirement, as the guard enforces.

use actix_web::{get, web, HttpResponse};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, PathItem};
use utoipa::OpenApi;

/// The name of the bearer scheme in `components.securitySchemes`.
const BEARER: &str = "bearer";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Donna",
        description = "Donna's local HTTP API: tasks, nudges, threads and messages, health and metrics. \
            Every request must name this server or localhost in its Host header; /api/* needs \
            `Authorization: Bearer <token>` when a token is configured, and answers 503 while \
            Donna shuts down."
    ),
    tags(
        (name = "tasks", description = "Create, list, read and edit tasks"),
        (name = "threads", description = "Nudges, threads and messages"),
        (name = "automations", description = "Recurring reminders: list and stop"),
        (name = "people", description = "A person's time zone"),
        (name = "calendar", description = "The calendar feed (RFC 5545), with its own token in the query"),
        (name = "calendars", description = "The events of the calendars Donna reads"),
        (name = "operations", description = "Health, probes, metrics and this document"),
        (name = "web", description = "The web page, its token form, its own chat and its buttons"),
    )
)]
struct Frame;

/// The whole document: the frame, the paths collected from the registered handlers, and the
/// bearer requirement on every `/api/*` operation.
pub fn document(collected: Document) -> Document {
    let mut document = Frame::openapi().merge_from(collected);
    document
        .components
        .get_or_insert_with(Default::default)
        .add_security_scheme(
            BEARER,
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    for (path, item) in document.paths.paths.iter_mut() {
        // The calendar feed takes its token in the query, not the bearer header.
        if path.starts_with("/api/") && path != super::calendar::PATH {
            for operation in operations(item).into_iter().flatten() {
                operation.security =
                    Some(vec![SecurityRequirement::new(BEARER, Vec::<String>::new())]);
            }
        }
    }
    document
}

fn operations(item: &mut PathItem) -> [Option<&mut utoipa::openapi::path::Operation>; 8] {
    [
        item.get.as_mut(),
        item.put.as_mut(),
        item.post.as_mut(),
        item.delete.as_mut(),
        item.options.as_mut(),
        item.head.as_mut(),
        item.patch.as_mut(),
        item.trace.as_mut(),
    ]
}

/// The document, serialised once when the routes are configured.
#[derive(Debug)]
pub struct Served(Result<String, String>);

impl Served {
    pub fn new(document: &Document) -> Self {
        Self(document.to_json().map_err(|error| error.to_string()))
    }
}

/// This document.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "The OpenAPI 3 description of this API", content_type = "application/json"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 500, description = "The document could not be serialised"),
    )
)]
#[get("/openapi.json")]
pub async fn openapi_json(served: web::Data<Served>) -> HttpResponse {
    match &served.0 {
        Ok(json) => HttpResponse::Ok()
            .content_type("application/json")
            .body(json.clone()),
        Err(error) => {
            tracing::error!(%error, "cannot serialise the OpenAPI document");
            HttpResponse::InternalServerError()
                .json(serde_json::json!({"error": "cannot serialise the OpenAPI document"}))
        }
    }
}
