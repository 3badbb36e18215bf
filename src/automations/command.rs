//! Reading an automation command without a model: "every monday at 9 remind me to submit the
//! timesheet" -> a draft (title + schedule), or why it cannot be used, or "not an automation".
//!
//! Owns: what makes a message a request (the courtesies, "remind me", who is speaking) and the
//! task words ("remind me to X", "remind me X", or, when the message starts with the schedule,
//! the rest; first letter capitalised). The schedule phrase is read by `repeat`, the time of
//! day by `time_of_day` (none -> 09:00; whether the person stated it: `stated`), a request
//! to count from completion by `completion_words` ("every 2 weeks once I've done it", "every!
//! 2 weeks"; then a chore may come before its schedule: "descale the kettle every 2 weeks once
//! I've done it").
//! Invariants: pure (no clock, no store: `now` and the time zone are arguments). A question, a
//! negation before the command, a report ("I go running every monday") or someone else's
//! words ("my boss reminds me every monday") are never an automation.

use std::ops::Range;

use chrono::{DateTime, Timelike, Utc};
use chrono_tz::Tz;

use super::bounds::find_bounds;
use super::completion::checked_repeat;
use super::completion_words;
use super::plan::SchedulePlan;
use super::repeat::{find_repeat, Found};
use super::repeat_from::RepeatFrom;
use super::repo::AutomationKind;
use super::rule::{from_anchor, rule_and_words};
use super::schedule::{rule_part, Schedule};
use super::stated;
use crate::sentence::lexicon::{self, courtesy, negators, questions};
use crate::sentence::tokens::{pieces, Join, Piece};
use crate::sentence::Sentence;
use crate::tasks::when::{find_time_of_day, time_words, unread_beside, WhenContext, WhenError};

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
    /// Whether the person said its time of day ("at 23:00"; not Donna's 09:00): it then fires
    /// at that time even in quiet hours.
    pub time_stated: bool,
    /// Where the next occurrence counts from: `Completion` when the person said so ("every 2
    /// weeks once I've done it", "every! 2 weeks": `completion_words`).
    pub repeat_from: RepeatFrom,
}

/// The hour used when the person names none.
const DEFAULT_HOUR: u32 = 9;

/// Words that make the message about someone (or something) rather than a request to Donna.
const NOT_A_REQUEST: [&str; 22] = [
    "i", "i'm", "im", "we", "we're", "my", "our", "he", "she", "they", "it", "his", "her", "their",
    "you", "your", "is", "are", "was", "were", "feels", "seems",
];

/// A word of the command: lowercased, as written, and its bytes in the message.
#[derive(Debug, Clone)]
struct Token<'t> {
    lower: String,
    original: &'t str,
    range: Range<usize>,
}

fn tokens(text: &str, pieces: Vec<Piece>) -> Vec<Token<'_>> {
    pieces
        .into_iter()
        .map(|piece| Token {
            original: text.get(piece.at.clone()).unwrap_or_default(),
            lower: piece.word,
            range: piece.at,
        })
        .collect()
}

/// A question word or a verb that opens a question (the polite "can you ..." too: a question is
/// never a command here; the model may still read it).
fn asks(word: &str, next: &str) -> bool {
    questions::opens_question(word, next)
}

/// Reads a message as an automation command, in `tz`, at `now`.
pub fn read(said: &Sentence, now: DateTime<Utc>, tz: Tz) -> AutomationReading {
    let all = tokens(said.text(), said.pieces(Join::Both));
    read_tokens(said.text(), &all, now, tz)
}

/// Reads words that are a command by construction (the model's recurrence put before "remind me
/// to" and the title it read), through the same rules.
pub fn read_words(text: &str, now: DateTime<Utc>, tz: Tz) -> AutomationReading {
    let all = tokens(text, pieces(text, Join::Both));
    read_tokens(text, &all, now, tz)
}

/// Where the command stands in a message read as a request: the words before it that only
/// make it polite, "remind me" if said, and the schedule phrase.
struct Request {
    lead: usize,
    remind: Option<usize>,
    start: usize,
    end: usize,
    repeat: super::repeat::Repeat,
    phrase_hour: Option<u32>,
}

fn read_tokens(text: &str, all: &[Token<'_>], now: DateTime<Utc>, tz: Tz) -> AutomationReading {
    let words: Vec<&str> = all.iter().map(|t| t.lower.as_str()).collect();
    let completion = completion_words::find(&words, &[]);
    let request = match request(text, &words, completion.is_some()) {
        Ok(request) => request,
        Err(reading) => return reading,
    };
    let context = WhenContext {
        now,
        timezone: tz,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    };
    let Request {
        lead,
        remind,
        start,
        end,
        ..
    } = request;
    // The words the schedule, the command and the courtesies took; then the bounds'.
    let mut claimed: Vec<bool> = (0..all.len())
        .map(|i| {
            i < lead
                || (start..end).contains(&i)
                || remind.is_some_and(|r| i == r || i == r + 1)
                || completion.as_ref().is_some_and(|words| words.contains(&i))
        })
        .collect();
    let repeat_from = if completion.is_some()
        || (start..end).any(|i| completion_words::every_bang(text, &all[i].range))
    {
        RepeatFrom::Completion
    } else {
        RepeatFrom::Schedule
    };
    let originals: Vec<&str> = all.iter().map(|t| t.original).collect();
    let bounds = match find_bounds(&words, &originals, &claimed, &context) {
        Ok(bounds) => bounds,
        Err(question) => return AutomationReading::Unreadable(question),
    };
    for &i in &bounds.words {
        if let Some(flag) = claimed.get_mut(i) {
            *flag = true;
        }
    }
    let claimed_ranges: Vec<Range<usize>> = all
        .iter()
        .zip(&claimed)
        .filter(|(_, claimed)| **claimed)
        .map(|(token, _)| token.range.clone())
        .collect();
    let time = match time_of_day(text, &claimed_ranges) {
        Ok(time) => time,
        Err(reading) => return reading,
    };
    let (hour, minute) = match &time {
        Some(time) => (time.time.hour(), time.time.minute()),
        None => (request.phrase_hour.unwrap_or(DEFAULT_HOUR), 0),
    };
    let zone = time.as_ref().and_then(|t| t.zone).unwrap_or(tz);
    let time_ranges = time.map(|t| t.ranges).unwrap_or_default();
    let title = match task_words(all, &claimed, &time_ranges, remind.is_some()) {
        Some(title) => title,
        None => return AutomationReading::NotAutomation,
    };
    let today = now.with_timezone(&zone).date_naive();
    let anchor = bounds.starting.unwrap_or(today);
    let (rrule, words_said) = rule_and_words(&request.repeat, hour, minute, anchor, today);
    if title.is_empty() {
        return AutomationReading::Unreadable(format!("What should I remind you of {words_said}?"));
    }
    if let Some(time_words) = time_at_the_edge(&title) {
        return AutomationReading::Unreadable(format!(
            "I couldn't tell whether \"{time_words}\" is part of the reminder or its time. Say \
             the schedule like 'every monday at 9 remind me to ...'."
        ));
    }
    if title.chars().count() > crate::tasks::model::MAX_TITLE_CHARS {
        return AutomationReading::Unreadable(format!(
            "That is a long reminder; can you say it in at most {} characters?",
            crate::tasks::model::MAX_TITLE_CHARS
        ));
    }
    let plan = SchedulePlan {
        rrule,
        words: words_said,
        zone,
        hour,
        minute,
        from_anchor: from_anchor(&request.repeat).then_some(anchor),
        bounds,
        today,
    };
    let time_stated = stated::said_in(text, &time_ranges);
    drafted(plan, title, time_stated, now).map_draft(|draft| AutomationDraft {
        repeat_from,
        ..draft
    })
}

impl AutomationReading {
    /// A draft changed by `change`; anything else as it is. A draft that cannot repeat from
    /// completion ("every monday and thursday once I've done it": no one interval) asks.
    fn map_draft(self, change: impl FnOnce(AutomationDraft) -> AutomationDraft) -> Self {
        match self {
            AutomationReading::Draft(draft) => {
                let draft = change(draft);
                let checked =
                    checked_repeat(AutomationKind::Reminder, draft.repeat_from, &draft.schedule);
                // "every monday and thursday": two days a week is no one interval to count.
                let several_days = draft.repeat_from == RepeatFrom::Completion
                    && rule_part(&draft.schedule.rrule, "BYDAY").is_some_and(|d| d.contains(','));
                match checked {
                    Ok(()) if !several_days => AutomationReading::Draft(draft),
                    _ => AutomationReading::Unreadable(format!(
                        "Counting from when you've done it needs one interval, like 'every 2 \
                         weeks once I've done it'; how often should I remind you to '{}'?",
                        draft.title
                    )),
                }
            }
            other => other,
        }
    }
}

/// The draft `plan` makes, or the question it asks instead.
fn drafted(
    plan: SchedulePlan,
    title: String,
    time_stated: bool,
    now: DateTime<Utc>,
) -> AutomationReading {
    match plan.schedule(now) {
        Ok(schedule) => AutomationReading::Draft(AutomationDraft {
            title,
            schedule,
            time_stated,
            repeat_from: RepeatFrom::Schedule,
        }),
        Err(question) => AutomationReading::Unreadable(question),
    }
}

/// The message as a request for a recurring reminder: where its command and schedule stand,
/// or what it is instead (not one, or one that asks something back).
fn request(
    text: &str,
    words: &[&str],
    from_completion: bool,
) -> Result<Request, AutomationReading> {
    let Some(found) = find_repeat(words) else {
        return Err(AutomationReading::NotAutomation);
    };
    let mut lead = 0;
    while words.get(lead).is_some_and(|w| courtesy::is_phatic(w)) {
        lead += 1;
    }
    // A question is never a command, even with a schedule in it ("hey, do I have ... every
    // monday"); the model may still read it.
    let opens_asking = |at: usize| {
        words
            .get(at)
            .is_some_and(|w| asks(w, words.get(at + 1).copied().unwrap_or_default()))
    };
    if text.trim_end().ends_with('?') || opens_asking(0) || opens_asking(lead) {
        return Err(AutomationReading::NotAutomation);
    }
    // What may stand between a courtesy and "remind me": "I want you to remind me ...".
    lead += lexicon::longest_opening(&words[lead.min(words.len())..], courtesy::POLITE_OPENERS)
        .unwrap_or(0);
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
        .any(|w| negators::refuses(w) || NOT_A_REQUEST.contains(w))
    {
        return Err(AutomationReading::NotAutomation);
    }
    let (start, end, repeat, phrase_hour) = match found {
        Found::Ask(question) => {
            if remind.is_none() && words.get(lead) != Some(&"every") {
                return Err(AutomationReading::NotAutomation);
            }
            return Err(AutomationReading::Unreadable(question));
        }
        Found::Repeat {
            start,
            end,
            repeat,
            hour,
        } => (start, end, repeat, hour),
    };
    // Without "remind me" the message must start with the schedule, and what follows must be a
    // thing to do, not a statement ("every day is a struggle", "each of us ..."). A chore said
    // before its schedule and "once I've done it" ("descale the kettle every 2 weeks once I've
    // done it") is a request too, unless its first words are about someone ("I descale ...").
    let chore_first = from_completion
        && words
            .get(lead..start)
            .unwrap_or_default()
            .iter()
            .all(|w| !negators::refuses(w) && !NOT_A_REQUEST.contains(w));
    if remind.is_none() && start != lead && !chore_first {
        return Err(AutomationReading::NotAutomation);
    }
    Ok(Request {
        lead,
        remind,
        start,
        end,
        repeat,
        phrase_hour,
    })
}

/// The time of day outside what the schedule, the command and the bounds took (`claimed`);
/// never a half-read: time words beside what was read are asked about, not left in the title.
fn time_of_day(
    text: &str,
    claimed: &[Range<usize>],
) -> Result<Option<crate::tasks::when::TimeOfDay>, AutomationReading> {
    let time = match find_time_of_day(text, claimed) {
        Ok(time) => time,
        Err(WhenError::AmbiguousHour(hour)) => {
            return Err(AutomationReading::Unreadable(format!(
                "At {hour} in the morning ({hour:02}:00) or in the afternoon ({:02}:00)?",
                hour + 12
            )))
        }
        Err(WhenError::AmbiguousTime(clock)) => {
            let (hour, minute) = clock.split_once(':').unwrap_or((clock.as_str(), "00"));
            let hour: u32 = hour.parse().unwrap_or(0);
            return Err(AutomationReading::Unreadable(format!(
                "At {clock} in the morning ({hour:02}:{minute}) or in the afternoon ({:02}:{minute})?",
                hour + 12
            )));
        }
        Err(error) => {
            return Err(AutomationReading::Unreadable(format!(
                "I couldn't read the time in that ({error}). At what time should I remind you?"
            )))
        }
    };
    let mut everything_read = claimed.to_vec();
    everything_read.extend(time.iter().flat_map(|t| t.ranges.iter().cloned()));
    if let Some(unread) = unread_beside(text, &everything_read) {
        return Err(AutomationReading::Unreadable(format!(
            "I couldn't read \"{unread}\" in that. Say the schedule like 'every monday at 9 \
             remind me to ...'."
        )));
    }
    Ok(time)
}

/// The task words: what is left without the courtesy, the command, the schedule, the bounds
/// and the time (`claimed`, `time`), first letter capitalised; None when what is left is a
/// statement, not a thing to do ("every day is a struggle").
fn task_words(
    all: &[Token<'_>],
    claimed: &[bool],
    time: &[Range<usize>],
    reminded: bool,
) -> Option<String> {
    let mut rest: Vec<&Token<'_>> = all
        .iter()
        .zip(claimed)
        .filter(|(token, claimed)| {
            !**claimed
                && !time
                    .iter()
                    .any(|r| r.start < token.range.end && token.range.start < r.end)
        })
        .map(|(token, _)| token)
        .collect();
    if reminded {
        if rest
            .first()
            .is_some_and(|first| matches!(first.lower.as_str(), "to" | "about" | "of"))
        {
            rest.remove(0);
        }
    } else if rest.first().is_some_and(|first| {
        NOT_A_REQUEST.contains(&first.lower.as_str())
            || matches!(first.lower.as_str(), "of" | "time" | "single" | "one")
    }) {
        return None;
    }
    while rest.last().is_some_and(|last| {
        let word = last.lower.as_str();
        courtesy::is_please(word)
            || courtesy::is_address(word)
            || courtesy::is_thanks(word)
            || word == "and"
    }) {
        rest.pop();
    }
    let words: Vec<&str> = rest.iter().map(|t| t.original).collect();
    Some(capitalised(&words.join(" ")))
}

/// A time phrase at the start or the end of a reminder's title ("call mom tomorrow") is a
/// time, not the task: asked about. One inside it ("prepare for friday's meeting") is the
/// task's own words.
fn time_at_the_edge(title: &str) -> Option<String> {
    let end = title.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
    time_words(title)
        .into_iter()
        .find(|range| range.start == 0 || range.end >= end)
        .and_then(|range| title.get(range).map(str::to_string))
}

fn capitalised(text: &str) -> String {
    let text = text.trim();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
