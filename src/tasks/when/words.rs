//! The words of a time: the tokenizer (lowercased words with the bytes they came from) and the
//! vocabulary it is matched against (weekdays, months, numbers, ordinals, am/pm, units, counts).
//!
//! # Invariants
//! - A token's range covers whole characters of the original text, even where lowercasing
//!   changes a character's length ("İ").
//! - Numbers saturate instead of overflowing; the callers turn a huge number into an error.

use chrono::Weekday;
use std::ops::Range;

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A word of the text, lowercased, and the bytes of the original text it came from.
#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) word: String,
    pub(super) range: Range<usize>,
}

/// Lowercased words. ':', '-', '.' and '/' stay inside a word so "17:30", "2026-12-03", "5.30pm"
/// and "3/12" arrive whole (the last so that it is ignored whole, not read as "3" and "12").
/// Each character is lowercased on its own and keeps the bytes of the character it came from,
/// so a word whose lowercase is longer or shorter ("İ") still maps back to whole characters.
pub(super) fn tokenize(text: &str) -> Vec<Token> {
    let inner = |c: char| matches!(c, ':' | '-' | '.' | '/');
    let separator = |c: char| !(c.is_alphanumeric() || inner(c));
    let lowered: Vec<(char, Range<usize>)> = text
        .char_indices()
        .flat_map(|(at, c)| {
            let range = at..at + c.len_utf8();
            c.to_lowercase().map(move |lower| (lower, range.clone()))
        })
        .collect();
    lowered
        .split(|(c, _)| separator(*c))
        .filter_map(|chars| {
            let start = chars.iter().position(|(c, _)| !inner(*c))?;
            let end = chars.iter().rposition(|(c, _)| !inner(*c))?;
            let chars = chars.get(start..=end)?;
            let (first, last) = (chars.first()?, chars.last()?);
            Some(Token {
                word: chars.iter().map(|(c, _)| *c).collect(),
                range: first.1.start..last.1.end,
            })
        })
        .collect()
}

pub(super) fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Saturates instead of failing: a huge number is still a number, and the range checks that
/// follow turn it into a readable error.
pub(super) fn saturating_number(s: &str) -> u64 {
    s.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10)
            .saturating_add(u64::from(b.wrapping_sub(b'0')))
    })
}

/// A number of one or two digits (hours, minutes, days of the month).
pub(super) fn small_number(s: &str) -> Option<u32> {
    if is_digits(s) && s.len() <= 2 {
        u32::try_from(saturating_number(s)).ok()
    } else {
        None
    }
}

/// The weekday a word names ("monday", "mon", "thurs"), lower case.
pub fn weekday_word(word: &str) -> Option<Weekday> {
    Some(match word {
        "monday" | "mon" => Weekday::Mon,
        "tuesday" | "tue" | "tues" => Weekday::Tue,
        "wednesday" | "wed" | "weds" => Weekday::Wed,
        "thursday" | "thu" | "thur" | "thurs" => Weekday::Thu,
        "friday" | "fri" => Weekday::Fri,
        "saturday" | "sat" => Weekday::Sat,
        "sunday" | "sun" => Weekday::Sun,
        _ => return None,
    })
}

/// "sat" and "sun" are everyday words ("I sat on it"); they count only after one of these.
pub(super) fn names_a_day_ahead(previous: &str) -> bool {
    matches!(
        previous,
        "on" | "this" | "next" | "to" | "until" | "till" | "by" | "for" | "from" | "not" | "last"
    )
}

/// The English name of a weekday ("Monday").
pub fn weekday_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    }
}

pub(super) fn month_word(word: &str) -> Option<u32> {
    Some(match word {
        "jan" | "january" => 1,
        "feb" | "february" => 2,
        "mar" | "march" => 3,
        "apr" | "april" => 4,
        "may" => 5,
        "jun" | "june" => 6,
        "jul" | "july" => 7,
        "aug" | "august" => 8,
        "sep" | "sept" | "september" => 9,
        "oct" | "october" => 10,
        "nov" | "november" => 11,
        "dec" | "december" => 12,
        _ => return None,
    })
}

pub(super) fn month_name(month: u32) -> &'static str {
    usize::try_from(month)
        .ok()
        .and_then(|m| m.checked_sub(1))
        .and_then(|i| MONTH_NAMES.get(i))
        .copied()
        .unwrap_or("?")
}

/// Days a month can ever have; 29 February is checked against the year once it is known.
pub(super) fn max_days(month: u32) -> u32 {
    match month {
        2 => 29,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// "3", "03", "3rd", "21st": one or two digits, any English ordinal suffix.
pub(super) fn day_number(word: &str) -> Option<u32> {
    let digits = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|suffix| word.strip_suffix(suffix))
        .unwrap_or(word);
    small_number(digits)
}

pub(super) fn year_number(word: &str) -> Option<i32> {
    if is_digits(word) && word.len() == 4 {
        i32::try_from(saturating_number(word)).ok()
    } else {
        None
    }
}

/// Some(true) for pm.
pub(super) fn meridiem(word: &str) -> Option<bool> {
    match word {
        "am" | "a.m" => Some(false),
        "pm" | "p.m" => Some(true),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Minute,
    Hour,
    Day,
    Week,
    Month,
}

pub(super) fn unit_word(word: &str) -> Option<Unit> {
    Some(match word {
        "m" | "min" | "mins" | "minute" | "minutes" => Unit::Minute,
        "h" | "hr" | "hrs" | "hour" | "hours" => Unit::Hour,
        "d" | "day" | "days" => Unit::Day,
        "w" | "wk" | "wks" | "week" | "weeks" => Unit::Week,
        "mo" | "mos" | "month" | "months" => Unit::Month,
        _ => return None,
    })
}

pub(super) fn count_word(word: &str) -> Option<u64> {
    Some(match word {
        "a" | "an" | "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        _ => return None,
    })
}
