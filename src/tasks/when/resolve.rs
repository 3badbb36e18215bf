//! Combining the parts of a text into one instant on the user's calendar: which day, which time
//! of day, from now or from the task's start, and the checks that the answer is one, real and
//! ahead (see the module header of `when` for every interpretation).
//!
//! # Invariants
//! - Rules apply on the local calendar of `WhenContext::timezone`; the result is UTC.
//! - A DST gap moves forward to the first instant that exists, a fold takes the earlier one.
//! - The result is strictly after `now` and within five years, or an error.

use chrono::{
    DateTime, Datelike, Days, LocalResult, Months, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta,
    TimeZone, Timelike, Utc, Weekday,
};
use chrono_tz::Tz;

use super::context::WhenContext;
use super::error::WhenError;
use super::parts::{hm, Day, Part, Period, Span, MAX_AHEAD_DAYS};
use super::words::{month_name, weekday_name};

const DEFAULT_HOUR: u32 = 9;
/// Bare hours after "at" read as morning without a part of day: nobody books "at 8" for 20:00
/// without saying so, while "at 3" could be either and is asked back.
const MORNING_BARE_HOURS: std::ops::RangeInclusive<u32> = 7..=11;
const WEEKEND_HOUR: u32 = 10;
/// "today" alone: the end of a working day, the last point most people still act on a task.
const TODAY_HOUR: u32 = 18;

fn push_unique<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

#[derive(Default)]
struct Gathered {
    days: Vec<Day>,
    weekdays: Vec<Weekday>,
    next_week: bool,
    clocks: Vec<NaiveTime>,
    bare_hours: Vec<u32>,
    periods: Vec<Period>,
    /// (from the task's start, span)
    spans: Vec<(bool, Span)>,
    later: bool,
    later_today: bool,
}

impl Gathered {
    fn names_more_than_later(&self) -> bool {
        !self.days.is_empty()
            || !self.weekdays.is_empty()
            || self.next_week
            || !self.clocks.is_empty()
            || !self.bare_hours.is_empty()
            || !self.periods.is_empty()
            || !self.spans.is_empty()
    }

    fn time_of_day(&self) -> Result<Option<NaiveTime>, WhenError> {
        if self.clocks.len() + self.bare_hours.len() > 1 || self.periods.len() > 1 {
            return Err(WhenError::Conflicting);
        }
        let period = self.periods.first().copied();
        if let Some(&clock) = self.clocks.first() {
            return Ok(Some(clock));
        }
        if let Some(&hour) = self.bare_hours.first() {
            let hour = match period {
                Some(period) if period.is_pm() => hour + 12,
                Some(_) => hour,
                None if MORNING_BARE_HOURS.contains(&hour) => hour,
                None => return Err(WhenError::AmbiguousHour(hour)),
            };
            return hm(hour, 0)
                .map(Some)
                .ok_or(WhenError::NoSuchTime(format!("{hour}:00")));
        }
        Ok(period.and_then(|p| hm(p.default_hour(), 0)))
    }
}

struct Calendar<'a> {
    ctx: &'a WhenContext,
    today: NaiveDate,
}

impl Calendar<'_> {
    fn instant(&self, date: NaiveDate, time: NaiveTime) -> Result<DateTime<Utc>, WhenError> {
        local_to_utc(&self.ctx.timezone, date.and_time(time)).ok_or(WhenError::TooFar)
    }

    fn plus_days(&self, date: NaiveDate, days: u64) -> Result<NaiveDate, WhenError> {
        date.checked_add_days(Days::new(days))
            .ok_or(WhenError::TooFar)
    }

    /// The next `day` strictly after today.
    fn next_weekday(&self, day: Weekday) -> Result<NaiveDate, WhenError> {
        let from = self.today.weekday().num_days_from_monday();
        let ahead = (day.num_days_from_monday() + 7 - from) % 7;
        self.plus_days(self.today, u64::from(if ahead == 0 { 7 } else { ahead }))
    }

    fn next_monday(&self) -> Result<NaiveDate, WhenError> {
        self.next_weekday(Weekday::Mon)
    }

    /// This Saturday or Sunday if `time` on it is still ahead, else next Saturday.
    fn weekend(&self, time: NaiveTime) -> Result<NaiveDate, WhenError> {
        let candidates: &[u64] = match self.today.weekday() {
            Weekday::Sat => &[0, 1],
            Weekday::Sun => &[0],
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

    fn explicit(&self, year: Option<i32>, month: u32, day: u32) -> Result<NaiveDate, WhenError> {
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

    /// Days that do not depend on the time of day.
    fn fixed_day(&self, day: Day) -> Result<NaiveDate, WhenError> {
        match day {
            Day::Today => Ok(self.today),
            Day::Tomorrow => self.plus_days(self.today, 1),
            Day::Overmorrow => self.plus_days(self.today, 2),
            Day::NextMonth => {
                let (year, month) = match self.today.month() {
                    12 => (self.today.year().checked_add(1), 1),
                    month => (Some(self.today.year()), month + 1),
                };
                year.and_then(|y| NaiveDate::from_ymd_opt(y, month, 1))
                    .ok_or(WhenError::TooFar)
            }
            Day::Explicit { year, month, day } => self.explicit(year, month, day),
            // Only asked when several days are named: a past or weekend day next to another
            // one is two different answers.
            Day::Past | Day::Weekend => Err(WhenError::Conflicting),
        }
    }

    fn add_span(&self, base: DateTime<Utc>, span: Span) -> Result<DateTime<Utc>, WhenError> {
        let mut at = base;
        if span.months > 0 || span.days > 0 {
            let local = base.with_timezone(&self.ctx.timezone).naive_local();
            let date = local
                .date()
                .checked_add_months(Months::new(span.months))
                .and_then(|d| d.checked_add_days(Days::new(span.days)))
                .ok_or(WhenError::TooFar)?;
            at = self.instant(date, local.time())?;
        }
        let minutes = i64::try_from(span.minutes).map_err(|_| WhenError::TooFar)?;
        TimeDelta::try_minutes(minutes)
            .and_then(|d| at.checked_add_signed(d))
            .ok_or(WhenError::TooFar)
    }

    fn now_plus_later(&self) -> Result<DateTime<Utc>, WhenError> {
        TimeDelta::from_std(self.ctx.later)
            .ok()
            .and_then(|d| self.ctx.now.checked_add_signed(d))
            .ok_or(WhenError::TooFar)
    }

    /// "today" with no time: the end of the working day, or "later" once that has gone.
    fn today_alone(&self) -> Result<DateTime<Utc>, WhenError> {
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
    fn start_time_of_day(&self) -> Option<NaiveTime> {
        self.ctx
            .current_start
            .map(|start| start.with_timezone(&self.ctx.timezone).time())
            .filter(|time| time.minute() % 15 == 0 && time.second() == 0 && time.nanosecond() == 0)
    }
}

pub(super) fn resolve(
    parts: &[Part],
    ctx: &WhenContext,
) -> Result<Option<DateTime<Utc>>, WhenError> {
    let mut g = Gathered::default();
    for part in parts {
        match part {
            Part::Invalid(error) => return Err(error.clone()),
            Part::Day(day) => push_unique(&mut g.days, *day),
            Part::Weekday(day) => push_unique(&mut g.weekdays, *day),
            Part::NextWeek => g.next_week = true,
            Part::Clock(time) => push_unique(&mut g.clocks, *time),
            Part::BareHour(hour) => push_unique(&mut g.bare_hours, *hour),
            Part::Period(period) => push_unique(&mut g.periods, *period),
            Part::FromNow(span) => push_unique(&mut g.spans, (false, *span)),
            Part::FromStart(span) => push_unique(&mut g.spans, (true, *span)),
            Part::Later => g.later = true,
            Part::LaterToday => g.later_today = true,
        }
    }
    let cal = Calendar {
        ctx,
        today: ctx.now.with_timezone(&ctx.timezone).date_naive(),
    };
    if !g.names_more_than_later() {
        return if g.later || g.later_today {
            cal.now_plus_later().map(Some)
        } else {
            Ok(None)
        };
    }
    // With anything more specific around, "later today" only says "today" and "later" nothing.
    if g.later_today {
        push_unique(&mut g.days, Day::Today);
    }
    // A past day can never be the new time, so beside a usable one it is only the story ("it was
    // due yesterday, push to friday"); alone it is still an error.
    let usable_day = g.days.iter().any(|d| *d != Day::Past)
        || !g.weekdays.is_empty()
        || g.next_week
        || !g.spans.is_empty();
    if usable_day {
        g.days.retain(|d| *d != Day::Past);
    }
    let time_of_day = g.time_of_day()?;

    if let Some(&(from_start, span)) = g.spans.first() {
        if g.spans.len() > 1 || !g.days.is_empty() || !g.weekdays.is_empty() || g.next_week {
            return Err(WhenError::Conflicting);
        }
        let base = match (from_start, ctx.current_start) {
            (true, Some(start)) => start,
            _ => ctx.now,
        };
        let moved = cal.add_span(base, span)?;
        return match time_of_day {
            None => Ok(Some(moved)),
            Some(time) if span.is_calendar_only() => {
                let date = moved.with_timezone(&ctx.timezone).date_naive();
                cal.instant(date, time).map(Some)
            }
            Some(_) => Err(WhenError::Conflicting),
        };
    }

    if g.weekdays.len() > 1 {
        return Err(WhenError::Conflicting);
    }
    let weekday = g.weekdays.first().copied();
    let fallback_time = |hour: u32| {
        time_of_day
            .or_else(|| cal.start_time_of_day())
            .or_else(|| hm(hour, 0))
            .ok_or(WhenError::TooFar)
    };

    let date = if g.next_week {
        if !g.days.is_empty() {
            return Err(WhenError::Conflicting);
        }
        let offset = weekday.map_or(0, |d| d.num_days_from_monday());
        cal.plus_days(cal.next_monday()?, u64::from(offset))?
    } else if let Some(&day) = g.days.first() {
        let (date, time) = match day {
            Day::Weekend if g.days.len() == 1 => {
                let time = fallback_time(WEEKEND_HOUR)?;
                (cal.weekend(time)?, time)
            }
            Day::Past if g.days.len() == 1 => return Err(WhenError::PastDate),
            _ => {
                let mut dates = Vec::new();
                for &other in &g.days {
                    push_unique(&mut dates, cal.fixed_day(other)?);
                }
                if dates.len() > 1 {
                    return Err(WhenError::Conflicting);
                }
                let date = cal.fixed_day(day)?;
                if date == cal.today && time_of_day.is_none() {
                    check_weekday(date, day, weekday)?;
                    return cal.today_alone().map(Some);
                }
                (date, fallback_time(DEFAULT_HOUR)?)
            }
        };
        check_weekday(date, day, weekday)?;
        return cal.instant(date, time).map(Some);
    } else if let Some(day) = weekday {
        cal.next_weekday(day)?
    } else {
        // A time of day alone: its next occurrence.
        let Some(time) = time_of_day else {
            return Ok(None);
        };
        let today = cal.instant(cal.today, time)?;
        if today > ctx.now {
            return Ok(Some(today));
        }
        let tomorrow = cal.plus_days(cal.today, 1)?;
        return cal.instant(tomorrow, time).map(Some);
    };
    cal.instant(date, fallback_time(DEFAULT_HOUR)?).map(Some)
}

/// A weekday beside a calendar date ("friday 4 dec") must name that date's weekday, and a wrong
/// one is pointed out; beside any other day ("tomorrow or friday") it is a second answer.
fn check_weekday(date: NaiveDate, day: Day, said: Option<Weekday>) -> Result<(), WhenError> {
    match said {
        Some(said) if said != date.weekday() => Err(match day {
            Day::Explicit { .. } => WhenError::WeekdayMismatch {
                date: format!("{} {}", date.day(), month_name(date.month())),
                actual: weekday_name(date.weekday()),
                said: weekday_name(said),
            },
            _ => WhenError::Conflicting,
        }),
        _ => Ok(()),
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
