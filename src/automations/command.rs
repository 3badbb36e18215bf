//! Reading an automation command without a model: "every monday at 9 remind me to submit the
//! timesheet" -> a draft (title + schedule), or why it cannot be used, or "not an automation".
//!
//! Owns: what makes a message a request (the courtesies, "remind me", who is speaking) and the
//! task words ("remind me to X", "remind me X", or, when the message starts with the schedule,
//! the rest; first letter capitalised). The schedule phrase is read by `repeat`, the time of
//! day by `time_of_day` (none -> 09:00).
//! Invariants: pure (no clock, no store: `now` and the time zone are arguments). A question, a
//! negation before the command, a report ("I go running every monday") or someone else's
//! words ("my boss reminds me every monday") are never an automation.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::repeat::{find_repeat, rule_and_words, Found};
use super::schedule::Schedule;
use super::time_of_day::find_time;

/// What a message says about a recurring reminder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AutomationReading {
    NotAutomation,
    Draft(AutomationDraft),
    /// An automation Donna cannot use as said; the text asks the person what she needs.
    Unreadable(String),
}

/// A recurring reminder to propose: what to be reminded of, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutomationDraft {
    pub title: String,
    pub schedule: Schedule,
}

/// The hour used when the person names none.
const DEFAULT_HOUR: u32 = 9;

const QUESTION_WORDS: [&str; 24] = [
    "do", "does", "did", "is", "are", "am", "was", "were", "what", "when", "where", "which", "who",
    "why", "how", "can", "could", "would", "will", "should", "shall", "have", "has", "may",
];
const NEGATIONS: [&str; 11] = [
    "don't", "dont", "not", "never", "no", "stop", "cancel", "quit", "won't", "doesn't", "didn't",
];
/// Words that make the message about someone (or something) rather than a request to Donna.
const NOT_A_REQUEST: [&str; 22] = [
    "i", "i'm", "im", "we", "we're", "my", "our", "he", "she", "they", "it", "his", "her", "their",
    "you", "your", "is", "are", "was", "were", "feels", "seems",
];
/// Courtesies before the command, dropped.
const COURTESY: [&str; 6] = ["please", "donna", "hey", "hi", "ok", "okay"];
/// What may stand between a courtesy and "remind me": "I want you to remind me ...".
const ASKS: [&[&str]; 4] = [
    &["i", "want", "you", "to"],
    &["i", "need", "you", "to"],
    &["i'd", "like", "you", "to"],
    &["i", "would", "like", "you", "to"],
];

#[derive(Debug, Clone)]
struct Token {
    lower: String,
    original: String,
}

fn tokens(text: &str) -> Vec<Token> {
    text.split_whitespace()
        .map(|word| {
            let trimmed = word.trim_matches(|c: char| matches!(c, ',' | '.' | '!' | ';' | '"'));
            let trimmed = trimmed.trim_end_matches(':');
            Token {
                lower: trimmed.to_lowercase().replace('’', "'"),
                original: trimmed.to_string(),
            }
        })
        .filter(|token| !token.lower.is_empty())
        .collect()
}

/// Reads `text` as an automation command, in `tz`, at `now`.
pub fn read(text: &str, now: DateTime<Utc>, tz: Tz) -> AutomationReading {
    let all = tokens(text);
    let words: Vec<&str> = all.iter().map(|t| t.lower.as_str()).collect();
    let Some(found) = find_repeat(&words) else {
        return AutomationReading::NotAutomation;
    };
    let mut lead = 0;
    while words.get(lead).is_some_and(|w| COURTESY.contains(w)) {
        lead += 1;
    }
    // A question is never a command, even with a schedule in it ("hey, do I have ... every
    // monday"); the model may still read it.
    let is_question = text.trim_end().ends_with('?')
        || [words.first(), words.get(lead)]
            .into_iter()
            .flatten()
            .any(|w| QUESTION_WORDS.contains(w));
    if is_question {
        return AutomationReading::NotAutomation;
    }
    for ask in ASKS {
        if words.get(lead..lead + ask.len()) == Some(ask) {
            lead += ask.len();
            break;
        }
    }
    let remind = words
        .iter()
        .position(|w| *w == "remind")
        .filter(|at| words.get(at + 1) == Some(&"me"));
    // Everything before the command must be a courtesy, the schedule or the time: "don't
    // remind me every monday", "my boss reminds me every monday" are not requests.
    let command_start = remind.unwrap_or(lead);
    if words
        .get(lead.min(command_start)..command_start)
        .unwrap_or_default()
        .iter()
        .any(|w| NEGATIONS.contains(w) || NOT_A_REQUEST.contains(w))
    {
        return AutomationReading::NotAutomation;
    }
    let (start, end, repeat) = match found {
        Found::Ask(question) => {
            if remind.is_none() && words.get(lead) != Some(&"every") {
                return AutomationReading::NotAutomation;
            }
            return AutomationReading::Unreadable(question);
        }
        Found::Repeat { start, end, repeat } => (start, end, repeat),
    };
    if remind.is_none() {
        // Without "remind me" the message must start with the schedule, and what follows must
        // be a thing to do, not a statement ("every day is a struggle", "each of us ...").
        if start != lead {
            return AutomationReading::NotAutomation;
        }
    }
    let time = find_time(&words, start..end);
    let (hour, minute, time_span) = match time {
        Some(Ok((hour, minute, from, to))) => (hour, minute, Some(from..to)),
        Some(Err(question)) => return AutomationReading::Unreadable(question),
        None => (DEFAULT_HOUR, 0, None),
    };
    // The task words: what is left without the courtesy, the command, the schedule and the time.
    let mut rest: Vec<&Token> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            *i >= lead
                && !(start..end).contains(i)
                && !time_span.as_ref().is_some_and(|span| span.contains(i))
                && !remind.is_some_and(|r| *i == r || *i == r + 1)
        })
        .map(|(_, token)| token)
        .collect();
    if remind.is_some() {
        if let Some(first) = rest.first() {
            if matches!(first.lower.as_str(), "to" | "about" | "of") {
                rest.remove(0);
            }
        }
    } else if rest
        .first()
        .is_some_and(|first| NOT_A_REQUEST.contains(&first.lower.as_str()))
        || rest
            .first()
            .is_some_and(|first| matches!(first.lower.as_str(), "of" | "time" | "single" | "one"))
    {
        return AutomationReading::NotAutomation;
    }
    while rest
        .last()
        .is_some_and(|last| COURTESY.contains(&last.lower.as_str()))
    {
        rest.pop();
    }
    let (rrule, words_said) = rule_and_words(&repeat, hour, minute);
    let title = capitalised(
        &rest
            .iter()
            .map(|t| t.original.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    );
    if title.is_empty() {
        return AutomationReading::Unreadable(format!("What should I remind you of {words_said}?"));
    }
    if title.chars().count() > crate::tasks::model::MAX_TITLE_CHARS {
        return AutomationReading::Unreadable(format!(
            "That is a long reminder; can you say it in at most {} characters?",
            crate::tasks::model::MAX_TITLE_CHARS
        ));
    }
    match Schedule::starting_after(&rrule, tz, &words_said, now) {
        Ok(schedule) => AutomationReading::Draft(AutomationDraft { title, schedule }),
        Err(error) => {
            tracing::warn!(%error, "an automation rule Donna wrote does not expand");
            AutomationReading::Unreadable(
                "I couldn't work out when that would happen. Can you say it another way?".into(),
            )
        }
    }
}

fn capitalised(text: &str) -> String {
    let text = text.trim();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
