//! Why a text that names a time cannot be used. Each message is a sentence shown to the user as
//! it is ("did you mean 3am or 3pm?"), so the variants carry what the user wrote.

/// Why a text that names a time cannot be used. Messages are shown to the user as they are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WhenError {
    #[error("that date is in the past")]
    PastDate,
    #[error("that time has already passed")]
    PastTime,
    #[error("there is no {day} {month}")]
    NoSuchDate { day: u32, month: &'static str },
    #[error("there is no 29 February in {0}")]
    NotLeapYear(i32),
    #[error("there is no month {0}")]
    NoSuchMonth(u32),
    /// Carries the time as the user wrote it ("25:00", "13pm", "23:59:60").
    #[error("there is no {0}")]
    NoSuchTime(String),
    #[error("did you mean {0}am or {0}pm?")]
    AmbiguousHour(u32),
    /// A time with minutes and no am or pm whose hour could be either ("3:15").
    #[error("did you mean {0}am or {0}pm?")]
    AmbiguousTime(String),
    #[error("{date} is a {actual}, not a {said}")]
    WeekdayMismatch {
        date: String,
        actual: &'static str,
        said: &'static str,
    },
    #[error("that names more than one time: please give just one")]
    Conflicting,
    #[error("that is too far ahead (more than 5 years)")]
    TooFar,
    /// Words of a time phrase the reader could not read, as written: the phrase is read whole
    /// or not at all, so these are asked about, never dropped or left in a title.
    #[error("I can't read \"{0}\"")]
    Unread(String),
    /// An amount of time below zero ("-5 days"), as written.
    #[error("a time can't be a negative amount (\"{0}\")")]
    Negative(String),
    /// A zone abbreviation several zones use ("IST"): what it is, and what it could mean.
    #[error("{written} could mean {could_be}: which one? (say e.g. {example})")]
    AmbiguousZone {
        written: String,
        could_be: &'static str,
        example: &'static str,
    },
    /// A zone or offset that does not exist or that Donna cannot convert ("UTC+15").
    #[error("I don't know the time zone {0}")]
    UnknownZone(String),
    /// A date in numbers that reads two ways ("3/12": 3 December or 12 March).
    #[error("{written} could be {one} or {other}: please write the month's name")]
    NumericDate {
        written: String,
        one: String,
        other: String,
    },
    /// A repeating time ("every friday") where one time was expected.
    #[error("\"{0}\" repeats: for a recurring reminder say it like 'every friday at 9 remind me to ...'")]
    Recurring(String),
}
