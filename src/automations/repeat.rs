//! The schedule phrase of an automation command, read from its words: "every monday", "every
//! weekday", "every weekend", "every day"/"daily", "every other day", "every N weeks on
//! <weekday>", "every N weeks" (from today), "every other friday", "every month on the Nth",
//! "on the Nth of every month", "the second tuesday of every month", "every last friday", "the
//! last day of every month", "every year on 3 march", "on mondays", "weekends".
//! The rule and the words said back are `rule`'s; the bounds ("until march") `bounds`'.
//!
//! Invariants: pure; "daily"/"weekly"/"monthly"/"yearly" count only as adverbs ("the daily
//! news" is not a schedule); a plural day ("mondays") only after "on" or before the time or the
//! command; "every second tuesday" (every other one, or the second of the month?) and anything
//! more often than daily are asked about, never guessed.

use chrono::Weekday;

use super::schedule_words::{
    count, days_in, nth, of_the_month, ordinal, weekday, weekdays_from, working_day_at,
};
use crate::tasks::when::{month_number, weekday_name as day_name};

/// How often, before the time of day is added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Repeat {
    Daily {
        interval: u32,
    },
    /// No days: every `interval` weeks on today's weekday, from today.
    Weekly {
        interval: u32,
        days: Vec<Weekday>,
    },
    Monthly {
        interval: u32,
        on: MonthlyOn,
    },
    /// None: every year on today's date, from today.
    Yearly {
        on: Option<(u32, u32)>,
    },
}

/// Which day of the month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MonthlyOn {
    Day(u32),
    LastDay,
    /// The `nth` (1..=5, or -1 for the last) `day` of the month.
    Weekday {
        nth: i8,
        day: Weekday,
    },
    /// The first (1) or last (-1) working day (Monday to Friday) of the month.
    WorkingDay {
        nth: i8,
    },
    /// Today's day of the month, from today.
    FromToday,
}

/// A schedule phrase found at tokens[start..end], or a question to ask back.
pub(super) enum Found {
    Repeat {
        start: usize,
        end: usize,
        repeat: Repeat,
        /// The hour the phrase itself brings ("every evening": 18), used without a time.
        hour: Option<u32>,
    },
    Ask(String),
}

fn found(start: usize, end: usize, repeat: Repeat) -> Option<Found> {
    Some(Found::Repeat {
        start,
        end,
        repeat,
        hour: None,
    })
}

const WEEKDAYS: [Weekday; 5] = [
    Weekday::Mon,
    Weekday::Tue,
    Weekday::Wed,
    Weekday::Thu,
    Weekday::Fri,
];

/// What a monthly phrase names from `at` ("the 15th", "the last day", "the second tuesday"),
/// "on" and "the" skipped: the day and the index after it, or a question.
fn month_day_from(words: &[&str], at: usize) -> Option<Result<(MonthlyOn, usize), String>> {
    let mut index = at;
    if words.get(index) == Some(&"on") {
        index += 1;
    }
    if words.get(index) == Some(&"the") {
        index += 1;
    }
    let word = *words.get(index)?;
    if let (Some(nth), Some(day)) = (nth(word), words.get(index + 1).and_then(|w| weekday(w))) {
        return Some(Ok((MonthlyOn::Weekday { nth, day }, index + 2)));
    }
    if let (Some(n @ (1 | -1)), Some(used)) = (nth(word), working_day_at(words, index + 1)) {
        return Some(Ok((MonthlyOn::WorkingDay { nth: n }, index + 1 + used)));
    }
    if word == "last" && matches!(words.get(index + 1), Some(&"day" | &"of")) {
        let end = index + 1 + usize::from(words.get(index + 1) == Some(&"day"));
        return Some(Ok((MonthlyOn::LastDay, end)));
    }
    let day = ordinal(word)?;
    index += 1;
    if words.get(index) == Some(&"day") {
        index += 1;
    }
    if !(1..=31).contains(&day) {
        return Some(Err(format!(
            "A month has no day {day}. Which day of the month should it be (1 to 31)?"
        )));
    }
    Some(Ok((MonthlyOn::Day(day), index)))
}

/// "every ..." / "each ..." at `at`.
fn every_from(words: &[&str], at: usize) -> Option<Found> {
    let next = at + 1;
    let word = *words.get(next)?;
    match word {
        "day" => return found(at, next + 1, Repeat::Daily { interval: 1 }),
        // "every evening at 7": the part of day is left to the time reader (19:00; alone 18:00).
        "morning" | "afternoon" | "evening" | "night" => {
            return found(at, next, Repeat::Daily { interval: 1 })
        }
        "weekday" | "weekdays" | "workday" | "workdays" => {
            return found(at, next + 1, weekly(1, WEEKDAYS.to_vec()))
        }
        "weekend" | "weekends" => return weekend(at, next + 1),
        "week" => return Some(weekly_on(words, at, next + 1, 1)),
        "month" => return Some(monthly_on(words, at, next + 1, 1)),
        "quarter" => return found(at, next + 1, monthly(3, MonthlyOn::FromToday)),
        "year" => return Some(yearly_on(words, at, next + 1)),
        "hour" | "minute" | "hours" | "minutes" => return Some(too_often()),
        _ => {}
    }
    // "every first weekday of the month", "every last working day of the month"
    if let (Some(n @ (1 | -1)), Some(used)) = (nth(word), working_day_at(words, next + 1)) {
        let end = of_the_month(words, next + 1 + used).unwrap_or(next + 1 + used);
        return found(at, end, monthly(1, MonthlyOn::WorkingDay { nth: n }));
    }
    // "every first of the month", "every 15th of the month", "every 15th"
    // (an ordinal said as one: "15th", "first"; a plain number is a count, "every 2 weeks")
    let said_as_ordinal = !word.bytes().all(|b| b.is_ascii_digit());
    if let Some(day) = ordinal(word)
        .filter(|_| said_as_ordinal && (nth(word).is_none() || words.get(next + 1) == Some(&"of")))
    {
        let digits = word.starts_with(|c: char| c.is_ascii_digit());
        match of_the_month(words, next + 1) {
            Some(end) if (1..=31).contains(&day) => {
                return found(at, end, monthly(1, MonthlyOn::Day(day)))
            }
            None if digits && (1..=31).contains(&day) && words.get(next + 1) != Some(&"day") => {
                return found(at, next + 1, monthly(1, MonthlyOn::Day(day)))
            }
            _ => {}
        }
    }
    if let Some((days, end)) = weekdays_from(words, next) {
        return found(at, end, weekly(1, days));
    }
    // "every last friday", "every first monday of the month", "every second tuesday" (asked)
    if let (Some(n), Some(day)) = (nth(word), words.get(next + 1).and_then(|w| weekday(w))) {
        if let Some(end) = of_the_month(words, next + 2) {
            return found(at, end, monthly(1, MonthlyOn::Weekday { nth: n, day }));
        }
        return Some(match n {
            1 | -1 => Found::Repeat {
                start: at,
                end: next + 2,
                repeat: monthly(1, MonthlyOn::Weekday { nth: n, day }),
                hour: None,
            },
            _ => Found::Ask(format!(
                "Every other {0}, or the {1} {0} of each month?",
                day_name(day),
                word
            )),
        });
    }
    // "every last day of the month"
    if word == "last" && words.get(next + 1) == Some(&"day") {
        let end = of_the_month(words, next + 2).unwrap_or(next + 2);
        return found(at, end, monthly(1, MonthlyOn::LastDay));
    }
    // "every other day", "every 3 weeks", "every second week", "every 2 months on the 1st"
    let interval = count(word).or_else(|| ordinal(word).filter(|n| (2..=10).contains(n)))?;
    let unit = *words.get(next + 1)?;
    match unit {
        "days" | "day" => found(at, next + 2, Repeat::Daily { interval }),
        "weeks" | "week" => Some(weekly_on(words, at, next + 2, interval)),
        "months" | "month" => Some(monthly_on(words, at, next + 2, interval)),
        "hours" | "hour" | "minutes" | "minute" | "mins" | "min" => Some(too_often()),
        // "every other friday"
        _ => {
            let (days, end) = weekdays_from(words, next + 1)?;
            found(at, end, weekly(interval, days))
        }
    }
}

fn too_often() -> Found {
    Found::Ask(
        "I can repeat a reminder every day, week, month or year, not more often. How often should \
         it be?"
            .into(),
    )
}

fn weekly(interval: u32, days: Vec<Weekday>) -> Repeat {
    Repeat::Weekly { interval, days }
}

fn monthly(interval: u32, on: MonthlyOn) -> Repeat {
    Repeat::Monthly { interval, on }
}

/// Saturday and Sunday, at 10:00 unless a time is named (as a weekend reminder reads).
fn weekend(start: usize, end: usize) -> Option<Found> {
    Some(Found::Repeat {
        start,
        end,
        repeat: weekly(1, vec![Weekday::Sat, Weekday::Sun]),
        hour: Some(10),
    })
}

/// "... week[s] on <weekday>": the days, or none (from today).
fn weekly_on(words: &[&str], start: usize, at: usize, interval: u32) -> Found {
    let at = if words.get(at) == Some(&"on") {
        at + 1
    } else {
        at
    };
    let said_on = at > 0 && words.get(at - 1) == Some(&"on");
    let Some((days, end)) = weekdays_from(words, at).or((!said_on).then_some((Vec::new(), at)))
    else {
        // "every week on payday": a day Donna cannot place.
        return Found::Ask(
            "Which day of the week should it be (e.g. 'every week on friday')?".into(),
        );
    };
    Found::Repeat {
        start,
        end,
        repeat: weekly(interval, days),
        hour: None,
    }
}

/// "... month[s] on the Nth / last day / second tuesday": the day, or none (from today).
fn monthly_on(words: &[&str], start: usize, at: usize, interval: u32) -> Found {
    match month_day_from(words, at) {
        Some(Ok((on, end))) => Found::Repeat {
            start,
            end,
            repeat: monthly(interval, on),
            hour: None,
        },
        Some(Err(question)) => Found::Ask(question),
        // "every month on payday": a day Donna cannot place.
        None if words.get(at) == Some(&"on") => Found::Ask(
            "Which day of the month should it be (e.g. 'every month on the 1st')?".into(),
        ),
        None => Found::Repeat {
            start,
            end: at,
            repeat: monthly(interval, MonthlyOn::FromToday),
            hour: None,
        },
    }
}

/// "every year on 3 march", "every year on march 3rd", "every year" (from today).
fn yearly_on(words: &[&str], start: usize, at: usize) -> Found {
    let at = if words.get(at) == Some(&"on") {
        at + 1
    } else {
        at
    };
    let month = |w: Option<&&str>| w.and_then(|w| month_number(w));
    let date = match (month(words.get(at)), month(words.get(at + 1))) {
        (Some(m), _) => words
            .get(at + 1)
            .and_then(|d| ordinal(d))
            .map(|d| ((m, d), at + 2)),
        (None, Some(m)) => words
            .get(at)
            .and_then(|d| ordinal(d))
            .map(|d| ((m, d), at + 2)),
        _ => None,
    };
    match date {
        Some(((month, day), end)) if (1..=days_in(month)).contains(&day) => Found::Repeat {
            start,
            end,
            repeat: Repeat::Yearly {
                on: Some((month, day)),
            },
            hour: None,
        },
        Some(_) => {
            Found::Ask("Which day of the year should it be (e.g. 'every year on 3 march')?".into())
        }
        // "every year on my birthday": a day Donna cannot place.
        None if at > 0 && words.get(at - 1) == Some(&"on") => {
            Found::Ask("Which day of the year should it be (e.g. 'every year on 3 march')?".into())
        }
        None => Found::Repeat {
            start,
            end: at,
            repeat: Repeat::Yearly { on: None },
            hour: None,
        },
    }
}

/// The first schedule phrase in `words`.
pub(super) fn find_repeat(words: &[&str]) -> Option<Found> {
    for at in 0..words.len() {
        let found = match words[at] {
            "every" | "each" => every_from(words, at),
            // "daily" / "weekly" / "monthly" as an adverb, not "the daily news".
            "daily" if stands_alone(words, at) => found(at, at + 1, Repeat::Daily { interval: 1 }),
            "weekly" if stands_alone(words, at) || words.get(at + 1) == Some(&"on") => {
                Some(weekly_on(words, at, at + 1, 1))
            }
            "monthly" if stands_alone(words, at) || words.get(at + 1) == Some(&"on") => {
                Some(monthly_on(words, at, at + 1, 1))
            }
            "yearly" | "annually"
                if stands_alone(words, at) || words.get(at + 1) == Some(&"on") =>
            {
                Some(yearly_on(words, at, at + 1))
            }
            // "on the 1st of every month", "the second tuesday of each month"
            "on" | "the" => month_of_every(words, at).or_else(|| plural_days(words, at)),
            // "mondays at 9 remind me", "weekends remind me to sleep in"
            word if at == 0 || stands_alone(words, at) => {
                plural_days(words, at).filter(|_| word.ends_with('s'))
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// "on mondays", "on weekdays", "on weekends", "mondays and thursdays": plural days.
fn plural_days(words: &[&str], at: usize) -> Option<Found> {
    let from = if words.get(at) == Some(&"on") {
        at + 1
    } else {
        at
    };
    let first = *words.get(from)?;
    match first {
        "weekdays" | "workdays" => found(at, from + 1, weekly(1, WEEKDAYS.to_vec())),
        "weekends" => weekend(at, from + 1),
        plural if plural.ends_with('s') && weekday(plural).is_some() => {
            let (days, end) = weekdays_from(words, from)?;
            found(at, end, weekly(1, days))
        }
        _ => None,
    }
}

/// Whether the word at `at` is used as an adverb: first, last, or before the time or command.
fn stands_alone(words: &[&str], at: usize) -> bool {
    at == 0 || matches!(words.get(at + 1), None | Some(&"at" | &"remind" | &"to"))
}

/// "on the 1st of every month", "the last day of each month", "on the second tuesday of every
/// month".
fn month_of_every(words: &[&str], at: usize) -> Option<Found> {
    let every_month = |end: usize| {
        words.get(end) == Some(&"of")
            && matches!(words.get(end + 1), Some(&"every" | &"each"))
            && words.get(end + 2) == Some(&"month")
    };
    match month_day_from(words, at)? {
        Ok((on, end)) if every_month(end) => found(at, end + 3, monthly(1, on)),
        Err(question) => {
            // A day out of range is only a question when the phrase is really "of every month".
            let of = words.iter().skip(at).position(|w| *w == "of")? + at;
            every_month(of).then_some(Found::Ask(question))
        }
        Ok(_) => None,
    }
}
