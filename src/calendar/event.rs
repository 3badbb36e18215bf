//! One event of a calendar Donna reads: an occurrence, with its own start and end.
//!
//! Invariants: `end >= start`; an all-day event runs from midnight to midnight in the zone of
//! the person the calendar belongs to; `busy` is false only for events the calendar marks as
//! leaving the time free (TRANSP:TRANSPARENT), so a slot is never proposed over a busy one.

use chrono::{DateTime, Utc};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalendarEvent {
    /// The source's name.
    pub calendar: String,
    pub uid: String,
    pub title: String,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub all_day: bool,
    pub busy: bool,
}

impl CalendarEvent {
    /// Whether it overlaps [from, to) (an event of no length counts at its start).
    pub fn overlaps(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> bool {
        if self.start == self.end {
            self.start >= from && self.start < to
        } else {
            self.start < to && self.end > from
        }
    }
}
