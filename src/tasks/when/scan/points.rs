//! Named points in time: the end of the day ("EOD", "COB", "close of business": 17:00), of
//! the week (Friday 17:00), of the month (its last day, 17:00) and of the year (31 December,
//! 17:00); the middle of a month ("mid january", "mid-month": the 15th) or of a week ("mid
//! next week": Wednesday); the beginning of a month ("beginning of next month": the 1st) or of
//! next week (Monday); "early next week" (Monday) and "late next week" (Friday).
//!
//! Phrases of this kind the reader cannot place ("end of the project", "early march") are
//! not read here; the words that make them a time are then asked about.

use chrono::Weekday;

use super::cursor::{Match, Words};
use crate::tasks::when::error::WhenError;
use crate::tasks::when::parts::{hm, Day, MonthDay, MonthRef, Part};
use crate::tasks::when::words::month_word;

/// The time of day a point at the end of something brings: the end of a working day.
const END_HOUR: u32 = 17;

fn end_time() -> Option<Part> {
    Some(Part::PointTime(hm(END_HOUR, 0)?))
}

fn in_month(month: MonthRef, day: MonthDay) -> Part {
    Part::Day(Day::InMonth { month, day })
}

/// What the words at `i` name after "end of", "middle of" or "beginning of" (a leading "the"
/// or "this" skipped), and how many words that took.
enum Whole {
    Day,
    Week,
    NextWeek,
    Month,
    NextMonth,
    Named(u32),
    Year,
}

fn whole_at(w: &Words, i: usize) -> Option<(Whole, usize)> {
    let skip = usize::from(matches!(w.at(i), "the" | "this"));
    let at = i + skip;
    let next = Some(w.at(at + 1)).filter(|n| !n.is_empty());
    let (whole, len) = match (w.at(at), next) {
        ("working" | "work" | "business", Some("day")) => (Whole::Day, 2),
        ("day", _) | ("business", _) | ("play", _) | ("workday", _) => (Whole::Day, 1),
        ("week", _) => (Whole::Week, 1),
        ("month", _) => (Whole::Month, 1),
        ("year", _) => (Whole::Year, 1),
        ("next", Some("week")) if skip == 0 => (Whole::NextWeek, 2),
        ("next", Some("month")) if skip == 0 => (Whole::NextMonth, 2),
        (name, _) if skip == 0 => (Whole::Named(month_word(name)?), 1),
        _ => return None,
    };
    Some((whole, skip + len))
}

pub(super) fn named_point(w: &Words, i: usize) -> Option<Match> {
    let word = w.at(i);
    let next = w.at(i + 1);
    match word {
        "eod" | "cob" | "eob" | "e.o.d" | "c.o.b" => Some((1, vec![Part::EndOfDay])),
        "eow" => Some((1, vec![Part::Day(Day::EndOfWeek), end_time()?])),
        "eom" => Some((
            1,
            vec![in_month(MonthRef::Coming, MonthDay::Last), end_time()?],
        )),
        "eoy" => Some((1, vec![year_end(), end_time()?])),
        "end" | "close" if next == "of" => end_of(w, i),
        "mid" | "middle" => middle(w, i),
        "beginning" | "start" if next == "of" => beginning_of(w, i),
        "early" | "late" if next == "next" && w.at(i + 2) == "week" => {
            let day = if word == "early" {
                Weekday::Mon
            } else {
                Weekday::Fri
            };
            Some((3, vec![Part::NextWeek, Part::Weekday(day)]))
        }
        // "early december", "late next month", "early next year": which day? Asked.
        "early" | "late" => {
            let len = match (next, w.at(i + 2)) {
                (month, _) if month_word(month).is_some() => 2,
                ("next" | "this", "month" | "year") => 3,
                _ => return None,
            };
            Some((
                len,
                vec![Part::Invalid(WhenError::Unread(w.written(i, len)))],
            ))
        }
        // "mid-january", "mid-month", "midweek"
        _ => {
            let rest = word
                .strip_prefix("mid-")
                .or_else(|| word.strip_prefix("mid"))?;
            let part = match rest {
                "month" => in_month(MonthRef::Coming, MonthDay::Nth(15)),
                "week" => Part::Weekday(Weekday::Wed),
                name => in_month(MonthRef::Named(month_word(name)?), MonthDay::Nth(15)),
            };
            Some((1, vec![part]))
        }
    }
}

fn year_end() -> Part {
    Part::Day(Day::Explicit {
        year: None,
        month: 12,
        day: 31,
    })
}

/// "end of (the) day / week / month / year", "end of next week / month", "end of january".
fn end_of(w: &Words, i: usize) -> Option<Match> {
    let (whole, len) = whole_at(w, i + 2)?;
    let parts = match whole {
        Whole::Day => vec![Part::EndOfDay],
        Whole::Week => vec![Part::Day(Day::EndOfWeek), end_time()?],
        Whole::NextWeek => vec![Part::NextWeek, Part::Weekday(Weekday::Fri), end_time()?],
        Whole::Month => vec![in_month(MonthRef::Coming, MonthDay::Last), end_time()?],
        Whole::NextMonth => vec![in_month(MonthRef::Ahead(1), MonthDay::Last), end_time()?],
        Whole::Named(month) => vec![
            in_month(MonthRef::Named(month), MonthDay::Last),
            end_time()?,
        ],
        Whole::Year => vec![year_end(), end_time()?],
    };
    Some((2 + len, parts))
}

/// "mid january", "mid month", "mid next month", "mid next week", "middle of the month",
/// "middle of next week".
fn middle(w: &Words, i: usize) -> Option<Match> {
    let of = usize::from(w.at(i) == "middle" && w.at(i + 1) == "of");
    if w.at(i) == "middle" && of == 0 {
        return None;
    }
    let (whole, len) = whole_at(w, i + 1 + of)?;
    let part = match whole {
        Whole::Month => vec![in_month(MonthRef::Coming, MonthDay::Nth(15))],
        Whole::NextMonth => vec![in_month(MonthRef::Ahead(1), MonthDay::Nth(15))],
        Whole::Named(month) => vec![in_month(MonthRef::Named(month), MonthDay::Nth(15))],
        Whole::Week => vec![Part::Weekday(Weekday::Wed)],
        Whole::NextWeek => vec![Part::NextWeek, Part::Weekday(Weekday::Wed)],
        Whole::Day | Whole::Year => return None,
    };
    Some((1 + of + len, part))
}

/// "beginning of next month", "start of january", "beginning of the month" (the coming 1st),
/// "start of next week" (Monday).
fn beginning_of(w: &Words, i: usize) -> Option<Match> {
    let (whole, len) = whole_at(w, i + 2)?;
    let part = match whole {
        Whole::Month => vec![in_month(MonthRef::Coming, MonthDay::Nth(1))],
        Whole::NextMonth => vec![in_month(MonthRef::Ahead(1), MonthDay::Nth(1))],
        Whole::Named(month) => vec![in_month(MonthRef::Named(month), MonthDay::Nth(1))],
        Whole::NextWeek => vec![Part::NextWeek],
        Whole::Day | Whole::Week | Whole::Year => return None,
    };
    Some((2 + len, part))
}
