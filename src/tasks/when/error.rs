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
    /// Carries the time as the user wrote it ("25:00", "13pm").
    #[error("there is no {0}")]
    NoSuchTime(String),
    #[error("did you mean {0}am or {0}pm?")]
    AmbiguousHour(u32),
    #[error("midnight is ambiguous: say 23:59 or 00:00")]
    Midnight,
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
}
