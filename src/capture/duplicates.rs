//! Likely duplicates (DESIGN.md "Duplicates"): an open task whose normalised title equals the
//! new one, or shares at least 80% of the words of the two titles together (Jaccard >= 0.8).
//! Done and cancelled tasks do not count.
//!
//! Normalised title: lower case, punctuation and the articles a/an/the removed, spaces
//! collapsed ("Renew the Passport!" -> "renew passport").

use std::collections::BTreeSet;

use rusqlite::Connection;

use crate::store::StoreError;
use crate::tasks::{repo, Task};

/// The least share of common words for two titles to be the same task.
pub const SAME_TASK_JACCARD: f64 = 0.8;

pub fn normalise(title: &str) -> String {
    title
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty() && !matches!(*word, "a" | "an" | "the"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Shared words over all words of the two (normalised) titles.
pub fn jaccard(a: &str, b: &str) -> f64 {
    let a: BTreeSet<&str> = a.split(' ').filter(|w| !w.is_empty()).collect();
    let b: BTreeSet<&str> = b.split(' ').filter(|w| !w.is_empty()).collect();
    let union = a.union(&b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(&b).count() as f64 / union as f64
}

/// Whether two titles name the same task.
pub fn same_task(a: &str, b: &str) -> bool {
    let (a, b) = (normalise(a), normalise(b));
    !a.is_empty() && (a == b || jaccard(&a, &b) >= SAME_TASK_JACCARD)
}

/// The open task `title` most likely duplicates, if any (the oldest such).
pub fn likely_duplicate(conn: &Connection, title: &str) -> Result<Option<Task>, StoreError> {
    match repo::open_titles(conn)?
        .into_iter()
        .find(|(_, other)| same_task(title, other))
    {
        Some((id, _)) => repo::get(conn, &id),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_task_table() {
        for (a, b, same) in [
            ("Renew Passport", "Renew passport", true),
            ("Renew the passport!", "renew passport", true),
            ("Pay rent", "Pay the rent", true),
            ("Pay rent", "Pay rent to Anna", false),
            ("Call mom", "Call dad", false),
            ("Buy milk and eggs today", "buy eggs and milk today", true),
        ] {
            assert_eq!(same_task(a, b), same, "{a} / {b}");
        }
    }
}
