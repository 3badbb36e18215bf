//! Likely duplicates (docs/contract.md "Duplicates"): an open task whose normalised title equals the
//! new one, or shares at least 80% of the words of the two titles together (Jaccard >= 0.8).
//! Done and cancelled tasks do not count.
//!
//! Normalised title: lower case, punctuation and the articles a/an/the removed, spaces
//! collapsed ("Renew the Passport!" -> "renew passport"; `tasks::title_words`).
//!
//! The candidates come from the word index of open titles (`tasks::title_index`), so the check
//! does not read every open task; each candidate's stored title is checked here again.

use std::collections::BTreeSet;

use rusqlite::Connection;

use crate::store::StoreError;
use crate::tasks::{repo, title_index, Task};

pub use crate::tasks::title_words::normalise;

/// The least share of common words for two titles to be the same task.
pub const SAME_TASK_JACCARD: f64 = 0.8;

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
    let mut alike = Vec::new();
    for id in title_index::four_fifths_alike(conn, title)? {
        if let Some(task) = repo::get(conn, &id)? {
            if task.status.is_open() && same_task(title, &task.title) {
                alike.push(task);
            }
        }
    }
    Ok(alike
        .into_iter()
        .min_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id))))
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
