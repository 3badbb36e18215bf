//! A rule an API client writes (`POST /api/automations`): checked before it is stored, and said
//! in words when the client gives none ("every 2 weeks at 10:00", "every 3 days after the last
//! one is done").
//!
//! Owns: `check` (the RRULE value alone, and a rule as every door stores it: never hourly or
//! faster, so a client's rule cannot make a task a minute) and `words`.
//! Invariants: pure; the words never claim more than the rule says (parts they do not know to
//! say are left to the RRULE shown beside them).

use chrono::Weekday;

use super::repeat_from::RepeatFrom;
use super::schedule::{check_rule, rule_part};
use crate::tasks::when::weekday_name;

/// Why a client's rule is refused, or Ok: the RRULE value alone (no DTSTART, no "RRULE:"), and
/// a rule every door would store (`schedule::check_rule`: at most daily, one time of day).
pub fn check(rrule: &str) -> Result<(), String> {
    let upper = rrule.to_ascii_uppercase();
    if upper.contains("DTSTART") || upper.starts_with("RRULE:") {
        return Err(
            "rrule: give the RRULE value alone (\"FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0\"); \
             the first occurrence is first_run"
                .into(),
        );
    }
    check_rule(rrule).map_err(|error| format!("rrule: {error}"))
}

fn day_of(code: &str) -> Option<Weekday> {
    Some(match code {
        "MO" => Weekday::Mon,
        "TU" => Weekday::Tue,
        "WE" => Weekday::Wed,
        "TH" => Weekday::Thu,
        "FR" => Weekday::Fri,
        "SA" => Weekday::Sat,
        "SU" => Weekday::Sun,
        _ => return None,
    })
}

/// The rule in words: how often, on which weekdays (plain codes only), at what time (one hour
/// and minute), and, repeating from completion, that it counts from when the last was done.
pub fn words(rrule: &str, repeat_from: RepeatFrom) -> String {
    let interval: u32 = rule_part(rrule, "INTERVAL")
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let (one, many) = match rule_part(rrule, "FREQ")
        .map(str::to_ascii_uppercase)
        .as_deref()
    {
        Some("DAILY") => ("day", "days"),
        Some("WEEKLY") => ("week", "weeks"),
        Some("MONTHLY") => ("month", "months"),
        _ => ("year", "years"),
    };
    let mut said = match interval {
        1 => format!("every {one}"),
        n => format!("every {n} {many}"),
    };
    let days: Option<Vec<&str>> = rule_part(rrule, "BYDAY")
        .map(|days| {
            days.split(',')
                .map(|d| day_of(d.trim()).map(weekday_name))
                .collect()
        })
        .unwrap_or(None);
    match repeat_from {
        RepeatFrom::Completion => said.push_str(" after the last one is done"),
        RepeatFrom::Schedule => {
            if let Some(days) = days.filter(|days| !days.is_empty()) {
                said.push_str(&format!(" on {}", days.join(", ")));
            }
        }
    }
    let hour = rule_part(rrule, "BYHOUR").and_then(|h| h.parse::<u32>().ok());
    let minute = rule_part(rrule, "BYMINUTE").map_or(Some(0), |m| m.parse::<u32>().ok());
    if let (Some(hour), Some(minute)) = (hour, minute) {
        said.push_str(&format!(" at {hour:02}:{minute:02}"));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_rule_is_said_in_words_and_one_faster_than_daily_is_refused() {
        for (rule, from, said) in [
            (
                "FREQ=DAILY;BYHOUR=23;BYMINUTE=0",
                RepeatFrom::Schedule,
                "every day at 23:00",
            ),
            (
                "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;BYHOUR=9;BYMINUTE=30",
                RepeatFrom::Schedule,
                "every 2 weeks on Monday, Friday at 09:30",
            ),
            (
                "FREQ=WEEKLY;INTERVAL=2;BYHOUR=10;BYMINUTE=0",
                RepeatFrom::Completion,
                "every 2 weeks after the last one is done at 10:00",
            ),
            ("FREQ=MONTHLY", RepeatFrom::Schedule, "every month"),
            (
                "FREQ=DAILY;INTERVAL=3",
                RepeatFrom::Completion,
                "every 3 days after the last one is done",
            ),
        ] {
            assert_eq!(words(rule, from), said, "{rule}");
            assert_eq!(check(rule), Ok(()), "{rule}");
        }
        for rule in [
            "FREQ=HOURLY",
            "FREQ=MINUTELY;INTERVAL=1",
            "BYDAY=MO",
            "RRULE:FREQ=DAILY",
            "DTSTART:20261123T090000Z;FREQ=DAILY",
        ] {
            assert!(check(rule).is_err(), "{rule}");
        }
    }
}
