//! Which of the details the model read with a task (`parse_task`'s answer, or `route`'s
//! capture answer) the person said: only those reach the task. A detail the message does not
//! hold is the model's invention (a small model fills optional fields in: a priority for
//! "call mom", an estimate of 30 minutes, a description it wrote itself) and is left out, so
//! the task holds what the person asked for and no more.
//!
//! - `domain`: the domain's own word is in the message ("work").
//! - `priority`: the message says a priority ("urgent", "asap", "p1", "important").
//! - `estimated_minutes`: the message says a length of time (a count and an hour or minute
//!   unit: "an hour", "45 min", "1h15", "half an hour"), and Donna's own time reader
//!   (`tasks::when`, reading it as "in <length>") gives the same number of minutes. A length
//!   that names a moment ("in 2 hours", "an hour before", "2 hours ago") is not an estimate.
//! - `description` and `tags`: every word of them is a word of the message (by base form; a
//!   number exactly; small words such as "the" or "your" are free).
//!
//! Invariant (pure): the model's numbers and words are checked against the person's message,
//! never the other way round; nothing here adds a detail the model did not give.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::capture::given;
use crate::capture::request::Capture;
use crate::llm::free_text::ParsedTask;
use crate::replies::grounding::title_shares_a_word;
use crate::sentence::tokens::Tokens;
use crate::tasks::when::{find_when, WhenContext};

/// Words a length of time may start with (its count).
const COUNTS: [&str; 18] = [
    "a", "an", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "twenty", "thirty", "forty", "fifty", "half", "quarter",
];
/// Words a length of time in hours or minutes ends with.
const UNITS: [&str; 11] = [
    "minute", "minutes", "min", "mins", "m", "hour", "hours", "hr", "hrs", "h", "half",
];
/// Words before a length that make it a moment ("in 2 hours"), and after it ("2 hours ago").
const MOMENT_BEFORE: [&str; 2] = ["in", "within"];
const MOMENT_AFTER: [&str; 6] = ["before", "after", "ago", "later", "from", "earlier"];
/// The most words a length takes ("a quarter of an hour", "1 hour and 30 minutes").
const LONGEST_LENGTH: usize = 6;

/// The details of `parsed` that `text`, the person's message, says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SaidDetails {
    pub domain: Option<String>,
    pub priority: Option<i64>,
    pub estimated_minutes: Option<i64>,
    pub description: Option<String>,
    pub tags: Vec<String>,
}

impl SaidDetails {
    /// A capture of `title` with these details (its times are read apart).
    pub fn capture(self, title: String) -> Capture {
        Capture {
            title,
            description: self.description,
            domain: self.domain,
            priority: self.priority,
            estimated_minutes: self.estimated_minutes,
            tags: self.tags,
            ..Capture::default()
        }
    }
}

/// `said` is the words of the person's message (its one reading), `text` the message itself.
pub fn said_details(
    said: &[String],
    parsed: &ParsedTask,
    text: &str,
    now: DateTime<Utc>,
) -> SaidDetails {
    let all_said = |detail: &str| Tokens::read(detail).words().all(|w| word_said(said, w));
    let kept = SaidDetails {
        domain: given::domain(said, parsed.domain.as_deref()),
        priority: given::priority(said, parsed.priority),
        estimated_minutes: parsed
            .estimated_minutes
            .filter(|minutes| lengths_said(text, now).contains(minutes)),
        description: parsed.description.clone().filter(|d| all_said(d)),
        tags: parsed
            .tags
            .iter()
            .filter(|tag| all_said(tag))
            .cloned()
            .collect(),
    };
    log_left_out(parsed, &kept);
    kept
}

/// A log line naming the details the model gave that the message does not say.
fn log_left_out(parsed: &ParsedTask, kept: &SaidDetails) {
    let left_out: Vec<&str> = [
        ("domain", parsed.domain.is_some() && kept.domain.is_none()),
        (
            "priority",
            parsed.priority.is_some() && kept.priority.is_none(),
        ),
        (
            "estimated_minutes",
            parsed.estimated_minutes.is_some() && kept.estimated_minutes.is_none(),
        ),
        (
            "description",
            parsed.description.is_some() && kept.description.is_none(),
        ),
        ("tags", parsed.tags.len() > kept.tags.len()),
    ]
    .into_iter()
    .filter_map(|(field, left)| left.then_some(field))
    .collect();
    if !left_out.is_empty() {
        tracing::info!(
            ?left_out,
            "left out details of the task the message does not say"
        );
    }
}

/// Whether one word of a model's text is the person's: a number exactly, any other word by
/// base form; a small word ("the", "your", "to") is nobody's.
fn word_said(said: &[String], word: &str) -> bool {
    if word.chars().any(|c| c.is_ascii_digit()) {
        return said.iter().any(|w| w == word);
    }
    let small = !title_shares_a_word(&[word], word);
    small || title_shares_a_word(said, word)
}

/// The lengths of time `text` says, in minutes, each as Donna's time reader reads it.
fn lengths_said(text: &str, now: DateTime<Utc>) -> Vec<i64> {
    let tokens: Vec<String> = Tokens::read(text).words().map(str::to_lowercase).collect();
    let at = |index: Option<usize>| index.and_then(|i| tokens.get(i)).map(String::as_str);
    let context = WhenContext {
        now,
        timezone: chrono_tz::UTC,
        current_start: None,
        later: Duration::from_secs(3 * 3600),
    };
    let mut lengths = Vec::new();
    // From the last word back, each length read whole: "an hour and a half" is 90, not also
    // the 60 of "an hour" inside it.
    let mut taken_from = tokens.len();
    for end in (0..tokens.len()).rev() {
        let moment_after = at(end.checked_add(1)).is_some_and(|w| MOMENT_AFTER.contains(&w));
        if end >= taken_from || !ends_a_length(&tokens[end]) || moment_after {
            continue;
        }
        for start in end.saturating_sub(LONGEST_LENGTH - 1)..=end {
            let counted = tokens[start].starts_with(|c: char| c.is_ascii_digit())
                || COUNTS.contains(&tokens[start].as_str());
            let moment = at(start.checked_sub(1)).is_some_and(|w| MOMENT_BEFORE.contains(&w));
            if !counted || moment {
                continue;
            }
            let phrase = format!("in {}", tokens[start..=end].join(" "));
            if let Ok(Some(then)) = find_when(&phrase, &context) {
                lengths.push((then - now).num_minutes());
                taken_from = start;
                break;
            }
        }
    }
    lengths
}

/// A unit word, or a count glued to its unit ("45min", "2h", "1h15", "1.5h").
fn ends_a_length(token: &str) -> bool {
    UNITS.contains(&token)
        || (token.starts_with(|c: char| c.is_ascii_digit())
            && token.contains(['h', 'm'])
            && token
                .chars()
                .all(|c| c.is_ascii_digit() || ".hmins".contains(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-30T10:00:00Z")
            .map(|at| at.with_timezone(&Utc))
            .unwrap_or_default()
    }

    #[test]
    fn a_length_is_read_by_donna_and_a_moment_is_no_length() {
        // (message, lengths said)
        let table: [(&str, &[i64]); 12] = [
            ("renew the passport by friday, it takes an hour", &[60]),
            ("gym at 6pm, 45 min", &[45]),
            ("deep work, 1h15", &[75]),
            ("tidy the garage, half an hour tops", &[30]),
            ("report, about an hour and a half", &[90]),
            ("slides: 2 hours", &[120]),
            ("call mom in 2 hours", &[]),
            ("call mom an hour before the party", &[]),
            ("I did that 2 hours ago", &[]),
            ("call mom tomorrow", &[]),
            ("buy 3 apples", &[]),
            ("what a day", &[]),
        ];
        for (message, lengths) in table {
            let mut read = lengths_said(message, now());
            read.sort();
            read.dedup();
            assert_eq!(read, lengths, "{message}");
        }
    }

    #[test]
    fn only_the_details_the_message_says_are_kept() {
        let parsed = ParsedTask {
            title: "Renew the passport".into(),
            description: Some("Bring the old one".into()),
            domain: Some("work".into()),
            priority: Some(1),
            estimated_minutes: Some(60),
            tags: vec!["errands".into(), "passport".into()],
            ..ParsedTask::default()
        };
        // (message, what is kept)
        let table = [
            (
                "urgent: renew the passport by friday, it takes an hour, bring the old one",
                SaidDetails {
                    priority: Some(1),
                    estimated_minutes: Some(60),
                    description: Some("Bring the old one".into()),
                    tags: vec!["passport".into()],
                    ..SaidDetails::default()
                },
            ),
            (
                "renew the passport by friday",
                SaidDetails {
                    tags: vec!["passport".into()],
                    ..SaidDetails::default()
                },
            ),
            (
                "renew the passport for work, it takes 2 hours, bring 2 photos",
                SaidDetails {
                    domain: Some("work".into()),
                    tags: vec!["passport".into()],
                    ..SaidDetails::default()
                },
            ),
        ];
        for (message, kept) in table {
            let said: Vec<String> = Tokens::read(message).words().map(str::to_string).collect();
            assert_eq!(
                said_details(&said, &parsed, message, now()),
                kept,
                "{message}"
            );
        }
    }
}
