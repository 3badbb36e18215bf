//! Tasks named in words (DESIGN.md "Tasks named in chat"): a reference (an id or words of a
//! title) resolved by Donna: exact id, then exact normalised title, then titles holding every
//! word of the reference. Writes look among open tasks; reads among all, open ones first.
//! Also whether a message names a task at all (`mentions`): it holds a word of three or more
//! letters of the title that is not a stop word.
//!
//! Pure reads. Invariant: a task id reaches an action only through here, so words from a model
//! can name a task but never invent one.

use rusqlite::Connection;

use super::title_words::normalise;
use super::{repo, Task};
use crate::store::StoreError;

/// Words that say nothing about which task is meant: they are dropped from a reference ("the
/// passport thing" -> "passport") and never count as naming a task.
pub const STOP_WORDS: [&str; 40] = [
    "and", "for", "the", "with", "that", "this", "thing", "things", "task", "tasks", "stuff",
    "one", "my", "your", "our", "its", "it", "to", "of", "on", "in", "at", "by", "about", "from",
    "into", "reminder", "item", "todo", "please", "can", "you", "me", "some", "any", "all", "just",
    "then", "than", "also",
];

/// Where a reference is looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Among {
    /// Open tasks only (what a write may change).
    Open,
    /// Every task, open ones first (what a read may show).
    All,
}

/// What a reference found.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    One(Box<Task>),
    Several(Vec<Task>),
    None,
}

/// The significant words of a text: normalised, without stop words.
pub fn significant_words(text: &str) -> Vec<String> {
    normalise(text)
        .split(' ')
        .filter(|word| !word.is_empty() && !STOP_WORDS.contains(word))
        .map(str::to_string)
        .collect()
}

/// The tasks `reference` names, by the first rule that finds any (open first among all).
pub fn candidates(
    conn: &Connection,
    reference: &str,
    among: Among,
) -> Result<Vec<Task>, StoreError> {
    let usable = |task: &Task| among == Among::All || task.status.is_open();
    if let Some(task) = repo::get(conn, reference.trim())? {
        return Ok(if usable(&task) {
            vec![task]
        } else {
            Vec::new()
        });
    }
    let mut all: Vec<Task> = repo::list(conn, None)?
        .into_iter()
        .filter(|task| usable(task))
        .collect();
    // Open first (stable: newest first within each).
    all.sort_by_key(|task| !task.status.is_open());
    Ok(named_among(
        all,
        reference,
        |task| &task.id,
        |task| &task.title,
    ))
}

/// The items `reference` names, by the first rule that finds any: exact id, exact normalised
/// title, then titles holding every significant word of the reference. `items` come in the
/// order candidates are shown (tasks: open first; reminders: oldest first).
pub fn named_among<T>(
    items: Vec<T>,
    reference: &str,
    id: impl Fn(&T) -> &str,
    title: impl Fn(&T) -> &str,
) -> Vec<T> {
    let (by_id, rest): (Vec<T>, Vec<T>) = items
        .into_iter()
        .partition(|item| id(item) == reference.trim());
    if !by_id.is_empty() {
        return by_id;
    }
    let wanted = normalise(reference);
    if wanted.is_empty() {
        return Vec::new();
    }
    let (exact, rest): (Vec<T>, Vec<T>) = rest
        .into_iter()
        .partition(|item| normalise(title(item)) == wanted);
    if !exact.is_empty() {
        return exact;
    }
    let words = significant_words(reference);
    if words.is_empty() {
        return Vec::new();
    }
    rest.into_iter()
        .filter(|item| {
            let normalised = normalise(title(item));
            let title_words: Vec<&str> = normalised.split(' ').collect();
            words
                .iter()
                .all(|word| title_words.contains(&word.as_str()))
        })
        .collect()
}

/// One task, several, or none.
pub fn resolve(conn: &Connection, reference: &str, among: Among) -> Result<Found, StoreError> {
    let mut found = candidates(conn, reference, among)?;
    Ok(match found.len() {
        0 => Found::None,
        1 => Found::One(Box::new(found.remove(0))),
        _ => Found::Several(found),
    })
}

/// Whether `message` names the task titled `title`: it holds a word of three or more letters
/// of the title that is not a stop word.
pub fn mentions(message: &str, title: &str) -> bool {
    let said = significant_words(message);
    significant_words(title)
        .iter()
        .filter(|word| word.chars().count() >= 3)
        .any(|word| said.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_names_a_task_by_a_significant_word_of_its_title() {
        let table = [
            ("move the passport thing to friday", "Renew passport", true),
            ("PASSPORT: push it", "Renew passport", true),
            ("done with the rent", "Pay rent", true),
            // Not a word of the title, or too short, or a stop word.
            ("move it to friday", "Renew passport", false),
            ("move the pass to friday", "Renew passport", false),
            ("do it", "Do it", false),
            ("that thing for you", "The thing for Mum", false),
            ("call mum", "The thing for Mum", true),
            ("cancel the task", "Task", false),
        ];
        for (message, title, expected) in table {
            assert_eq!(
                mentions(message, title),
                expected,
                "{message:?} / {title:?}"
            );
        }
    }
}
