//! Today's events of a person as their agenda lists them: (time, title) in their zone, soonest
//! first ("09:00-09:30", "all day", "from 22:00", "until 10:00"; "(free)" after a title the calendar marks free).
//!
//! Invariant: only the person's own calendars are read (`CalendarBook::events_of`); whoever
//! shows the lines shows them only to that person (the digest: in a chat that is not a group).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::book::CalendarBook;
use crate::capture::questions::whole_day;

/// `user_id`'s events of the local day of `now` in `zone`, as (time, title).
pub fn lines(
    book: &CalendarBook,
    user_id: &str,
    now: DateTime<Utc>,
    zone: Tz,
) -> Vec<(String, String)> {
    let (from, to) = whole_day(now, zone);
    book.events_of(user_id, from, to)
        .into_iter()
        .map(|event| {
            let (start, end) = (
                event.start.with_timezone(&zone),
                event.end.with_timezone(&zone),
            );
            let (starts_before, ends_after) = (event.start < from, event.end >= to);
            let when = match (event.all_day, starts_before, ends_after) {
                (true, _, _) | (false, true, true) => "all day".to_string(),
                (false, true, false) => format!("until {}", end.format("%H:%M")),
                (false, false, true) => format!("from {}", start.format("%H:%M")),
                (false, false, false) => {
                    format!("{}-{}", start.format("%H:%M"), end.format("%H:%M"))
                }
            };
            let free = if event.busy { "" } else { " (free)" };
            (when, format!("{}{free}", event.title))
        })
        .collect()
}
