//! Times in replies: amounts after a moving verb, impossible times keeping their reason, a day
//! without a time, a reply that is only a time.

use super::*;

/// A spelled-out or numeric count with a unit after a moving verb is an amount
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

/// An impossible time in a reschedule reply is the reader's own reason.
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

/// A day without a time keeps the task's time of day only when it was chosen
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

/// Whether a reply is nothing but a time (then it answers a nudge as a
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
