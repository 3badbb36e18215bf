//! What each phrase contributes before the phrases are combined: a day, a weekday, a clock time,
//! a bare hour, a part of day, an amount of time, a time relative to another, a time zone, or an
//! error found while reading it ("25:00", "-5 days").
//!
//! # Invariants
//! - An amount of time ([`Span`]) never exceeds the five-year horizon, so chrono only ever sees
//!   small values; larger amounts are [`WhenError::TooFar`] as soon as they are read.
//! - Every arithmetic step on an amount is checked: no input can overflow or panic.

use chrono::{NaiveTime, Weekday};
use chrono_tz::Tz;

use super::error::WhenError;
use super::words::{max_days, month_name, Unit};

/// How far ahead a result may be; also keeps every intermediate value far inside chrono's range.
pub(super) const MAX_AHEAD_DAYS: u64 = 5 * 366;

const SECONDS_PER: [(Unit, u64); 5] = [
    (Unit::Second, 1),
    (Unit::Minute, 60),
    (Unit::Hour, 3_600),
    (Unit::Day, 86_400),
    (Unit::Week, 7 * 86_400),
];

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

/// Which month a day of the month is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MonthRef {
    /// This month, or the next one once the day has passed ("on the 21st", "end of the month").
    Coming,
    /// This many months after this one ("of next month": 1).
    Ahead(u32),
    /// The next such month, this year or next ("mid january").
    Named(u32),
}

/// Which day of that month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MonthDay {
    Nth(u32),
    Last,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Day {
    Past,
    Today,
    Tomorrow,
    Overmorrow,
    /// This Saturday or Sunday still ahead; `next` on a weekend day means next week's.
    Weekend {
        next: bool,
    },
    Explicit {
        year: Option<i32>,
        month: u32,
        day: u32,
    },
    InMonth {
        month: MonthRef,
        day: MonthDay,
    },
    /// This week's Friday while it is still ahead, else next week's.
    EndOfWeek,
    /// The next working day: Monday to Friday, after today.
    NextWeekday,
}

/// An amount of time; months and days move the local calendar, working days skip Saturdays and
/// Sundays, seconds are elapsed time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Span {
    pub(super) months: u32,
    pub(super) days: u64,
    pub(super) working_days: u64,
    pub(super) seconds: u64,
}

impl Span {
    pub(super) fn of(n: u64, unit: Unit) -> Result<Span, WhenError> {
        Span::fraction(n, 1, unit)
    }

    /// `numerator / denominator` units: "1.5 hours" is 3/2 hours. Days and weeks keep their
    /// whole days on the calendar and the rest as elapsed time; a fraction of a month that is
    /// not whole months cannot be said exactly and is refused (`None` from the caller's view:
    /// [`WhenError::Unread`] with the words).
    pub(super) fn fraction(
        numerator: u64,
        denominator: u64,
        unit: Unit,
    ) -> Result<Span, WhenError> {
        let denominator = denominator.max(1);
        let too_far = |_| WhenError::TooFar;
        let span = match unit {
            Unit::Month | Unit::Year => {
                let per = if unit == Unit::Year { 12 } else { 1 };
                let months = numerator.checked_mul(per).ok_or(WhenError::TooFar)?;
                if months % denominator != 0 {
                    return Err(WhenError::Unread(
                        "a part of a month (say it in weeks or days)".into(),
                    ));
                }
                Span {
                    months: u32::try_from(months / denominator).map_err(too_far)?,
                    ..Span::default()
                }
            }
            Unit::Fortnight => Span::fraction(
                numerator.checked_mul(2).ok_or(WhenError::TooFar)?,
                denominator,
                Unit::Week,
            )?,
            _ => {
                let per = SECONDS_PER
                    .iter()
                    .find(|(u, _)| *u == unit)
                    .map_or(1, |(_, s)| *s);
                let seconds = u128::from(numerator) * u128::from(per) / u128::from(denominator);
                let seconds = u64::try_from(seconds).map_err(too_far)?;
                if matches!(unit, Unit::Day | Unit::Week) {
                    Span {
                        days: seconds / 86_400,
                        seconds: seconds % 86_400,
                        ..Span::default()
                    }
                } else {
                    Span {
                        seconds,
                        ..Span::default()
                    }
                }
            }
        };
        span.bounded()
    }

    pub(super) fn working(days: u64) -> Result<Span, WhenError> {
        Span {
            working_days: days,
            ..Span::default()
        }
        .bounded()
    }

    pub(super) fn plus(self, other: Span) -> Result<Span, WhenError> {
        let add = |a: u64, b: u64| a.checked_add(b).ok_or(WhenError::TooFar);
        Span {
            months: self
                .months
                .checked_add(other.months)
                .ok_or(WhenError::TooFar)?,
            days: add(self.days, other.days)?,
            working_days: add(self.working_days, other.working_days)?,
            seconds: add(self.seconds, other.seconds)?,
        }
        .bounded()
    }

    /// Rejects early what could never be within the horizon, so chrono only sees small values.
    fn bounded(self) -> Result<Span, WhenError> {
        let max_months = MAX_AHEAD_DAYS / 28 + 1;
        if u64::from(self.months) > max_months
            || self.days > MAX_AHEAD_DAYS
            || self.working_days > MAX_AHEAD_DAYS
            || self.seconds > MAX_AHEAD_DAYS * 86_400
        {
            Err(WhenError::TooFar)
        } else {
            Ok(self)
        }
    }

    /// Whether it moves whole days only (the time of day can then be named on its own).
    pub(super) fn is_calendar_only(self) -> bool {
        self.seconds == 0
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Part {
    Day(Day),
    Weekday(Weekday),
    NextWeek,
    Clock(NaiveTime),
    /// A time of day without am or pm ("at 5", "half past 3"): am or pm comes from a part of
    /// day, or 7..=11 mean the morning, or the person is asked.
    BareHour {
        hour: u32,
        minute: u32,
    },
    Period(Period),
    /// 00:00 at the end of the day named (today when none): "tonight at midnight".
    Midnight,
    /// The end of the working day (17:00) of the day named, today when none: "EOD", "COB".
    EndOfDay,
    /// The time of day a named point brings with it ("end of the week": 17:00), used only when
    /// no time of day is named.
    PointTime(NaiveTime),
    FromNow(Span),
    FromStart(Span),
    /// An amount before or after another time: "a week before the 20th", "the day after
    /// tuesday", "a week from tomorrow".
    Relative {
        span: Span,
        after: bool,
        anchor: Vec<Part>,
    },
    /// The time is said in this zone ("3pm PST", "9:00 UTC+2", "New York time").
    Zone(Tz),
    /// The time is said in the reading zone ("3pm my time", "local time"): nothing to convert.
    ReadingZone,
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
