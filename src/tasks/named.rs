//! Tasks named in words (docs/contract.md "Tasks named in chat"): a reference (an id or words of a
//! title) resolved by Donna: exact id, then exact normalised title, then titles holding every
//! word of the reference. Writes look among open tasks; reads among all, open ones first.
//! Also whether a message names a task at all (`mentions`: a word of three or more letters of
//! the title that is not a stop word), and which open tasks the person's own message names best
//! (`named_by_message`, from the words of its one reading: what consent trusts, never an id
//! from a model). An exact title keeps
//! its articles: "dingo report" is not exactly "Dingo report A" when "Dingo report B" exists.
//!
//! Pure reads. Invariant: a task id reaches an action only through here, so words from a model
//! can name a task but never invent one.

use rusqlite::Connection;

use super::title_words::{distinct_words, normalise};
use super::{repo, title_index, Task};
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
    let found = match among {
        Among::Open => open_holding(conn, reference)?,
        Among::All => {
            let mut all = open_holding(conn, reference)?;
            all.extend(closed_holding(conn, reference)?);
            all
        }
    };
    Ok(named_among(
        found,
        reference,
        |task| &task.id,
        |task| &task.title,
    ))
}

/// The words a task's title must all hold to be named by `reference` (by its exact title or
/// by every significant word): its significant words, or, with none, every word (then only an
/// exact title can match). Empty: nothing can be named.
fn words_to_hold(reference: &str) -> Vec<String> {
    let significant = significant_words(reference);
    if significant.is_empty() {
        distinct_words(reference).into_iter().collect()
    } else {
        significant
    }
}

/// The open tasks whose titles hold every word `reference` needs (the word index of open
/// titles finds them), newest first: every open task the rules can name, and few others.
fn open_holding(conn: &Connection, reference: &str) -> Result<Vec<Task>, StoreError> {
    let ids = title_index::holding_all(conn, &words_to_hold(reference))?;
    newest_first(conn, ids, |task| task.status.is_open())
}

/// The closed tasks whose titles hold every word `reference` needs, newest first. Closed
/// titles have no word index: SQLite keeps the titles holding the longest word in lower case
/// (and every title with letters beyond ASCII, which SQLite does not lower-case), and each is
/// checked here as the index would.
fn closed_holding(conn: &Connection, reference: &str) -> Result<Vec<Task>, StoreError> {
    let words = words_to_hold(reference);
    let Some(longest) = words.iter().max_by_key(|word| word.len()) else {
        return Ok(Vec::new());
    };
    let probe = if longest.is_ascii() {
        longest.as_str()
    } else {
        ""
    };
    let ids: Vec<String> = repo::closed_titles_holding(conn, probe)?
        .into_iter()
        .filter(|(_, title)| {
            let held = distinct_words(title);
            words.iter().all(|word| held.contains(word))
        })
        .map(|(id, _)| id)
        .collect();
    newest_first(conn, ids, |task| !task.status.is_open())
}

/// The tasks `ids` that pass `keep`, newest first (then by id), as the list of every task is
/// ordered.
fn newest_first(
    conn: &Connection,
    ids: Vec<String>,
    keep: impl Fn(&Task) -> bool,
) -> Result<Vec<Task>, StoreError> {
    let mut tasks = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(task) = repo::get(conn, &id)?.filter(|task| keep(task)) {
            tasks.push(task);
        }
    }
    tasks.sort_by(|a, b| {
        b.created_at
            .cmp(&a.created_at)
            .then_with(|| a.id.cmp(&b.id))
    });
    Ok(tasks)
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
    // Only a title sharing a significant word of three letters or more can be named: the word
    // index of open titles (its words normalised as titles are) finds those.
    let probe: Vec<String> = significant_words(&said.join(" "))
        .into_iter()
        .filter(|word| word.chars().count() >= 3)
        .collect();
    let open = newest_first(conn, title_index::holding_any(conn, &probe)?, |task| {
        task.status.is_open()
    })?;
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

    /// What naming read before the word index: every task, open first, newest first.
    fn by_reading_every_task(conn: &Connection, reference: &str, among: Among) -> Vec<String> {
        let usable = |task: &Task| among == Among::All || task.status.is_open();
        if let Some(task) = repo::get(conn, reference.trim()).unwrap_or_else(|e| panic!("{e}")) {
            return if usable(&task) {
                vec![task.id]
            } else {
                Vec::new()
            };
        }
        let mut all: Vec<Task> = repo::list(conn, None)
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .filter(|task| usable(task))
            .collect();
        all.sort_by_key(|task| !task.status.is_open());
        named_among(all, reference, |t| &t.id, |t| &t.title)
            .into_iter()
            .map(|task| task.id)
            .collect()
    }

    #[test]
    fn the_word_index_names_the_tasks_reading_every_task_named() {
        use crate::store::migrations::migrated_in_memory;
        use crate::tasks::{NewTask, TaskStatus};
        use chrono::{Duration, TimeZone, Utc};

        let conn = migrated_in_memory();
        let now = Utc
            .with_ymd_and_hms(2026, 11, 30, 10, 0, 0)
            .single()
            .unwrap_or_default();
        let titles = [
            "Dingo report A",
            "Dingo report B",
            "The passport",
            "Renew passport",
            "Pay rent",
            "Pay the rent",
            "It",
            "Call Mum about the trip",
            "ÉCOLE forms for Zoë",
            "Kelvin \u{212A}ettle fix",
            "!!!",
            "renew PASSPORT photos",
        ];
        for (n, title) in titles.iter().enumerate() {
            for closed in [false, true] {
                let id = format!("tsk_{n:02}{}", u8::from(closed));
                let at = now - Duration::minutes(n as i64 % 4);
                repo::insert(&conn, &id, &NewTask::titled(*title), at)
                    .unwrap_or_else(|e| panic!("{e}"));
                if closed && n % 3 != 2 {
                    let to = [TaskStatus::Done, TaskStatus::Cancelled][n % 2];
                    repo::set_status(&conn, &id, to, now).unwrap_or_else(|e| panic!("{e}"));
                }
            }
        }
        let references = [
            "dingo report",
            "Dingo report A",
            "the passport",
            "passport",
            "PASSPORT",
            "rent",
            "pay the rent",
            "it",
            "the",
            "call mum",
            "the trip thing",
            "école",
            "zoë forms",
            "\u{212A}ettle",
            "kettle",
            "!!!",
            "",
            "tsk_041",
            "tsk_051",
            "nothing like this",
        ];
        let mut named_some = 0;
        for reference in references {
            for among in [Among::Open, Among::All] {
                let found: Vec<String> = candidates(&conn, reference, among)
                    .unwrap_or_else(|e| panic!("{e}"))
                    .into_iter()
                    .map(|task| task.id)
                    .collect();
                let expected = by_reading_every_task(&conn, reference, among);
                assert_eq!(found, expected, "{reference:?} among {among:?}");
                named_some += usize::from(!found.is_empty());
            }
        }
        // Most references name something (closed ones too, and by the Kelvin sign's "k").
        assert!(named_some >= 25, "{named_some}");
        let kettle = candidates(&conn, "kettle", Among::All).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(kettle.len(), 2, "{kettle:?}");
        for message in [
            "mark the dingo report done",
            "passport and rent are done",
            "move it to friday",
            "called mum about the trip",
            "the école forms are in",
        ] {
            let found: Vec<String> = named_by_message(&conn, &plain_words(message))
                .unwrap_or_else(|e| panic!("{e}"))
                .into_iter()
                .map(|task| task.id)
                .collect();
            let open: Vec<Task> = repo::list(&conn, None)
                .unwrap_or_else(|e| panic!("{e}"))
                .into_iter()
                .filter(|task| task.status.is_open())
                .collect();
            let expected: Vec<String> = best_named(open, &plain_words(message), |task| &task.title)
                .into_iter()
                .map(|task| task.id)
                .collect();
            assert_eq!(found, expected, "{message:?}");
        }
    }
}
