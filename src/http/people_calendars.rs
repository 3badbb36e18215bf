//! A person's own calendars in `/api/people/{user_id}`: `calendars: [{name, url}]` on PUT
//! (the whole list, replacing the one before; `[]` removes them all), and shown on GET and PUT
//! with each URL cut to its scheme and host.
//!
//! Invariants: only http(s) URLs without credentials, at most `MAX_PER_PERSON`, names unique;
//! a URL is never shown whole (it is the calendar's secret address); a change is refreshed at
//! once (the Calendars actor is told).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::calendar::repo::PersonCalendar;
use crate::calendar::sources::{person_problem, shown_url, MAX_PER_PERSON};

use super::error::ApiError;

/// One calendar to read for the person.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CalendarUpdate {
    #[schema(example = "Work")]
    pub name: String,
    /// The calendar's "secret address in iCal format" (http or https).
    #[schema(example = "https://calendar.example.com/private-abc/basic.ics")]
    pub url: String,
}

/// One of the person's calendars as shown: its address cut to scheme and host.
#[derive(Debug, Serialize, ToSchema)]
pub struct CalendarShown {
    pub name: String,
    #[schema(example = "https://calendar.example.com")]
    pub url: String,
}

/// The list checked: (name, url) pairs to store.
pub fn checked(list: &[CalendarUpdate]) -> Result<Vec<(String, String)>, ApiError> {
    if list.len() > MAX_PER_PERSON {
        return Err(ApiError::BadRequest(format!(
            "calendars: at most {MAX_PER_PERSON} calendars"
        )));
    }
    let mut pairs: Vec<(String, String)> = Vec::with_capacity(list.len());
    for calendar in list {
        let (name, url) = (calendar.name.trim(), calendar.url.trim());
        if let Some(reason) = person_problem(name, url) {
            return Err(ApiError::BadRequest(format!("calendars: {reason}")));
        }
        if pairs.iter().any(|(known, _)| known == name) {
            return Err(ApiError::BadRequest(format!(
                "calendars: {name:?} is named twice"
            )));
        }
        pairs.push((name.to_string(), url.to_string()));
    }
    Ok(pairs)
}

pub fn shown(calendars: Vec<PersonCalendar>) -> Vec<CalendarShown> {
    calendars
        .into_iter()
        .map(|calendar| CalendarShown {
            url: shown_url(&calendar.url),
            name: calendar.name,
        })
        .collect()
}
