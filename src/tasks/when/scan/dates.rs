//! Calendar dates: "2026-12-03", "dec 3", "3rd of december 2027", a day of the month ("on the
//! 21st", "the 3rd of next month", "on the twenty-first"), a month ("in march", "until
//! january"), a few holidays ("before christmas"), and dates in numbers ("25/12"; "3/12",
//! which reads two ways, is asked about).
//!
//! # Invariants
//! - A day of the month, a month alone, a holiday or a date in numbers is a date only where a
//!   date is expected: after a preposition ("on", "by", "before", ...) or, for "the 21st",
//!   when nothing after it makes the ordinal describe a thing ("reply to the 3rd email", "the
//!   21st chapter" are no dates).

use super::clock::clock_fields;
use super::cursor::{Match, Words};
use crate::tasks::when::error::WhenError;
use crate::tasks::when::parts::{clock_part, explicit_part, Day, MonthDay, MonthRef, Part};
use crate::tasks::when::words::{
    day_number, is_digits, meridiem, month_name, month_word, small_number, spelled_ordinal,
    unit_word, year_number, PARTS_OF_DAY,
};

/// Words before a day of the month (without "the"), a month, a holiday or a date in numbers
/// that make it a date.
const INTRODUCES: [&str; 13] = [
    "on", "by", "before", "until", "till", "til", "due", "from", "after", "since", "starting",
    "in", "through",
];

/// Words that may follow a date ("the 21st at 3pm", "the 1st and ..."): anything else after
/// an ordinal makes it describe a thing ("the 3rd email").
const AFTER_A_DATE: [&str; 27] = [
    "", "at", "in", "by", "and", "then", "please", "pls", "or", "if", "instead", "so", "but", "as",
    "around", "is", "works", "would", "will", "should", "for", "to", "before", "after", "until",
    "till", "latest",
];

/// Whether word `i` can follow a date: one of [`AFTER_A_DATE`], a part of the day, a clock time,
/// or a zone.
fn closes_date(w: &Words, i: usize) -> bool {
    let word = w.at(i);
    AFTER_A_DATE.contains(&word)
        || PARTS_OF_DAY.contains(&word)
        || word.starts_with(|c: char| c.is_ascii_digit())
            && (word.contains(':') || word.ends_with("am") || word.ends_with("pm"))
        || matches!(word, "eod" | "cob" | "first" | "ok" | "okay" | "thanks")
}

/// "2026-12-03" or "2026-12-03t14:00" (the tokenizer lowercased the T).
pub(super) fn iso_date(word: &str) -> Option<Match> {
    let (date, time) = match word.split_once('t') {
        Some((date, time)) => (date, Some(time)),
        None => (word, None),
    };
    let mut fields = date.split('-');
    let (year, month, day) = (fields.next()?, fields.next()?, fields.next()?);
    if fields.next().is_some() || !(is_digits(year) && year.len() >= 4) {
        return None;
    }
    if year.len() > 4 {
        // "99999-12-31": refused, never left in a title.
        small_number(month)?;
        small_number(day)?;
        return Some((1, vec![Part::Invalid(WhenError::TooFar)]));
    }
    let year = year_number(year)?;
    let (month, day) = (small_number(month)?, small_number(day)?);
    let mut parts = vec![explicit_part(Some(year), month, day)];
    if let Some(time) = time {
        parts.push(match clock_fields(time)? {
            (hour, minute, true) => clock_part(hour, minute, time),
            _ => Part::Invalid(WhenError::NoSuchTime(time.to_owned())),
        });
    }
    Some((1, parts))
}

/// "25/12", "12/25/2026", "3/12": day and month in numbers. When both orders make a date the
/// person is asked which one, since that depends on their country.
pub(super) fn numeric_date(w: &Words, i: usize) -> Option<Match> {
    let word = w.at(i);
    let mut fields = word.split('/');
    let (a, b, year) = (fields.next()?, fields.next()?, fields.next());
    if fields.next().is_some() || a.len() > 2 || b.len() > 2 {
        return None;
    }
    let (a, b) = (small_number(a)?, small_number(b)?);
    let year = match year {
        None => Ok(None),
        Some(y) if is_digits(y) && y.len() == 4 => Ok(year_number(y)),
        Some(y) if is_digits(y) && y.len() == 2 => Ok(year_number(y).map(|y| 2000 + y)),
        // "31/12/99999": a date, but of a year no one can be reminded in.
        Some(y) if is_digits(y) && y.len() > 4 => Err(WhenError::TooFar),
        Some(_) => return None,
    };
    if a == 0 || b == 0 || a > 31 || b > 31 || (a > 12 && b > 12) {
        return None;
    }
    if !(INTRODUCES.contains(&w.before(i)) || closes_date(w, i + 1)) {
        return None;
    }
    // "3/4 of an hour", "1/2 hour": a fraction, not a date.
    if w.at(i + 1) == "of" || unit_word(w.at(i + 1)).is_some() {
        return None;
    }
    let year = match year {
        Ok(year) => year.filter(|y| (1..=9999).contains(y)),
        Err(too_far) => return Some((1, vec![Part::Invalid(too_far)])),
    };
    let part = if a <= 12 && b <= 12 && a != b {
        Part::Invalid(WhenError::NumericDate {
            written: word.to_owned(),
            one: format!("{a} {}", month_name(b)),
            other: format!("{b} {}", month_name(a)),
        })
    } else if a > 12 {
        explicit_part(year, b, a)
    } else {
        explicit_part(year, a, b)
    };
    Some((1, vec![part]))
}

/// "dec 3", "december the 3rd", "3 dec", "3rd of december", each with an optional year.
pub(super) fn month_day(w: &Words, i: usize) -> Option<Match> {
    let with_year = |month: u32, day: u32, mut len: usize| {
        let year = year_number(w.at(i + len));
        if year.is_some() {
            len += 1;
        }
        Some((len, vec![explicit_part(year, month, day)]))
    };
    if let Some(month) = month_word(w.at(i)) {
        let at = if w.at(i + 1) == "the" { i + 2 } else { i + 1 };
        let day = day_number(w.at(at))?;
        // "dec 3 pm" would be a strange date but is a plain time; leave it to the clock reader.
        if meridiem(w.at(at + 1)).is_some() {
            return None;
        }
        return with_year(month, day, at + 1 - i);
    }
    let day = day_number(w.at(i))?;
    let at = if w.at(i + 1) == "of" { i + 2 } else { i + 1 };
    let month = month_word(w.at(at))?;
    // "the 4th of july party": a date that names a thing, part of the title.
    if w.before(i) == "the" && !closes_date(w, at + 1) && year_number(w.at(at + 1)).is_none() {
        return None;
    }
    with_year(month, day, at + 1 - i)
}

/// "21st", "3rd": an ordinal written with digits.
fn digit_ordinal(word: &str) -> Option<u32> {
    let digits = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|suffix| word.strip_suffix(suffix))?;
    (is_digits(digits) && digits.len() <= 2).then(|| small_number(digits))?
}

/// "the 21st", "on the 21st", "by 21st", "on the twenty-first", "the 3rd of next month", "the
/// 3rd of december": a day of the month (this month's, or next month's once it has passed).
pub(super) fn day_of_month(w: &Words, i: usize) -> Option<Match> {
    let with_the = w.at(i) == "the";
    let at = if with_the { i + 1 } else { i };
    let (day, used, spelled) = match digit_ordinal(w.at(at)) {
        Some(day) => (day, 1, false),
        None => {
            let (day, used) = spelled_ordinal(w.at(at), w.at(at + 1))?;
            (day, used, true)
        }
    };
    let introduced = INTRODUCES.contains(&w.before(i)) || w.before(i) == "to";
    // "the first" alone is too often something else ("do the first one").
    if !(introduced || (with_the && !spelled)) {
        return None;
    }
    let mut end = at + used;
    let month = match (w.at(end), w.at(end + 1), w.at(end + 2)) {
        ("of", "next", "month") => {
            end += 3;
            Some(MonthRef::Ahead(1))
        }
        ("of", "this", "month") => {
            end += 3;
            Some(MonthRef::Ahead(0))
        }
        ("of", "the", "month") => {
            end += 3;
            Some(MonthRef::Coming)
        }
        ("of", name, _) if month_word(name).is_some() => {
            let month = month_word(name)?;
            end += 2;
            let year = year_number(w.at(end));
            if year.is_some() {
                end += 1;
            }
            if !closes_date(w, end) {
                return None;
            }
            return Some((end - i, vec![explicit_part(year, month, day)]));
        }
        _ => None,
    };
    if !closes_date(w, end) {
        return None;
    }
    let part = if (1..=31).contains(&day) {
        Part::Day(Day::InMonth {
            month: month.unwrap_or(MonthRef::Coming),
            day: MonthDay::Nth(day),
        })
    } else {
        Part::Invalid(WhenError::Unread(w.written(i, end - i)))
    };
    Some((end - i, vec![part]))
}

/// "in march", "until january", "by may 2027": the 1st of the next such month.
pub(super) fn month_alone(w: &Words, i: usize) -> Option<Match> {
    let month = month_word(w.at(i))?;
    if !INTRODUCES.contains(&w.before(i)) || w.before(i) == "on" {
        return None;
    }
    let year = year_number(w.at(i + 1));
    let len = if year.is_some() { 2 } else { 1 };
    Some((len, vec![explicit_part(year, month, 1)]))
}

/// "before christmas", "on new year's eve", "after halloween".
pub(super) fn holiday(w: &Words, i: usize) -> Option<Match> {
    if !INTRODUCES.contains(&w.before(i)) || w.before(i) == "in" {
        return None;
    }
    let next = w.at(i + 1);
    let ((month, day), len) = match w.at(i) {
        "christmas" | "xmas" => match next {
            "eve" => ((12, 24), 2),
            "day" => ((12, 25), 2),
            _ => ((12, 25), 1),
        },
        "halloween" => ((10, 31), 1),
        "valentine" | "valentines" | "valentine's" => {
            let s = usize::from(next == "s");
            (w.at(i + 1 + s) == "day").then_some(((2, 14), 2 + s))?
        }
        "new" if matches!(next, "year" | "years" | "year's") => {
            let s = usize::from(w.at(i + 2) == "s");
            match w.at(i + 2 + s) {
                "eve" => ((12, 31), 3 + s),
                "day" => ((1, 1), 3 + s),
                _ => ((1, 1), 2 + s),
            }
        }
        _ => return None,
    };
    Some((
        len,
        vec![Part::Day(Day::Explicit {
            year: None,
            month,
            day,
        })],
    ))
}
