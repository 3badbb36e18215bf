//! The phrases by kind: tomorrow and tonight, the current start, DST, later and durations,
//! weekdays, weeks and months, dates, times alone, today, whole words, other zones, captures.

use super::*;

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
