//! The word index of open task titles (`open_title_word`, migration 0009): finds the open tasks
//! whose title reaches a Jaccard index of 0.8 with a new title without reading every open
//! title, so a capture costs the same with ten open tasks or ten thousand.
//!
//! How: a title of `n` distinct words can only match titles of `s` words with
//! 4n/5 <= s <= 5n/4, and must share at least t(s) = ceil(4(n+s)/9) words with each. So it
//! holds at least one of any `n - t(s) + 1` of the new title's words: for each `s`, the
//! candidates are the titles of that length holding one of the `n - t(s) + 1` rarest words
//! (counts in `open_title_word_count`), checked exactly.
//!
//! Invariants: an open task's distinct title words are in the index exactly while it is open
//! (`tasks::repo` calls `add`/`remove` in the same store write that inserts, retitles, closes,
//! reopens or deletes it); `repair` at startup makes it so for rows written before the index
//! existed or by hand. The index only narrows: callers re-check every candidate's stored title.

use std::collections::BTreeSet;

use rusqlite::{params, Connection};

use super::title_words::{distinct_words, reach_four_fifths};
use crate::store::StoreError;

/// Indexes the title of open task `task_id`.
pub fn add(conn: &Connection, task_id: &str, title: &str) -> Result<(), StoreError> {
    let words = distinct_words(title);
    let size = words.len() as i64;
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO open_title_word (word, words, task_id) VALUES (?1, ?2, ?3)",
    )?;
    let mut count = conn.prepare_cached(
        "INSERT INTO open_title_word_count (word, words, tasks) VALUES (?1, ?2, 1) \
         ON CONFLICT (word, words) DO UPDATE SET tasks = tasks + 1",
    )?;
    for word in &words {
        if insert.execute(params![word, size, task_id])? > 0 {
            count.execute(params![word, size])?;
        }
    }
    Ok(())
}

/// Removes task `task_id` from the index (closed, retitled or deleted); nothing if absent.
pub fn remove(conn: &Connection, task_id: &str) -> Result<(), StoreError> {
    let indexed: Vec<(String, i64)> = conn
        .prepare_cached("SELECT word, words FROM open_title_word WHERE task_id = ?1")?
        .query_map([task_id], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    if indexed.is_empty() {
        return Ok(());
    }
    let mut count = conn.prepare_cached(
        "UPDATE open_title_word_count SET tasks = tasks - 1 WHERE word = ?1 AND words = ?2",
    )?;
    for (word, size) in &indexed {
        count.execute(params![word, size])?;
    }
    conn.prepare_cached("DELETE FROM open_title_word_count WHERE tasks <= 0")?
        .execute([])?;
    conn.prepare_cached("DELETE FROM open_title_word WHERE task_id = ?1")?
        .execute([task_id])?;
    Ok(())
}

/// Ids of the indexed (open) tasks whose titles reach Jaccard 0.8 with `title`, by their
/// indexed words. Unordered.
pub fn four_fifths_alike(conn: &Connection, title: &str) -> Result<Vec<String>, StoreError> {
    let wanted = distinct_words(title);
    let n = wanted.len();
    let mut found = BTreeSet::new();
    let mut seen = BTreeSet::new();
    // 4n/5 <= s <= 5n/4: a longer or shorter title cannot reach 0.8 even sharing every word.
    for size in (4 * n).div_ceil(5)..=(5 * n / 4) {
        let needed = (4 * (n + size)).div_ceil(9);
        if needed == 0 || needed > n.min(size) {
            continue;
        }
        for word in rarest(conn, &wanted, size, n - needed + 1)? {
            for task_id in holding(conn, &word, size)? {
                if !seen.insert(task_id.clone()) {
                    continue;
                }
                let shared = words_of(conn, &task_id)?
                    .iter()
                    .filter(|word| wanted.contains(*word))
                    .count();
                if reach_four_fifths(shared, n, size) {
                    found.insert(task_id);
                }
            }
        }
    }
    Ok(found.into_iter().collect())
}

/// The `take` words of `words` held by the fewest open titles of `size` words.
fn rarest(
    conn: &Connection,
    words: &BTreeSet<String>,
    size: usize,
    take: usize,
) -> Result<Vec<String>, StoreError> {
    let mut count = conn.prepare_cached(
        "SELECT coalesce((SELECT tasks FROM open_title_word_count WHERE word = ?1 AND words = ?2), 0)",
    )?;
    let mut counted = Vec::with_capacity(words.len());
    for word in words {
        let tasks: i64 = count.query_row(params![word, size as i64], |row| row.get(0))?;
        counted.push((tasks, word));
    }
    counted.sort();
    Ok(counted
        .into_iter()
        .take(take)
        .filter(|(tasks, _)| *tasks > 0)
        .map(|(_, word)| word.clone())
        .collect())
}

fn holding(conn: &Connection, word: &str, size: usize) -> Result<Vec<String>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT task_id FROM open_title_word WHERE word = ?1 AND words = ?2")?
        .query_map(params![word, size as i64], |row| row.get(0))?
        .collect::<Result<_, _>>()?)
}

fn words_of(conn: &Connection, task_id: &str) -> Result<Vec<String>, StoreError> {
    Ok(conn
        .prepare_cached("SELECT word FROM open_title_word WHERE task_id = ?1")?
        .query_map([task_id], |row| row.get(0))?
        .collect::<Result<_, _>>()?)
}

/// Ids of the indexed (open) tasks whose title holds one of `words` (normalised words, as
/// `title_words` makes them). Unordered, each once.
pub fn holding_any(conn: &Connection, words: &[String]) -> Result<Vec<String>, StoreError> {
    let mut found = BTreeSet::new();
    let mut statement =
        conn.prepare_cached("SELECT task_id FROM open_title_word WHERE word = ?1")?;
    for word in words {
        for task_id in statement.query_map([word], |row| row.get::<_, String>(0))? {
            found.insert(task_id?);
        }
    }
    Ok(found.into_iter().collect())
}

/// Ids of the indexed (open) tasks whose title holds every one of `words` (none when `words`
/// is empty): the postings of the rarest word, each checked for the others. Unordered.
pub fn holding_all(conn: &Connection, words: &[String]) -> Result<Vec<String>, StoreError> {
    let wanted: BTreeSet<&String> = words.iter().collect();
    let mut count = conn.prepare_cached(
        "SELECT coalesce(sum(tasks), 0) FROM open_title_word_count WHERE word = ?1",
    )?;
    let mut rarest: Option<(i64, &String)> = None;
    for word in &wanted {
        let tasks: i64 = count.query_row([word], |row| row.get(0))?;
        if rarest.is_none_or(|(fewest, _)| tasks < fewest) {
            rarest = Some((tasks, word));
        }
    }
    let Some((_, rarest)) = rarest else {
        return Ok(Vec::new());
    };
    let others =
        serde_json::to_string(&wanted).map_err(|source| StoreError::json("title words", source))?;
    let mut holds_all = conn.prepare_cached(
        "SELECT count(DISTINCT word) FROM open_title_word \
         WHERE task_id = ?1 AND word IN (SELECT value FROM json_each(?2))",
    )?;
    let mut found = BTreeSet::new();
    for task_id in holding_any(conn, std::slice::from_ref(rarest))? {
        let held: i64 = holds_all.query_row(params![task_id, others], |row| row.get(0))?;
        if usize::try_from(held).is_ok_and(|held| held == wanted.len()) {
            found.insert(task_id);
        }
    }
    Ok(found.into_iter().collect())
}

/// Makes the index hold exactly the open tasks' titles: fills in open tasks it lacks (a
/// database from before migration 0009) and drops tasks that are no longer open. Returns how
/// many tasks it changed. Runs at startup, in one transaction.
pub fn repair(conn: &Connection) -> Result<usize, StoreError> {
    let missing: Vec<(String, String)> = conn
        .prepare(
            "SELECT id, title FROM task WHERE status NOT IN ('done', 'cancelled') \
             AND NOT EXISTS (SELECT 1 FROM open_title_word WHERE task_id = task.id)",
        )?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let stale: Vec<String> = conn
        .prepare(
            "SELECT DISTINCT task_id FROM open_title_word WHERE task_id NOT IN \
             (SELECT id FROM task WHERE status NOT IN ('done', 'cancelled'))",
        )?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    let mut changed = 0;
    for task_id in &stale {
        remove(conn, task_id)?;
        changed += 1;
    }
    for (task_id, title) in &missing {
        if !distinct_words(title).is_empty() {
            add(conn, task_id, title)?;
            changed += 1;
        }
    }
    Ok(changed)
}
