//! The schedule phrase of an automation command, read from its words and written out: "every
//! monday", "every weekday", "every day"/"daily", "every N weeks on <weekday>", "every other
//! friday", "every N days", "every month on the Nth", "on the Nth of every month", "every
//! monday and thursday" -> a `Repeat`, then the RRULE value and the words said back ("every
//! Monday at 09:00").
//! Invariants: pure; "daily"/"weekly"/"monthly" count only as adverbs ("the daily news" is not
//! a schedule); a day some months lack ("the 31st") is written as the last of the days 28..=N
//! of each month (BYSETPOS=-1), so it falls on a short month's last day instead of skipping it.

use chrono::Weekday;

use crate::tasks::when::{weekday_name as day_name, weekday_word};

/// How often, before the time of day is added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Repeat {
    Daily { interval: u32 },
    Weekly { interval: u32, days: Vec<Weekday> },
    Monthly { interval: u32, day: u32 },
}

/// A schedule phrase found at tokens[start..end], or a question to ask back.
pub(super) enum Found {
    Repeat {
        start: usize,
        end: usize,
        repeat: Repeat,
    },
    Ask(String),
}

/// A weekday, also in the plural ("mondays").
fn weekday(word: &str) -> Option<Weekday> {
    let singular = word.strip_suffix('s').filter(|w| w.len() > 2);
    singular
        .and_then(weekday_word)
        .or_else(|| weekday_word(word))
}

fn count(word: &str) -> Option<u32> {
    let numbers = ["one", "two", "three", "four", "five", "six"];
    if word == "other" {
        return Some(2);
    }
    if let Some(index) = numbers.iter().position(|n| *n == word) {
        return u32::try_from(index + 1).ok();
    }
    word.parse().ok().filter(|n| (1..=52).contains(n))
}

/// "1st", "2nd", "21", "first", "last" -> the day of the month (31 for "last").
fn ordinal(word: &str) -> Option<u32> {
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
fn weekdays_from(words: &[&str], at: usize) -> Option<(Vec<Weekday>, usize)> {
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

/// "on the Nth" / "the Nth" / "on the last day" from `at`: the day and the index after it.
fn month_day_from(words: &[&str], at: usize) -> Option<Result<(u32, usize), String>> {
    let mut index = at;
    if words.get(index) == Some(&"on") {
        index += 1;
    }
    if words.get(index) == Some(&"the") {
        index += 1;
    }
    let day = ordinal(words.get(index)?)?;
    index += 1;
    if words.get(index) == Some(&"day") {
        index += 1;
    }
    if !(1..=31).contains(&day) {
        return Some(Err(format!(
            "A month has no day {day}. Which day of the month should it be (1 to 31)?"
        )));
    }
    Some(Ok((day, index)))
}

/// "every ..." / "each ..." at `at`.
fn every_from(words: &[&str], at: usize) -> Option<Found> {
    let next = at + 1;
    let word = *words.get(next)?;
    let found = |end: usize, repeat: Repeat| Found::Repeat {
        start: at,
        end,
        repeat,
    };
    match word {
        "day" | "morning" => return Some(found(next + 1, Repeat::Daily { interval: 1 })),
        "weekday" | "weekdays" => {
            let days = vec![
                Weekday::Mon,
                Weekday::Tue,
                Weekday::Wed,
                Weekday::Thu,
                Weekday::Fri,
            ];
            return Some(found(next + 1, Repeat::Weekly { interval: 1, days }));
        }
        "week" => return Some(weekly_on(words, at, next + 1, 1)),
        "month" => return Some(monthly_on(words, at, next + 1, 1)),
        _ => {}
    }
    if let Some((days, end)) = weekdays_from(words, next) {
        return Some(found(end, Repeat::Weekly { interval: 1, days }));
    }
    let interval = count(word)?;
    let unit = *words.get(next + 1)?;
    match unit {
        "days" | "day" => Some(found(next + 2, Repeat::Daily { interval })),
        "weeks" | "week" => Some(weekly_on(words, at, next + 2, interval)),
        "months" | "month" => Some(monthly_on(words, at, next + 2, interval)),
        // "every other friday"
        _ => {
            let (days, end) = weekdays_from(words, next + 1)?;
            Some(found(end, Repeat::Weekly { interval, days }))
        }
    }
}

/// "... week[s] on <weekday>": the days, or the question which.
fn weekly_on(words: &[&str], start: usize, at: usize, interval: u32) -> Found {
    let at = if words.get(at) == Some(&"on") {
        at + 1
    } else {
        at
    };
    match weekdays_from(words, at) {
        Some((days, end)) => Found::Repeat {
            start,
            end,
            repeat: Repeat::Weekly { interval, days },
        },
        None => Found::Ask(
            "Which day of the week should I remind you (e.g. 'every week on friday')?".into(),
        ),
    }
}

/// "... month[s] on the Nth": the day, or the question which.
fn monthly_on(words: &[&str], start: usize, at: usize, interval: u32) -> Found {
    match month_day_from(words, at) {
        Some(Ok((day, end))) => Found::Repeat {
            start,
            end,
            repeat: Repeat::Monthly { interval, day },
        },
        Some(Err(question)) => Found::Ask(question),
        None => Found::Ask(
            "Which day of the month should I remind you (e.g. 'every month on the 1st')?".into(),
        ),
    }
}

/// The first schedule phrase in `words`.
pub(super) fn find_repeat(words: &[&str]) -> Option<Found> {
    for at in 0..words.len() {
        let found = match words[at] {
            "every" | "each" => every_from(words, at),
            // "daily" / "weekly" / "monthly" as an adverb, not "the daily news".
            "daily" if stands_alone(words, at) => Some(Found::Repeat {
                start: at,
                end: at + 1,
                repeat: Repeat::Daily { interval: 1 },
            }),
            "weekly" if stands_alone(words, at) || words.get(at + 1) == Some(&"on") => {
                Some(weekly_on(words, at, at + 1, 1))
            }
            "monthly" if stands_alone(words, at) || words.get(at + 1) == Some(&"on") => {
                Some(monthly_on(words, at, at + 1, 1))
            }
            // "on the 1st of every month", "the 15th of each month"
            "on" | "the" => month_of_every(words, at),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether the word at `at` is used as an adverb: first, last, or before the time or command.
fn stands_alone(words: &[&str], at: usize) -> bool {
    at == 0 || matches!(words.get(at + 1), None | Some(&"at" | &"remind" | &"to"))
}

fn month_of_every(words: &[&str], at: usize) -> Option<Found> {
    let Some(Ok((day, end))) = month_day_from(words, at) else {
        // A day out of range is only a question when the phrase is really "of every month".
        let day_end = words.iter().skip(at).position(|w| *w == "of")? + at;
        if matches!(words.get(day_end + 1), Some(&"every" | &"each"))
            && words.get(day_end + 2) == Some(&"month")
        {
            if let Some(Err(question)) = month_day_from(words, at) {
                return Some(Found::Ask(question));
            }
        }
        return None;
    };
    if words.get(end) == Some(&"of")
        && matches!(words.get(end + 1), Some(&"every" | &"each"))
        && words.get(end + 2) == Some(&"month")
    {
        return Some(Found::Repeat {
            start: at,
            end: end + 3,
            repeat: Repeat::Monthly { interval: 1, day },
        });
    }
    None
}

fn day_code(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "MO",
        Weekday::Tue => "TU",
        Weekday::Wed => "WE",
        Weekday::Thu => "TH",
        Weekday::Fri => "FR",
        Weekday::Sat => "SA",
        Weekday::Sun => "SU",
    }
}

fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn ordinal_words(day: u32) -> String {
    let suffix = match (day % 10, day % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{day}{suffix}")
}

/// The RRULE value and the words for `repeat` at hour:minute.
pub(super) fn rule_and_words(repeat: &Repeat, hour: u32, minute: u32) -> (String, String) {
    let interval = |n: u32| {
        if n > 1 {
            format!(";INTERVAL={n}")
        } else {
            String::new()
        }
    };
    let at = format!("BYHOUR={hour};BYMINUTE={minute};BYSECOND=0");
    let time = format!("at {hour:02}:{minute:02}");
    match repeat {
        Repeat::Daily { interval: n } => (
            format!("FREQ=DAILY{};{at}", interval(*n)),
            match n {
                1 => format!("every day {time}"),
                n => format!("every {n} days {time}"),
            },
        ),
        Repeat::Weekly { interval: n, days } => {
            let codes: Vec<&str> = days.iter().map(|d| day_code(*d)).collect();
            let names: Vec<&str> = days.iter().map(|d| day_name(*d)).collect();
            let weekdays = codes == ["MO", "TU", "WE", "TH", "FR"];
            let words = match (n, weekdays) {
                (1, true) => format!("every weekday {time}"),
                (1, false) => format!("every {} {time}", listed(&names)),
                (2, _) => format!("every other week on {} {time}", listed(&names)),
                (n, _) => format!("every {n} weeks on {} {time}", listed(&names)),
            };
            (
                format!("FREQ=WEEKLY{};BYDAY={};{at}", interval(*n), codes.join(",")),
                words,
            )
        }
        Repeat::Monthly { interval: n, day } => {
            // A day some months lack falls on their last day: the last of the days 28..=day.
            let by_day = if *day >= 29 {
                let days: Vec<String> = (28..=*day).map(|d| d.to_string()).collect();
                format!("BYMONTHDAY={};BYSETPOS=-1", days.join(","))
            } else {
                format!("BYMONTHDAY={day}")
            };
            let which = if *day >= 29 {
                format!("the {} (or the month's last day)", ordinal_words(*day))
            } else {
                format!("the {}", ordinal_words(*day))
            };
            let words = match n {
                1 => format!("every month on {which} {time}"),
                n => format!("every {n} months on {which} {time}"),
            };
            (format!("FREQ=MONTHLY{};{by_day};{at}", interval(*n)), words)
        }
    }
}
