//! Tasks named in words (docs/contract.md "Tasks named in chat"): a reference (an id or words of a
//! title) resolved by Donna: exact id, then exact normalised title, then titles holding every
//! word of the reference. Writes look among open tasks; reads among all, open ones first.
//! Also which open tasks the person's own message names best (`named_by_message`, from the
//! words of its one reading: what consent trusts, never an id from a model). An exact title keeps
//! its articles: "dingo report" is not exactly "Dingo report A" when "Dingo report B" exists.
//!
//! Pure reads. Invariant: a task id reaches an action only through here, so words from a model
//! can name a task but never invent one.

use rusqlite::Connection;

use super::title_words::normalise;
use super::{repo, Task};
use crate::sentence::tokens::{words, Join};
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
    if normalise(reference).is_empty() {
        return Vec::new();
    }
    // Exact title, articles kept (only a leading one dropped): "dingo report" is not exactly
    // "Dingo report A", whose "A" tells it from "Dingo report B".
    let wanted = exact_form(reference);
    let (exact, rest): (Vec<T>, Vec<T>) = rest
        .into_iter()
        .partition(|item| exact_form(title(item)) == wanted);
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

/// A title as an exact reference compares it: lower-case words, punctuation removed, a
/// leading article dropped ("the passport" is "passport"), every other word kept.
fn exact_form(text: &str) -> String {
    let words = plain_words(text);
    let skip = usize::from(
        matches!(words.first().map(String::as_str), Some("a" | "an" | "the")) && words.len() > 1,
    );
    words[skip..].join(" ")
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

/// The open tasks the person's own `message` names best: the tasks all of whose title words
/// the message holds, else those sharing the most significant words (three letters or more)
/// with it. Several when tied ("the dingo report" names both "Dingo report A" and "Dingo
/// report B"), none when no title word is in the message. An id in the message names nothing:
/// only words do.
/// `said`: the message's words as titles are compared (`sentence::tokens::Join::Nothing`,
/// from its one reading).
pub fn named_by_message(conn: &Connection, said: &[String]) -> Result<Vec<Task>, StoreError> {
    let open: Vec<Task> = repo::list(conn, None)?
        .into_iter()
        .filter(|task| task.status.is_open())
        .collect();
    Ok(best_named(open, said, |task| &task.title))
}

/// The items whose titles the message's words `said_words` name best (see
/// [`named_by_message`]).
pub fn best_named<T>(items: Vec<T>, said_words: &[String], title: impl Fn(&T) -> &str) -> Vec<T> {
    let said = significant(said_words);
    let score = |item: &T| {
        let whole = plain_words(title(item));
        let all_there = !whole.is_empty() && whole.iter().all(|word| said_words.contains(word));
        let shared = significant_words(title(item))
            .iter()
            .filter(|word| word.chars().count() >= 3 && said.contains(word))
            .count();
        (all_there && shared > 0, shared)
    };
    let scored: Vec<((bool, usize), T)> =
        items.into_iter().map(|item| (score(&item), item)).collect();
    let Some(best) = scored.iter().map(|(score, _)| *score).max() else {
        return Vec::new();
    };
    if best.1 == 0 {
        return Vec::new();
    }
    scored
        .into_iter()
        .filter(|(score, _)| *score == best)
        .map(|(_, item)| item)
        .collect()
}

/// Lower-case words, articles kept: "Dingo report A" is three words, so "the dingo report"
/// does not hold all of them.
fn plain_words(text: &str) -> Vec<String> {
    words(text, Join::Nothing)
}

/// The significant words among `words`: without articles and stop words.
fn significant(words: &[String]) -> Vec<String> {
    words
        .iter()
        .filter(|word| !matches!(word.as_str(), "a" | "an") && !STOP_WORDS.contains(&word.as_str()))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_title_keeps_the_words_that_tell_two_tasks_apart() {
        let titles = vec!["Dingo report A", "Dingo report B", "The passport"];
        let named = |reference: &str| named_among(titles.clone(), reference, |t| t, |t| t);
        assert_eq!(
            named("dingo report"),
            vec!["Dingo report A", "Dingo report B"]
        );
        assert_eq!(named("Dingo report A"), vec!["Dingo report A"]);
        assert_eq!(named("dingo report b"), vec!["Dingo report B"]);
        assert_eq!(named("passport"), vec!["The passport"]);
        assert_eq!(named("the passport"), vec!["The passport"]);
    }

    #[test]
    fn a_message_names_the_task_whose_title_it_holds_best() {
        let titles = vec![
            "Dingo report A",
            "Dingo report B",
            "Renew passport",
            "Pay rent",
        ];
        let best = |message: &str| best_named(titles.clone(), &plain_words(message), |t| t);
        assert_eq!(
            best("mark the dingo report done"),
            vec!["Dingo report A", "Dingo report B"]
        );
        assert_eq!(best("dingo report B is done"), vec!["Dingo report B"]);
        assert_eq!(
            best("move the passport thing to friday"),
            vec!["Renew passport"]
        );
        assert_eq!(
            best("passport and rent are done"),
            vec!["Renew passport", "Pay rent"]
        );
        assert!(best("move it to friday").is_empty());
        assert!(best("tsk_123 done").is_empty());
    }
}
