//! Questions about the person's own time, read without a model: what is on their calendar
//! ("what's on my calendar tomorrow?", "anything in my diary friday?", "what does my week look
//! like?"), whether they are free ("am I free friday at 2?", "am I busy tomorrow afternoon?"),
//! and asks to find time for a task ("find me an hour tomorrow afternoon for the taxes", "find
//! 30 minutes this week for the gym", "move the taxes to my next free slot").
//!
//! Read as a whole message from its one reading (`crate::sentence`), like the common
//! questions: besides the words that make the question (`sentence::lexicon::calendar`), every
//! word must be a word of the time asked about, read whole by `tasks::when`. So "I'm free!",
//! "free the slot", "my calendar app is broken" and "find my keys" are none of these.
//!
//! The time asked about becomes a window in the person's zone: a day ("tomorrow", "friday"), a
//! part of one ("tomorrow afternoon"), a week ("this week", "next week") or a moment ("friday
//! at 2": the hour from it). "at 2" in "am I free friday at 2?" is 14:00 (a question about a
//! working day, answered read-only, with the time said back); a time that cannot be read is
//! said back, never guessed.
//!
//! Invariant (pure): no clock beyond the `now` given, no store; a message read here is a
//! question or a request for a proposal, never a change.

use chrono::{
    DateTime, Datelike, Days, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc,
};
use chrono_tz::Tz;

use crate::sentence::lexicon::calendar::{
    is_busy, is_calendar_glue, is_calendar_noun, is_find_verb, is_free, is_slot, part_of_day,
};
use crate::sentence::lexicon::questions;
use crate::sentence::Sentence;
use crate::tasks::explicit::is_span_unit;
use crate::tasks::when::{find_when, time_words, WhenContext, WhenError};

/// What a question about the person's time asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CalendarAsk {
    /// What is on the calendar (events and tasks together) in the window.
    Show(Window),
    /// Whether the person is free all through the window (`busy_asked`: asked as "am I busy",
    /// so "yes" means taken).
    Free { window: Window, busy_asked: bool },
    /// A free slot of `minutes` (None: the task's own length, else an hour) in the window for
    /// the task `task` names (as written; None: no task named).
    FindTime {
        minutes: Option<i64>,
        window: Window,
        task: Option<String>,
    },
    /// The next free slot for the task `task` names (None: "it", the task the chat is about).
    NextFreeSlot { task: Option<String> },
    /// A question about the person's time whose time cannot be read: what to say back.
    Unreadable(String),
}

/// A stretch of the person's time, with how it was said back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    /// "tomorrow (Tue 1 Dec)", "Friday 4 Dec 14:00-15:00", "this week".
    pub said: String,
}

/// Reads a question about the person's own time (see the module header).
pub fn read(said: &Sentence, now: DateTime<Utc>, zone: Tz) -> Option<CalendarAsk> {
    let words: Vec<String> = said
        .core_words()
        .iter()
        .map(|word| word.replace('\'', ""))
        .collect();
    let asks = said.text().trim_end().ends_with('?')
        || words.first().is_some_and(|first| {
            questions::opens_question(first, words.get(1).map_or("", String::as_str))
        });
    let ctx = WhenContext {
        now,
        timezone: zone,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    };
    if let Some(ask) = free_question(&words, &ctx) {
        return Some(ask);
    }
    if asks {
        if let Some(ask) = show_question(&words, &ctx) {
            return Some(ask);
        }
    }
    if let Some(ask) = next_free_slot(said, &words) {
        return Some(ask);
    }
    find_time(said, &words, &ctx)
}

/// "am I free friday at 2?", "am I busy tomorrow afternoon", "am i available at 3pm".
fn free_question(words: &[String], ctx: &WhenContext) -> Option<CalendarAsk> {
    let [am, i, state, rest @ ..] = words else {
        return None;
    };
    if am != "am" || i != "i" || !(is_free(state) || is_busy(state)) {
        return None;
    }
    let rest: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .filter(|word| !matches!(*word, "up" | "then" | "please" | "donna"))
        .collect();
    Some(match window_of(&rest, ctx, Reading::Moment)? {
        Ok(window) => CalendarAsk::Free {
            window,
            busy_asked: is_busy(state),
        },
        Err(question) => question,
    })
}

/// "what's on my calendar tomorrow?", "anything in my diary for friday?", "what does my week
/// look like?", "how's my day looking tomorrow?".
fn show_question(words: &[String], ctx: &WhenContext) -> Option<CalendarAsk> {
    let mine = |at: usize| at > 0 && words[at - 1] == "my";
    let noun = words
        .iter()
        .enumerate()
        .position(|(at, word)| mine(at) && is_calendar_noun(word));
    let period = words
        .iter()
        .enumerate()
        .position(|(at, word)| mine(at) && matches!(word.as_str(), "week" | "day"));
    let about = noun.or(period)?;
    // A question about the calendar itself ("is my calendar connected?") asks no time.
    let glued = |word: &&String| {
        is_calendar_glue(word) || questions::is_question_word(word) || questions::is_auxiliary(word)
    };
    let placed = |word: &String| {
        matches!(
            word.as_str(),
            "on" | "in" | "look" | "looks" | "looking" | "like"
        )
    };
    if noun.is_some() && !words.iter().any(placed) {
        return None;
    }
    let mut rest: Vec<&str> = Vec::new();
    for (at, word) in words.iter().enumerate() {
        if at == about || glued(&word) || word == "looking" {
            continue;
        }
        rest.push(word);
    }
    if period.is_some() && noun.is_none() && words[about] == "week" {
        rest.push("week");
    }
    Some(match window_of(&rest, ctx, Reading::Day)? {
        Ok(window) => CalendarAsk::Show(window),
        Err(question) => question,
    })
}

/// "move it to my next free slot", "put the taxes in my first free slot".
fn next_free_slot(said: &Sentence, words: &[String]) -> Option<CalendarAsk> {
    let free = words.iter().position(|word| word == "free")?;
    let (before, after) = (free.checked_sub(1)?, words.get(free + 1)?);
    if !matches!(words[before].as_str(), "next" | "first" | "earliest") || !is_slot(after) {
        return None;
    }
    if free + 2 != words.len() || !matches!(words[0].as_str(), "move" | "put" | "push") {
        return None;
    }
    // The words between the verb and "to my next free slot" name the task.
    let mut end = before;
    while end > 1
        && matches!(
            words[end - 1].as_str(),
            "my" | "the" | "a" | "to" | "in" | "into"
        )
    {
        end -= 1;
    }
    let named = &words[1..end];
    if named.is_empty() {
        return None;
    }
    if matches!(named, [one] if matches!(one.as_str(), "it" | "this" | "that")) {
        return Some(CalendarAsk::NextFreeSlot { task: None });
    }
    Some(CalendarAsk::NextFreeSlot {
        task: Some(as_written(said, 1..end)),
    })
}

/// "find me an hour tomorrow afternoon for the taxes", "find 30 minutes this week for the
/// gym", "block out some time friday for the report".
fn find_time(said: &Sentence, words: &[String], ctx: &WhenContext) -> Option<CalendarAsk> {
    let first = words.first()?;
    if !is_find_verb(first) {
        return None;
    }
    let mut at = 1;
    while words
        .get(at)
        .is_some_and(|word| matches!(word.as_str(), "me" | "out" | "some" | "us"))
    {
        at += 1;
    }
    let (minutes, length_end) = if words.get(at).is_some_and(|word| word == "time") {
        (None, at + 1)
    } else {
        let (minutes, end) = length_at(&words[at..], ctx)?;
        (Some(minutes), at + end)
    };
    // The task: after the last "for" or "to" whose words are not a time.
    let mut split = words.len();
    for index in (length_end..words.len()).rev() {
        if matches!(words[index].as_str(), "for" | "to") && index + 1 < words.len() {
            let after: Vec<&str> = words[index + 1..].iter().map(String::as_str).collect();
            if !all_time_words(&after) {
                split = index;
                break;
            }
        }
    }
    let task = (split < words.len()).then(|| as_written(said, split + 1..words.len()));
    let when: Vec<&str> = words[length_end..split]
        .iter()
        .map(String::as_str)
        .filter(|word| !matches!(*word, "sometime" | "during"))
        .collect();
    let window = if when.is_empty() {
        Ok(Window {
            from: ctx.now,
            to: ctx.now + Duration::days(7),
            said: "in the next 7 days".into(),
        })
    } else {
        window_of(&when, ctx, Reading::Day)?
    };
    Some(match window {
        Ok(window) => CalendarAsk::FindTime {
            minutes,
            window,
            task,
        },
        Err(question) => question,
    })
}

/// A length at the start of `words` ("an hour", "30 minutes", "half an hour", "an hour and a
/// half"): its minutes and how many words it took. Read by `tasks::when` as "in <length>".
fn length_at(words: &[String], ctx: &WhenContext) -> Option<(i64, usize)> {
    let unit = words.iter().take(4).position(|word| is_span_unit(word))?;
    let mut end = unit + 1;
    let half = ["and", "a", "half"];
    if words.len() >= end + 3 && words[end..end + 3].iter().zip(half).all(|(w, h)| w == h) {
        end += 3;
    }
    let phrase = format!("in {}", words[..end].join(" "));
    let at = find_when(&phrase, ctx).ok()??;
    let minutes = (at - ctx.now).num_minutes();
    (1..=12 * 60).contains(&minutes).then_some((minutes, end))
}

/// How a time of the day alone is taken: as the day it falls on, or as the hour from it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    Day,
    Moment,
}

/// The window `words` name (none: now, or today), in the person's zone; Err: what to say
/// back, when they name a time that cannot be read; None: they are not all words of a time.
fn window_of(
    words: &[&str],
    ctx: &WhenContext,
    reading: Reading,
) -> Option<Result<Window, CalendarAsk>> {
    let zone = ctx.timezone;
    let today = ctx.now.with_timezone(&zone).date_naive();
    if let Some(week) = words.iter().position(|word| *word == "week") {
        let next = week > 0 && words[week - 1] == "next";
        let others = words
            .iter()
            .enumerate()
            .any(|(at, word)| at != week && !matches!(*word, "this" | "next" | "the"));
        if others {
            return None;
        }
        let monday = today + Days::new(7 - u64::from(today.weekday().num_days_from_monday()));
        return Some(Ok(match next {
            true => Window {
                from: start_of(monday, zone),
                to: start_of(monday + Days::new(7), zone),
                said: "next week".into(),
            },
            false => Window {
                from: start_of(today, zone),
                to: start_of(monday, zone),
                said: "this week".into(),
            },
        }));
    }
    if words.is_empty() {
        return Some(Ok(match reading {
            Reading::Moment => moment(ctx.now, zone),
            Reading::Day => day(today, zone, "today"),
        }));
    }
    if !all_time_words(words) {
        return None;
    }
    Some(window_at(words, ctx, reading, today))
}

/// The window the time `words` name (all of them words of a time).
fn window_at(
    words: &[&str],
    ctx: &WhenContext,
    reading: Reading,
    today: NaiveDate,
) -> Result<Window, CalendarAsk> {
    let zone = ctx.timezone;
    let text = words.join(" ");
    let at = match find_when(&text, ctx) {
        Ok(Some(at)) => at,
        // "friday at 2": a working day's 2 is the afternoon's.
        Err(WhenError::AmbiguousHour(hour)) if reading == Reading::Moment => {
            let afternoon = words
                .iter()
                .map(|word| match word.parse::<u32>() {
                    Ok(number) if number == hour => format!("{number}pm"),
                    _ => (*word).to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ");
            match find_when(&afternoon, ctx) {
                Ok(Some(at)) => at,
                _ => return Err(unreadable(&text)),
            }
        }
        Ok(None) => return Err(unreadable(&text)),
        Err(error) => return Err(CalendarAsk::Unreadable(format!("{error}"))),
    };
    let date = at.with_timezone(&zone).date_naive();
    if let Some((start, end)) = words.iter().find_map(|word| part_of_day(word)) {
        let (from, to) = (hour_of(date, start, zone), hour_of(date, end, zone));
        let name = words.iter().find(|word| part_of_day(word).is_some());
        let said = format!(
            "{} {}",
            day_name(date, today),
            name.copied().unwrap_or_default()
        );
        return Ok(Window { from, to, said });
    }
    if crate::tasks::explicit::names_the_moment(&text) && reading == Reading::Moment {
        return Ok(moment(at, zone));
    }
    Ok(day(date, zone, &day_name(date, today)))
}

/// The hour from `at`.
fn moment(at: DateTime<Utc>, zone: Tz) -> Window {
    let to = at + Duration::hours(1);
    let said = format!(
        "{}-{}",
        at.with_timezone(&zone).format("%a %-d %b %H:%M"),
        to.with_timezone(&zone).format("%H:%M")
    );
    Window { from: at, to, said }
}

/// The whole local `date`.
fn day(date: NaiveDate, zone: Tz, name: &str) -> Window {
    Window {
        from: start_of(date, zone),
        to: start_of(date + Days::new(1), zone),
        said: name.to_string(),
    }
}

/// "today", "tomorrow", else "Friday 4 Dec".
fn day_name(date: NaiveDate, today: NaiveDate) -> String {
    if date == today {
        "today".into()
    } else if Some(date) == today.succ_opt() {
        "tomorrow".into()
    } else {
        date.format("%A %-d %b").to_string()
    }
}

fn start_of(date: NaiveDate, zone: Tz) -> DateTime<Utc> {
    hour_of(date, 0, zone)
}

/// The first instant of `hour` on local `date` (an hour a DST change skips: the next one).
fn hour_of(date: NaiveDate, hour: u32, zone: Tz) -> DateTime<Utc> {
    let wall = date.and_time(NaiveTime::from_hms_opt(hour, 0, 0).unwrap_or(NaiveTime::MIN));
    instant(zone, wall)
}

/// The instant of a local time (a skipped hour: an hour later; a repeated one: the first).
pub fn instant(zone: Tz, wall: NaiveDateTime) -> DateTime<Utc> {
    zone.from_local_datetime(&wall)
        .earliest()
        .or_else(|| {
            zone.from_local_datetime(&(wall + Duration::hours(1)))
                .earliest()
        })
        .map_or_else(|| wall.and_utc(), |at| at.with_timezone(&Utc))
}

/// Whether every one of `words` is a word of the time they name.
fn all_time_words(words: &[&str]) -> bool {
    let text = words.join(" ");
    let ranges = time_words(&text);
    let mut offset = 0;
    words.iter().all(|word| {
        let (start, end) = (offset, offset + word.len());
        offset = end + 1;
        ranges
            .iter()
            .any(|range| range.start <= start && end <= range.end)
    })
}

fn unreadable(text: &str) -> CalendarAsk {
    CalendarAsk::Unreadable(format!(
        "I couldn't read \"{text}\" as a time. Try \"tomorrow\", \"friday afternoon\" or \"this week\"."
    ))
}

/// The words `range` (of the core) as written.
fn as_written(said: &Sentence, range: std::ops::Range<usize>) -> String {
    let core = said.core();
    let (first, last) = (
        said.word_at(core.start + range.start),
        said.word_at(core.start + range.end - 1),
    );
    said.text()
        .get(first.start..last.end)
        .unwrap_or_default()
        .to_string()
}
