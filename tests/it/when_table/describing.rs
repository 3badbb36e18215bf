//! Times described absolutely and relatively, and error messages read as sentences.

use super::*;

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
