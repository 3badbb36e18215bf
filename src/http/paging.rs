//! Paging of the list routes of many items (`GET /api/tasks`, `/api/automations`,
//! `/api/threads`, `/api/proposals`): `limit` (1..=1000; without it, at most 1,000 items) and
//! `cursor` read and checked, and a page's answer: a JSON array, `X-Total-Count` (how many the
//! whole list holds) and, when more items follow, `Link: <URL>; rel="next"` (RFC 8288: this
//! route with the same filters and the cursor of the next page).
//!
//! A cursor is opaque to clients: the list's name and the keyset of `store::page` (the last
//! item's `created_at` as stored, and its id), in JSON, base64url without padding. One that
//! does not decode, names another list, or holds a time or an id Donna would not write is a
//! 400 that says to ask again without it.
//!
//! A list route with no filter of its own takes a [`PageRequest`] and answers with
//! [`PageRequest::serve`], and declares [`PageRefusals`] beside its own 200 answer.
//! Invariant: nothing here reads the store but through a route's own reader, and a refused
//! `limit` or `cursor` reads nothing.

use std::collections::BTreeMap;
use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::openapi::{RefOr, Response, ResponseBuilder};
use utoipa::{IntoParams, IntoResponses};

use crate::app::App;
use crate::store::page::{Ask, Keyset, Page, MAX_PAGE};
use crate::store::time::from_db;
use crate::store::StoreError;

use super::error::ApiError;

/// Longest cursor taken (a real one is under 150 characters).
const MAX_CURSOR_CHARS: usize = 600;

/// A cursor's contents.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cursor {
    /// The list it pages ("tasks", "threads", ...).
    list: String,
    created_at: String,
    id: String,
}

/// The query of a list route with no filter of its own.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// At most this many items (1 to 1000; 1000 without it).
    limit: Option<String>,
    /// Where the page starts: the `cursor` of the `Link` header of the page before.
    cursor: Option<String>,
}

impl PageQuery {
    pub fn limit(&self) -> Option<&str> {
        self.limit.as_deref()
    }

    pub fn cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }

    /// The filters a next page repeats: the limit, when one was given.
    pub fn filters(&self) -> Vec<(&str, &str)> {
        self.limit()
            .map(|limit| ("limit", limit))
            .into_iter()
            .collect()
    }
}

/// The request of a list route with no filter of its own: its [`PageQuery`] (read as
/// `web::Query` reads it, so a query it refuses gets the same 400) and the request itself, whose
/// host and path the next page's link repeats.
pub struct PageRequest {
    request: HttpRequest,
    query: PageQuery,
}

impl FromRequest for PageRequest {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let query = web::Query::<PageQuery>::from_request(request, &mut Payload::None).into_inner();
        ready(query.map(|query| PageRequest {
            request: request.clone(),
            query: query.into_inner(),
        }))
    }
}

impl PageRequest {
    /// The answer of `list`: the page asked for, checked first (a refused one reads nothing),
    /// then read with `read` on the store's blocking pool, where a route also builds its views.
    pub async fn serve<V: Serialize + Send + 'static>(
        &self,
        app: &App,
        list: &'static str,
        read: impl FnOnce(&Connection, &Ask) -> Result<Page<V>, StoreError> + Send + 'static,
    ) -> Result<HttpResponse, ApiError> {
        let ask = asked(list, self.query.limit(), self.query.cursor())?;
        let page = app.store.read(move |conn| read(conn, &ask)).await?;
        Ok(answer(
            &self.request,
            list,
            &self.query.filters(),
            page,
            |view: V| view,
        ))
    }
}

/// What a list route of [`PageQuery`] answers besides its page, for its `#[utoipa::path]`.
pub struct PageRefusals;

impl IntoResponses for PageRefusals {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        [
            ("400", "Invalid parameters (a bad limit or cursor)"),
            ("401", "Missing or wrong bearer token"),
            ("503", "Shutting down"),
        ]
        .into_iter()
        .map(|(status, description)| {
            let response = ResponseBuilder::new().description(description).build();
            (status.to_string(), RefOr::T(response))
        })
        .collect()
    }
}

/// The page a request asks for, from its `limit` and `cursor` (as the query gave them).
pub fn asked(list: &str, limit: Option<&str>, cursor: Option<&str>) -> Result<Ask, ApiError> {
    let limit = match limit {
        None => MAX_PAGE,
        Some(text) => text
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|limit| (1..=MAX_PAGE).contains(limit))
            .ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "limit must be a whole number from 1 to {MAX_PAGE}, not {:?}",
                    shown(text)
                ))
            })?,
    };
    let after = cursor.map(|text| read_cursor(list, text)).transpose()?;
    Ok(Ask { limit, after })
}

/// At most 40 characters of what a client sent, for an error.
fn shown(text: &str) -> String {
    text.chars().take(40).collect()
}

fn read_cursor(list: &str, text: &str) -> Result<Keyset, ApiError> {
    let refused = || {
        ApiError::BadRequest(format!(
            "cursor {:?} is not one this list gave: ask again without it to start from the newest",
            shown(text)
        ))
    };
    if text.chars().count() > MAX_CURSOR_CHARS {
        return Err(refused());
    }
    let bytes = URL_SAFE_NO_PAD.decode(text).map_err(|_| refused())?;
    let cursor: Cursor = serde_json::from_slice(&bytes).map_err(|_| refused())?;
    let written_by_donna = cursor.list == list
        && from_db(&cursor.created_at).is_ok()
        && cursor.created_at.chars().count() <= 40
        && crate::ids::check(&cursor.id).is_ok();
    if !written_by_donna {
        return Err(refused());
    }
    Ok(Keyset {
        created_at: cursor.created_at,
        id: cursor.id,
    })
}

fn write_cursor(list: &str, key: &Keyset) -> String {
    let cursor = Cursor {
        list: list.to_string(),
        created_at: key.created_at.clone(),
        id: key.id.clone(),
    };
    // Serialising three strings cannot fail; an empty cursor would only be refused later.
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(&cursor).unwrap_or_default())
}

/// The answer for `page` of `list`: the items as a JSON array, `X-Total-Count`, and the next
/// page's `Link` when more follow. `filters` are the request's own (name, value) pairs besides
/// `cursor` (the status, the limit when one was given), repeated in the link.
pub fn answer<T, V: Serialize>(
    request: &HttpRequest,
    list: &str,
    filters: &[(&str, &str)],
    page: Page<T>,
    view: impl FnMut(T) -> V,
) -> HttpResponse {
    let mut response = HttpResponse::Ok();
    response.insert_header(("X-Total-Count", page.total.to_string()));
    if let Some(next) = &page.next {
        response.insert_header((header::LINK, next_link(request, list, filters, next)));
    }
    let items: Vec<V> = page.items.into_iter().map(view).collect();
    response.json(items)
}

/// `<URL>; rel="next"`: this server (the Host the request named, which the Host guard has
/// checked), this route, the filters and the next cursor.
fn next_link(request: &HttpRequest, list: &str, filters: &[(&str, &str)], next: &Keyset) -> String {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|host| host.to_str().ok())
        .unwrap_or("localhost");
    let scheme = request.connection_info().scheme().to_string();
    let cursor = write_cursor(list, next);
    let query: Vec<String> = filters
        .iter()
        .map(|(name, value)| format!("{name}={}", encoded(value)))
        .chain(std::iter::once(format!("cursor={cursor}")))
        .collect();
    format!(
        "<{scheme}://{host}{}?{}>; rel=\"next\"",
        request.path(),
        query.join("&")
    )
}

fn encoded(value: &str) -> String {
    percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_the_keyset_it_was_written_from() {
        let key = Keyset {
            created_at: "2026-11-30T10:00:00.123456Z".into(),
            id: "tsk_3f9a0c1e5b7d2a44".into(),
        };
        let cursor = write_cursor("tasks", &key);
        assert!(cursor
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c)));
        let read = asked("tasks", Some("5"), Some(&cursor)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            read,
            Ask {
                limit: 5,
                after: Some(key.clone())
            }
        );
        // Another list's cursor is refused.
        assert!(asked("threads", None, Some(&cursor)).is_err());
    }
}
