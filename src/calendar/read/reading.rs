//! What reading a calendar takes (`Settings`, its `Window`) and gives (`Reading`, `ReadError`).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::calendar::CalendarEvent;

/// The instants events are kept for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
}

/// How one calendar is read.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The source's name, given to each event.
    pub calendar: String,
    pub window: Window,
    /// More events than this in the window fail the reading.
    pub max_events: usize,
    /// The zone of floating times and all-day events: the calendar's person's.
    pub floating: Tz,
}

/// A calendar's events in the window, oldest first.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    pub events: Vec<CalendarEvent>,
    /// Events left out: an unknown zone, a rule that does not read or search, no start.
    pub skipped: usize,
}

/// Why a calendar's text gave no events. Never quotes the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("not an iCalendar file (it does not start with BEGIN:VCALENDAR)")]
    NotCalendar,
    #[error("the iCalendar file is malformed")]
    Malformed,
    #[error("the iCalendar file nests components deeper than {0} levels")]
    TooDeep(usize),
    #[error("more than {0} events in the window (calendars.max_events)")]
    TooManyEvents(usize),
    #[error("the recurring events take too long to expand")]
    TooMuchWork,
    /// Reading stopped without an answer (a fault in a library, caught).
    #[error("the iCalendar file could not be read")]
    Unreadable,
}
