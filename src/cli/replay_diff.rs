//! What `donna replay` compares: the recorded turn (its result and journal) with the new run,
//! as differences a person can read: the result's fields (path, reply, actions, steps), the
//! calls made (in order), the prompt text of each model call, and each tool call with its
//! output.
//!
//! Model calls are paired by schema title and position among the calls with that title (as
//! the replay answers them, `llm::journal`); tool calls by position. Ids that differ on every
//! run (a new plan's id) are not compared.

use serde_json::Value;

use crate::conversation::turn_journal::{EntryKind, JournalEntry, StoredTurn};

/// Result fields compared (docs/contract.md's result shape; `pending_plan_id` is a fresh id each run).
const RESULT_FIELDS: [&str; 4] = ["path", "reply", "actions", "steps"];
/// How much of a differing text is shown.
const SHOWN_CHARS: usize = 200;

/// The recorded side of a replay.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub result: Value,
    pub entries: Vec<JournalEntry>,
}

impl Recorded {
    /// The stored turn's result and journal; None while the message is unfinished.
    pub fn read(stored: &StoredTurn) -> Option<Self> {
        let result = serde_json::from_str(stored.result_json.as_deref()?).ok()?;
        Some(Self {
            result,
            entries: stored.entries.clone(),
        })
    }
}

/// A result in one line: path, reply, actions, steps.
pub fn show_result(result: &Value) -> String {
    let actions: Vec<&str> = result["actions"]
        .as_array()
        .map(|list| list.iter().filter_map(|a| a["name"].as_str()).collect())
        .unwrap_or_default();
    format!(
        "path={} reply={} actions={:?} steps={}",
        result["path"].as_str().unwrap_or("?"),
        result["reply"],
        actions,
        result["steps"]
    )
}

/// Every difference between the recording and the new run (empty: identical).
pub fn differences(recorded: &Recorded, result: &Value, journal: &[JournalEntry]) -> Vec<String> {
    let mut found = Vec::new();
    for field in RESULT_FIELDS {
        let (before, now) = (&recorded.result[field], &result[field]);
        if before != now {
            found.push(format!("result {field}: recorded {before}, now {now}"));
        }
    }
    let order = |entries: &[JournalEntry]| -> Vec<String> {
        entries
            .iter()
            .map(|e| format!("{} {}", e.kind.as_str(), e.name))
            .collect()
    };
    let (before, now) = (order(&recorded.entries), order(journal));
    if before != now {
        found.push(format!(
            "calls: recorded [{}], now [{}]",
            before.join(", "),
            now.join(", ")
        ));
    }
    found.extend(model_differences(&recorded.entries, journal));
    found.extend(tool_differences(&recorded.entries, journal));
    found
}

fn model_differences(recorded: &[JournalEntry], journal: &[JournalEntry]) -> Vec<String> {
    let mut found = Vec::new();
    let mut titles: Vec<&str> = Vec::new();
    for entry in recorded.iter().chain(journal) {
        if entry.kind == EntryKind::Model && !titles.contains(&entry.name.as_str()) {
            titles.push(&entry.name);
        }
    }
    for title in titles {
        let of = |entries: &'_ [JournalEntry]| -> Vec<JournalEntry> {
            entries
                .iter()
                .filter(|e| e.kind == EntryKind::Model && e.name == title)
                .cloned()
                .collect()
        };
        let (before, now) = (of(recorded), of(journal));
        for index in 0..before.len().max(now.len()) {
            let call = format!("{title} call {}", index + 1);
            match (before.get(index), now.get(index)) {
                (Some(_), None) => found.push(format!("{call}: recorded, not made now")),
                (None, Some(_)) => found.push(format!(
                    "{call}: made now, not in the recording (answered as a model failure)"
                )),
                (Some(old), Some(new)) => found.extend(prompt_differences(&call, old, new)),
                (None, None) => {}
            }
        }
    }
    found
}

/// The messages of a model entry: (role, content).
fn messages(entry: &JournalEntry) -> Vec<(String, String)> {
    serde_json::from_str::<Vec<Value>>(&entry.request)
        .unwrap_or_default()
        .iter()
        .map(|m| {
            (
                m["role"].as_str().unwrap_or_default().to_string(),
                m["content"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn prompt_differences(call: &str, old: &JournalEntry, new: &JournalEntry) -> Vec<String> {
    let (before, now) = (messages(old), messages(new));
    let mut found = Vec::new();
    if before.len() != now.len() {
        found.push(format!(
            "{call}: {} messages recorded, {} now",
            before.len(),
            now.len()
        ));
    }
    for (index, (old, new)) in before.iter().zip(&now).enumerate() {
        if old == new {
            continue;
        }
        let place = format!("{call}, message {} ({})", index + 1, new.0);
        if old.0 != new.0 {
            found.push(format!("{place}: role was {}", old.0));
            continue;
        }
        found.push(first_line_difference(&place, &old.1, &new.1));
    }
    found
}

/// Where two prompt texts first differ, with the line from each.
fn first_line_difference(place: &str, before: &str, now: &str) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (before.lines().collect(), now.lines().collect());
    let line = (0..old.len().max(new.len()))
        .find(|&i| old.get(i) != new.get(i))
        .unwrap_or(0);
    let show = |text: Option<&&str>| -> String {
        match text {
            Some(text) => format!("{:?}", text.chars().take(SHOWN_CHARS).collect::<String>()),
            None => "(no line)".into(),
        }
    };
    format!(
        "{place}, line {}: recorded {}, now {}",
        line + 1,
        show(old.get(line)),
        show(new.get(line))
    )
}

fn tool_differences(recorded: &[JournalEntry], journal: &[JournalEntry]) -> Vec<String> {
    let tools = |entries: &'_ [JournalEntry]| -> Vec<JournalEntry> {
        entries
            .iter()
            .filter(|e| e.kind == EntryKind::Tool)
            .cloned()
            .collect()
    };
    let (before, now) = (tools(recorded), tools(journal));
    let mut found = Vec::new();
    for index in 0..before.len().max(now.len()) {
        let call = format!("tool call {}", index + 1);
        match (before.get(index), now.get(index)) {
            (Some(old), None) => found.push(format!(
                "{call}: recorded {} {}, not made now",
                old.name, old.request
            )),
            (None, Some(new)) => found.push(format!(
                "{call}: {} {} made now (ran live on the copy), not in the recording",
                new.name, new.request
            )),
            (Some(old), Some(new)) if old.name != new.name || old.request != new.request => {
                found.push(format!(
                    "{call}: recorded {} {}, now {} {} (ran live on the copy)",
                    old.name, old.request, new.name, new.request
                ));
            }
            (Some(old), Some(new)) if old.response != new.response || old.ok != new.ok => {
                found.push(format!("{call} ({}): output differs", new.name));
            }
            _ => {}
        }
    }
    found
}
