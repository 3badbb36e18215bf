//! The past mode of the time reader, for questions about what was ("completed last week",
//! "what did I say 3 days ago", "since monday"): [`find_past`] reads a time at or before `now`.
//!
//! Understood: "today" and "yesterday" (their start), "N minutes/hours/days/weeks/months ago"
//! ("a day ago", "an hour ago"), "last week" / "last month" (their first day), "this week" /
//! "this month" (the first day), "last monday" and a bare weekday (the latest such day before
//! today), a date "2026-11-02", each with an optional "since", "from" or "after" before it.
//! A day means its start (00:00 in `timezone`).
//!
//! Invariants: the result is never after `now`; the reader is pure (no clock, no config);
//! anything it does not know is Ok(None) (the future reader may still read it), a number too
//! large to mean anything is [`WhenError::TooFar`].

use chrono::{DateTime, Datelike, Days, Months, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};

use super::{WhenContext, WhenError};
use crate::sentence::tokens::{words, Join};

/// Longest look back: ten years.
const MAX_DAYS_BACK: u64 = 3_660;

/// A time at or before `ctx.now` that `text` names, or None when it names no past time.
pub fn find_past(text: &str, ctx: &WhenContext) -> Result<Option<DateTime<Utc>>, WhenError> {
    let owned = words(text, Join::TimeMarks);
    let words: Vec<&str> = owned.iter().map(String::as_str).collect();
    let words = match words.first() {
        Some(&("since" | "from" | "after")) => &words[1..],
        _ => &words[..],
    };
    let today = ctx.now.with_timezone(&ctx.timezone).date_naive();
    let found = match words {
        ["today"] => Some(start_of(today, ctx)),
        ["yesterday"] => today.pred_opt().map(|day| start_of(day, ctx)),
        ["last", "week"] => week_start(today)
            .checked_sub_days(Days::new(7))
            .map(|day| start_of(day, ctx)),
        ["this", "week"] => Some(start_of(week_start(today), ctx)),
        ["last", "month"] => month_start(today)
            .checked_sub_months(Months::new(1))
            .map(|day| start_of(day, ctx)),
        ["this", "month"] => Some(start_of(month_start(today), ctx)),
        ["last", day] | [day] if weekday(day).is_some() => weekday(day)
            .and_then(|wanted| latest_before(today, wanted))
            .map(|day| start_of(day, ctx)),
        [count, unit, "ago"] => Some(ago(count, unit, ctx)?),
        [date] => NaiveDate::parse_from_str(date, "%Y-%m-%d")
            .ok()
            .map(|day| start_of(day, ctx)),
        _ => None,
    };
    Ok(found.filter(|at| *at <= ctx.now))
}

/// "3 days ago", "an hour ago".
fn ago(count: &str, unit: &str, ctx: &WhenContext) -> Result<DateTime<Utc>, WhenError> {
    let count: u64 = match count {
        "a" | "an" | "one" => 1,
        digits => digits.parse().map_err(|_| WhenError::TooFar)?,
    };
    let unit = unit.strip_suffix('s').unwrap_or(unit);
    let days = match unit {
        "minute" | "min" => count / (24 * 60),
        "hour" | "hr" => count / 24,
        "day" => count,
        "week" => count.saturating_mul(7),
        "month" => count.saturating_mul(31),
        _ => return Err(WhenError::TooFar),
    };
    if days > MAX_DAYS_BACK {
        return Err(WhenError::TooFar);
    }
    let back = match unit {
        "minute" | "min" => chrono::Duration::minutes(i64::try_from(count).unwrap_or(0)),
        "hour" | "hr" => chrono::Duration::hours(i64::try_from(count).unwrap_or(0)),
        _ => {
            // Calendar days and months on the person's calendar, keeping the time of day.
            let local = ctx.now.with_timezone(&ctx.timezone).naive_local();
            let earlier = match unit {
                "month" => local.checked_sub_months(Months::new(u32::try_from(count).unwrap_or(0))),
                _ => local.checked_sub_days(Days::new(days)),
            };
            return earlier
                .and_then(|at| ctx.timezone.from_local_datetime(&at).earliest())
                .map(|at| at.with_timezone(&Utc))
                .ok_or(WhenError::TooFar);
        }
    };
    ctx.now.checked_sub_signed(back).ok_or(WhenError::TooFar)
}

fn weekday(word: &str) -> Option<Weekday> {
    Some(match word {
        "monday" | "mon" => Weekday::Mon,
        "tuesday" | "tue" | "tues" => Weekday::Tue,
        "wednesday" | "wed" => Weekday::Wed,
        "thursday" | "thu" | "thurs" => Weekday::Thu,
        "friday" | "fri" => Weekday::Fri,
        "saturday" | "sat" => Weekday::Sat,
        "sunday" | "sun" => Weekday::Sun,
        _ => return None,
    })
}

/// The latest `wanted` day strictly before `today`.
fn latest_before(today: NaiveDate, wanted: Weekday) -> Option<NaiveDate> {
    let back = (7 + today.weekday().num_days_from_monday() - wanted.num_days_from_monday()) % 7;
    today.checked_sub_days(Days::new(if back == 0 { 7 } else { u64::from(back) }))
}

fn week_start(day: NaiveDate) -> NaiveDate {
    day.checked_sub_days(Days::new(u64::from(day.weekday().num_days_from_monday())))
        .unwrap_or(day)
}

fn month_start(day: NaiveDate) -> NaiveDate {
    day.with_day(1).unwrap_or(day)
}

/// 00:00 of `day` in the person's zone (the first instant of it across a DST gap).
fn start_of(day: NaiveDate, ctx: &WhenContext) -> DateTime<Utc> {
    let midnight = day.and_time(NaiveTime::MIN);
    ctx.timezone
        .from_local_datetime(&midnight)
        .earliest()
        .or_else(|| {
            ctx.timezone
                .from_local_datetime(&(midnight + chrono::Duration::hours(1)))
                .earliest()
        })
        .map_or(ctx.now, |at| at.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> WhenContext {
        // Wednesday 25 November 2026, 15:00 in Paris.
        WhenContext {
            now: Utc
                .with_ymd_and_hms(2026, 11, 25, 14, 0, 0)
                .single()
                .unwrap_or_default(),
            timezone: chrono_tz::Europe::Paris,
            current_start: None,
            later: std::time::Duration::from_secs(3 * 3600),
        }
    }

    fn local(text: &str) -> Option<String> {
        find_past(text, &ctx()).ok().flatten().map(|at| {
            at.with_timezone(&chrono_tz::Europe::Paris)
                .format("%a %d %H:%M")
                .to_string()
        })
    }

    #[test]
    fn past_words_read_on_the_persons_calendar() {
        let table = [
            ("today", Some("Wed 25 00:00")),
            ("yesterday", Some("Tue 24 00:00")),
            ("since yesterday", Some("Tue 24 00:00")),
            ("3 days ago", Some("Sun 22 15:00")),
            ("an hour ago", Some("Wed 25 14:00")),
            ("last week", Some("Mon 16 00:00")),
            ("this week", Some("Mon 23 00:00")),
            ("last month", Some("Thu 01 00:00")),
            ("this month", Some("Sun 01 00:00")),
            ("since monday", Some("Mon 23 00:00")),
            ("last wednesday", Some("Wed 18 00:00")),
            ("2026-11-02", Some("Mon 02 00:00")),
            // Not past times: left for the future reader, or nothing.
            ("tomorrow", None),
            ("next friday", None),
            ("2027-01-01", None),
            ("the passport office", None),
        ];
        for (text, expected) in table {
            assert_eq!(local(text).as_deref(), expected, "{text}");
        }
        assert_eq!(find_past("99999 days ago", &ctx()), Err(WhenError::TooFar));
    }
}
