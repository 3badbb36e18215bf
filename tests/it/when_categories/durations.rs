//! Compound and fractional durations, and deadlines and starts of the newer phrases.

use super::*;

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
