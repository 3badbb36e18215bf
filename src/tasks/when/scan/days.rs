//! Day words: "today", "tonight", "tomorrow", "the day after tomorrow", weekdays, "next
//! friday", "this weekend", "next working day", "later", and the past ("yesterday", "last
//! week") that a reading sets aside beside a usable day.
//!
//! Vague spans ("this week", "later this month", "next year") and repeating days ("every
//! friday", "on mondays") are read as what they are: words to ask about, never a guessed day.

use chrono::Weekday;

use super::cursor::{one, Match, Words};
use crate::tasks::when::error::WhenError;
use crate::tasks::when::parts::{Day, MonthDay, MonthRef, Part, Period, Span};
use crate::tasks::when::words::{
    count_word, is_digits, names_a_day_ahead, unit_word, weekday_word, Unit,
};

/// "the day after tomorrow", "overmorrow".
pub(super) fn overmorrow(w: &Words, i: usize) -> Option<Match> {
    match w.at(i) {
        "day" if w.at(i + 1) == "after" && w.at(i + 2) == "tomorrow" => {
            Some((3, vec![Part::Day(Day::Overmorrow)]))
        }
        "overmorrow" => one(Part::Day(Day::Overmorrow)),
        _ => None,
    }
}

fn unread(w: &Words, i: usize, len: usize) -> Option<Match> {
    Some((
        len,
        vec![Part::Invalid(WhenError::Unread(w.written(i, len)))],
    ))
}

pub(super) fn keyword(w: &Words, i: usize) -> Option<Match> {
    let next = w.at(i + 1);
    match w.at(i) {
        "later" => match next {
            "today" => Some((2, vec![Part::LaterToday])),
            // Some day this week or month, not in three hours: a question, not a guess.
            "this" if matches!(w.at(i + 2), "week" | "month" | "weekend" | "year") => {
                unread(w, i, 3)
            }
            "on" => Some((2, vec![Part::Later])),
            _ => one(Part::Later),
        },
        "in" if next == "a" && matches!(w.at(i + 2), "bit" | "while") => {
            Some((3, vec![Part::Later]))
        }
        "in" if next == "a" && w.at(i + 2) == "little" && w.at(i + 3) == "while" => {
            Some((4, vec![Part::Later]))
        }
        "yesterday" => one(Part::Day(Day::Past)),
        "last" => {
            let past = matches!(next, "week" | "month" | "year" | "weekend" | "night")
                || weekday_word(next).is_some();
            past.then(|| (2, vec![Part::Day(Day::Past)]))
        }
        "next" | "coming" => next_day(w, i),
        "this" => {
            let parts = match next {
                "morning" => vec![Part::Day(Day::Today), Part::Period(Period::Morning)],
                "afternoon" => vec![Part::Day(Day::Today), Part::Period(Period::Afternoon)],
                "evening" => vec![Part::Day(Day::Today), Part::Period(Period::Evening)],
                "weekend" => vec![Part::Day(Day::Weekend { next: false })],
                "time" => return this_time(w, i),
                // "this coming weekend": the coming one.
                "coming" => {
                    let (len, parts) = next_day(w, i + 1)?;
                    return Some((len + 1, parts));
                }
                "week" | "month" | "year" => return unread(w, i, 2),
                other => vec![Part::Weekday(weekday_word(other)?)],
            };
            Some((2, parts))
        }
        "today" | "tdy" => one(Part::Day(Day::Today)),
        "tonight" | "tonite" => Some((1, vec![Part::Day(Day::Today), Part::Period(Period::Night)])),
        "tomorrow" | "tmrw" | "tmr" | "tomorow" | "tmw" | "2moro" | "2morrow" => {
            one(Part::Day(Day::Tomorrow))
        }
        // "plan a weekend trip": a weekend that describes a thing.
        "weekend" if w.followed_by_a_thing(i + 1) && w.at(i + 1) != "after" => None,
        "weekend" => after_next(w, i, Part::Day(Day::Weekend { next: false }))
            .or_else(|| one(Part::Day(Day::Weekend { next: false }))),
        "week" if w.before(i) == "the" => after_next(w, i, Part::NextWeek),
        "morning" | "afternoon" | "evening" | "night" | "eve" | "arvo" => period(w, i),
        "every" | "each" => every(w, i),
        _ => None,
    }
}

/// Words before a part of day that make it a time ("in the morning", "tomorrow night",
/// "friday evening", "at night"); after anything else it describes a thing ("night owl", "buy
/// morning glory seeds"), unless it stands alone or before "at" ("morning at 7").
const BEFORE_A_PERIOD: [&str; 12] = [
    "at", "this", "tomorrow", "tmrw", "today", "tonight", "every", "each", "by", "on", "until",
    "till",
];

fn period(w: &Words, i: usize) -> Option<Match> {
    let part = match w.at(i) {
        "morning" => Period::Morning,
        "afternoon" | "arvo" => Period::Afternoon,
        "evening" | "eve" => Period::Evening,
        _ => Period::Night,
    };
    // "eve" and "arvo" only right after a day ("wed eve", "tomorrow arvo").
    if matches!(w.at(i), "eve" | "arvo")
        && !(weekday_word(w.before(i)).is_some()
            || matches!(w.before(i), "tomorrow" | "tmrw" | "today" | "this"))
    {
        return None;
    }
    let before = w.before(i);
    let next = w.at(i + 1);
    // "the" only after a preposition: "in the morning", not "the night owl tour".
    let the_after = before == "the"
        && matches!(
            w.before(i - 1),
            "in" | "during" | "at" | "by" | "on" | "until" | "till"
        );
    let said_as_time = BEFORE_A_PERIOD.contains(&before)
        || the_after
        || weekday_word(before).is_some()
        || before.starts_with(|c: char| c.is_ascii_digit())
        || matches!(
            next,
            "" | "at" | "then" | "please" | "pls" | "ok" | "is" | "works"
        )
        || next.starts_with(|c: char| c.is_ascii_digit());
    said_as_time.then(|| (1, vec![Part::Period(part)]))
}

/// "next week", "next month", "next weekend", "next working day", "next friday".
fn next_day(w: &Words, i: usize) -> Option<Match> {
    let part = match w.at(i + 1) {
        "week" => Part::NextWeek,
        "month" => Part::Day(Day::InMonth {
            month: MonthRef::Ahead(1),
            day: MonthDay::Nth(1),
        }),
        "weekend" => Part::Day(Day::Weekend { next: true }),
        "weekday" | "workday" | "working-day" | "business-day" => Part::Day(Day::NextWeekday),
        "working" | "business" | "work" if w.at(i + 2) == "day" => {
            return Some((3, vec![Part::Day(Day::NextWeekday)]))
        }
        // A year away is no day anyone can be reminded on: asked, not guessed.
        "year" => return unread(w, i, 2),
        other => Part::Weekday(weekday_word(other)?),
    };
    Some((2, vec![part]))
}

/// "this time tomorrow", "this time next week": that long from now.
fn this_time(w: &Words, i: usize) -> Option<Match> {
    match (w.at(i + 2), w.at(i + 3)) {
        ("tomorrow", _) => Some((3, vec![Part::FromNow(Span::of(1, Unit::Day).ok()?)])),
        ("next", "week") => Some((4, vec![Part::FromNow(Span::of(7, Unit::Day).ok()?)])),
        _ => None,
    }
}

/// "every friday", "each morning", "every 2 weeks": a repeating time, which one reminder
/// cannot be (recurring reminders are read by the automation reader before this one).
fn every(w: &Words, i: usize) -> Option<Match> {
    let next = w.at(i + 1);
    let repeating = |word: &str| {
        weekday_or_plural(word).is_some()
            || unit_word(word).is_some()
            || matches!(
                word,
                "morning"
                    | "afternoon"
                    | "evening"
                    | "night"
                    | "weekday"
                    | "weekdays"
                    | "weekend"
                    | "weekends"
                    | "workday"
            )
    };
    let len = if repeating(next) {
        2
    } else if (is_digits(next) || count_word(next).is_some() || next == "other")
        && repeating(w.at(i + 2))
    {
        3
    } else {
        return None;
    };
    Some((
        len,
        vec![Part::Invalid(WhenError::Recurring(w.written(i, len)))],
    ))
}

/// A weekday word, also in the plural ("mondays").
fn weekday_or_plural(word: &str) -> Option<Weekday> {
    weekday_word(word).or_else(|| {
        word.strip_suffix('s')
            .filter(|w| w.len() > 2)
            .and_then(weekday_word)
    })
}

/// "the monday after next", "the weekend after next", "the week after next": a week later
/// than the coming one.
fn after_next(w: &Words, i: usize, part: Part) -> Option<Match> {
    if !(w.at(i + 1) == "after" && w.at(i + 2) == "next") {
        return None;
    }
    Some((
        3,
        vec![Part::Relative {
            span: Span::of(7, Unit::Day).ok()?,
            after: true,
            anchor: vec![part],
        }],
    ))
}

pub(super) fn weekday(w: &Words, i: usize) -> Option<Match> {
    let word = w.at(i);
    if let Some(day) = weekday_word(word) {
        if matches!(word, "sat" | "sun") && !names_a_day_ahead(w.before(i)) {
            return None;
        }
        // "call the friday club", "visit the sunday market": a day that describes a thing.
        if matches!(w.before(i), "the" | "a") && w.followed_by_a_thing(i + 1) {
            return None;
        }
        return after_next(w, i, Part::Weekday(day)).or_else(|| one(Part::Weekday(day)));
    }
    // "on mondays": every Monday, not one.
    let plural = word.strip_suffix('s').filter(|s| s.len() > 2)?;
    weekday_word(plural)?;
    (w.before(i) == "on").then(|| {
        (
            1,
            vec![Part::Invalid(WhenError::Recurring(format!("on {word}")))],
        )
    })
}
