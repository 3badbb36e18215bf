//! The export file: `{version, exported_at, tasks, automations, preferences, people, threads}`
//! as JSON, and reading one back whole or not at all.
//!
//! `tasks` are tasks as stored (every field, counters and ids included); `automations`,
//! `preferences` and `people` their rows; `threads` the chats the tasks and automations were
//! captured in (so their nudges still go there after an import into an empty data dir).
//! Reading (`read`) refuses a newer `version`, malformed JSON, a wrong type or a value Donna
//! would not store through her own doors, checked by the same code those doors call (a title
//! or description too long, an estimate outside 1..=100000 minutes, a counter outside
//! 0..=1000000, an id with a control character, an unknown zone, a rule more often than daily
//! or that never occurs, a chat with another channel's id or the web page's), each named by
//! its JSON path and reason ("tasks[2].nudge_count: ...").
//! Invariant: a document `read` returns can be written whole, and holds only values Donna's
//! doors would have stored: every value passed their checks.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::automations::completion::checked_repeat;
use crate::conversation::chat_ids;
use crate::store::time::round_trips;
use crate::tasks::fields::{check_domain, check_priority, clean_title};
use crate::tasks::stored::check_stored;
use crate::tasks::Task;

pub use super::records::{AutomationRecord, PersonRecord, PreferenceRecord, ThreadRecord};

/// The version this Donna writes, and the newest it reads.
pub const VERSION: u64 = 1;

/// An export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub version: u64,
    pub exported_at: DateTime<Utc>,
    pub tasks: Vec<Task>,
    pub automations: Vec<AutomationRecord>,
    pub preferences: Vec<PreferenceRecord>,
    pub people: Vec<PersonRecord>,
    /// The chats tasks and automations were captured in.
    #[serde(default)]
    pub threads: Vec<ThreadRecord>,
}

/// Why a file cannot be imported: where in it, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct Malformed {
    /// The JSON path ("tasks[2].priority"), or "(file)" for the whole text.
    pub path: String,
    pub reason: String,
}

fn malformed(path: impl Into<String>, reason: impl Into<String>) -> Malformed {
    Malformed {
        path: path.into(),
        reason: reason.into(),
    }
}

/// Reads an export: the version first, then every field's type, then every value.
pub fn read(text: &str) -> Result<Document, Malformed> {
    let value: Value = serde_json::from_str(text).map_err(|error| {
        malformed(
            "(file)",
            format!(
                "not JSON: {error} (line {}, column {})",
                error.line(),
                error.column()
            ),
        )
    })?;
    let Some(object) = value.as_object() else {
        return Err(malformed("(file)", "not a JSON object"));
    };
    match object.get("version").map(|version| (version, version.as_u64())) {
        None => return Err(malformed("version", "missing")),
        Some((_, Some(version))) if version > VERSION => {
            return Err(malformed(
                "version",
                format!("{version} is newer than this Donna reads ({VERSION}); import it with a newer Donna"),
            ))
        }
        Some((_, Some(_))) => {}
        Some((other, None)) => {
            return Err(malformed(
                "version",
                format!("{other} is not a version number"),
            ))
        }
    }
    let document: Document = serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        malformed(path, error.into_inner().to_string())
    })?;
    check(&document)?;
    Ok(document)
}

/// The longest schedule in words and learned-preference key stored (Donna's are far shorter).
const MAX_WORDS_CHARS: usize = 500;

/// A text Donna writes herself (schedule words, a title key): short, no control characters.
fn check_words(text: &str) -> Result<(), String> {
    if text.chars().count() > MAX_WORDS_CHARS || text.chars().any(char::is_control) {
        return Err(format!(
            "is over {MAX_WORDS_CHARS} characters or holds control characters"
        ));
    }
    Ok(())
}

/// Each record checked with the checks of the doors that store such records (`tasks::fields`,
/// `ids::check`, `automations::schedule`, `conversation::chat_ids`), named by its JSON path.
fn check(document: &Document) -> Result<(), Malformed> {
    check_tasks(&document.tasks)?;
    check_automations(&document.automations)?;
    check_preferences(&document.preferences)?;
    check_people(&document.people)?;
    check_threads(&document.threads)?;
    // A chat a task or an automation names is in the file (or already in the database: the
    // import checks that in its transaction).
    Ok(())
}

fn time(path: String, at: Option<DateTime<Utc>>) -> Result<(), Malformed> {
    match at {
        Some(at) if !round_trips(at) => Err(malformed(path, "a time Donna cannot store")),
        _ => Ok(()),
    }
}

fn id(path: impl Into<String>, value: Option<&str>) -> Result<(), Malformed> {
    match value.map(crate::ids::check) {
        Some(Err(error)) => Err(malformed(path, error.to_string())),
        _ => Ok(()),
    }
}

fn check_tasks(tasks: &[Task]) -> Result<(), Malformed> {
    let mut ids = HashSet::new();
    for (i, task) in tasks.iter().enumerate() {
        let at = |field: &str| format!("tasks[{i}].{field}");
        check_stored(task).map_err(|error| malformed(at(error.field), error.reason))?;
        if !ids.insert(task.id.as_str()) {
            return Err(malformed(at("id"), format!("{:?} appears twice", task.id)));
        }
        for (field, value) in [
            ("deadline", task.deadline),
            ("scheduled_start", task.scheduled_start),
            ("completed_at", task.completed_at),
            ("snoozed_until", task.snoozed_until),
            ("last_nudged_at", task.last_nudged_at),
            ("occurrence_at", task.occurrence_at),
            ("created_at", Some(task.created_at)),
            ("updated_at", Some(task.updated_at)),
        ] {
            time(at(field), value)?;
        }
    }
    Ok(())
}

fn check_automations(records: &[AutomationRecord]) -> Result<(), Malformed> {
    let mut ids = HashSet::new();
    for (i, record) in records.iter().enumerate() {
        let at = |field: &str| format!("automations[{i}].{field}");
        id(at("id"), Some(&record.id))?;
        if !ids.insert(record.id.as_str()) {
            return Err(malformed(
                at("id"),
                format!("{:?} appears twice", record.id),
            ));
        }
        match clean_title(&record.title) {
            Ok(clean) if clean == record.title => {}
            Ok(_) => return Err(malformed(at("title"), "has spaces Donna would not store")),
            Err(error) => return Err(malformed(at("title"), error.to_string())),
        }
        check_words(&record.schedule_words).map_err(|e| malformed(at("schedule_words"), e))?;
        check_domain(&record.domain).map_err(|e| malformed(at("domain"), e.to_string()))?;
        check_priority(record.priority).map_err(|e| malformed(at("priority"), e.to_string()))?;
        let automation = record
            .automation()
            .map_err(|(field, reason)| malformed(at(field), reason))?;
        for (field, value) in [
            ("dtstart", Some(record.dtstart)),
            ("last_occurrence_at", record.last_occurrence_at),
            ("created_at", Some(record.created_at)),
            ("stopped_at", record.stopped_at),
        ] {
            time(at(field), value)?;
        }
        // The rule a door stores: at most daily, one time of day, occurring after its start.
        automation
            .schedule
            .check()
            .map_err(|e| malformed(at("rrule"), e.to_string()))?;
        // What it repeats from, as every door checks it.
        checked_repeat(
            automation.kind,
            automation.repeat_from,
            &automation.schedule,
        )
        .map_err(|reason| malformed(at("repeat_from"), reason))?;
        id(at("origin_thread_id"), record.origin_thread_id.as_deref())?;
        id(at("created_by"), record.created_by.as_deref())?;
        id(at("for_user_id"), record.for_user_id.as_deref())?;
    }
    Ok(())
}

fn check_preferences(preferences: &[PreferenceRecord]) -> Result<(), Malformed> {
    let mut keys = HashSet::new();
    for (i, preference) in preferences.iter().enumerate() {
        let at = |field: &str| format!("preferences[{i}].{field}");
        let valid = match preference.field.as_str() {
            "domain" => check_domain(&preference.value).map_err(|e| e.to_string()),
            "priority" => preference
                .value
                .parse::<i64>()
                .map_err(|_| "not a number".to_string())
                .and_then(|p| check_priority(p).map_err(|e| e.to_string())),
            other => {
                return Err(malformed(
                    at("field"),
                    format!("{other:?} is not domain or priority"),
                ))
            }
        };
        valid.map_err(|reason| malformed(at("value"), reason))?;
        if preference.title_key.trim().is_empty()
            || !keys.insert((preference.title_key.as_str(), preference.field.as_str()))
        {
            return Err(malformed(
                at("title_key"),
                "empty, or the same title and field twice",
            ));
        }
        check_words(&preference.title_key).map_err(|e| malformed(at("title_key"), e))?;
        id(
            at("learned_from_task_id"),
            preference.learned_from_task_id.as_deref(),
        )?;
        time(at("learned_at"), Some(preference.learned_at))?;
    }
    Ok(())
}

fn check_people(people: &[PersonRecord]) -> Result<(), Malformed> {
    let mut ids = HashSet::new();
    for (i, person) in people.iter().enumerate() {
        let at = |field: &str| format!("people[{i}].{field}");
        id(at("user_id"), Some(&person.user_id))?;
        if !ids.insert(person.user_id.as_str()) {
            return Err(malformed(at("user_id"), "appears twice"));
        }
        person
            .person()
            .map_err(|(field, reason)| malformed(at(field), reason))?;
        time(at("updated_at"), Some(person.updated_at))?;
    }
    Ok(())
}

fn check_threads(threads: &[ThreadRecord]) -> Result<(), Malformed> {
    let mut ids = HashSet::new();
    for (i, thread) in threads.iter().enumerate() {
        let at = |field: &str| format!("threads[{i}].{field}");
        chat_ids::check(&thread.thread()).map_err(|e| malformed(at(e.field), e.reason))?;
        if !ids.insert(thread.id.as_str()) {
            return Err(malformed(at("id"), "appears twice"));
        }
        time(at("created_at"), Some(thread.created_at))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automations::RepeatFrom;

    fn error_of(text: &str) -> String {
        match read(text) {
            Ok(_) => "ok".into(),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn each_refusal_names_its_json_path() {
        let empty = r#"{"version":1,"exported_at":"2026-11-27T10:00:00Z","tasks":[],"automations":[],"preferences":[],"people":[]}"#;
        assert_eq!(error_of(empty), "ok");
        assert!(error_of("{").starts_with("(file): not JSON"));
        assert!(error_of(r#"{"version":2}"#).starts_with("version: 2 is newer"));
        assert_eq!(
            error_of(r#"{"version":"1"}"#),
            "version: \"1\" is not a version number"
        );
        let bad_person = empty.replace(
            r#""people":[]"#,
            r#""people":[{"user_id":"a","timezone":"Mars/Olympus","updated_at":"2026-11-27T10:00:00Z"}]"#,
        );
        assert_eq!(
            error_of(&bad_person),
            "people[0].timezone: \"Mars/Olympus\" is not an IANA time zone"
        );
        let wrong_type = empty.replace(r#""tasks":[]"#, r#""tasks":[{"id":5}]"#);
        assert!(
            error_of(&wrong_type).starts_with("tasks[0].id: invalid type"),
            "{}",
            error_of(&wrong_type)
        );
    }

    /// A file with one automation: `words` its schedule's words, `extra` more of its fields.
    fn with_automation(words: &str, rrule: &str, extra: &str) -> String {
        format!(
            r#"{{"version":1,"exported_at":"2026-11-27T10:00:00Z","tasks":[],"preferences":[],
            "people":[],"automations":[{{"id":"aut_1","title":"Take the pill",
            "schedule_words":"{words}","rrule":"{rrule}","dtstart":"2026-11-27T23:00:00Z",
            "timezone":"UTC","origin_thread_id":null,"domain":"personal","priority":2,
            "last_occurrence_at":null,"created_at":"2026-11-27T10:00:00Z"{extra}}}]}}"#
        )
    }

    #[test]
    fn an_older_file_reads_its_stated_time_from_the_words_and_repeat_from_is_checked() {
        let stated = |text: &str| {
            read(text)
                .ok()
                .and_then(|document| document.automations.first()?.automation().ok())
                .map(|automation| (automation.time_stated, automation.repeat_from))
        };
        let daily = "FREQ=DAILY;BYHOUR=23;BYMINUTE=0;BYSECOND=0";
        let schedule = RepeatFrom::Schedule;
        assert_eq!(
            stated(&with_automation("every day at 23:00", daily, "")),
            Some((true, schedule))
        );
        assert_eq!(
            stated(&with_automation("every day at 09:00", daily, "")),
            Some((false, schedule))
        );
        // Said in the file: kept, whatever the words.
        let kept = r#","time_stated":false,"repeat_from":"completion""#;
        assert_eq!(
            stated(&with_automation("every day at 23:00", daily, kept)),
            Some((false, RepeatFrom::Completion))
        );
        let unknown = with_automation("every day at 23:00", daily, r#","repeat_from":"often""#);
        assert!(
            error_of(&unknown).starts_with("automations[0].repeat_from: \"often\""),
            "{}",
            error_of(&unknown)
        );
        let digest = r#","kind":"digest","repeat_from":"completion""#;
        let refused = error_of(&with_automation("every day at 08:00", daily, digest));
        assert!(
            refused.starts_with("automations[0].repeat_from:"),
            "{refused}"
        );
    }
}
