//! A schedule phrase written out: the RFC 5545 RRULE value and the words said back to the
//! person before the yes ("every Monday at 09:00", "every month on the second Tuesday at
//! 09:00", "every 3 weeks from today, Friday 27 Nov, at 09:00").
//!
//! Invariants: pure. The nth weekday is `BYDAY=2TU` (the last `BYDAY=-1FR`), the last day of
//! the month `BYMONTHDAY=-1`, the first or last working day `BYDAY=MO,...,FR;BYSETPOS=1/-1`. A day some months lack is never skipped silently: the 29th to
//! 31st fall on a short month's last day (the last of the days 28..=N, `BYSETPOS=-1`), said as
//! "(or the month's last day)"; a fifth weekday, which some months lack, is said to be skipped
//! in those months; 29 February is said to be only in leap years.

use chrono::{Datelike, NaiveDate, Weekday};

use super::repeat::{MonthlyOn, Repeat};
use crate::tasks::when::{month_name, weekday_name as day_name};

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

fn nth_word(nth: i8) -> &'static str {
    match nth {
        1 => "first",
        2 => "second",
        3 => "third",
        4 => "fourth",
        5 => "fifth",
        _ => "last",
    }
}

/// "every 3 weeks", "every other week", "every week".
fn every(n: u32, one: &str, many: &str) -> String {
    match n {
        1 => format!("every {one}"),
        2 => format!("every other {one}"),
        n => format!("every {n} {many}"),
    }
}

/// BYMONTHDAY for day `day`: a day some months lack falls on their last day.
fn month_day_rule(day: u32) -> (String, String) {
    if day >= 29 {
        let days: Vec<String> = (28..=day).map(|d| d.to_string()).collect();
        (
            format!("BYMONTHDAY={};BYSETPOS=-1", days.join(",")),
            format!("the {} (or the month's last day)", ordinal_words(day)),
        )
    } else {
        (
            format!("BYMONTHDAY={day}"),
            format!("the {}", ordinal_words(day)),
        )
    }
}

/// The RRULE value and the words for `repeat` at hour:minute. `anchor` is the day a schedule
/// without a named day counts from: `today`, or the day it starts.
pub(super) fn rule_and_words(
    repeat: &Repeat,
    hour: u32,
    minute: u32,
    anchor: NaiveDate,
    today: NaiveDate,
) -> (String, String) {
    let at = format!("BYHOUR={hour};BYMINUTE={minute};BYSECOND=0");
    let time = format!("at {hour:02}:{minute:02}");
    // "from today, Monday 23 Nov" for weeks (the weekday matters), "from today" otherwise.
    let (from, from_day) = if anchor == today {
        (
            format!("from today, {}", anchor.format("%A %-d %b")),
            "from today".to_string(),
        )
    } else {
        let day = format!("from {}", anchor.format("%A %-d %b"));
        (day.clone(), day)
    };
    match repeat {
        Repeat::Daily { interval: n } => (
            format!("FREQ=DAILY{};{at}", interval(*n)),
            format!("{} {time}", every(*n, "day", "days")),
        ),
        Repeat::Weekly { interval: n, days } if days.is_empty() => (
            format!(
                "FREQ=WEEKLY{};BYDAY={};{at}",
                interval(*n),
                day_code(anchor.weekday())
            ),
            format!("{} {from}, {time}", every(*n, "week", "weeks")),
        ),
        Repeat::Weekly { interval: n, days } => {
            let (by, words) = weekly_on(*n, days, &time);
            (format!("FREQ=WEEKLY{};{by};{at}", interval(*n)), words)
        }
        Repeat::Monthly { interval: n, on } => {
            let months = every(*n, "month", "months");
            let (by, words) = monthly_on(on, anchor, &months, &time, &from_day);
            (format!("FREQ=MONTHLY{};{by};{at}", interval(*n)), words)
        }
        Repeat::Yearly { on } => {
            let (by, words) = yearly_on(*on, anchor, &time, &from_day);
            (format!("FREQ=YEARLY;{by};{at}"), words)
        }
    }
}

/// ";INTERVAL=n" for every n-th period, nothing for every one.
fn interval(n: u32) -> String {
    if n > 1 {
        format!(";INTERVAL={n}")
    } else {
        String::new()
    }
}

/// The BYDAY part and the words for a weekly schedule on named days: "every weekday",
/// "every monday and thursday", "every other week on friday".
fn weekly_on(n: u32, days: &[Weekday], time: &str) -> (String, String) {
    let codes: Vec<&str> = days.iter().map(|d| day_code(*d)).collect();
    let names: Vec<&str> = days.iter().map(|d| day_name(*d)).collect();
    let weekdays = codes == ["MO", "TU", "WE", "TH", "FR"];
    let words = match (n, weekdays) {
        (1, true) => format!("every weekday {time}"),
        (1, false) => format!("every {} {time}", listed(&names)),
        (2, _) => format!("every other week on {} {time}", listed(&names)),
        (n, _) => format!("every {n} weeks on {} {time}", listed(&names)),
    };
    (format!("BYDAY={}", codes.join(",")), words)
}

/// The BYMONTHDAY/BYDAY part and the words for a monthly schedule: on a day of the month,
/// the last day, the n-th weekday or working day, or the anchor's day of the month.
fn monthly_on(
    on: &MonthlyOn,
    anchor: NaiveDate,
    months: &str,
    time: &str,
    from_day: &str,
) -> (String, String) {
    match on {
        MonthlyOn::Day(day) => {
            let (by, which) = month_day_rule(*day);
            (by, format!("{months} on {which} {time}"))
        }
        MonthlyOn::LastDay => (
            "BYMONTHDAY=-1".to_string(),
            format!("{months} on the last day {time}"),
        ),
        MonthlyOn::Weekday { nth, day } => {
            let skipped = if *nth == 5 {
                format!(" (months without a fifth {} are skipped)", day_name(*day))
            } else {
                String::new()
            };
            (
                format!("BYDAY={nth}{}", day_code(*day)),
                format!(
                    "{months} on the {} {} {time}{skipped}",
                    nth_word(*nth),
                    day_name(*day)
                ),
            )
        }
        MonthlyOn::WorkingDay { nth } => (
            format!("BYDAY=MO,TU,WE,TH,FR;BYSETPOS={nth}"),
            format!("{months} on the {} working day {time}", nth_word(*nth)),
        ),
        MonthlyOn::FromToday => {
            let (by, which) = month_day_rule(anchor.day());
            (by, format!("{months} {from_day}, on {which}, {time}"))
        }
    }
}

/// The BYMONTH/BYMONTHDAY part and the words for a yearly schedule, on the date named or the
/// anchor's; 29 February fires only in leap years.
fn yearly_on(
    on: Option<(u32, u32)>,
    anchor: NaiveDate,
    time: &str,
    from_day: &str,
) -> (String, String) {
    let (month, day) = on.unwrap_or((anchor.month(), anchor.day()));
    let leap = if (month, day) == (2, 29) {
        " (only in leap years)"
    } else {
        ""
    };
    let date = format!("{day} {}", month_name(month));
    let words = match on {
        Some(_) => format!("every year on {date} {time}{leap}"),
        None => format!("every year {from_day}, on {date}, {time}{leap}"),
    };
    (format!("BYMONTH={month};BYMONTHDAY={day}"), words)
}

/// Whether the schedule counts from its anchor day rather than from a day it names.
pub(super) fn from_anchor(repeat: &Repeat) -> bool {
    matches!(
        repeat,
        Repeat::Weekly { days, .. } if days.is_empty()
    ) || matches!(
        repeat,
        Repeat::Monthly {
            on: MonthlyOn::FromToday,
            ..
        } | Repeat::Yearly { on: None }
    )
}
