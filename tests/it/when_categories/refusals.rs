//! Times that cannot be used say why, and a capture never keeps a half-read time.

use super::*;

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
