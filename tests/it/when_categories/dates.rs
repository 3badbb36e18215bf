//! Days of the month, named points, dates relative to a date, and working days.

use super::*;

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
