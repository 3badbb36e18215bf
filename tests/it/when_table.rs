//! The reschedule-time table: one line per phrase, read as "saying TEXT at NOW gives EXPECTED".
//!
//! `now` is local wall-clock time written with its weekday ("Fri 2026-03-27 10:00"), in
//! Europe/Berlin unless a zone follows; ", task at <local time>" sets the task's current start.
//! Expected times are local too, with the UTC offset appended where a DST change makes it matter.
//! Weekdays are checked against the dates, so a wrong weekday in a line fails loudly.
//!
//! Calendar notes: Berlin springs forward on Sun 2026-03-29 (02:00 -> 03:00) and falls back on
//! Sun 2026-10-25 (03:00 -> 02:00); New York springs forward on Sun 2026-03-08.

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use donna::tasks::when::{
    describe, describe_absolute, find_when, find_when_span, TimeAnchor, WhenContext, WhenError,
};

enum Expect {
    At(&'static str),
    Fails(WhenError),
    Nothing,
}
use Expect::{At, Fails, Nothing};
use TimeAnchor::{Deadline, Start};

const FRI: &str = "Fri 2026-03-27 10:00";
const MON: &str = "Mon 2026-03-23 10:00";

fn parse_local(written: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(written.trim(), "%a %Y-%m-%d %H:%M")
        .unwrap_or_else(|e| panic!("bad local time {written:?} in the table: {e}"))
}

fn to_utc(tz: Tz, written: &str) -> DateTime<Utc> {
    tz.from_local_datetime(&parse_local(written))
        .single()
        .unwrap_or_else(|| panic!("{written:?} is not a single instant in {tz}"))
        .with_timezone(&Utc)
}

/// "Fri 2026-03-27 10:00[ Zone/Name][, task at Fri 2026-03-27 07:30]"
fn context(now: &str) -> WhenContext {
    let (now, task) = match now.split_once(", task at ") {
        Some((now, task)) => (now, Some(task)),
        None => (now, None),
    };
    let fields: Vec<&str> = now.split_whitespace().collect();
    let timezone: Tz = match fields.get(3) {
        Some(name) => name
            .parse()
            .unwrap_or_else(|e| panic!("bad zone {name:?}: {e}")),
        None => chrono_tz::Europe::Berlin,
    };
    let now = fields.get(..3).map(|f| f.join(" ")).unwrap_or_default();
    WhenContext {
        now: to_utc(timezone, &now),
        timezone,
        current_start: task.map(|t| to_utc(timezone, t)),
        later: std::time::Duration::from_secs(3 * 3600),
    }
}

fn check(text: &str, now: &str, expected: Expect) {
    let ctx = context(now);
    let got = find_when(text, &ctx);
    match expected {
        At(want) => {
            let with_offset = want.contains('+') || want.matches('-').count() > 2;
            let date_and_time = if with_offset {
                want.rsplit_once(' ').map_or(want, |(head, _)| head)
            } else {
                want
            };
            parse_local(date_and_time); // validates the weekday written in the table
            let format = if with_offset {
                "%a %Y-%m-%d %H:%M %:z"
            } else {
                "%a %Y-%m-%d %H:%M"
            };
            let got = got
                .map(|at| at.map(|at| at.with_timezone(&ctx.timezone).format(format).to_string()));
            assert_eq!(got, Ok(Some(want.to_owned())), "{text:?} at {now}");
        }
        Fails(error) => assert_eq!(got, Err(error), "{text:?} at {now}"),
        Nothing => assert_eq!(got, Ok(None), "{text:?} at {now}"),
    }
}

fn no_such_time(written: &str) -> Expect {
    Fails(WhenError::NoSuchTime(written.to_owned()))
}

// The tables below keep one case per line on purpose, so they are skipped by rustfmt.

#[rustfmt::skip]
#[test]
fn tomorrow_and_tonight() {
    check("push it to tomorrow", FRI, At("Sat 2026-03-28 09:00"));
    check("Tomorrow!", FRI, At("Sat 2026-03-28 09:00"));
    check("tmrw pls", FRI, At("Sat 2026-03-28 09:00"));
    check("tomorrow 3pm", FRI, At("Sat 2026-03-28 15:00"));
    check("TOMORROW, 3PM.", FRI, At("Sat 2026-03-28 15:00"));
    check("3 pm tomorrow", FRI, At("Sat 2026-03-28 15:00"));
    check("tomorrow at 15:00", FRI, At("Sat 2026-03-28 15:00"));
    check("tomorrow at 17", FRI, At("Sat 2026-03-28 17:00"));
    check("tomorrow morning", FRI, At("Sat 2026-03-28 09:00"));
    check("tomorrow afternoon", FRI, At("Sat 2026-03-28 14:00"));
    check("tomorrow evening", FRI, At("Sat 2026-03-28 18:00"));
    check("tomorrow night", FRI, At("Sat 2026-03-28 20:00"));
    check("tomorrow morning at 7", FRI, At("Sat 2026-03-28 07:00"));
    check("the day after tomorrow", FRI, At("Sun 2026-03-29 09:00 +02:00"));
    check("tonight", FRI, At("Fri 2026-03-27 20:00"));
    check("tonight at 9", FRI, At("Fri 2026-03-27 21:00"));
    check("tonight", "Fri 2026-03-27 21:00", Fails(WhenError::PastTime));
}

#[rustfmt::skip]
#[test]
fn the_current_start_keeps_its_time_of_day() {
    let task_at_0730 = "Fri 2026-03-27 10:00, task at Fri 2026-03-27 07:30";
    let task_at_1500 = "Fri 2026-03-27 10:00, task at Fri 2026-03-27 15:00";
    let task_at_0800 = "Fri 2026-03-27 10:00, task at Fri 2026-03-27 08:00";
    check("tomorrow", task_at_0730, At("Sat 2026-03-28 07:30"));
    check("tomorrow morning", task_at_0730, At("Sat 2026-03-28 09:00"));
    check("tomorrow at 4pm", task_at_0730, At("Sat 2026-03-28 16:00"));
    check("monday", task_at_0730, At("Mon 2026-03-30 07:30"));
    check("next week", task_at_0730, At("Mon 2026-03-30 07:30"));
    check("dec 3", task_at_0730, At("Thu 2026-12-03 07:30"));
    check("today", task_at_0730, At("Fri 2026-03-27 18:00"));
    check("later", task_at_0730, At("Fri 2026-03-27 13:00"));
    check("push it by a day", task_at_1500, At("Sat 2026-03-28 15:00"));
    check("by 2 hours", task_at_1500, At("Fri 2026-03-27 17:00"));
    check("by 2 hours", FRI, At("Fri 2026-03-27 12:00"));
    check("by an hour", task_at_0800, Fails(WhenError::PastTime));
}

#[rustfmt::skip]
#[test]
fn daylight_saving_changes() {
    check("tomorrow", "Sat 2026-03-28 10:00", At("Sun 2026-03-29 09:00 +02:00"));
    check("tomorrow", "Sat 2026-03-28 10:00, task at Sat 2026-03-28 02:30", At("Sun 2026-03-29 03:00 +02:00"));
    check("tomorrow", "Sat 2026-10-24 10:00, task at Sat 2026-10-24 02:30", At("Sun 2026-10-25 02:30 +02:00"));
    check("tomorrow", "Sat 2026-10-24 10:00", At("Sun 2026-10-25 09:00 +01:00"));
    check("in 2 hours", "Sun 2026-03-29 01:30", At("Sun 2026-03-29 04:30 +02:00"));
    check("in 1 day", "Sat 2026-03-28 10:00", At("Sun 2026-03-29 10:00 +02:00"));
    check("in 3 days", FRI, At("Mon 2026-03-30 10:00 +02:00"));
    check("at 02:30", "Sat 2026-03-28 10:00", At("Sun 2026-03-29 03:00 +02:00"));
}

#[rustfmt::skip]
#[test]
fn later_and_durations() {
    check("later", FRI, At("Fri 2026-03-27 13:00"));
    check("later today", FRI, At("Fri 2026-03-27 13:00"));
    check("in a bit", FRI, At("Fri 2026-03-27 13:00"));
    check("I'll do it later, friday", MON, At("Fri 2026-03-27 09:00"));
    check("later today at 5pm", FRI, At("Fri 2026-03-27 17:00"));
    check("in 2 hours", FRI, At("Fri 2026-03-27 12:00"));
    check("in 30 minutes", FRI, At("Fri 2026-03-27 10:30"));
    check("in an hour", FRI, At("Fri 2026-03-27 11:00"));
    check("in half an hour", FRI, At("Fri 2026-03-27 10:30"));
    check("in a couple of hours", FRI, At("Fri 2026-03-27 12:00"));
    check("in 2h", FRI, At("Fri 2026-03-27 12:00"));
    check("in 45m", FRI, At("Fri 2026-03-27 10:45"));
    check("in 1h30m", FRI, At("Fri 2026-03-27 11:30"));
    check("in 1 hour and 30 minutes", FRI, At("Fri 2026-03-27 11:30"));
    check("snooze 20 min", FRI, At("Fri 2026-03-27 10:20"));
    check("in a week", FRI, At("Fri 2026-04-03 10:00"));
    check("in two weeks", FRI, At("Fri 2026-04-10 10:00"));
    check("in a month", FRI, At("Mon 2026-04-27 10:00"));
    check("in 2 days at 3pm", FRI, At("Sun 2026-03-29 15:00"));
    check("in 2 hours at 5pm", FRI, Fails(WhenError::Conflicting));
    check("in 0 minutes", FRI, Fails(WhenError::PastTime));
    check("in 100000 days", FRI, Fails(WhenError::TooFar));
    check("in 99999999999999999999999 minutes", FRI, Fails(WhenError::TooFar));
    check("in 4294967296 months", FRI, Fails(WhenError::TooFar));
    check("an hour from now", FRI, At("Fri 2026-03-27 11:00"));
    check("2 days ago", FRI, Fails(WhenError::PastDate));
    check("later this week", FRI, Fails(WhenError::Unread("later this week".into())));
    check("at 15h", FRI, At("Fri 2026-03-27 15:00"));
    check("what a day", FRI, Nothing);
}

#[rustfmt::skip]
#[test]
fn weekdays() {
    check("friday", FRI, At("Fri 2026-04-03 09:00"));
    check("friday", MON, At("Fri 2026-03-27 09:00"));
    check("this friday", MON, At("Fri 2026-03-27 09:00"));
    check("next friday", MON, At("Fri 2026-03-27 09:00"));
    check("friday next week", MON, At("Fri 2026-04-03 09:00"));
    check("next week on friday", MON, At("Fri 2026-04-03 09:00"));
    check("move it to monday", FRI, At("Mon 2026-03-30 09:00"));
    check("on mon", FRI, At("Mon 2026-03-30 09:00"));
    check("monday's fine", FRI, At("Mon 2026-03-30 09:00"));
    check("this tuesday", FRI, At("Tue 2026-03-31 09:00"));
    check("next tuesday", FRI, At("Tue 2026-03-31 09:00"));
    check("thursday 3pm", FRI, At("Thu 2026-04-02 15:00"));
    check("wed at 15:30", FRI, At("Wed 2026-04-01 15:30"));
    check("sunday", FRI, At("Sun 2026-03-29 09:00 +02:00"));
    check("on sat", FRI, At("Sat 2026-03-28 09:00"));
    check("I sat on it", FRI, Nothing);
    check("friday 4 dec", FRI, At("Fri 2026-12-04 09:00"));
    check("thursday 4 dec", FRI, Fails(WhenError::WeekdayMismatch { date: "4 December".into(), actual: "Friday", said: "Thursday" }));
    check("tomorrow, saturday", FRI, At("Sat 2026-03-28 09:00"));
    check("last friday", FRI, Fails(WhenError::PastDate));
    check("move it from friday to monday", MON, At("Mon 2026-03-30 09:00"));
}

#[rustfmt::skip]
#[test]
fn weeks_months_and_weekends() {
    check("next week", FRI, At("Mon 2026-03-30 09:00"));
    check("next week", "Sun 2026-03-29 11:00", At("Mon 2026-03-30 09:00"));
    check("next week at 2pm", FRI, At("Mon 2026-03-30 14:00"));
    check("next month", FRI, At("Wed 2026-04-01 09:00"));
    check("next month", "Tue 2026-12-15 10:00", At("Fri 2027-01-01 09:00"));
    check("this weekend", FRI, At("Sat 2026-03-28 10:00"));
    check("the weekend", "Sat 2026-03-28 08:00", At("Sat 2026-03-28 10:00"));
    check("weekend", "Sat 2026-03-28 11:00", At("Sun 2026-03-29 10:00 +02:00"));
    check("weekend", "Sun 2026-03-29 11:00", At("Sat 2026-04-04 10:00"));
    check("last week", FRI, Fails(WhenError::PastDate));
    check("yesterday", FRI, Fails(WhenError::PastDate));
}

#[rustfmt::skip]
#[test]
fn explicit_dates() {
    check("2026-12-03", FRI, At("Thu 2026-12-03 09:00"));
    check("2026-12-03 14:00", FRI, At("Thu 2026-12-03 14:00"));
    check("2026-12-03T14:00", FRI, At("Thu 2026-12-03 14:00"));
    check("3 dec", FRI, At("Thu 2026-12-03 09:00"));
    check("dec 3", FRI, At("Thu 2026-12-03 09:00"));
    check("December 3rd at 2:30pm", FRI, At("Thu 2026-12-03 14:30"));
    check("3rd of december 2027", FRI, At("Fri 2027-12-03 09:00"));
    check("feb 2", FRI, At("Tue 2027-02-02 09:00"));
    check("march 27", FRI, At("Fri 2026-03-27 18:00"));
    check("march 27 at 9am", FRI, Fails(WhenError::PastTime));
    check("feb 30", FRI, Fails(WhenError::NoSuchDate { day: 30, month: "February" }));
    check("2026-04-31", FRI, Fails(WhenError::NoSuchDate { day: 31, month: "April" }));
    check("2027-02-29", FRI, Fails(WhenError::NotLeapYear(2027)));
    check("2026-13-01", FRI, Fails(WhenError::NoSuchMonth(13)));
    check("2026-12-03T25:00", FRI, no_such_time("25:00"));
    check("2020-01-01", FRI, Fails(WhenError::PastDate));
    check("2099-01-01", FRI, Fails(WhenError::TooFar));
    check("3/12", FRI, Fails(WhenError::NumericDate { written: "3/12".into(), one: "3 December".into(), other: "12 March".into() }));
    check("may I move it", FRI, Nothing);
}

#[rustfmt::skip]
#[test]
fn times_alone() {
    check("at 5pm", FRI, At("Fri 2026-03-27 17:00"));
    check("5pm", FRI, At("Fri 2026-03-27 17:00"));
    check("5.30pm", FRI, At("Fri 2026-03-27 17:30"));
    check("5:30 p.m.", FRI, At("Fri 2026-03-27 17:30"));
    check("at 17:00", FRI, At("Fri 2026-03-27 17:00"));
    check("17:30", FRI, At("Fri 2026-03-27 17:30"));
    check("noon", FRI, At("Fri 2026-03-27 12:00"));
    check("at 12", FRI, At("Fri 2026-03-27 12:00"));
    check("12am", FRI, At("Sat 2026-03-28 00:00"));
    check("at 9am", FRI, At("Sat 2026-03-28 09:00"));
    check("8:00", FRI, At("Sat 2026-03-28 08:00"));
    check("00:30", FRI, At("Sat 2026-03-28 00:30"));
    check("in the morning", FRI, At("Sat 2026-03-28 09:00"));
    check("at 3 in the afternoon", FRI, At("Fri 2026-03-27 15:00"));
    check("at 3", FRI, Fails(WhenError::AmbiguousHour(3)));
    check("at 6", FRI, Fails(WhenError::AmbiguousHour(6)));
    check("at 1", FRI, Fails(WhenError::AmbiguousHour(1)));
    check("at 7", FRI, At("Sat 2026-03-28 07:00"));
    check("at 9", FRI, At("Sat 2026-03-28 09:00"));
    check("at 9", "Mon 2026-03-23 07:00", At("Mon 2026-03-23 09:00"));
    check("at 11", FRI, At("Fri 2026-03-27 11:00"));
    check("around 10", FRI, At("Sat 2026-03-28 10:00"));
    check("tomorrow at 8", FRI, At("Sat 2026-03-28 08:00"));
    check("tonight at 8", FRI, At("Fri 2026-03-27 20:00"));
    check("tomorrow evening at 7", FRI, At("Sat 2026-03-28 19:00"));
    check("today at 8", FRI, Fails(WhenError::PastTime));
    check("tomorrow at 5", FRI, Fails(WhenError::AmbiguousHour(5)));
    check("midnight", FRI, At("Sat 2026-03-28 00:00"));
    check("tomorrow 25:00", FRI, no_such_time("25:00"));
    check("tomorrow at 10:61", FRI, no_such_time("10:61"));
    check("tomorrow at 13pm", FRI, no_such_time("13pm"));
    check("at 24", FRI, no_such_time("24:00"));
}

#[rustfmt::skip]
#[test]
fn today() {
    check("today", FRI, At("Fri 2026-03-27 18:00"));
    check("today", "Fri 2026-03-27 19:00", At("Fri 2026-03-27 22:00"));
    check("today at 4pm", FRI, At("Fri 2026-03-27 16:00"));
    check("today at 8am", FRI, Fails(WhenError::PastTime));
    check("this morning", FRI, Fails(WhenError::PastTime));
    check("this evening", FRI, At("Fri 2026-03-27 18:00"));
}

#[rustfmt::skip]
#[test]
fn whole_words_and_no_time() {
    check("tomorrowland", FRI, Nothing);
    check("push it", FRI, Nothing);
    check("reschedule", FRI, Nothing);
    check("move it please", FRI, Nothing);
    check("", FRI, Nothing);
    check("not tomorrow", FRI, Nothing);
    check("fridays are busy", FRI, Nothing);
    check("task 3 of 5", FRI, Nothing);
    check("can't today, tomorrow?", FRI, At("Sat 2026-03-28 09:00"));
    check("it was due yesterday, push to friday", MON, At("Fri 2026-03-27 09:00"));
    check("yesterday at 5pm", FRI, Fails(WhenError::PastDate));
    check("tomorrow or friday", MON, Fails(WhenError::Conflicting));
    check("tomorrow, yes tomorrow", FRI, At("Sat 2026-03-28 09:00"));
}

#[rustfmt::skip]
#[test]
fn other_timezones() {
    let ny = "Sat 2026-03-07 10:00 America/New_York";
    check("tomorrow", ny, At("Sun 2026-03-08 09:00 -04:00"));
    check("at 2:30am", ny, At("Sun 2026-03-08 03:00 -04:00"));
    check("friday 5pm", "Fri 2026-11-27 10:00 America/New_York", At("Fri 2026-12-04 17:00"));
    check("next month", "Mon 2026-11-30 10:00 America/New_York", At("Tue 2026-12-01 09:00"));
    check("in 2 hours", "Thu 2026-12-31 23:00 UTC", At("Fri 2027-01-01 01:00"));
    check("tomorrow", "Thu 2026-12-31 10:00 UTC", At("Fri 2027-01-01 09:00"));
    check("dec 31 23:59", "Thu 2026-12-31 10:00 UTC", At("Thu 2026-12-31 23:59"));
}

#[rustfmt::skip]
#[test]
fn capture_phrases() {
    check("next tuesday at 2pm", FRI, At("Tue 2026-03-31 14:00"));
    check("in 20 minutes", FRI, At("Fri 2026-03-27 10:20"));
    check("by december 15", FRI, At("Tue 2026-12-15 09:00"));
    check("december 15", FRI, At("Tue 2026-12-15 09:00"));
    check("dec 15th", FRI, At("Tue 2026-12-15 09:00"));
    check("friday 9am", FRI, At("Fri 2026-04-03 09:00"));
    check("on friday", FRI, At("Fri 2026-04-03 09:00"));
    check("at 9am on monday", FRI, At("Mon 2026-03-30 09:00"));
    check("this evening", FRI, At("Fri 2026-03-27 18:00"));
    check("tonight", FRI, At("Fri 2026-03-27 20:00"));
    check("remind me to pay rent friday 9am", FRI, At("Fri 2026-04-03 09:00"));
    check("add call the bank by december 15", FRI, At("Tue 2026-12-15 09:00"));
    check("remind me tomorrow at 8 to call mom", FRI, At("Sat 2026-03-28 08:00"));
    check("submit report due next tuesday at 2pm", FRI, At("Tue 2026-03-31 14:00"));
    check("pay rent due friday", MON, At("Fri 2026-03-27 09:00"));
    check("finish the essay before friday", MON, At("Fri 2026-03-27 09:00"));
    check("renew the passport until dec 15th", FRI, At("Tue 2026-12-15 09:00"));
}

/// Captures full of numbers and words that look like times but are not.
#[rustfmt::skip]
#[test]
fn captures_without_a_time() {
    check("remind me to call mom", FRI, Nothing);
    check("buy 8 eggs", FRI, Nothing);
    check("read chapter 9", FRI, Nothing);
    check("book a table for 8", FRI, Nothing);
    check("meet at the station", FRI, Nothing);
    check("pay 15 dollars to anna", FRI, Nothing);
    check("order 2 pizzas", FRI, Nothing);
    check("sat down with the team", FRI, Nothing);
    check("reply to the 3rd email", FRI, Nothing);
    check("plan the march madness pool", FRI, Nothing);
    check("may I add water the plants", FRI, Nothing);
    check("due diligence for the deal", FRI, Nothing);
    check("update the 2.5 release notes", FRI, Nothing);
    check("call room 8 at the hotel", FRI, Nothing);
    check("watch the morningside video", FRI, Nothing);
}

/// Removes the ranges from the text and collapses the spaces left behind.
fn remaining(text: &str, ranges: &[std::ops::Range<usize>]) -> String {
    let mut kept = String::new();
    let mut from = 0;
    for range in ranges {
        kept.push_str(&text[from..range.start]);
        kept.push(' ');
        from = range.end;
    }
    kept.push_str(&text[from..]);
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

enum SpanExpect {
    Leaves(&'static str, TimeAnchor),
    SpanFails(WhenError),
    NoTime,
}
use SpanExpect::{Leaves, NoTime, SpanFails};

fn check_span(text: &str, now: &str, expected: SpanExpect) {
    let ctx = context(now);
    let got = find_when_span(text, &ctx);
    // The span reading is the plain reading with words attached, never a different answer.
    assert_eq!(
        got.as_ref().map(|span| span.as_ref().map(|s| s.at)),
        find_when(text, &ctx)
            .as_ref()
            .map(|at| at.as_ref().copied()),
        "{text:?}"
    );
    match expected {
        Leaves(rest, anchor) => {
            let span = match got {
                Ok(Some(span)) => span,
                other => panic!("{text:?} at {now}: expected a time, got {other:?}"),
            };
            assert_eq!(
                (remaining(text, &span.ranges).as_str(), span.anchor),
                (rest, anchor),
                "{text:?}"
            );
        }
        SpanFails(error) => assert_eq!(got, Err(error), "{text:?}"),
        NoTime => assert_eq!(got, Ok(None), "{text:?}"),
    }
}

#[rustfmt::skip]
#[test]
fn the_words_of_the_time_are_cut_from_the_capture() {
    // deadline words
    check_span("call the bank by december 15", FRI, Leaves("call the bank", Deadline));
    check_span("submit report due next tuesday at 2pm", FRI, Leaves("submit report", Deadline));
    check_span("pay rent due friday", MON, Leaves("pay rent", Deadline));
    check_span("pay rent due by friday", MON, Leaves("pay rent", Deadline));
    check_span("pay rent due on friday", MON, Leaves("pay rent", Deadline));
    check_span("finish the essay before friday", MON, Leaves("finish the essay", Deadline));
    check_span("renew the passport until dec 15th", FRI, Leaves("renew the passport", Deadline));
    check_span("return the books till monday", FRI, Leaves("return the books", Deadline));
    check_span("send the deck by the weekend", FRI, Leaves("send the deck", Deadline));
    // start words, and none
    check_span("remind me to pay rent friday 9am", FRI, Leaves("remind me to pay rent", Start));
    check_span("call mom at 5pm", FRI, Leaves("call mom", Start));
    check_span("dentist on monday", FRI, Leaves("dentist", Start));
    check_span("stretch in 20 minutes", FRI, Leaves("stretch", Start));
    check_span("book a table for friday", FRI, Leaves("book a table", Start));
    check_span("water the plants this evening", FRI, Leaves("water the plants", Start));
    check_span("take out the trash tonight", FRI, Leaves("take out the trash", Start));
    check_span("call mom in the morning", FRI, Leaves("call mom", Start));
    check_span("pay rent around 10", FRI, Leaves("pay rent", Start));
    check_span("snooze 20 min", FRI, Leaves("snooze", Start));
    check_span("clean the garage this weekend", FRI, Leaves("clean the garage", Start));
    check_span("call grandma next week", FRI, Leaves("call grandma", Start));
    check_span("renew the lease in 2 days at 3pm", FRI, Leaves("renew the lease", Start));
    check_span("remind me at 9 to stretch", FRI, Leaves("remind me to stretch", Start));
    // the first piece decides: a start then a deadline word is a start
    check_span("at 9am on monday call the plumber", FRI, Leaves("call the plumber", Start));
    check_span("on monday, by 9am, call the plumber", FRI, Leaves(", call the plumber", Start));
    // a time in the middle of the sentence
    check_span("remind me tomorrow at 8 to call mom", FRI, Leaves("remind me to call mom", Start));
    check_span("email the team friday about the launch", FRI, Leaves("email the team about the launch", Start));
    check_span("check in on friday with anna", FRI, Leaves("check in with anna", Start));
    check_span("the day after tomorrow pick up the suit", FRI, Leaves("pick up the suit", Start));
    // two pieces apart, and two pieces side by side
    check_span("friday call the bank at 9am", FRI, Leaves("call the bank", Start));
    check_span("pay rent friday, 9am", FRI, Leaves("pay rent", Start));
    check_span("file taxes next week on friday", MON, Leaves("file taxes", Start));
    // words the reading did not use stay in the title
    check_span("call the guy I met yesterday tomorrow", FRI, Leaves("call the guy I met yesterday", Start));
    check_span("later, pay rent on friday", MON, Leaves("later, pay rent", Start));
    check_span("move the meeting from friday to monday", MON, Leaves("move the meeting from friday to", Start));
    // case and non-ASCII text survive the cut
    check_span("Remind me TOMORROW at 8 to call Mom", FRI, Leaves("Remind me to call Mom", Start));
    check_span("call Zoë tomorrow 🙂", FRI, Leaves("call Zoë 🙂", Start));
    check_span("İstanbul trip by dec 3", FRI, Leaves("İstanbul trip", Deadline));
    // no time at all
    check_span("remind me to call mom", FRI, NoTime);
    check_span("buy 8 eggs", FRI, NoTime);
    check_span("not tomorrow", FRI, NoTime);
    check_span("", FRI, NoTime);
    // a time that cannot be used
    check_span("pay rent at 3", FRI, SpanFails(WhenError::AmbiguousHour(3)));
    check_span("call mom feb 30", FRI, SpanFails(WhenError::NoSuchDate { day: 30, month: "February" }));
    check_span("dentist yesterday", FRI, SpanFails(WhenError::PastDate));
    check_span("pay rent friday or monday", FRI, SpanFails(WhenError::Conflicting));
}

fn check_absolute(at_local: &str, now: &str, expected: &str) {
    let ctx = context(now);
    let at = to_utc(ctx.timezone, at_local);
    assert_eq!(
        describe_absolute(at, ctx.timezone, ctx.now),
        expected,
        "{at_local} seen at {now}"
    );
}

#[rustfmt::skip]
#[test]
fn describing_times_absolutely() {
    check_absolute("Fri 2026-11-27 09:00", FRI, "Fri 27 Nov 09:00");
    check_absolute("Fri 2026-03-27 15:00", FRI, "Fri 27 Mar 15:00");
    check_absolute("Sat 2026-03-28 00:05", FRI, "Sat 28 Mar 00:05");
    check_absolute("Wed 2027-02-03 14:30", FRI, "Wed 3 Feb 2027 14:30");
    check_absolute("Wed 2025-12-31 23:00", FRI, "Wed 31 Dec 2025 23:00");
    check_absolute("Fri 2026-12-04 17:00", "Fri 2026-11-27 10:00 America/New_York", "Fri 4 Dec 17:00");

    // The year is the year in the user's zone: 23:30 UTC on 31 December is already 2027 in Berlin.
    let now = to_utc(chrono_tz::UTC, "Thu 2026-12-31 23:30");
    let at = to_utc(chrono_tz::Europe::Berlin, "Fri 2027-01-01 09:00");
    assert_eq!(describe_absolute(at, chrono_tz::Europe::Berlin, now), "Fri 1 Jan 09:00");
    assert_eq!(describe_absolute(at, chrono_tz::UTC, now), "Fri 1 Jan 2027 08:00");
}

fn check_describe(at_local: &str, now: &str, expected: &str) {
    let ctx = context(now);
    let at = to_utc(ctx.timezone, at_local);
    assert_eq!(describe(at, &ctx), expected, "{at_local} seen at {now}");
}

#[rustfmt::skip]
#[test]
fn describing_times() {
    check_describe("Fri 2026-03-27 15:00", FRI, "today at 15:00");
    check_describe("Fri 2026-03-27 08:00", FRI, "today at 08:00");
    check_describe("Sat 2026-03-28 09:00", FRI, "tomorrow at 09:00");
    check_describe("Thu 2026-03-26 08:00", FRI, "yesterday at 08:00");
    check_describe("Sun 2026-03-29 03:00", FRI, "Sunday 29 Mar at 03:00");
    check_describe("Fri 2026-04-03 09:00", FRI, "Friday 3 Apr at 09:00");
    check_describe("Fri 2025-12-05 09:00", "Mon 2025-12-01 10:00", "Friday 5 Dec at 09:00");
    check_describe("Wed 2027-02-03 14:30", FRI, "Wed 3 Feb 2027 at 14:30");
    check_describe("Fri 2027-01-01 09:00", "Thu 2026-12-31 10:00", "tomorrow at 09:00");
    check_describe("Tue 2027-01-05 09:00", "Thu 2026-12-31 10:00", "Tue 5 Jan 2027 at 09:00");
    check_describe("Wed 2020-01-01 09:00", FRI, "Wed 1 Jan 2020 at 09:00");
    check_describe("Fri 2026-03-27 22:00", "Fri 2026-03-27 10:00 America/New_York", "today at 22:00");

    // The same instant reads differently in another zone: 23:30 UTC on Friday is Saturday in Berlin.
    let ctx = context(FRI);
    let late_utc = to_utc(chrono_tz::UTC, "Fri 2026-03-27 23:30");
    assert_eq!(describe(late_utc, &ctx), "tomorrow at 00:30");

    // What find_when returns describes as the user would say it back.
    let next_week = find_when("next week", &ctx);
    assert_eq!(
        next_week.map(|at| at.map(|at| describe(at, &ctx))),
        Ok(Some("Monday 30 Mar at 09:00".to_owned()))
    );
}

#[test]
fn error_messages_read_as_sentences() {
    let cases = [
        (WhenError::PastDate, "that date is in the past"),
        (WhenError::PastTime, "that time has already passed"),
        (
            WhenError::NoSuchDate {
                day: 30,
                month: "February",
            },
            "there is no 30 February",
        ),
        (
            WhenError::NotLeapYear(2027),
            "there is no 29 February in 2027",
        ),
        (WhenError::NoSuchTime("25:00".into()), "there is no 25:00"),
        (WhenError::AmbiguousHour(3), "did you mean 3am or 3pm?"),
        (
            WhenError::WeekdayMismatch {
                date: "4 December".into(),
                actual: "Friday",
                said: "Thursday",
            },
            "4 December is a Friday, not a Thursday",
        ),
    ];
    for (error, message) in cases {
        assert_eq!(error.to_string(), message);
    }
}

/// Random phrases from the vocabulary, digits and punctuation: nothing may panic, and every time
/// returned must be ahead of now and within five years.
#[test]
fn random_phrases_never_panic() {
    const VOCABULARY: &[&str] = &[
        "tomorrow",
        "Tomorrow",
        "DEC",
        "İN",
        "due",
        "before",
        "until",
        "today",
        "tonight",
        "later",
        "in",
        "a",
        "an",
        "half",
        "hour",
        "hours",
        "h",
        "m",
        "min",
        "minutes",
        "day",
        "days",
        "d",
        "week",
        "weeks",
        "w",
        "month",
        "months",
        "mo",
        "next",
        "last",
        "this",
        "on",
        "at",
        "around",
        "by",
        "from",
        "not",
        "and",
        "ago",
        "the",
        "of",
        "after",
        "friday",
        "fri",
        "sat",
        "sun",
        "monday",
        "weekend",
        "morning",
        "afternoon",
        "evening",
        "night",
        "noon",
        "midnight",
        "dec",
        "december",
        "feb",
        "may",
        "am",
        "pm",
        "p.m.",
        "yesterday",
        "3rd",
        "29",
        "30",
        "31",
        "0",
        "12",
        "13",
        "24",
        "25",
        "61",
        "2026-12-03",
        "2027-02-29",
        "2026-03-29t02:30",
        "17:30",
        "25:00",
        "5.30pm",
        "1h30m",
        "99999999999999999999",
        "-",
        ":",
        ".",
        "/",
        ",",
        "'s",
        "é",
        "İ",
        "२",
        "🙂",
        // the grammar of issue 30: fractions, ordinals, points, relative times, zones, signs
        "half",
        "quarter",
        "couple",
        "few",
        "several",
        "1.5",
        "1,5",
        "-5",
        "−3",
        "minus",
        "21st",
        "twenty-first",
        "end",
        "mid",
        "middle",
        "beginning",
        "eod",
        "cob",
        "first",
        "thing",
        "midnight",
        "lunchtime",
        "o'clock",
        "past",
        "working",
        "business",
        "christmas",
        "years",
        "fortnight",
        "pst",
        "ist",
        "utc+2",
        "gmt-14",
        "+05:30",
        "america/new_york",
        "new",
        "york",
        "time",
        "3/12",
        "25/12",
        "5ish",
        "every",
        "mondays",
        "23:59:60",
        "1h15",
        "2-3",
        "99999999999999999999.5",
    ];
    let starts = [
        "Fri 2026-03-27 10:00",
        "Sat 2026-03-28 23:30",
        "Sun 2026-03-29 01:59",
        "Sun 2026-10-25 01:30",
        "Thu 2026-12-31 23:59",
        "Sat 2028-02-26 12:00 America/New_York",
        "Mon 2026-03-09 00:00 Pacific/Apia",
        "Tue 2026-06-30 23:00 UTC",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        // xorshift64: deterministic, so a failure reproduces.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let contexts: Vec<WhenContext> = starts.iter().map(|s| context(s)).collect();
    for round in 0..10_000u64 {
        let words = next() % 7;
        let mut text = String::new();
        for _ in 0..words {
            let pick = next();
            let word = match pick % 5 {
                0 => (pick >> 8).to_string(),
                1 => ((pick >> 8) % 100).to_string(),
                _ => VOCABULARY[(pick >> 8) as usize % VOCABULARY.len()].to_owned(),
            };
            text.push_str(&word);
            text.push(if next() % 4 == 0 { ',' } else { ' ' });
        }
        let mut ctx = contexts[round as usize % contexts.len()].clone();
        if next() % 3 == 0 {
            let hours = i64::try_from(next() % 24).unwrap_or(0);
            ctx.current_start = Some(ctx.now + chrono::TimeDelta::hours(hours - 12));
        }
        let plain = find_when(&text, &ctx);
        let span = find_when_span(&text, &ctx);
        assert_eq!(
            span.as_ref().map(|s| s.as_ref().map(|s| s.at)),
            plain.as_ref().map(|at| at.as_ref().copied()),
            "{text:?}: the span reading differs from the plain one"
        );
        if let Ok(Some(span)) = &span {
            assert!(!span.ranges.is_empty(), "{text:?}: a time from no words");
            let mut end = 0;
            for range in &span.ranges {
                assert!(
                    range.start >= end && range.start < range.end && range.end <= text.len(),
                    "{text:?}: ranges {:?} out of order, empty or outside the text",
                    span.ranges
                );
                assert!(
                    text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
                    "{text:?}: range {range:?} splits a character"
                );
                end = range.end;
            }
        }
        if let Ok(Some(at)) = plain {
            assert!(at > ctx.now, "{text:?} gave {at}, not after {}", ctx.now);
            assert!(
                at <= ctx.now + chrono::TimeDelta::days(5 * 366),
                "{text:?} gave {at}, too far ahead"
            );
            assert!(!describe(at, &ctx).is_empty());
        }
    }
}

/// Issue 16, item 1: a spelled-out or numeric count with a unit after a moving verb is an amount
/// of time from now, without "in" or "by"; the same words anywhere else name no time.
#[rustfmt::skip]
#[test]
fn amounts_after_a_moving_verb_need_no_in() {
    check("postpone a week", FRI, At("Fri 2026-04-03 10:00"));
    check("push it a week", FRI, At("Fri 2026-04-03 10:00"));
    check("Push it a week!", FRI, At("Fri 2026-04-03 10:00"));
    check("push it two days", FRI, At("Sun 2026-03-29 10:00 +02:00"));
    check("move it 3 hours", FRI, At("Fri 2026-03-27 13:00"));
    check("move it three hours", FRI, At("Fri 2026-03-27 13:00"));
    check("postpone one month", FRI, At("Mon 2026-04-27 10:00"));
    check("push it back a day", FRI, At("Sat 2026-03-28 10:00"));
    check("put it off a day", FRI, At("Sat 2026-03-28 10:00"));
    check("hold off for a day", FRI, At("Sat 2026-03-28 10:00"));
    check("delay it an hour and a half", FRI, At("Fri 2026-03-27 11:30"));
    check("delay it an hour", FRI, At("Fri 2026-03-27 11:00"));
    check("give me an hour", FRI, At("Fri 2026-03-27 11:00"));
    check("give me two hours", FRI, At("Fri 2026-03-27 12:00"));
    check("snooze for an hour", FRI, At("Fri 2026-03-27 11:00"));
    check("snooze for 3 hours", FRI, At("Fri 2026-03-27 13:00"));
    check("busy for a couple of hours", FRI, At("Fri 2026-03-27 12:00"));
    check("push it a day later", FRI, At("Sat 2026-03-28 10:00"));
    // Not an amount to move by: no moving verb before it; or words after it that make it another
    // thing ("a day before": before what?), which are asked about, never read as from now.
    check("what a day", FRI, Nothing);
    check("it's been a long week", FRI, Nothing);
    check("I'll do it one day", FRI, Nothing);
    check("a week", FRI, Nothing);
    check("wait a minute", FRI, Nothing);
    check("give me a break", FRI, Nothing);
    check("push it a day earlier", FRI, Fails(WhenError::Unread("a day earlier".into())));
    check("remind me a day before", FRI, Fails(WhenError::Unread("a day before".into())));
    check("move it a week early", FRI, Fails(WhenError::Unread("a week early".into())));
    check("postpone a fortnight", FRI, At("Fri 2026-04-10 10:00"));
    check("read one chapter a day", FRI, Nothing);
}

/// Issue 16, item 4: an impossible time in a reschedule reply is the reader's own reason.
#[rustfmt::skip]
#[test]
fn impossible_times_in_a_reply_keep_their_reason() {
    check("push it to 25:00", FRI, no_such_time("25:00"));
    check("push to feb 30", FRI, Fails(WhenError::NoSuchDate { day: 30, month: "February" }));
    check("move it to 31 april", FRI, Fails(WhenError::NoSuchDate { day: 31, month: "April" }));
    check("snooze feb 30", FRI, Fails(WhenError::NoSuchDate { day: 30, month: "February" }));
    check("push it to 13pm", FRI, no_such_time("13pm"));
    check("push it to 23:00", FRI, At("Fri 2026-03-27 23:00"));
}

/// Issue 16, item 5: a day without a time keeps the task's time of day only when it was chosen
/// (a quarter hour, no seconds); a leftover of "later" arithmetic gives way to 09:00.
#[rustfmt::skip]
#[test]
fn a_day_without_a_time_keeps_only_a_deliberate_time_of_day() {
    let at = |time: &str| format!("Mon 2026-03-23 10:00, task at Mon 2026-03-23 {time}");
    check("push it to friday", &at("03:22"), At("Fri 2026-03-27 09:00"));
    check("push it to friday", &at("07:30"), At("Fri 2026-03-27 07:30"));
    check("push it to friday", &at("15:45"), At("Fri 2026-03-27 15:45"));
    check("push it to friday", &at("17:00"), At("Fri 2026-03-27 17:00"));
    check("push it to friday", &at("10:10"), At("Fri 2026-03-27 09:00"));
    check("tomorrow", &at("13:07"), At("Tue 2026-03-24 09:00"));
    check("dec 3", &at("16:15"), At("Thu 2026-12-03 16:15"));
    check("dec 3", &at("16:14"), At("Thu 2026-12-03 09:00"));
    check("next week", &at("08:45"), At("Mon 2026-03-30 08:45"));
    check("friday 3pm", &at("03:22"), At("Fri 2026-03-27 15:00"));
    check("friday morning", &at("17:00"), At("Fri 2026-03-27 09:00"));
    check("weekend", &at("03:22"), At("Sat 2026-03-28 10:00"));
    // Seconds betray arithmetic too: 15:00:41 is "later" from 12:00:41, not a chosen 15:00.
    let mut ctx = context(&at("15:00"));
    ctx.current_start = ctx.current_start.map(|start| start + chrono::Duration::seconds(41));
    let got = find_when("push it to friday", &ctx).map(|at| at.map(|at| at.with_timezone(&ctx.timezone).format("%a %H:%M").to_string()));
    assert_eq!(got, Ok(Some("Fri 09:00".to_string())));
}

/// Issue 16, item 3: whether a reply is nothing but a time (then it answers a nudge as a
/// reschedule). Usable or not: "feb 30" is a time, answered with its reason.
#[rustfmt::skip]
#[test]
fn a_reply_that_is_only_a_time() {
    use donna::tasks::when::names_only_a_time;
    let only_a_time = [
        "friday 3pm", "Friday, 3pm.", "in 2 hours", "friday", "tomorrow morning", "next week",
        "at 5pm then", "maybe tomorrow", "on monday please", "dec 3 at 9am", "in 20 min",
        "tonight", "feb 30", "25:00", "the day after tomorrow", "2026-12-03", "this weekend",
        "later this week", "tomorrow before lunch", "in an hour and a bit", "3pm PST",
        "in an hour and a half", "on the 21st", "end of the week", "next working day",
        "after the weekend", "another hour", "2 more days",
    ];
    for text in only_a_time {
        assert!(names_only_a_time(text), "{text:?} is only a time");
    }
    let more_than_a_time = [
        "call mom friday", "fridays are busy", "push it to friday", "hello", "", "   ",
        "tomorrow I have a meeting", "not tomorrow", "what a day", "5", "task 3 of 5", "a week",
        "friday 3pm and make it urgent", "remind me friday", "I sat on it", "tomorrowland",
        "buy 8 eggs", "busy", "lunch with anna tomorrow", "the 3rd email", "8 hours of sleep",
    ];
    for text in more_than_a_time {
        assert!(!names_only_a_time(text), "{text:?} says more than a time");
    }
}
