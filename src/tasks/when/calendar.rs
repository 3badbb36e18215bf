//! Date arithmetic on the person's local calendar: the next such weekday, weekend, working day
//! or day of a month; a date named without a year; amounts added or taken away; a local wall
//! time as an instant (DST gaps and folds).
//!
//! # Invariants
//! - Every step is checked (`checked_*`); an answer out of range is [`WhenError::TooFar`],
//!   never a panic.
//! - A DST gap moves forward to the first instant that exists, a fold takes the earlier one.

use chrono::{
    DateTime, Datelike, Days, LocalResult, Months, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta,
    TimeZone, Timelike, Utc, Weekday,
};
use chrono_tz::Tz;

use super::context::WhenContext;
use super::error::WhenError;
use super::parts::{hm, Day, MonthDay, MonthRef, Span, MAX_AHEAD_DAYS};
use super::words::month_name;

/// "today" alone: the end of a working day, the last point most people still act on a task.
const TODAY_HOUR: u32 = 18;

pub(super) struct Calendar<'a> {
    pub(super) ctx: &'a WhenContext,
    pub(super) today: NaiveDate,
}

fn is_weekend(date: NaiveDate) -> bool {
    matches!(date.weekday(), Weekday::Sat | Weekday::Sun)
}

/// The number of days in `month` of `year`.
pub(super) fn month_length(year: i32, month: u32) -> Option<u32> {
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let next = first.checked_add_months(Months::new(1))?;
    u32::try_from(next.signed_duration_since(first).num_days()).ok()
}

impl<'a> Calendar<'a> {
    pub(super) fn new(ctx: &'a WhenContext) -> Self {
        Calendar {
            ctx,
            today: ctx.now.with_timezone(&ctx.timezone).date_naive(),
        }
    }

    pub(super) fn instant(
        &self,
        date: NaiveDate,
        time: NaiveTime,
    ) -> Result<DateTime<Utc>, WhenError> {
        local_to_utc(&self.ctx.timezone, date.and_time(time)).ok_or(WhenError::TooFar)
    }

    pub(super) fn plus_days(&self, date: NaiveDate, days: u64) -> Result<NaiveDate, WhenError> {
        date.checked_add_days(Days::new(days))
            .ok_or(WhenError::TooFar)
    }

    /// The next `day` strictly after today.
    pub(super) fn next_weekday(&self, day: Weekday) -> Result<NaiveDate, WhenError> {
        let from = self.today.weekday().num_days_from_monday();
        let ahead = (day.num_days_from_monday() + 7 - from) % 7;
        self.plus_days(self.today, u64::from(if ahead == 0 { 7 } else { ahead }))
    }

    pub(super) fn next_monday(&self) -> Result<NaiveDate, WhenError> {
        self.next_weekday(Weekday::Mon)
    }

    /// This Saturday or Sunday if `time` on it is still ahead, else next Saturday; `next` on a
    /// weekend day skips to next week's.
    pub(super) fn weekend(&self, time: NaiveTime, next: bool) -> Result<NaiveDate, WhenError> {
        let candidates: &[u64] = match (self.today.weekday(), next) {
            (Weekday::Sat | Weekday::Sun, true) => &[],
            (Weekday::Sat, false) => &[0, 1],
            (Weekday::Sun, false) => &[0],
            _ => &[],
        };
        for &offset in candidates {
            let date = self.plus_days(self.today, offset)?;
            if self.instant(date, time)? > self.ctx.now {
                return Ok(date);
            }
        }
        self.next_weekday(Weekday::Sat)
    }

    /// This week's Friday if `time` on it is still ahead, else next week's.
    pub(super) fn end_of_week(&self, time: NaiveTime) -> Result<NaiveDate, WhenError> {
        let weekday = self.today.weekday().num_days_from_monday();
        if weekday <= 4 {
            let friday = self.plus_days(self.today, u64::from(4 - weekday))?;
            if self.instant(friday, time)? > self.ctx.now {
                return Ok(friday);
            }
        }
        self.next_weekday(Weekday::Fri)
    }

    /// The next Monday to Friday after today.
    pub(super) fn next_working_day(&self) -> Result<NaiveDate, WhenError> {
        let mut date = self.plus_days(self.today, 1)?;
        while is_weekend(date) {
            date = self.plus_days(date, 1)?;
        }
        Ok(date)
    }

    pub(super) fn explicit(
        &self,
        year: Option<i32>,
        month: u32,
        day: u32,
    ) -> Result<NaiveDate, WhenError> {
        let year = match year {
            Some(year) => year,
            None if (month, day) >= (self.today.month(), self.today.day()) => self.today.year(),
            None => self.today.year().checked_add(1).ok_or(WhenError::TooFar)?,
        };
        NaiveDate::from_ymd_opt(year, month, day).ok_or(if month == 2 && day == 29 {
            WhenError::NotLeapYear(year)
        } else {
            WhenError::NoSuchDate {
                day,
                month: month_name(month),
            }
        })
    }

    /// A day of a month: "the 21st" (this month's, next month's once passed), "the 3rd of next
    /// month", "the end of january". A day the month lacks ("the 31st" in November) is said.
    fn in_month(&self, month: MonthRef, day: MonthDay) -> Result<NaiveDate, WhenError> {
        let first_of_this = self.today.with_day(1).ok_or(WhenError::TooFar)?;
        let first = match month {
            MonthRef::Ahead(ahead) => first_of_this
                .checked_add_months(Months::new(ahead))
                .ok_or(WhenError::TooFar)?,
            MonthRef::Coming => {
                let passed = match day {
                    MonthDay::Nth(n) => n < self.today.day(),
                    MonthDay::Last => false,
                };
                first_of_this
                    .checked_add_months(Months::new(u32::from(passed)))
                    .ok_or(WhenError::TooFar)?
            }
            MonthRef::Named(named) => {
                let this_year = NaiveDate::from_ymd_opt(self.today.year(), named, 1)
                    .ok_or(WhenError::NoSuchMonth(named))?;
                let last = month_length(this_year.year(), named).ok_or(WhenError::TooFar)?;
                let wanted = match day {
                    MonthDay::Nth(n) => n,
                    MonthDay::Last => last,
                };
                if (named, wanted) >= (self.today.month(), self.today.day()) {
                    this_year
                } else {
                    this_year
                        .checked_add_months(Months::new(12))
                        .ok_or(WhenError::TooFar)?
                }
            }
        };
        let length = month_length(first.year(), first.month()).ok_or(WhenError::TooFar)?;
        let wanted = match day {
            MonthDay::Nth(n) => n,
            MonthDay::Last => length,
        };
        if wanted > length {
            return Err(if first.month() == 2 && wanted == 29 {
                WhenError::NotLeapYear(first.year())
            } else {
                WhenError::NoSuchDate {
                    day: wanted,
                    month: month_name(first.month()),
                }
            });
        }
        first.with_day(wanted).ok_or(WhenError::TooFar)
    }

    /// Days that do not depend on the time of day.
    pub(super) fn fixed_day(&self, day: Day) -> Result<NaiveDate, WhenError> {
        match day {
            Day::Today => Ok(self.today),
            Day::Tomorrow => self.plus_days(self.today, 1),
            Day::Overmorrow => self.plus_days(self.today, 2),
            Day::Explicit { year, month, day } => self.explicit(year, month, day),
            Day::InMonth { month, day } => self.in_month(month, day),
            Day::NextWeekday => self.next_working_day(),
            // Only asked when several days are named: a past or a week-bound day next to
            // another one is two different answers.
            Day::Past | Day::Weekend { .. } | Day::EndOfWeek => Err(WhenError::Conflicting),
        }
    }

    /// `base` moved by `span`, forwards or back: months and days on the local calendar (the
    /// local time of day kept, across DST too), working days skipping weekends, seconds as
    /// elapsed time.
    pub(super) fn shift(
        &self,
        base: DateTime<Utc>,
        span: Span,
        forward: bool,
    ) -> Result<DateTime<Utc>, WhenError> {
        let mut at = base;
        if span.months > 0 || span.days > 0 || span.working_days > 0 {
            let local = base.with_timezone(&self.ctx.timezone).naive_local();
            let mut date = if forward {
                local
                    .date()
                    .checked_add_months(Months::new(span.months))
                    .and_then(|d| d.checked_add_days(Days::new(span.days)))
            } else {
                local
                    .date()
                    .checked_sub_months(Months::new(span.months))
                    .and_then(|d| d.checked_sub_days(Days::new(span.days)))
            }
            .ok_or(WhenError::TooFar)?;
            let mut left = span.working_days;
            while left > 0 {
                date = if forward {
                    date.succ_opt()
                } else {
                    date.pred_opt()
                }
                .ok_or(WhenError::TooFar)?;
                if !is_weekend(date) {
                    left -= 1;
                }
            }
            at = self.instant(date, local.time())?;
        }
        let seconds = i64::try_from(span.seconds).map_err(|_| WhenError::TooFar)?;
        let delta = TimeDelta::try_seconds(seconds).ok_or(WhenError::TooFar)?;
        if forward {
            at.checked_add_signed(delta)
        } else {
            at.checked_sub_signed(delta)
        }
        .ok_or(WhenError::TooFar)
    }

    pub(super) fn now_plus_later(&self) -> Result<DateTime<Utc>, WhenError> {
        TimeDelta::from_std(self.ctx.later)
            .ok()
            .and_then(|d| self.ctx.now.checked_add_signed(d))
            .ok_or(WhenError::TooFar)
    }

    /// "today" with no time: the end of the working day, or "later" once that has gone.
    pub(super) fn today_alone(&self) -> Result<DateTime<Utc>, WhenError> {
        let evening = hm(TODAY_HOUR, 0).ok_or(WhenError::TooFar)?;
        let at = self.instant(self.today, evening)?;
        if at > self.ctx.now {
            Ok(at)
        } else {
            self.now_plus_later()
        }
    }

    /// The task's usual time of day: its current start's local time when that was chosen on
    /// purpose, i.e. on a quarter hour (minute 0, 15, 30 or 45) with no seconds. Anything else
    /// ("later" at 00:22:41 left 03:22:41) is a leftover of arithmetic from now, not a time
    /// anyone picked, so a new day gets the default hour instead.
    pub(super) fn start_time_of_day(&self) -> Option<NaiveTime> {
        self.ctx
            .current_start
            .map(|start| start.with_timezone(&self.ctx.timezone).time())
            .filter(|time| time.minute() % 15 == 0 && time.second() == 0 && time.nanosecond() == 0)
    }
}

pub(super) fn ensure_ahead(
    at: DateTime<Utc>,
    ctx: &WhenContext,
) -> Result<DateTime<Utc>, WhenError> {
    if at <= ctx.now {
        let today = ctx.now.with_timezone(&ctx.timezone).date_naive();
        let day = at.with_timezone(&ctx.timezone).date_naive();
        return Err(if day < today {
            WhenError::PastDate
        } else {
            WhenError::PastTime
        });
    }
    let horizon = i64::try_from(MAX_AHEAD_DAYS)
        .ok()
        .and_then(TimeDelta::try_days)
        .and_then(|d| ctx.now.checked_add_signed(d))
        .ok_or(WhenError::TooFar)?;
    if at > horizon {
        return Err(WhenError::TooFar);
    }
    Ok(at)
}

/// The instant a local wall-clock time means. In a DST gap that is the first instant after the
/// gap (the clock change itself), in a fold the earlier of the two.
fn local_to_utc(tz: &Tz, local: NaiveDateTime) -> Option<DateTime<Utc>> {
    match tz.from_local_datetime(&local) {
        LocalResult::Single(at) => Some(at.with_timezone(&Utc)),
        LocalResult::Ambiguous(a, b) => Some(a.min(b).with_timezone(&Utc)),
        LocalResult::None => {
            // Clock changes happen on whole minutes, and the longest gap on record is a day
            // (Samoa, 2011), so a minute-by-minute walk is short and certain to land.
            let mut probe = local.with_second(0)?.with_nanosecond(0)?;
            for _ in 0..(26 * 60) {
                probe = probe.checked_add_signed(TimeDelta::try_minutes(1)?)?;
                match tz.from_local_datetime(&probe) {
                    LocalResult::Single(at) => return Some(at.with_timezone(&Utc)),
                    LocalResult::Ambiguous(a, b) => return Some(a.min(b).with_timezone(&Utc)),
                    LocalResult::None => {}
                }
            }
            None
        }
    }
}
