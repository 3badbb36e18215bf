//! The words of a schedule phrase: weekdays (also plural, and lists: "monday and thursday"),
//! counts ("every 3 weeks", "every other"), the nth weekday ("second", "last"), days of the
//! month as ordinals ("1st", "first"), "working day", "of the month", and the days a month can
//! have. Used by `repeat`; pure.

use chrono::Weekday;

use crate::tasks::when::weekday_word;

/// A weekday, also in the plural ("mondays").
pub(super) fn weekday(word: &str) -> Option<Weekday> {
    let singular = word.strip_suffix('s').filter(|w| w.len() > 2);
    singular
        .and_then(weekday_word)
        .or_else(|| weekday_word(word))
}

/// How many units apart ("every 3 weeks", "every two days", "every other"), 1..=52.
pub(super) fn count(word: &str) -> Option<u32> {
    let numbers = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    if word == "other" {
        return Some(2);
    }
    if let Some(index) = numbers.iter().position(|n| *n == word) {
        return u32::try_from(index + 1).ok();
    }
    word.parse().ok().filter(|n| (1..=52).contains(n))
}

/// "first" .. "fifth", "1st" .. "5th", "last": which weekday of the month.
pub(super) fn nth(word: &str) -> Option<i8> {
    Some(match word {
        "first" | "1st" => 1,
        "second" | "2nd" => 2,
        "third" | "3rd" => 3,
        "fourth" | "4th" => 4,
        "fifth" | "5th" => 5,
        "last" => -1,
        _ => return None,
    })
}

/// "1st", "2nd", "21", "first", "last" -> the day of the month (31 for "last").
pub(super) fn ordinal(word: &str) -> Option<u32> {
    let words = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    if word == "last" {
        return Some(31);
    }
    if let Some(index) = words.iter().position(|w| *w == word) {
        return u32::try_from(index + 1).ok();
    }
    let digits = word
        .strip_suffix("st")
        .or_else(|| word.strip_suffix("nd"))
        .or_else(|| word.strip_suffix("rd"))
        .or_else(|| word.strip_suffix("th"))
        .unwrap_or(word);
    digits.parse().ok()
}

/// Weekdays from `at`: "monday", "monday and thursday", "mon, wed and fri". Returns the days and
/// the index after them.
pub(super) fn weekdays_from(words: &[&str], at: usize) -> Option<(Vec<Weekday>, usize)> {
    let first = weekday(words.get(at)?)?;
    let mut days = vec![first];
    let mut end = at + 1;
    loop {
        let joined = words.get(end).is_some_and(|w| *w == "and" || *w == "&");
        let next = if joined { end + 1 } else { end };
        match words.get(next).and_then(|w| weekday(w)) {
            Some(day) => {
                if !days.contains(&day) {
                    days.push(day);
                }
                end = next + 1;
            }
            None => break,
        }
    }
    days.sort_by_key(Weekday::num_days_from_monday);
    Some((days, end))
}

/// "weekday", "working day", "business day", "workday" at `at`: the words it took.
pub(super) fn working_day_at(words: &[&str], at: usize) -> Option<usize> {
    match (words.get(at).copied()?, words.get(at + 1).copied()) {
        ("weekday" | "workday", _) => Some(1),
        ("working" | "business", Some("day")) => Some(2),
        _ => None,
    }
}

/// "of the month", "of every month", "of each month" at `at`: the index after it.
pub(super) fn of_the_month(words: &[&str], at: usize) -> Option<usize> {
    if words.get(at) != Some(&"of") {
        return None;
    }
    matches!(words.get(at + 1), Some(&"the" | &"every" | &"each" | &"a"))
        .then_some(())
        .filter(|()| words.get(at + 2) == Some(&"month"))
        .map(|()| at + 3)
}

/// The most days `month` ever has (29 for February: leap years).
pub(super) fn days_in(month: u32) -> u32 {
    match month {
        2 => 29,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
