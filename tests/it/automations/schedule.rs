//! The schedule math: local wall time across DST changes, the 31st in short months, and the
//! latest occurrence in a window being the one that fires.

use super::*;

fn schedule(rrule: &str, first: DateTime<Utc>) -> Schedule {
    Schedule {
        rrule: rrule.to_string(),
        dtstart: first,
        timezone: Paris,
        words: String::new(),
    }
}

#[test]
fn occurrences_stay_at_the_local_wall_time_across_daylight_saving_changes() {
    // Paris leaves summer time on Sunday 25 Oct 2026 and enters it on Sunday 28 Mar 2027.
    let daily = ok(Schedule::starting_after(
        "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
        Paris,
        "every day at 09:00",
        utc(2026, 10, 23, 12, 0),
    ));
    let mut at = daily.dtstart;
    let mut seen = vec![at];
    for _ in 0..2 {
        at = ok(daily.next_after(at)).unwrap_or_else(|| panic!("no next"));
        seen.push(at);
    }
    assert_eq!(
        seen,
        vec![
            utc(2026, 10, 24, 7, 0),
            utc(2026, 10, 25, 8, 0),
            utc(2026, 10, 26, 8, 0)
        ]
    );
    assert!(seen.iter().all(|at| local(*at).ends_with("09:00")));
    let spring = ok(daily.next_after(utc(2027, 3, 27, 12, 0)));
    assert_eq!(spring, Some(utc(2027, 3, 28, 7, 0)));
}

#[test]
fn the_31st_falls_on_the_last_day_of_shorter_months() {
    let month_end = schedule(
        "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
        utc(2027, 1, 31, 8, 0),
    );
    let mut at = month_end.dtstart;
    let mut days = Vec::new();
    for _ in 0..4 {
        at = ok(month_end.next_after(at)).unwrap_or_else(|| panic!("no next"));
        days.push(local(at));
    }
    assert_eq!(
        days,
        [
            "Sun 28 Feb 09:00",
            "Wed 31 Mar 09:00",
            "Fri 30 Apr 09:00",
            "Mon 31 May 09:00"
        ]
    );
}

#[test]
fn the_latest_occurrence_in_a_window_is_the_one_that_fires() {
    let daily = schedule(
        "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
        utc(2026, 11, 23, 8, 0),
    );
    let monday_9 = utc(2026, 11, 23, 8, 0);
    let table = [
        // (after, until, latest)
        (None, utc(2026, 11, 23, 7, 59), None),
        (None, monday_9, Some(monday_9)),
        (Some(monday_9), utc(2026, 11, 23, 20, 0), None),
        (
            Some(monday_9),
            utc(2026, 11, 26, 10, 0),
            Some(utc(2026, 11, 26, 8, 0)),
        ),
        (
            Some(monday_9),
            utc(2026, 11, 26, 7, 0),
            Some(utc(2026, 11, 25, 8, 0)),
        ),
    ];
    for (after, until, latest) in table {
        assert_eq!(
            ok(daily.latest_occurrence_in(after, until)),
            latest,
            "after {after:?} until {until}"
        );
    }
    // Years of downtime: still only the latest, found without walking every day.
    assert_eq!(
        ok(daily.latest_occurrence_in(Some(monday_9), utc(2031, 6, 1, 10, 0))),
        Some(utc(2031, 6, 1, 7, 0))
    );
    // A rule that does not parse is an error, not a panic.
    assert!(schedule("FREQ=SOMETIMES", monday_9)
        .next_after(monday_9)
        .is_err());
}
