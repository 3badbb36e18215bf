//! What each phrase contributes before the phrases are combined: a day, a weekday, a clock time,
//! a bare hour, a part of day, an amount of time, or an error found while reading it ("25:00").
//!
//! # Invariants
//! - An amount of time ([`Span`]) never exceeds the five-year horizon, so chrono only ever sees
//!   small values; larger amounts are [`WhenError::TooFar`] as soon as they are read.

use chrono::{NaiveTime, Weekday};

use super::error::WhenError;
use super::words::{max_days, month_name, Unit};

/// How far ahead a result may be; also keeps every intermediate value far inside chrono's range.
pub(super) const MAX_AHEAD_DAYS: u64 = 5 * 366;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Period {
    Morning,
    Afternoon,
    Evening,
    Night,
}

impl Period {
    pub(super) fn default_hour(self) -> u32 {
        match self {
            Period::Morning => 9,
            Period::Afternoon => 14,
            Period::Evening => 18,
            Period::Night => 20,
        }
    }

    pub(super) fn is_pm(self) -> bool {
        self != Period::Morning
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Day {
    Past,
    Today,
    Tomorrow,
    Overmorrow,
    NextMonth,
    Weekend,
    Explicit {
        year: Option<i32>,
        month: u32,
        day: u32,
    },
}

/// An amount of time; months and days move the local calendar, minutes are elapsed time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Span {
    pub(super) months: u32,
    pub(super) days: u64,
    pub(super) minutes: u64,
}

impl Span {
    pub(super) fn of(n: u64, unit: Unit) -> Result<Span, WhenError> {
        let span = match unit {
            Unit::Minute => Span {
                minutes: n,
                ..Span::default()
            },
            Unit::Hour => Span {
                minutes: n.checked_mul(60).ok_or(WhenError::TooFar)?,
                ..Span::default()
            },
            Unit::Day => Span {
                days: n,
                ..Span::default()
            },
            Unit::Week => Span {
                days: n.checked_mul(7).ok_or(WhenError::TooFar)?,
                ..Span::default()
            },
            Unit::Month => Span {
                months: u32::try_from(n).map_err(|_| WhenError::TooFar)?,
                ..Span::default()
            },
        };
        span.bounded()
    }

    pub(super) fn plus(self, other: Span) -> Result<Span, WhenError> {
        Span {
            months: self
                .months
                .checked_add(other.months)
                .ok_or(WhenError::TooFar)?,
            days: self.days.checked_add(other.days).ok_or(WhenError::TooFar)?,
            minutes: self
                .minutes
                .checked_add(other.minutes)
                .ok_or(WhenError::TooFar)?,
        }
        .bounded()
    }

    /// Rejects early what could never be within the horizon, so chrono only sees small values.
    fn bounded(self) -> Result<Span, WhenError> {
        let max_months = MAX_AHEAD_DAYS / 28 + 1;
        if u64::from(self.months) > max_months
            || self.days > MAX_AHEAD_DAYS
            || self.minutes > MAX_AHEAD_DAYS * 24 * 60
        {
            Err(WhenError::TooFar)
        } else {
            Ok(self)
        }
    }

    pub(super) fn is_calendar_only(self) -> bool {
        self.minutes == 0
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Part {
    Day(Day),
    Weekday(Weekday),
    NextWeek,
    Clock(NaiveTime),
    /// 1..=11 after "at": am or pm comes from a part of day, or the user is asked.
    BareHour(u32),
    Period(Period),
    FromNow(Span),
    FromStart(Span),
    Later,
    LaterToday,
    Invalid(WhenError),
}

pub(super) fn hm(hour: u32, minute: u32) -> Option<NaiveTime> {
    NaiveTime::from_hms_opt(hour, minute, 0)
}

pub(super) fn clock_part(hour: u32, minute: u32, written: &str) -> Part {
    match hm(hour, minute) {
        Some(time) => Part::Clock(time),
        None => Part::Invalid(WhenError::NoSuchTime(written.to_owned())),
    }
}

pub(super) fn explicit_part(year: Option<i32>, month: u32, day: u32) -> Part {
    if !(1..=12).contains(&month) {
        Part::Invalid(WhenError::NoSuchMonth(month))
    } else if day == 0 || day > max_days(month) {
        Part::Invalid(WhenError::NoSuchDate {
            day,
            month: month_name(month),
        })
    } else {
        Part::Day(Day::Explicit { year, month, day })
    }
}
