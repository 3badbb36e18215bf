//! Learned preferences: when the person changes the domain or
//! priority of a captured task within a day of capturing it, Donna remembers the value for
//! titles like it and applies it to later captures that did not give that field, saying so.
//!
//! "Like it": the normalised titles share at least half of their words together (Jaccard >=
//! 0.5), e.g. "Send weekly report" and "Send monthly report". The closest learned title wins;
//! on a tie, the latest learned.
//! Invariants: never applied to a field the person gave explicitly; every application is listed
//! in the task's `applied_preferences` with its reason.

use rusqlite::Connection;

use super::duplicates::{jaccard, normalise};
use crate::store::StoreError;
use crate::tasks::preferences as stored;
use crate::tasks::AppliedPreference;

pub use crate::tasks::preferences::{learn, learning_window};

/// The least share of common words for a learned title to apply.
pub const SIMILAR_TITLE_JACCARD: f64 = 0.5;

/// What learned preferences say about a new capture titled `title`, for each `field` the
/// person did not give.
pub fn applicable(
    conn: &Connection,
    title: &str,
    fields: &[&str],
) -> Result<Vec<AppliedPreference>, StoreError> {
    let key = normalise(title);
    if key.is_empty() || fields.is_empty() {
        return Ok(Vec::new());
    }
    let learned = stored::all(conn)?;
    let mut applied = Vec::new();
    for field in fields {
        let best = learned
            .iter()
            .filter(|(_, learned_field, _)| learned_field == field)
            .map(|(learned_key, _, value)| (jaccard(&key, learned_key), learned_key, value))
            .filter(|(score, _, _)| *score >= SIMILAR_TITLE_JACCARD)
            // max_by keeps the last of equals; the list is newest first, so compare reversed.
            .fold(
                None,
                |best: Option<(f64, &String, &String)>, candidate| match best {
                    Some(current) if current.0 >= candidate.0 => Some(current),
                    _ => Some(candidate),
                },
            );
        if let Some((_, learned_key, value)) = best {
            let reason = match *field {
                "domain" => format!("filed under {value}, like '{learned_key}' last time"),
                _ => format!("priority {value}, like '{learned_key}' last time"),
            };
            applied.push(AppliedPreference {
                field: field.to_string(),
                value: value.clone(),
                reason,
            });
        }
    }
    Ok(applied)
}
