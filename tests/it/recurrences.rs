//! Recurring reminders as people write them (issue 30, item 3), one line per sentence: the
//! title, the words said before the yes, the RFC 5545 rule stored, and the first run. Then the
//! ones Donna asks about, and the sentences that must not be recurring reminders at all.
//! `tests/it/automations.rs` holds the older table, the schedule math and the runner;
//! `tests/it/free_text.rs` runs a sample end to end (proposal, yes, `GET /api/automations`).
//!
//! Now: Monday 23 November 2026, 10:00 UTC (11:00 in Paris, the reading zone).

use crate::common;

use chrono::{DateTime, Utc};
use chrono_tz::Europe::Paris;
use common::{monday_10am, reading::read_automation as read};
use donna::automations::{AutomationDraft, AutomationReading};

fn draft(text: &str) -> AutomationDraft {
    match read(text, monday_10am(), Paris) {
        AutomationReading::Draft(draft) => draft,
        other => panic!("{text:?}: expected a draft, got {other:?}"),
    }
}

fn local(at: DateTime<Utc>, zone: chrono_tz::Tz) -> String {
    at.with_timezone(&zone)
        .format("%a %-d %b %Y %H:%M")
        .to_string()
}

/// (sentence, title, words said, rule, first run in the schedule's zone)
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

fn check(rows: &[Row]) {
    for (text, title, words, rrule, first) in rows {
        let draft = draft(text);
        assert_eq!(draft.title, *title, "{text:?}: title");
        assert_eq!(draft.schedule.words, *words, "{text:?}: words");
        assert_eq!(draft.schedule.rrule, *rrule, "{text:?}: rule");
        let run = draft
            .schedule
            .first_run_after(monday_10am())
            .unwrap_or_else(|e| panic!("{text:?}: {e}"))
            .unwrap_or_else(|| panic!("{text:?}: no first run"));
        assert_eq!(
            local(run, draft.schedule.timezone),
            *first,
            "{text:?}: first run"
        );
        assert_eq!(
            draft.schedule.dtstart, run,
            "{text:?}: DTSTART is the first run"
        );
    }
}

#[rustfmt::skip]
#[test]
fn nth_and_last_weekdays_and_the_last_day_of_the_month() {
    check(&[
        ("on the second tuesday of every month remind me to pay the cleaner", "Pay the cleaner", "every month on the second Tuesday at 09:00", "FREQ=MONTHLY;BYDAY=2TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 8 Dec 2026 09:00"),
        ("remind me to pay the cleaner every second tuesday of the month", "Pay the cleaner", "every month on the second Tuesday at 09:00", "FREQ=MONTHLY;BYDAY=2TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 8 Dec 2026 09:00"),
        ("every month on the first monday at 8 remind me to plan the month", "Plan the month", "every month on the first Monday at 08:00", "FREQ=MONTHLY;BYDAY=1MO;BYHOUR=8;BYMINUTE=0;BYSECOND=0", "Mon 7 Dec 2026 08:00"),
        ("every last friday remind me to send the report", "Send the report", "every month on the last Friday at 09:00", "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Fri 27 Nov 2026 09:00"),
        ("the last sunday of every month remind me to call grandpa", "Call grandpa", "every month on the last Sunday at 09:00", "FREQ=MONTHLY;BYDAY=-1SU;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Sun 29 Nov 2026 09:00"),
        ("monthly on the third thursday at 18:00 remind me to go to book club", "Go to book club", "every month on the third Thursday at 18:00", "FREQ=MONTHLY;BYDAY=3TH;BYHOUR=18;BYMINUTE=0;BYSECOND=0", "Thu 17 Dec 2026 18:00"),
        ("on the 5th tuesday of every month remind me to do the extra shift", "Do the extra shift", "every month on the fifth Tuesday at 09:00 (months without a fifth Tuesday are skipped)", "FREQ=MONTHLY;BYDAY=5TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 29 Dec 2026 09:00"),
        ("remind me to back up the laptop on the last day of every month", "Back up the laptop", "every month on the last day at 09:00", "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Mon 30 Nov 2026 09:00"),
        ("every month on the last day remind me to send the invoices", "Send the invoices", "every month on the last day at 09:00", "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Mon 30 Nov 2026 09:00"),
        ("every last day of the month at 17:00 remind me to do the timesheet", "Do the timesheet", "every month on the last day at 17:00", "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=17;BYMINUTE=0;BYSECOND=0", "Mon 30 Nov 2026 17:00"),
        ("every last weekday of the month remind me to submit expenses", "Submit expenses", "every month on the last working day at 09:00", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Mon 30 Nov 2026 09:00"),
        ("on the first working day of every month remind me to run payroll", "Run payroll", "every month on the first working day at 09:00", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 1 Dec 2026 09:00"),
        ("remind me every first of the month to pay rent", "Pay rent", "every month on the 1st at 09:00", "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 1 Dec 2026 09:00"),
        ("every 15th remind me to pay the card", "Pay the card", "every month on the 15th at 09:00", "FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 15 Dec 2026 09:00"),
        ("every month on the 31st remind me to back up the phone", "Back up the phone", "every month on the 31st (or the month's last day) at 09:00", "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Mon 30 Nov 2026 09:00"),
    ]);
}

#[rustfmt::skip]
#[test]
fn every_few_weeks_or_months_without_a_day_counts_from_today() {
    check(&[
        ("every 3 weeks remind me to water the orchids", "Water the orchids", "every 3 weeks from today, Monday 23 Nov, at 09:00", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Mon 14 Dec 2026 09:00"),
        ("every 2 weeks at 18:00 remind me to clean the fridge", "Clean the fridge", "every other week from today, Monday 23 Nov, at 18:00", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=18;BYMINUTE=0;BYSECOND=0", "Mon 23 Nov 2026 18:00"),
        ("every week remind me to clean the flat", "Clean the flat", "every week from today, Monday 23 Nov, at 09:00", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Mon 30 Nov 2026 09:00"),
        ("every 2 months remind me to change the water filter", "Change the water filter", "every other month from today, on the 23rd, at 09:00", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=23;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Sat 23 Jan 2027 09:00"),
        ("every month at noon remind me to pay rent", "Pay rent", "every month from today, on the 23rd, at 12:00", "FREQ=MONTHLY;BYMONTHDAY=23;BYHOUR=12;BYMINUTE=0;BYSECOND=0", "Mon 23 Nov 2026 12:00"),
        ("remind me every quarter to file the vat return", "File the vat return", "every 3 months from today, on the 23rd, at 09:00", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=23;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 23 Feb 2027 09:00"),
        ("every year remind me to renew the car insurance", "Renew the car insurance", "every year from today, on 23 November, at 09:00", "FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=23;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 23 Nov 2027 09:00"),
        ("every 2 weeks starting next monday remind me to review the budget", "Review the budget", "every other week from Monday 30 Nov, at 09:00", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Mon 30 Nov 2026 09:00"),
    ]);
}

#[rustfmt::skip]
#[test]
fn every_other_day_weekends_evenings_years_and_zones() {
    check(&[
        ("every other day at 8pm remind me to stretch", "Stretch", "every other day at 20:00", "FREQ=DAILY;INTERVAL=2;BYHOUR=20;BYMINUTE=0;BYSECOND=0", "Mon 23 Nov 2026 20:00"),
        ("every second day remind me to water the basil", "Water the basil", "every other day at 09:00", "FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Tue 24 Nov 2026 09:00"),
        ("every weekend remind me to call grandma", "Call grandma", "every Saturday and Sunday at 10:00", "FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=10;BYMINUTE=0;BYSECOND=0", "Sat 28 Nov 2026 10:00"),
        ("remind me on weekends at 11 to sleep in", "Sleep in", "every Saturday and Sunday at 11:00", "FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=11;BYMINUTE=0;BYSECOND=0", "Sat 28 Nov 2026 11:00"),
        ("weekends at 9 remind me to go for a run", "Go for a run", "every Saturday and Sunday at 09:00", "FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Sat 28 Nov 2026 09:00"),
        ("remind me on mondays and thursdays to take out the bins", "Take out the bins", "every Monday and Thursday at 09:00", "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Thu 26 Nov 2026 09:00"),
        ("on weekdays at 7:45 remind me to catch the bus", "Catch the bus", "every weekday at 07:45", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=45;BYSECOND=0", "Tue 24 Nov 2026 07:45"),
        ("remind me every evening at 7 to write in my journal", "Write in my journal", "every day at 19:00", "FREQ=DAILY;BYHOUR=19;BYMINUTE=0;BYSECOND=0", "Mon 23 Nov 2026 19:00"),
        ("every night remind me to lock the door", "Lock the door", "every day at 20:00", "FREQ=DAILY;BYHOUR=20;BYMINUTE=0;BYSECOND=0", "Mon 23 Nov 2026 20:00"),
        ("every year on 3 march remind me to renew the insurance", "Renew the insurance", "every year on 3 March at 09:00", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Wed 3 Mar 2027 09:00"),
        ("every day at noon remind me to eat", "Eat", "every day at 12:00", "FREQ=DAILY;BYHOUR=12;BYMINUTE=0;BYSECOND=0", "Mon 23 Nov 2026 12:00"),
        ("every day at 9am PST remind me to check the west coast orders", "Check the west coast orders", "every day at 09:00", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Mon 23 Nov 2026 09:00"),
    ]);
    // A zone named with the time is the schedule's zone: 09:00 in Los Angeles, all year.
    assert_eq!(draft("every day at 9am PST remind me to check the west coast orders").schedule.timezone, chrono_tz::America::Los_Angeles);
    assert_eq!(draft("every day at noon remind me to eat").schedule.timezone, Paris);
}

#[rustfmt::skip]
#[test]
fn bounds_until_for_times_and_starting() {
    check(&[
        ("every monday at 9 until march remind me to file the timesheet", "File the timesheet", "every Monday at 09:00, until Mon 1 Mar 2027", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270301T225959Z", "Mon 30 Nov 2026 09:00"),
        ("remind me every day until 1 feb to take the pills", "Take the pills", "every day at 09:00, until Mon 1 Feb 2027", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270201T225959Z", "Tue 24 Nov 2026 09:00"),
        ("every weekday until friday remind me to log the hours", "Log the hours", "every weekday at 09:00, until Fri 27 Nov", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20261127T225959Z", "Tue 24 Nov 2026 09:00"),
        ("every friday for 6 weeks remind me to check the garden", "Check the garden", "every Friday at 09:00, for 6 weeks (until Thu 7 Jan 2027)", "FREQ=WEEKLY;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270107T225959Z", "Fri 27 Nov 2026 09:00"),
        ("every day for 10 days at 8 remind me to do the exercises", "Do the exercises", "every day at 08:00, for 10 days (until Thu 3 Dec)", "FREQ=DAILY;BYHOUR=8;BYMINUTE=0;BYSECOND=0;UNTIL=20261203T225959Z", "Tue 24 Nov 2026 08:00"),
        ("every tuesday 10 times remind me to practise piano", "Practise piano", "every Tuesday at 09:00, 10 times", "FREQ=WEEKLY;BYDAY=TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=10", "Tue 24 Nov 2026 09:00"),
        ("every day at 7 starting next monday remind me to run", "Run", "every day at 07:00, starting Mon 30 Nov", "FREQ=DAILY;BYHOUR=7;BYMINUTE=0;BYSECOND=0", "Mon 30 Nov 2026 07:00"),
        ("from 1 december remind me every weekday at 8 to stand up", "Stand up", "every weekday at 08:00, starting Tue 1 Dec", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=0;BYSECOND=0", "Tue 1 Dec 2026 08:00"),
        ("every monday starting on the 7th until the end of january remind me to do yoga", "Do yoga", "every Monday at 09:00, starting Mon 7 Dec, until Sun 31 Jan 2027", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0;UNTIL=20270131T225959Z", "Mon 7 Dec 2026 09:00"),
        ("on the last day of every month 3 times remind me to pay the loan", "Pay the loan", "every month on the last day at 09:00, 3 times", "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=3", "Mon 30 Nov 2026 09:00"),
    ]);
}

/// What Donna cannot use as said: asked, with what she needs.
#[rustfmt::skip]
#[test]
fn recurrences_donna_cannot_use_are_asked_about() {
    for (text, asked) in [
        ("remind me to read every day until I finish the book", "I couldn't read when it should stop"),
        ("every monday until feb 30 remind me to stretch", "there is no 30 February"),
        ("every day for 6 weeks 10 times remind me to walk", "Please give one"),
        ("every day until yesterday remind me to walk", "I couldn't read when it should stop (\"until yesterday\")"),
        ("every monday until today remind me to walk", "That would stop before it starts"),
        ("every 2 hours remind me to drink water", "not more often"),
        ("every day 3 times a day remind me to drink water", "at most once a day"),
        ("every second tuesday remind me to call the bank", "Every other Tuesday, or the second Tuesday of each month?"),
        ("every monday at 9 and a half remind me to stretch", "I can't read \"and a half\""),
        ("every day at 7 in the evening PST-ish remind me to call", "couldn't read"),
        ("remind me to call mom every monday tomorrow", "tomorrow"),
        ("every day at 9am IST remind me to call the team", "India, Israel or Irish"),
        ("every year on 30 february remind me to laugh", "Which day of the year"),
        ("remind me every year on my birthday to call my aunt", "Which day of the year"),
        ("remind me every week on payday to save", "Which day of the week"),
        ("remind me every month on payday to save", "Which day of the month"),
        ("every day for 99999999999 weeks remind me to breathe", "ten years at most"),
        ("every monday for 20 years remind me to stretch", "ten years at most"),
        ("every monday 5000 times remind me to stretch", "at most 1000 times"),
    ] {
        match read(text, monday_10am(), Paris) {
            AutomationReading::Unreadable(question) => assert!(question.contains(asked), "{text:?}: {question:?}"),
            other => panic!("{text:?}: expected a question, got {other:?}"),
        }
    }
}

/// Random sentences from the vocabulary of recurrences and times: nothing panics, and every
/// draft has a rule that expands, a first run after now and a title without time words beside
/// its schedule.
#[test]
fn random_recurrences_never_panic() {
    const VOCABULARY: &[&str] = &[
        "every",
        "each",
        "other",
        "second",
        "last",
        "first",
        "5th",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "weekend",
        "weekends",
        "weekday",
        "mondays",
        "monday",
        "friday",
        "sat",
        "on",
        "the",
        "of",
        "at",
        "9",
        "9am",
        "7:30",
        "25",
        "noon",
        "midnight",
        "evening",
        "until",
        "till",
        "for",
        "from",
        "starting",
        "march",
        "1",
        "feb",
        "30",
        "times",
        "10",
        "99999999999",
        "remind",
        "me",
        "to",
        "call",
        "mom",
        "pst",
        "ist",
        "and",
        "a",
        "half",
        "-5",
        "3/12",
        "tomorrow",
        "next",
        "end",
        "31st",
        "daily",
        "monthly",
        "🙂",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..5_000 {
        let words = 1 + next() % 9;
        let mut text = String::new();
        for _ in 0..words {
            text.push_str(VOCABULARY[(next() as usize) % VOCABULARY.len()]);
            text.push(' ');
        }
        if let AutomationReading::Draft(draft) = read(&text, monday_10am(), Paris) {
            let first = draft.schedule.first_run_after(monday_10am());
            assert!(
                matches!(first, Ok(Some(at)) if at > monday_10am()),
                "{text:?}: {draft:?} has no first run after now: {first:?}"
            );
            assert!(!draft.title.is_empty(), "{text:?}");
        }
    }
}

/// Must not: the same words in sentences that are no recurring reminder.
#[rustfmt::skip]
#[test]
fn look_alikes_are_not_recurring_reminders() {
    for text in [
        "mondays are the worst",
        "I go running on mondays",
        "weekends are for sleeping",
        "every second counts",
        "each year I forget",
        "the second tuesday of every month is book club",
        "the last day of every month feels long",
        "every week is busy",
        "my rent is due every month",
        "do I have anything on the last day of the month?",
        "remind me to call mom on the last day of the month",
        "add read the weekly report",
    ] {
        assert_eq!(read(text, monday_10am(), Paris), AutomationReading::NotAutomation, "{text:?}");
    }
}
