//! The time grammar by category (issue 30 items 1 and 2, issue 28 item 12), one line per
//! sentence: "saying TEXT at NOW gives EXPECTED" for the reader, and "capturing BODY gives
//! TITLE with EXPECTED" for a capture (the real capture time reading and title cut, without the
//! HTTP turn; `tests/it/free_text.rs` runs a sample of each category end to end).
//!
//! `now` is local wall-clock time with its weekday, in Europe/Berlin (UTC+1 in winter) unless a
//! zone follows. Expected times are local to that zone. Every category has must-not rows:
//! sentences that look like times but are not, and titles whose numbers and day words stay.
//!
//! Calendar notes: Friday 27 November 2026 is the usual "now"; New York moves to summer time on
//! Sun 2027-03-14, Berlin on Sun 2027-03-28 (so for two weeks they are 5 hours apart, not 6).

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use donna::capture::time_words::{read, CaptureTime};
use donna::capture::title::title_from;
use donna::tasks::when::{describe, find_when, time_words, TimeAnchor, WhenContext, WhenError};

pub(crate) const NOW: &str = "Fri 2026-11-27 10:00";

pub(crate) enum Expect {
    At(&'static str),
    Fails(WhenError),
    Nothing,
}
pub(crate) use Expect::{At, Fails, Nothing};

fn parse_local(written: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(written.trim(), "%a %Y-%m-%d %H:%M")
        .unwrap_or_else(|e| panic!("bad local time {written:?} in the table: {e}"))
}

fn context(now: &str) -> WhenContext {
    let fields: Vec<&str> = now.split_whitespace().collect();
    let timezone: Tz = match fields.get(3) {
        Some(name) => name
            .parse()
            .unwrap_or_else(|e| panic!("bad zone {name:?}: {e}")),
        None => chrono_tz::Europe::Berlin,
    };
    let local = parse_local(&fields.get(..3).map(|f| f.join(" ")).unwrap_or_default());
    WhenContext {
        now: timezone
            .from_local_datetime(&local)
            .single()
            .unwrap_or_else(|| panic!("{now:?} is not one instant"))
            .with_timezone(&Utc),
        timezone,
        current_start: None,
        later: std::time::Duration::from_secs(3 * 3600),
    }
}

fn local(at: DateTime<Utc>, ctx: &WhenContext) -> String {
    at.with_timezone(&ctx.timezone)
        .format("%a %Y-%m-%d %H:%M")
        .to_string()
}

pub(crate) fn check(text: &str, now: &str, expected: Expect) {
    let ctx = context(now);
    let got = find_when(text, &ctx).map(|at| at.map(|at| local(at, &ctx)));
    match expected {
        At(want) => {
            parse_local(want); // the weekday written in the table must be right
            assert_eq!(got, Ok(Some(want.to_owned())), "{text:?} at {now}");
        }
        Fails(error) => assert_eq!(got, Err(error), "{text:?} at {now}"),
        Nothing => assert_eq!(got, Ok(None), "{text:?} at {now}"),
    }
}

pub(crate) fn unread(words: &str) -> Expect {
    Fails(WhenError::Unread(words.to_owned()))
}

/// A capture's body: the title left once the time words are cut, and the time read. A title
/// never keeps a word the reader counts as part of a time.
pub(crate) fn cap(body: &str, now: &str, title: &str, expected: Expect) {
    let ctx = context(now);
    let time = read(body, &ctx);
    let got_title = title_from(body, time.ranges());
    assert_eq!(got_title, title, "{body:?}: the title");
    match (expected, &time) {
        (At(want), CaptureTime::At { at, .. }) => {
            assert_eq!(local(*at, &ctx), want, "{body:?}: the time")
        }
        (Fails(error), CaptureTime::Unreadable { reason, .. }) => {
            assert_eq!(reason, &error, "{body:?}: the reason")
        }
        (Nothing, CaptureTime::None) => {}
        (_, other) => panic!("{body:?}: got {other:?}"),
    }
    // Whatever happened, no word of the title is a time word the reader saw.
    let left = time_words(&got_title);
    if !matches!(time, CaptureTime::None) {
        assert!(
            left.is_empty(),
            "{body:?}: the title {got_title:?} still holds time words {:?}",
            left.iter()
                .map(|r| &got_title[r.clone()])
                .collect::<Vec<_>>()
        );
    }
}

#[rustfmt::skip]
#[test]
fn compound_and_fractional_durations() {
    check("in half an hour", NOW, At("Fri 2026-11-27 10:30"));
    check("in a half hour", NOW, At("Fri 2026-11-27 10:30"));
    check("in half a day", NOW, At("Fri 2026-11-27 22:00"));
    check("in 2 and a half hours", NOW, At("Fri 2026-11-27 12:30"));
    check("in two and a half hours", NOW, At("Fri 2026-11-27 12:30"));
    check("in an hour and a half", NOW, At("Fri 2026-11-27 11:30"));
    check("in 1 hour and a half", NOW, At("Fri 2026-11-27 11:30"));
    check("in 1.5 hours", NOW, At("Fri 2026-11-27 11:30"));
    check("in 1,5 hours", NOW, At("Fri 2026-11-27 11:30"));
    check("in 2.25 hours", NOW, At("Fri 2026-11-27 12:15"));
    check("in 90 mins", NOW, At("Fri 2026-11-27 11:30"));
    check("in 90min", NOW, At("Fri 2026-11-27 11:30"));
    check("in 1h15", NOW, At("Fri 2026-11-27 11:15"));
    check("1h15", NOW, At("Fri 2026-11-27 11:15"));
    check("in 1h 15m", NOW, At("Fri 2026-11-27 11:15"));
    check("in 1 hr 15 min", NOW, At("Fri 2026-11-27 11:15"));
    check("in 1.5h", NOW, At("Fri 2026-11-27 11:30"));
    check("in 2 hours 30 minutes", NOW, At("Fri 2026-11-27 12:30"));
    check("in a couple of hours", NOW, At("Fri 2026-11-27 12:00"));
    check("in a few minutes", NOW, At("Fri 2026-11-27 10:03"));
    check("in a few hours", NOW, At("Fri 2026-11-27 13:00"));
    check("in a few days", NOW, At("Mon 2026-11-30 10:00"));
    check("in a quarter of an hour", NOW, At("Fri 2026-11-27 10:15"));
    check("in three quarters of an hour", NOW, At("Fri 2026-11-27 10:45"));
    check("in twenty minutes", NOW, At("Fri 2026-11-27 10:20"));
    check("in twenty five minutes", NOW, At("Fri 2026-11-27 10:25"));
    check("in forty-five minutes", NOW, At("Fri 2026-11-27 10:45"));
    check("in 2 weeks and 3 days", NOW, At("Mon 2026-12-14 10:00"));
    check("in a day and a half", NOW, At("Sat 2026-11-28 22:00"));
    check("in 1.5 days", NOW, At("Sat 2026-11-28 22:00"));
    check("in a fortnight", NOW, At("Fri 2026-12-11 10:00"));
    check("in a year", NOW, At("Sat 2027-11-27 10:00"));
    check("in 2 years", NOW, At("Mon 2028-11-27 10:00"));
    check("within 2 hours", NOW, At("Fri 2026-11-27 12:00"));
    check("another hour", NOW, At("Fri 2026-11-27 11:00"));
    check("2 more days", NOW, At("Sun 2026-11-29 10:00"));
    check("an extra week", NOW, At("Fri 2026-12-04 10:00"));
    check("buy another day pass", NOW, Nothing);
    check("2.5 hours from now", NOW, At("Fri 2026-11-27 12:30"));
    check("in 10 days time", NOW, At("Mon 2026-12-07 10:00"));
    check("in two weeks' time", NOW, At("Fri 2026-12-11 10:00"));
    check("in about an hour", NOW, At("Fri 2026-11-27 11:00"));
    check("in like 20 mins", NOW, At("Fri 2026-11-27 10:20"));
    check("in roughly 2 hours", NOW, At("Fri 2026-11-27 12:00"));
    check("in 3/4 of an hour", NOW, At("Fri 2026-11-27 10:45"));
    check("in 1 1/2 hours", NOW, At("Fri 2026-11-27 11:30"));
    check("in 90 seconds", NOW, At("Fri 2026-11-27 10:01"));
    check("remind me in 10", NOW, unread("in 10"));
    check("call back in a few", NOW, unread("in a few"));
    // Across Berlin's spring change (Sun 2027-03-28): days keep the wall time, hours elapse.
    check("in 2 weeks", "Fri 2027-03-19 10:00", At("Fri 2027-04-02 10:00"));
    check("in 336 hours", "Fri 2027-03-19 10:00", At("Fri 2027-04-02 11:00"));
    check("in a day and a half", "Sat 2027-03-27 10:00", At("Sun 2027-03-28 22:00"));
    // Words to ask about, never a guess.
    check("in several days", NOW, unread("several days"));
    check("in 1.5 months", NOW, unread("1.5 months"));
    check("in 2-3 days", NOW, unread("2-3 days"));
    check("in an hour or two", NOW, unread("or two"));
    check("in an hour and a bit", NOW, unread("and a bit"));
    // Must not: amounts that describe a thing, halves and quarters of other things.
    check("buy 2 and a half kilos of flour", NOW, Nothing);
    check("run a half marathon", NOW, Nothing);
    check("read 1.5 chapters", NOW, Nothing);
    check("half the team is out", NOW, Nothing);
    check("invite a couple of friends", NOW, Nothing);
    check("write it in a few words", NOW, Nothing);
    check("cut the budget by a quarter", NOW, Nothing);
    check("get 8 hours of sleep", NOW, Nothing);
    check("book a 30 minute walk", NOW, Nothing);
    check("plan the 2 day trip", NOW, Nothing);
}

#[rustfmt::skip]
#[test]
fn days_of_the_month() {
    check("on the 21st", NOW, At("Mon 2026-12-21 09:00"));
    check("the 3rd", NOW, At("Thu 2026-12-03 09:00"));
    check("on the 30th", NOW, At("Mon 2026-11-30 09:00"));
    check("on the twenty-first", NOW, At("Mon 2026-12-21 09:00"));
    check("on the twenty first", NOW, At("Mon 2026-12-21 09:00"));
    check("on the 28th at 3pm", NOW, At("Sat 2026-11-28 15:00"));
    check("by the 15th", NOW, At("Tue 2026-12-15 09:00"));
    check("on 21st", NOW, At("Mon 2026-12-21 09:00"));
    check("on the 1st", NOW, At("Tue 2026-12-01 09:00"));
    check("on the first", NOW, At("Tue 2026-12-01 09:00"));
    check("before the 20th", NOW, At("Sun 2026-12-20 09:00"));
    check("the 3rd of next month", NOW, At("Thu 2026-12-03 09:00"));
    check("the 15th of january", NOW, At("Fri 2027-01-15 09:00"));
    check("friday the 4th", NOW, At("Fri 2026-12-04 09:00"));
    check("move it to the 5th", NOW, At("Sat 2026-12-05 09:00"));
    check("the 27th", NOW, At("Fri 2026-11-27 18:00"));
    check("the 21st", "Mon 2026-12-21 08:00", At("Mon 2026-12-21 18:00"));
    check("on the 31st", NOW, Fails(WhenError::NoSuchDate { day: 31, month: "November" }));
    check("on the 29th", "Sat 2027-01-30 10:00", Fails(WhenError::NotLeapYear(2027)));
    check("the 5th of this month", NOW, Fails(WhenError::PastDate));
    check("thursday the 4th", NOW, Fails(WhenError::WeekdayMismatch { date: "4 December".into(), actual: "Friday", said: "Thursday" }));
    check("on the 32nd", NOW, unread("the 32nd"));
    // Must not: ordinals that describe a thing, and plain numbers.
    check("reply to the 3rd email", NOW, Nothing);
    check("read the 21st chapter", NOW, Nothing);
    check("meet on the 3rd floor", NOW, Nothing);
    check("celebrate the 50th anniversary", NOW, Nothing);
    check("do the first one", NOW, Nothing);
    check("read chapter 21", NOW, Nothing);
    check("win 1st prize", NOW, Nothing);
    check("the first thing I see", NOW, Nothing);
}

#[rustfmt::skip]
#[test]
fn named_points() {
    check("end of the day", NOW, At("Fri 2026-11-27 17:00"));
    check("end of the working day", NOW, At("Fri 2026-11-27 17:00"));
    check("this coming weekend", NOW, At("Sat 2026-11-28 10:00"));
    check("the weekend after next", NOW, At("Sat 2026-12-05 10:00"));
    check("the monday after next", NOW, At("Mon 2026-12-07 09:00"));
    check("early december", NOW, unread("early december"));
    check("late next month", NOW, unread("late next month"));
    check("by end of day", NOW, At("Fri 2026-11-27 17:00"));
    check("EOD", NOW, At("Fri 2026-11-27 17:00"));
    check("by COB", NOW, At("Fri 2026-11-27 17:00"));
    check("close of business", NOW, At("Fri 2026-11-27 17:00"));
    check("tomorrow EOD", NOW, At("Sat 2026-11-28 17:00"));
    check("monday end of day", NOW, At("Mon 2026-11-30 17:00"));
    check("end of the week", NOW, At("Fri 2026-11-27 17:00"));
    check("by the end of the week", NOW, At("Fri 2026-11-27 17:00"));
    check("EOW", NOW, At("Fri 2026-11-27 17:00"));
    check("end of the week", "Fri 2026-11-27 18:00", At("Fri 2026-12-04 17:00"));
    check("end of the week", "Sat 2026-11-28 10:00", At("Fri 2026-12-04 17:00"));
    check("end of next week", NOW, At("Fri 2026-12-04 17:00"));
    check("end of the month", NOW, At("Mon 2026-11-30 17:00"));
    check("end of month", NOW, At("Mon 2026-11-30 17:00"));
    check("end of next month", NOW, At("Thu 2026-12-31 17:00"));
    check("end of the year", NOW, At("Thu 2026-12-31 17:00"));
    check("end of january", NOW, At("Sun 2027-01-31 17:00"));
    check("end of february", NOW, At("Sun 2027-02-28 17:00"));
    check("mid january", NOW, At("Fri 2027-01-15 09:00"));
    check("mid-january", NOW, At("Fri 2027-01-15 09:00"));
    check("middle of january", NOW, At("Fri 2027-01-15 09:00"));
    check("mid-month", NOW, At("Tue 2026-12-15 09:00"));
    check("mid next month", NOW, At("Tue 2026-12-15 09:00"));
    check("mid next week", NOW, At("Wed 2026-12-02 09:00"));
    check("midweek", NOW, At("Wed 2026-12-02 09:00"));
    check("this weekend", NOW, At("Sat 2026-11-28 10:00"));
    check("next weekend", NOW, At("Sat 2026-11-28 10:00"));
    check("next weekend", "Sat 2026-11-28 09:00", At("Sat 2026-12-05 10:00"));
    check("early next week", NOW, At("Mon 2026-11-30 09:00"));
    check("late next week", NOW, At("Fri 2026-12-04 09:00"));
    check("beginning of next month", NOW, At("Tue 2026-12-01 09:00"));
    check("start of next month", NOW, At("Tue 2026-12-01 09:00"));
    check("beginning of the month", NOW, At("Tue 2026-12-01 09:00"));
    check("start of next week", NOW, At("Mon 2026-11-30 09:00"));
    check("in march", NOW, At("Mon 2027-03-01 09:00"));
    check("until january", NOW, At("Fri 2027-01-01 09:00"));
    check("end of day", "Fri 2026-11-27 18:00", Fails(WhenError::PastTime));
    // Vague or beyond a reminder: asked.
    check("this week", NOW, unread("this week"));
    check("later this month", NOW, unread("later this month"));
    check("next year", NOW, unread("next year"));
    // Must not.
    check("the end of the project", NOW, Nothing);
    check("the end of an era", NOW, Nothing);
    check("watch the middle episode", NOW, Nothing);
    check("the start of the movie", NOW, Nothing);
    check("buy early bird tickets", NOW, Nothing);
    check("plan the march madness pool", NOW, Nothing);
}

#[rustfmt::skip]
#[test]
fn relative_to_a_date() {
    check("a week before the 20th", NOW, At("Sun 2026-12-13 09:00"));
    check("4 days before the 20th", NOW, At("Wed 2026-12-16 09:00"));
    check("2 days before friday", NOW, At("Wed 2026-12-02 09:00"));
    check("the day after tuesday", NOW, At("Wed 2026-12-02 09:00"));
    check("the day before friday", NOW, At("Thu 2026-12-03 09:00"));
    check("a week from tomorrow", NOW, At("Sat 2026-12-05 09:00"));
    check("two weeks from monday", NOW, At("Mon 2026-12-14 09:00"));
    check("3 days after christmas", NOW, At("Mon 2026-12-28 09:00"));
    check("the week before christmas", NOW, At("Fri 2026-12-18 09:00"));
    check("a day before new year's eve", NOW, At("Wed 2026-12-30 09:00"));
    check("an hour before noon", NOW, At("Fri 2026-11-27 11:00"));
    check("30 minutes before 5pm", NOW, At("Fri 2026-11-27 16:30"));
    check("a week before the 20th at 3pm", NOW, At("Sun 2026-12-13 15:00"));
    check("2 business days before the 15th", NOW, At("Fri 2026-12-11 09:00"));
    check("2 days after the 1st", NOW, At("Thu 2026-12-03 09:00"));
    check("a week before the 30th", NOW, Fails(WhenError::PastDate));
    // Before or after something that is no time: asked, naming it; never "in 4 days".
    check("4 days before the deadline", NOW, unread("4 days before the deadline"));
    check("a day before the trip", NOW, unread("a day before the trip"));
    check("2 days after she lands", NOW, unread("2 days after she lands"));
    check("a week earlier", NOW, unread("a week earlier"));
    check("after the weekend", NOW, At("Mon 2026-11-30 09:00"));
    check("after christmas", NOW, unread("after christmas"));
    check("after friday", NOW, unread("after friday"));
    check("after 5pm", NOW, At("Fri 2026-11-27 17:00"));
    check("the day before my flight", NOW, unread("the day before my flight"));
    // Must not.
    check("read one chapter a day", NOW, Nothing);
    check("finish it before the deadline", NOW, Nothing);
    check("the day after was better", NOW, Nothing);
    check("one step after another", NOW, Nothing);
}

#[rustfmt::skip]
#[test]
fn day_part_words() {
    check("midnight", NOW, At("Sat 2026-11-28 00:00"));
    check("at midnight", NOW, At("Sat 2026-11-28 00:00"));
    check("tonight at midnight", NOW, At("Sat 2026-11-28 00:00"));
    check("midnight tonight", NOW, At("Sat 2026-11-28 00:00"));
    check("tomorrow at midnight", NOW, At("Sun 2026-11-29 00:00"));
    check("friday at midnight", NOW, At("Sat 2026-12-05 00:00"));
    check("12am", NOW, At("Sat 2026-11-28 00:00"));
    check("noon", NOW, At("Fri 2026-11-27 12:00"));
    check("at midday", NOW, At("Fri 2026-11-27 12:00"));
    check("12 noon", NOW, At("Fri 2026-11-27 12:00"));
    check("tomorrow at noon", NOW, At("Sat 2026-11-28 12:00"));
    check("first thing", NOW, At("Sat 2026-11-28 09:00"));
    check("first thing tomorrow", NOW, At("Sat 2026-11-28 09:00"));
    check("tomorrow first thing", NOW, At("Sat 2026-11-28 09:00"));
    check("first thing monday", NOW, At("Mon 2026-11-30 09:00"));
    check("first thing in the morning", NOW, At("Sat 2026-11-28 09:00"));
    check("lunchtime", NOW, At("Fri 2026-11-27 12:00"));
    check("at lunch tomorrow", NOW, At("Sat 2026-11-28 12:00"));
    check("tomorrow lunchtime", NOW, At("Sat 2026-11-28 12:00"));
    check("this afternoon", NOW, At("Fri 2026-11-27 14:00"));
    check("this evening", NOW, At("Fri 2026-11-27 18:00"));
    check("tonight", NOW, At("Fri 2026-11-27 20:00"));
    check("tomorrow night", NOW, At("Sat 2026-11-28 20:00"));
    check("saturday morning", NOW, At("Sat 2026-11-28 09:00"));
    check("half past 3 this afternoon", NOW, At("Fri 2026-11-27 15:30"));
    check("quarter to 5 in the afternoon", NOW, At("Fri 2026-11-27 16:45"));
    check("at 5 o'clock tonight", NOW, At("Fri 2026-11-27 17:00"));
    check("at 9 o'clock", NOW, At("Sat 2026-11-28 09:00"));
    check("at five pm", NOW, At("Fri 2026-11-27 17:00"));
    check("at 15h30", NOW, At("Fri 2026-11-27 15:30"));
    check("this morning", NOW, Fails(WhenError::PastTime));
    // h:mm without am/pm is read like a bare hour: the morning for 7..=11, asked for 1..=6.
    check("at 3:15", NOW, Fails(WhenError::AmbiguousTime("3:15".into())));
    check("tonight at 9:30", NOW, At("Fri 2026-11-27 21:30"));
    check("at 7:30", NOW, At("Sat 2026-11-28 07:30"));
    check("at 03:15", NOW, At("Sat 2026-11-28 03:15"));
    check("at 3:15pm", NOW, At("Fri 2026-11-27 15:15"));
    check("half past 3", NOW, Fails(WhenError::AmbiguousTime("3:30".into())));
    check("wed eve", NOW, At("Wed 2026-12-02 18:00"));
    check("tomorrow arvo", NOW, At("Sat 2026-11-28 14:00"));
    check("at 17.30", NOW, At("Fri 2026-11-27 17:30"));
    check("at 1730", NOW, At("Fri 2026-11-27 17:30"));
    check("at 5.30", NOW, Fails(WhenError::AmbiguousTime("5:30".into())));
    check("at 8 am sharp", NOW, At("Sat 2026-11-28 08:00"));
    check("at about 5pm", NOW, At("Fri 2026-11-27 17:00"));
    check("by around 6", NOW, Fails(WhenError::AmbiguousHour(6)));
    check("tonight around 8", NOW, At("Fri 2026-11-27 20:00"));
    check("tomorrow at 5ish", NOW, unread("5ish"));
    check("tomorrow before lunch", NOW, unread("before lunch"));
    check("tomorrow after work", NOW, unread("after work"));
    check("late tonight", NOW, unread("late"));
    // Must not: the same words describing things.
    check("night owl club", NOW, Nothing);
    check("buy morning glory seeds", NOW, Nothing);
    check("afternoon tea with gran", NOW, Nothing);
    check("eat lunch with anna", NOW, Nothing);
    check("lunch with anna tomorrow", NOW, At("Sat 2026-11-28 09:00"));
    check("the first thing I see", NOW, Nothing);
    check("first thing I need is coffee", NOW, Nothing);
    check("midnight snack", NOW, Nothing);
    check("noon meeting notes", NOW, Nothing);
    check("watch the 5 o'clock news", NOW, Nothing);
    check("buy tickets for the 7pm show", NOW, Nothing);
    check("tickets for sunday's matinee", NOW, At("Sun 2026-11-29 09:00"));
}

#[rustfmt::skip]
#[test]
fn midnight_is_said_as_the_end_of_a_day() {
    let ctx = context(NOW);
    let said = |text: &str| find_when(text, &ctx).map(|at| at.map(|at| describe(at, &ctx)));
    assert_eq!(said("midnight"), Ok(Some("tonight at midnight (00:00 Sat 28 Nov)".into())));
    assert_eq!(said("tomorrow at midnight"), Ok(Some("tomorrow at midnight (00:00 Sun 29 Nov)".into())));
    assert_eq!(said("friday at midnight"), Ok(Some("Friday 4 Dec at midnight (00:00 Sat 5 Dec)".into())));
    assert_eq!(said("12am"), Ok(Some("tonight at midnight (00:00 Sat 28 Nov)".into())));
    assert_eq!(said("noon"), Ok(Some("today at 12:00".into())));
}

#[rustfmt::skip]
#[test]
fn working_days() {
    check("next working day", NOW, At("Mon 2026-11-30 09:00"));
    check("next business day", NOW, At("Mon 2026-11-30 09:00"));
    check("on the next working day", NOW, At("Mon 2026-11-30 09:00"));
    check("next weekday", NOW, At("Mon 2026-11-30 09:00"));
    check("the next business day at 2pm", NOW, At("Mon 2026-11-30 14:00"));
    check("next working day", "Mon 2026-11-30 10:00", At("Tue 2026-12-01 09:00"));
    check("in 3 business days", NOW, At("Wed 2026-12-02 10:00"));
    check("in 2 working days", NOW, At("Tue 2026-12-01 10:00"));
    check("within 5 business days", NOW, At("Fri 2026-12-04 10:00"));
    check("in 1 business day", "Sat 2026-11-28 10:00", At("Mon 2026-11-30 10:00"));
    // Must not.
    check("my working day is long", NOW, Nothing);
    check("plan a business day trip", NOW, Nothing);
    check("the work day party", NOW, Nothing);
}

#[rustfmt::skip]
#[test]
fn zones_and_offsets_named_in_the_sentence() {
    check("at 3pm UTC", NOW, At("Fri 2026-11-27 16:00"));
    check("3pm GMT", NOW, At("Fri 2026-11-27 16:00"));
    check("9am PST", NOW, At("Fri 2026-11-27 18:00"));
    check("9am PT", NOW, At("Fri 2026-11-27 18:00"));
    check("9am pacific time", NOW, At("Fri 2026-11-27 18:00"));
    check("noon pacific", NOW, At("Fri 2026-11-27 21:00"));
    check("3pm ET", NOW, At("Fri 2026-11-27 21:00"));
    check("3pm EST", NOW, At("Fri 2026-11-27 21:00"));
    check("3pm EDT", NOW, At("Fri 2026-11-27 21:00"));
    check("3pm eastern time", NOW, At("Fri 2026-11-27 21:00"));
    check("tomorrow 10am ET", NOW, At("Sat 2026-11-28 16:00"));
    check("3pm CT", NOW, At("Fri 2026-11-27 22:00"));
    check("3pm CET", NOW, At("Fri 2026-11-27 15:00"));
    check("3pm CEST", NOW, At("Fri 2026-11-27 15:00"));
    check("5pm BST", NOW, At("Fri 2026-11-27 18:00"));
    check("at 14:00 UTC+2", NOW, At("Fri 2026-11-27 13:00"));
    check("at 14:00 GMT+2", NOW, At("Fri 2026-11-27 13:00"));
    check("9:00 GMT-5", NOW, At("Fri 2026-11-27 15:00"));
    check("14:00 UTC +2", NOW, At("Fri 2026-11-27 13:00"));
    check("14:00 +02:00", NOW, At("Fri 2026-11-27 13:00"));
    check("10am America/New_York", NOW, At("Fri 2026-11-27 16:00"));
    check("10am america/new_york", NOW, At("Fri 2026-11-27 16:00"));
    check("5pm New York time", NOW, At("Fri 2026-11-27 23:00"));
    check("9am london time", NOW, At("Sat 2026-11-28 10:00"));
    check("3pm Tokyo time", NOW, At("Sat 2026-11-28 07:00"));
    check("9:30 UTC+5:30", NOW, At("Sat 2026-11-28 05:00"));
    check("friday 9am (PST)", NOW, At("Fri 2026-12-04 18:00"));
    check("tomorrow at 3pm my time", NOW, At("Sat 2026-11-28 15:00"));
    // Across a daylight saving change: New York is on summer time, Berlin not yet.
    check("tomorrow 3pm ET", "Mon 2027-03-15 10:00", At("Tue 2027-03-16 20:00"));
    // Read in another person's zone: said in theirs.
    check("3pm CET", "Fri 2026-11-27 10:00 America/New_York", At("Sat 2026-11-28 09:00"));
    // Ambiguous or unknown: asked.
    check("9am IST", NOW, Fails(WhenError::AmbiguousZone { written: "IST".into(), could_be: "India, Israel or Irish Standard Time", example: "Asia/Kolkata" }));
    check("3pm UTC+15", NOW, Fails(WhenError::UnknownZone("UTC+15".into())));
    check("PST 9am", NOW, unread("PST"));
    // Must not: the same letters not after a time.
    check("call the PST office", NOW, Nothing);
    check("email the UTC team", NOW, Nothing);
    check("meet at 5pm central station", NOW, At("Fri 2026-11-27 17:00"));
    check("read about Europe/Berlin", NOW, Nothing);
}

#[rustfmt::skip]
#[test]
fn times_that_cannot_be_used_say_why() {
    check("in 99999999 years", NOW, Fails(WhenError::TooFar));
    check("in 99999999999999999999 years", NOW, Fails(WhenError::TooFar));
    check("in 6 years", NOW, Fails(WhenError::TooFar));
    check("at 23:59:60", NOW, Fails(WhenError::NoSuchTime("23:59:60".into())));
    check("at 25:00", NOW, Fails(WhenError::NoSuchTime("25:00".into())));
    check("at 9:75", NOW, Fails(WhenError::NoSuchTime("9:75".into())));
    check("at 13pm", NOW, Fails(WhenError::NoSuchTime("13pm".into())));
    check("on 30 february", NOW, Fails(WhenError::NoSuchDate { day: 30, month: "February" }));
    check("2027-02-30", NOW, Fails(WhenError::NoSuchDate { day: 30, month: "February" }));
    check("in -5 days", NOW, Fails(WhenError::Negative("-5 days".into())));
    check("in \u{2212}5 days", NOW, Fails(WhenError::Negative("-5 days".into())));
    check("give me -3 hours", NOW, Fails(WhenError::Negative("-3 hours".into())));
    check("snooze -10 min", NOW, Fails(WhenError::Negative("-10 min".into())));
    check("push it -2 days", NOW, Fails(WhenError::Negative("-2 days".into())));
    check("in -2h", NOW, Fails(WhenError::Negative("-2h".into())));
    check("in minus 5 days", NOW, Fails(WhenError::Negative("minus 5 days".into())));
    check("pay rent 3/12", NOW, Fails(WhenError::NumericDate { written: "3/12".into(), one: "3 December".into(), other: "12 March".into() }));
    check("pay rent 25/12", NOW, At("Fri 2026-12-25 09:00"));
    check("every friday", NOW, Fails(WhenError::Recurring("every friday".into())));
    check("on mondays", NOW, Fails(WhenError::Recurring("on mondays".into())));
    // Must not: a dash is not a minus, a phone number is not a date.
    check("meeting - 5pm", NOW, At("Fri 2026-11-27 17:00"));
    check("call 555-1234", NOW, Nothing);
    check("buy 1/2 cup of sugar", NOW, Nothing);
    check("split it 50/50", NOW, Nothing);
}

/// The invariant: a capture's time is read whole or not at all, and the title keeps no word of
/// it; what is only partly readable is asked about, naming the words.
#[rustfmt::skip]
#[test]
fn never_a_half_read_in_a_capture() {
    // Read whole: the title is clean.
    cap("call mom in an hour and a half", NOW, "Call mom", At("Fri 2026-11-27 11:30"));
    cap("submit the report 4 days before the 20th", NOW, "Submit the report", At("Wed 2026-12-16 09:00"));
    cap("call the bank tomorrow at 9am PST", NOW, "Call the bank", At("Sat 2026-11-28 18:00"));
    cap("water the plants first thing tomorrow", NOW, "Water the plants", At("Sat 2026-11-28 09:00"));
    cap("send the invoice next working day", NOW, "Send the invoice", At("Mon 2026-11-30 09:00"));
    cap("pay rent on the 1st", NOW, "Pay rent", At("Tue 2026-12-01 09:00"));
    cap("file taxes by the end of the month", NOW, "File taxes", At("Mon 2026-11-30 17:00"));
    cap("book flights mid january", NOW, "Book flights", At("Fri 2027-01-15 09:00"));
    cap("take the bins out tonight at midnight", NOW, "Take the bins out", At("Sat 2026-11-28 00:00"));
    cap("stretch in 2 and a half hours", NOW, "Stretch", At("Fri 2026-11-27 12:30"));
    cap("call the landlord the day after tuesday", NOW, "Call the landlord", At("Wed 2026-12-02 09:00"));
    cap("ping Sam at 10am New York time", NOW, "Ping Sam", At("Fri 2026-11-27 16:00"));
    cap("check the oven in 1h15", NOW, "Check the oven", At("Fri 2026-11-27 11:15"));
    cap("renew the lease at lunchtime", NOW, "Renew the lease", At("Fri 2026-11-27 12:00"));
    cap("send the deck EOD", NOW, "Send the deck", At("Fri 2026-11-27 17:00"));
    // Partly readable: asked, naming the words, and none of them stays in the title.
    cap("call mom in an hour and a bit", NOW, "Call mom", unread("and a bit"));
    cap("call mom tomorrow before lunch", NOW, "Call mom", unread("before lunch"));
    cap("submit the report 2 days before the deadline", NOW, "Submit the report", unread("2 days before the deadline"));
    cap("pack a day before the trip", NOW, "Pack", unread("a day before the trip"));
    cap("call mom between 3 and 5pm", NOW, "Call mom", unread("between 3 and"));
    cap("call mom in 2-3 days", NOW, "Call mom", unread("2-3 days"));
    cap("call mom this week", NOW, "Call mom", unread("this week"));
    cap("call mom next year", NOW, "Call mom", unread("next year"));
    cap("call mom in several days", NOW, "Call mom", unread("several days"));
    cap("call mom tomorrow at 5ish", NOW, "Call mom", unread("5ish"));
    cap("call mom PST 9am", NOW, "Call mom", unread("PST"));
    cap("call mom late tonight", NOW, "Call mom", unread("late"));
    cap("call mom every friday", NOW, "Call mom", Fails(WhenError::Recurring("every friday".into())));
    cap("pay rent 3/12", NOW, "Pay rent", Fails(WhenError::NumericDate { written: "3/12".into(), one: "3 December".into(), other: "12 March".into() }));
    cap("call mom at 9am IST", NOW, "Call mom", Fails(WhenError::AmbiguousZone { written: "IST".into(), could_be: "India, Israel or Irish Standard Time", example: "Asia/Kolkata" }));
    cap("call mom at 5 or 6pm", NOW, "Call mom", Fails(WhenError::Conflicting));
    cap("call mom in -5 days", NOW, "Call mom", Fails(WhenError::Negative("-5 days".into())));
    cap("call mom at 23:59:60", NOW, "Call mom", Fails(WhenError::NoSuchTime("23:59:60".into())));
    cap("pick up the kids at 3:15", NOW, "Pick up the kids", Fails(WhenError::AmbiguousTime("3:15".into())));
    cap("prepare for the meeting the day before", NOW, "Prepare for the meeting", unread("the day before"));
    cap("call the plumber in 10", NOW, "Call the plumber", unread("in 10"));
    cap("call mom sometime next week", NOW, "Call mom", unread("sometime"));
    // Points of the day Donna cannot place, with no other time beside them: asked, never left
    // in the title (a guessed teatime would be a time read wrong).
    cap("call mum around teatime", NOW, "Call mum", unread("around teatime"));
    cap("call mum at dinnertime", NOW, "Call mum", unread("at dinnertime"));
    cap("take the pills at suppertime", NOW, "Take the pills", unread("at suppertime"));
    cap("read a chapter at bedtime", NOW, "Read a chapter", unread("at bedtime"));
    cap("call mum teatime-ish", NOW, "Call mum", unread("teatime-ish"));
    cap("stretch tomorrow-ish", NOW, "Stretch", unread("tomorrow-ish"));
    // ... and their look-alikes stay the task's own words.
    cap("buy a new bed frame", NOW, "Buy a new bed frame", Nothing);
    cap("make the bed", NOW, "Make the bed", Nothing);
    cap("buy a bedtime story book", NOW, "Buy a bedtime story book", Nothing);
    cap("buy the stylish jacket", NOW, "Buy the stylish jacket", Nothing);
    cap("finish the boyish-looking sketch", NOW, "Finish the boyish-looking sketch", Nothing);
    cap("call mom in 99999999 years", NOW, "Call mom", Fails(WhenError::TooFar));
    cap("call mom on 30 february", NOW, "Call mom", Fails(WhenError::NoSuchDate { day: 30, month: "February" }));
}

/// Titles whose numbers and day words are their own: nothing is read from them and they stay.
#[rustfmt::skip]
#[test]
fn titles_keep_their_own_numbers_and_day_words() {
    cap("buy 2 and a half kilos of flour", NOW, "Buy 2 and a half kilos of flour", Nothing);
    cap("read chapter 21", NOW, "Read chapter 21", Nothing);
    cap("call May", NOW, "Call May", Nothing);
    cap("call Jan on monday", NOW, "Call Jan", At("Mon 2026-11-30 09:00"));
    cap("watch The Day After Tomorrow", NOW, "Watch The Day After Tomorrow", Nothing);
    cap("read Next Friday by Sam", NOW, "Read Next Friday by Sam", Nothing);
    cap("buy 12 eggs tomorrow", NOW, "Buy 12 eggs", At("Sat 2026-11-28 09:00"));
    cap("read chapter 21 tomorrow", NOW, "Read chapter 21", At("Sat 2026-11-28 09:00"));
    cap("finish the 3rd chapter by friday", NOW, "Finish the 3rd chapter", At("Fri 2026-12-04 09:00"));
    cap("call mom about the 2 tickets at 5pm", NOW, "Call mom about the 2 tickets", At("Fri 2026-11-27 17:00"));
    cap("get 8 hours of sleep", NOW, "Get 8 hours of sleep", Nothing);
    cap("run a half marathon", NOW, "Run a half marathon", Nothing);
    cap("plan the march madness pool", NOW, "Plan the march madness pool", Nothing);
    cap("email the UTC team tomorrow", NOW, "Email the UTC team", At("Sat 2026-11-28 09:00"));
    cap("book the night owl tour on saturday", NOW, "Book the night owl tour", At("Sat 2026-11-28 09:00"));
    cap("reply to the 3rd email", NOW, "Reply to the 3rd email", Nothing);
    cap("buy 1/2 cup of sugar", NOW, "Buy 1/2 cup of sugar", Nothing);
    cap("move the meeting from friday to monday", NOW, "Move the meeting from friday to", At("Mon 2026-11-30 09:00"));
    cap("plan the 4th of july party", NOW, "Plan the 4th of july party", Nothing);
    cap("buy tickets for the 7pm show", NOW, "Buy tickets for the 7pm show", Nothing);
    cap("book the 10am slot", NOW, "Book the 10am slot", Nothing);
    cap("leave work early on friday", NOW, "Leave work early", At("Fri 2026-12-04 09:00"));
    cap("submit the form ASAP", NOW, "Submit the form ASAP", Nothing);
    cap("plan a weekend trip", NOW, "Plan a weekend trip", Nothing);
    cap("discuss the end of year party", NOW, "Discuss the end of year party", Nothing);
    cap("call the friday club", NOW, "Call the friday club", Nothing);
    cap("visit the sunday market", NOW, "Visit the sunday market", Nothing);
    cap("walk the dog for 30 minutes", NOW, "Walk the dog for 30 minutes", Nothing);
    cap("sleep 8 hours", NOW, "Sleep 8 hours", Nothing);
    cap("meditate for 10 minutes tomorrow morning", NOW, "Meditate for 10 minutes", At("Sat 2026-11-28 09:00"));
    cap("read for an hour before bed", NOW, "Read for an hour before bed", Nothing);
    cap("take the 8:15 train", NOW, "Take the 8:15 train", Nothing);
    cap("catch the 7:40 bus tomorrow", NOW, "Catch the 7:40 bus", At("Sat 2026-11-28 09:00"));
    cap("buy a 2 hour parking ticket", NOW, "Buy a 2 hour parking ticket", Nothing);
    cap("midnight snack run", NOW, "Midnight snack run", Nothing);
    // A title's own last word stays when no time was cut after it.
    cap("try the jacket on", NOW, "Try the jacket on", Nothing);
    cap("check the boiler is switched on", NOW, "Check the boiler is switched on", Nothing);
    cap("turn the heating on at 6pm", NOW, "Turn the heating on", At("Fri 2026-11-27 18:00"));
    cap("pay rent on friday please", NOW, "Pay rent", At("Fri 2026-12-04 09:00"));
}

/// A capture's anchor: "before the 20th" is a deadline like "by friday"; a relative time is a
/// start.
#[rustfmt::skip]
#[test]
fn deadlines_and_starts_of_the_new_phrases() {
    let anchor = |body: &str| match read(body, &context(NOW)) {
        CaptureTime::At { anchor, .. } => Some(anchor),
        _ => None,
    };
    assert_eq!(anchor("pay it before the 20th"), Some(TimeAnchor::Deadline));
    assert_eq!(anchor("file taxes by the end of the month"), Some(TimeAnchor::Deadline));
    assert_eq!(anchor("send it by EOD"), Some(TimeAnchor::Deadline));
    assert_eq!(anchor("call mom a week before the 20th"), Some(TimeAnchor::Start));
    assert_eq!(anchor("call mom on the 21st"), Some(TimeAnchor::Start));
    assert_eq!(anchor("call mom at 9am PST"), Some(TimeAnchor::Start));
}
