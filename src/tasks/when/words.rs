//! The words of a time: lowercased words with the bytes they came from (the one tokenizer's
//! time view) and the vocabulary they are matched against (weekdays, months, numbers, ordinals,
//! am/pm, units, counts).
//!
//! # Invariants
//! - A token's range covers whole characters of the original text, even where lowercasing
//!   changes a character's length ("İ").
//! - Numbers saturate instead of overflowing; the callers turn a huge number into an error.

use chrono::Weekday;
use std::ops::Range;

use crate::sentence::tokens::{pieces, Join};

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

/// Words of approximation between a preposition and its time ("in about an hour", "at around
/// 5pm", "in like 20 mins"): the time is still the one meant, and the words are the time's.
pub(super) use crate::sentence::lexicon::lengths::APPROXIMATIONS as HEDGES;

/// The parts of the day said by name: a time on their own ("tomorrow morning"), and a word
/// that may close a date ("friday night").
pub(super) const PARTS_OF_DAY: [&str; 7] = [
    "morning",
    "afternoon",
    "evening",
    "night",
    "noon",
    "midday",
    "midnight",
];

/// A word of the text, lowercased, and the bytes of the original text it came from.
#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) word: String,
    pub(super) range: Range<usize>,
}

/// The words of a time, from the one tokenizer's time view (`sentence::tokens`, `Join::TimeMarks`):
/// ':', '-', '.', '/' and '_' stay inside a word so "17:30", "2026-12-03", "5.30pm", "3/12" and
/// "america/new_york" arrive whole (numeric dates so that they are read or asked about whole,
/// never as "3" and "12"); a ',' between two digits too ("1,5 hours"). A sign right before a
/// digit at the start of a word stays ("-5", "+02:00"; a Unicode minus becomes '-'), so a
/// negative amount is never read as a positive one; an apostrophe splits ("can't" -> "can",
/// "t").
pub(super) fn tokenize(text: &str) -> Vec<Token> {
    pieces(text, Join::TimeMarks)
        .into_iter()
        .map(|piece| Token {
            word: piece.word,
            range: piece.at,
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

/// The month a word names ("jan", "january"), 1..=12.
pub fn month_number(word: &str) -> Option<u32> {
    month_word(word)
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

/// "January" for 1 ... "December" for 12; "?" for any other number.
pub fn month_name(month: u32) -> &'static str {
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
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Fortnight,
    Month,
    Year,
}

pub(super) fn unit_word(word: &str) -> Option<Unit> {
    Some(match word {
        "second" | "seconds" => Unit::Second,
        "m" | "min" | "mins" | "minute" | "minutes" => Unit::Minute,
        "h" | "hr" | "hrs" | "hour" | "hours" => Unit::Hour,
        "d" | "day" | "days" => Unit::Day,
        "w" | "wk" | "wks" | "week" | "weeks" => Unit::Week,
        "fortnight" | "fortnights" => Unit::Fortnight,
        "mo" | "mos" | "month" | "months" => Unit::Month,
        "yr" | "yrs" | "year" | "years" => Unit::Year,
        _ => return None,
    })
}

const ONES: [&str; 19] = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];
const ORDINAL_ONES: [&str; 19] = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
];
const ORDINAL_TENS: [&str; 2] = ["twentieth", "thirtieth"];

fn position_of(list: &[&str], word: &str) -> Option<u32> {
    list.iter()
        .position(|w| *w == word)
        .and_then(|i| u32::try_from(i + 1).ok())
}

/// A spelled-out count of one word: "a"/"an"/"one" .. "nineteen", "twenty", "forty-five".
pub(super) fn count_word(word: &str) -> Option<u64> {
    if matches!(word, "a" | "an") {
        return Some(1);
    }
    if let Some(n) = position_of(&ONES, word) {
        return Some(u64::from(n));
    }
    let (tens, ones) = match word.split_once('-') {
        Some((tens, ones)) => (tens, Some(ones)),
        None => (word, None),
    };
    let tens = u64::from(position_of(&TENS, tens)? + 1) * 10;
    match ones {
        None => Some(tens),
        Some(ones) => Some(tens + u64::from(position_of(&ONES, ones).filter(|n| *n < 10)?)),
    }
}

/// A spelled-out count at word `i`, also of two words ("twenty five"): the count and its words.
pub(super) fn count_at(word: &str, next: &str) -> Option<(u64, usize)> {
    let first = count_word(word)?;
    let tens = first >= 20 && first % 10 == 0 && !word.contains('-');
    match position_of(&ONES, next).filter(|n| *n < 10) {
        Some(ones) if tens => Some((first + u64::from(ones), 2)),
        _ => Some((first, 1)),
    }
}

/// A spelled-out ordinal of one or two words ("first", "twenty-first", "twenty first",
/// "thirtieth"): the day and the words it took.
pub(super) fn spelled_ordinal(word: &str, next: &str) -> Option<(u32, usize)> {
    if let Some(n) = position_of(&ORDINAL_ONES, word) {
        return Some((n, 1));
    }
    if let Some(n) = position_of(&ORDINAL_TENS, word) {
        return Some(((n + 1) * 10, 1));
    }
    let tens_of = |w: &str| position_of(&TENS, w).map(|n| (n + 1) * 10);
    if let Some((tens, ones)) = word.split_once('-') {
        let ones = position_of(&ORDINAL_ONES, ones).filter(|n| *n < 10)?;
        return Some((tens_of(tens)? + ones, 1));
    }
    let tens = tens_of(word)?;
    let ones = position_of(&ORDINAL_ONES, next).filter(|n| *n < 10)?;
    Some((tens + ones, 2))
}

/// A number written with digits, whole or with a decimal point ("2", "1.5", "0.25"), as a
/// fraction (numerator, denominator). A sign or anything else: None.
pub(super) fn decimal(word: &str) -> Option<(u64, u64)> {
    let (whole, fraction) = word.split_once('.').unwrap_or((word, ""));
    if !is_digits(whole) || !(fraction.is_empty() || is_digits(fraction)) || fraction.len() > 3 {
        return None;
    }
    let denominator = 10u64.pow(u32::try_from(fraction.len()).ok()?);
    let numerator = saturating_number(whole)
        .saturating_mul(denominator)
        .saturating_add(if fraction.is_empty() {
            0
        } else {
            saturating_number(fraction)
        });
    Some((numerator, denominator))
}
