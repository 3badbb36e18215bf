//! Whether a recurring reminder's time of day was stated by the person ("every day at 23:00",
//! "every monday at 7:30am", "daily summary at noon"), so that its occurrences fire at that time
//! even in quiet hours, as a one-shot explicit time does (`tasks::explicit`). Not stated: the
//! hour Donna picks when none is said (09:00 for a reminder, 08:00 for a digest, 10:00 for a
//! weekend), or a part of the day ("every evening": 18:00).
//!
//! Owns: `said_in` (the reading: the words the time reader took name the moment) and
//! `from_words` (rows and export files from before the mark: the schedule's words hold a clock
//! time that is not Donna's default for the kind; migration 0023 does the same in SQL).
//! Invariants: pure; a time is stated only when the person's own words named it.

use std::ops::Range;

use super::repo::AutomationKind;
use crate::tasks::explicit::names_the_moment;

/// Whether the words of `text` in `ranges` (those the time reader read the time of day from)
/// name the moment: a clock time, not a part of the day.
pub fn said_in(text: &str, ranges: &[Range<usize>]) -> bool {
    let words: Vec<&str> = ranges
        .iter()
        .filter_map(|range| text.get(range.clone()))
        .collect();
    !words.is_empty() && names_the_moment(&words.join(" "))
}

/// The hour Donna picks for `kind` when the person names none, as the schedule's words say it.
fn default_time(kind: AutomationKind) -> &'static str {
    match kind {
        AutomationKind::Reminder => "at 09:00",
        AutomationKind::Digest => "at 08:00",
    }
}

/// For an automation stored or exported before the mark existed: stated when its schedule's
/// words ("every Monday at 07:30") hold a clock time other than Donna's default for its kind.
pub fn from_words(kind: AutomationKind, words: &str) -> bool {
    let clock = words.as_bytes().windows(5).any(|w| {
        w[0].is_ascii_digit()
            && w[1].is_ascii_digit()
            && w[2] == b':'
            && (b'0'..=b'5').contains(&w[3])
            && w[4].is_ascii_digit()
    });
    clock && !words.contains(default_time(kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automations::RepeatFrom;

    #[test]
    fn older_rows_count_as_stated_when_their_words_hold_a_time_donna_did_not_pick() {
        use AutomationKind::{Digest, Reminder};
        for (kind, words, stated) in [
            (Reminder, "every day at 23:00", true),
            (Reminder, "every Monday and Thursday at 07:30", true),
            (Reminder, "every Monday at 09:00", false),
            (
                Reminder,
                "every 3 weeks from today, Friday 27 Nov, at 09:00",
                false,
            ),
            (Reminder, "every day at 09:00, until Sun 28 Feb", false),
            (Digest, "every day at 08:00", false),
            (Digest, "every day at 07:00", true),
            (Digest, "every day at 09:00", true),
            (Reminder, "every day", false),
        ] {
            assert_eq!(from_words(kind, words), stated, "{kind:?} {words:?}");
        }
    }

    #[test]
    fn migration_0023_marks_stored_rows_as_the_words_say_and_keeps_them_on_their_schedule() {
        let mut conn = crate::store::migrations::migrated_up_to(22);
        for (id, kind, words) in [
            ("aut_pill", "reminder", "every day at 23:00"),
            ("aut_timesheet", "reminder", "every Monday at 09:00"),
            ("aut_agenda", "digest", "every day at 08:00"),
            ("aut_early", "digest", "every weekday at 06:30"),
        ] {
            conn.execute(
                "INSERT INTO automation (id, title, schedule_words, rrule, dtstart, timezone, \
                 created_at, kind) VALUES (?1, 'T', ?2, 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0', \
                 '2026-11-23T09:00:00.000000Z', 'UTC', '2026-11-23T08:00:00.000000Z', ?3)",
                [id, words, kind],
            )
            .unwrap_or_else(|e| panic!("{e}"));
        }
        crate::store::migrations::apply(&mut conn).unwrap_or_else(|e| panic!("{e}"));
        let stored: Vec<(String, bool, RepeatFrom)> = super::super::repo::all(&conn)
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .map(|a| (a.id, a.time_stated, a.repeat_from))
            .collect();
        let schedule = RepeatFrom::Schedule;
        assert_eq!(
            stored,
            [
                ("aut_agenda".to_string(), false, schedule),
                ("aut_early".to_string(), true, schedule),
                ("aut_pill".to_string(), true, schedule),
                ("aut_timesheet".to_string(), false, schedule),
            ]
        );
    }

    #[test]
    fn a_time_is_said_when_the_words_read_name_the_moment() {
        let text = "every day at 23:00 remind me to take the pill";
        let at_23 = 10..18;
        assert!(said_in(text, std::slice::from_ref(&at_23)));
        let evening = "every evening remind me to stretch";
        let part_of_day = 6..13;
        assert!(!said_in(evening, std::slice::from_ref(&part_of_day)));
        assert!(!said_in(text, &[]));
    }
}
