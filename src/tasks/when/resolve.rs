//! Combining the parts of a text into one instant on the user's calendar: which day, which time
//! of day, from now or from the task's start, relative to another time, in which zone, and the
//! checks that the answer is one and real (see the module header of `when` for every
//! interpretation). The calendar arithmetic is `calendar`'s.
//!
//! # Invariants
//! - Rules apply on the local calendar of the zone named in the text, else of
//!   `WhenContext::timezone`; the result is UTC.
//! - Any part that could not be read makes the whole reading fail: nothing is half-read.
//! - Two different answers in one text are [`WhenError::Conflicting`], never a pick.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc, Weekday};

use super::calendar::Calendar;
use super::context::WhenContext;
use super::error::WhenError;
use super::parts::{hm, Day, Part, Period, Span};
use super::words::{month_name, weekday_name};
use chrono::Datelike;

const DEFAULT_HOUR: u32 = 9;
/// Bare hours after "at" read as morning without a part of day: nobody books "at 8" for 20:00
/// without saying so, while "at 3" could be either and is asked back.
const MORNING_BARE_HOURS: std::ops::RangeInclusive<u32> = 7..=11;
const WEEKEND_HOUR: u32 = 10;
/// The end of a working day: "EOD", "end of the week" at this hour.
const END_OF_DAY_HOUR: u32 = 17;

fn push_unique<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// What a phrase said, gathered by kind (its days, weekdays, clock times, spans, ...); a
/// variable holding one is called `said`.
#[derive(Default)]
struct Gathered {
    days: Vec<Day>,
    weekdays: Vec<Weekday>,
    next_week: bool,
    clocks: Vec<NaiveTime>,
    bare_hours: Vec<(u32, u32)>,
    periods: Vec<Period>,
    point_times: Vec<NaiveTime>,
    midnight: bool,
    end_of_day: bool,
    /// (from the task's start, span)
    spans: Vec<(bool, Span)>,
    later: bool,
    later_today: bool,
}

impl Gathered {
    fn from_parts(parts: &[Part]) -> Result<Gathered, WhenError> {
        let mut said = Gathered::default();
        for part in parts {
            match part {
                Part::Invalid(error) => return Err(error.clone()),
                Part::Day(day) => push_unique(&mut said.days, *day),
                Part::Weekday(day) => push_unique(&mut said.weekdays, *day),
                Part::NextWeek => said.next_week = true,
                Part::Clock(time) => push_unique(&mut said.clocks, *time),
                Part::BareHour { hour, minute } => {
                    push_unique(&mut said.bare_hours, (*hour, *minute))
                }
                Part::Period(period) => push_unique(&mut said.periods, *period),
                Part::PointTime(time) => push_unique(&mut said.point_times, *time),
                Part::Midnight => said.midnight = true,
                Part::EndOfDay => said.end_of_day = true,
                Part::FromNow(span) => push_unique(&mut said.spans, (false, *span)),
                Part::FromStart(span) => push_unique(&mut said.spans, (true, *span)),
                Part::Later => said.later = true,
                Part::LaterToday => said.later_today = true,
                // Taken out by `resolve` before the parts are gathered; the reading zone is the
                // one the reading is made in already.
                Part::Relative { .. } | Part::Zone(_) | Part::ReadingZone => {}
            }
        }
        if said.end_of_day {
            push_unique(
                &mut said.clocks,
                hm(END_OF_DAY_HOUR, 0).ok_or(WhenError::TooFar)?,
            );
            if said.days.is_empty() && said.weekdays.is_empty() && !said.next_week {
                said.days.push(Day::Today);
            }
        }
        Ok(said)
    }

    fn names_more_than_later(&self) -> bool {
        !self.days.is_empty()
            || !self.weekdays.is_empty()
            || self.next_week
            || !self.clocks.is_empty()
            || !self.bare_hours.is_empty()
            || !self.periods.is_empty()
            || !self.spans.is_empty()
            || !self.point_times.is_empty()
            || self.midnight
    }

    fn time_of_day(&self) -> Result<Option<NaiveTime>, WhenError> {
        let named = self.clocks.len() + self.bare_hours.len();
        if named > 1 || self.periods.len() > 1 || (self.midnight && named > 0) {
            return Err(WhenError::Conflicting);
        }
        let period = self.periods.first().copied();
        if let Some(&clock) = self.clocks.first() {
            return Ok(Some(clock));
        }
        if let Some(&(hour, minute)) = self.bare_hours.first() {
            let hour = match period {
                _ if hour == 12 => 12,
                Some(period) if period.is_pm() => hour + 12,
                Some(_) => hour,
                None if MORNING_BARE_HOURS.contains(&hour) => hour,
                None if minute == 0 => return Err(WhenError::AmbiguousHour(hour)),
                None => return Err(WhenError::AmbiguousTime(format!("{hour}:{minute:02}"))),
            };
            return hm(hour, minute)
                .map(Some)
                .ok_or(WhenError::NoSuchTime(format!("{hour}:{minute:02}")));
        }
        if self.midnight {
            return Ok(None);
        }
        Ok(period.and_then(|p| hm(p.default_hour(), 0)))
    }
}

/// The time of day `parts` name on their own (a clock, a bare hour with its part of day, a part
/// of day, midnight as 00:00, the end of the day as 17:00), or None.
pub(super) fn time_of_day_only(parts: &[Part]) -> Result<Option<NaiveTime>, WhenError> {
    let said = Gathered::from_parts(parts)?;
    if said.midnight {
        if !said.clocks.is_empty() || !said.bare_hours.is_empty() {
            return Err(WhenError::Conflicting);
        }
        return Ok(Some(NaiveTime::MIN));
    }
    said.time_of_day()
}

/// The instant `parts` name, or None when they name no time.
pub(super) fn resolve(
    parts: &[Part],
    ctx: &WhenContext,
) -> Result<Option<DateTime<Utc>>, WhenError> {
    if let Some(error) = parts.iter().find_map(|p| match p {
        Part::Invalid(error) => Some(error.clone()),
        _ => None,
    }) {
        return Err(error);
    }
    let mut zones = Vec::new();
    for part in parts {
        if let Part::Zone(tz) = part {
            push_unique(&mut zones, *tz);
        }
    }
    if zones.len() > 1 {
        return Err(WhenError::Conflicting);
    }
    let zoned;
    let ctx = match zones.first() {
        Some(tz) => {
            zoned = WhenContext {
                timezone: *tz,
                ..ctx.clone()
            };
            &zoned
        }
        None => ctx,
    };
    let relatives: Vec<(&Span, bool, &Vec<Part>)> = parts
        .iter()
        .filter_map(|p| match p {
            Part::Relative {
                span,
                after,
                anchor,
            } => Some((span, *after, anchor)),
            _ => None,
        })
        .collect();
    let others: Vec<Part> = parts
        .iter()
        .filter(|p| !matches!(p, Part::Relative { .. } | Part::Zone(_)))
        .cloned()
        .collect();
    match relatives.as_slice() {
        [] => combine(&others, ctx),
        [(span, after, anchor)] => {
            if others
                .iter()
                .any(|p| matches!(p, Part::FromNow(_) | Part::FromStart(_)))
            {
                return Err(WhenError::Conflicting);
            }
            let mut inner = (*anchor).clone();
            inner.extend(others);
            // The anchor may itself be behind us ("2 days after yesterday"): only the answer
            // has to be ahead, which the caller checks.
            match combine(&inner, ctx)? {
                Some(at) => Calendar::new(ctx).shift(at, **span, *after).map(Some),
                None => Ok(None),
            }
        }
        _ => Err(WhenError::Conflicting),
    }
}

/// The instant the plain parts (no zone, no relative time) name on `ctx`'s calendar.
fn combine(parts: &[Part], ctx: &WhenContext) -> Result<Option<DateTime<Utc>>, WhenError> {
    let mut said = Gathered::from_parts(parts)?;
    let calendar = Calendar::new(ctx);
    if !said.names_more_than_later() {
        return if said.later || said.later_today {
            calendar.now_plus_later().map(Some)
        } else {
            Ok(None)
        };
    }
    said.keep_usable_days();
    let time_of_day = said.time_of_day()?;
    if said.point_times.len() > 1 {
        return Err(WhenError::Conflicting);
    }
    let placing = Placing {
        point_time: said.point_times.first().copied(),
        said: &said,
        calendar: &calendar,
        time_of_day,
    };
    if let Some(&(from_start, span)) = said.spans.first() {
        return placing.after_span(from_start, span);
    }
    if said.weekdays.len() > 1 {
        return Err(WhenError::Conflicting);
    }
    let weekday = said.weekdays.first().copied();
    if said.next_week {
        placing.in_next_week(weekday)
    } else if let Some(&day) = said.days.first() {
        placing.on_day(day, weekday)
    } else if let Some(day) = weekday {
        placing.on_date(calendar.next_weekday(day)?)
    } else if said.midnight {
        placing.at_midnight(calendar.today)
    } else {
        placing.next_time_of_day()
    }
}

impl Gathered {
    /// With anything more specific around, "later today" only says "today" and "later"
    /// nothing; a past day can never be the new time, so beside a usable one it is only the
    /// story ("it was due yesterday, push to friday"); alone it is still an error.
    fn keep_usable_days(&mut self) {
        if self.later_today {
            push_unique(&mut self.days, Day::Today);
        }
        let usable_day = self.days.iter().any(|d| *d != Day::Past)
            || !self.weekdays.is_empty()
            || self.next_week
            || !self.spans.is_empty();
        if usable_day {
            self.days.retain(|d| *d != Day::Past);
        }
    }
}

/// What the parts said, with the time of day they name, being placed on the calendar: one step
/// for each kind of day they can name.
struct Placing<'a> {
    said: &'a Gathered,
    calendar: &'a Calendar<'a>,
    time_of_day: Option<NaiveTime>,
    point_time: Option<NaiveTime>,
}

impl Placing<'_> {
    /// The time of day said, else the start of the day asked for, else `hour`.
    fn fallback_time(&self, hour: u32) -> Result<NaiveTime, WhenError> {
        self.time_of_day
            .or(self.point_time)
            .or_else(|| self.calendar.start_time_of_day())
            .or_else(|| hm(hour, 0))
            .ok_or(WhenError::TooFar)
    }

    /// Midnight is the end of the day named: 00:00 of the day after it.
    fn at_midnight(&self, date: NaiveDate) -> Result<Option<DateTime<Utc>>, WhenError> {
        self.calendar
            .plus_days(date, 1)
            .and_then(|next| self.calendar.instant(next, NaiveTime::MIN))
            .map(Some)
    }

    /// `date` at midnight when that was said, else at the time said (or the default hour).
    fn on_date(&self, date: NaiveDate) -> Result<Option<DateTime<Utc>>, WhenError> {
        if self.said.midnight {
            return self.at_midnight(date);
        }
        self.calendar
            .instant(date, self.fallback_time(DEFAULT_HOUR)?)
            .map(Some)
    }

    /// "in 2 days", "2 hours after the start": a span from now or from the task's start, with
    /// a time of day only when the span is whole days.
    fn after_span(&self, from_start: bool, span: Span) -> Result<Option<DateTime<Utc>>, WhenError> {
        let said = self.said;
        if said.spans.len() > 1
            || !said.days.is_empty()
            || !said.weekdays.is_empty()
            || said.next_week
        {
            return Err(WhenError::Conflicting);
        }
        if said.midnight || self.point_time.is_some() {
            return Err(WhenError::Conflicting);
        }
        let ctx = self.calendar.ctx;
        let base = match (from_start, ctx.current_start) {
            (true, Some(start)) => start,
            _ => ctx.now,
        };
        let moved = self.calendar.shift(base, span, true)?;
        match self.time_of_day {
            None => Ok(Some(moved)),
            Some(time) if span.is_calendar_only() => {
                let date = moved.with_timezone(&ctx.timezone).date_naive();
                self.calendar.instant(date, time).map(Some)
            }
            Some(_) => Err(WhenError::Conflicting),
        }
    }

    /// "next week", "next week tuesday": that weekday (or monday) of next week.
    fn in_next_week(&self, weekday: Option<Weekday>) -> Result<Option<DateTime<Utc>>, WhenError> {
        if !self.said.days.is_empty() {
            return Err(WhenError::Conflicting);
        }
        let offset = weekday.map_or(0, |d| d.num_days_from_monday());
        let date = self
            .calendar
            .plus_days(self.calendar.next_monday()?, u64::from(offset))?;
        self.on_date(date)
    }

    /// A named day ("tomorrow", "the weekend", "end of the week", "4 dec"), with the weekday
    /// said beside it checked against it.
    fn on_day(
        &self,
        day: Day,
        weekday: Option<Weekday>,
    ) -> Result<Option<DateTime<Utc>>, WhenError> {
        let (said, calendar) = (self.said, self.calendar);
        let (date, time) = match day {
            Day::Weekend { next } if said.days.len() == 1 => {
                let time = self.fallback_time(WEEKEND_HOUR)?;
                (calendar.weekend(time, next)?, time)
            }
            Day::EndOfWeek if said.days.len() == 1 => {
                let time = self.fallback_time(END_OF_DAY_HOUR)?;
                (calendar.end_of_week(time)?, time)
            }
            Day::Past if said.days.len() == 1 => return Err(WhenError::PastDate),
            _ => {
                let mut dates = Vec::new();
                for &other in &said.days {
                    push_unique(&mut dates, calendar.fixed_day(other)?);
                }
                if dates.len() > 1 {
                    return Err(WhenError::Conflicting);
                }
                let date = calendar.fixed_day(day)?;
                if date == calendar.today
                    && self.time_of_day.is_none()
                    && self.point_time.is_none()
                    && !said.midnight
                {
                    check_weekday(date, day, weekday)?;
                    return calendar.today_alone().map(Some);
                }
                (date, self.fallback_time(DEFAULT_HOUR)?)
            }
        };
        check_weekday(date, day, weekday)?;
        if said.midnight {
            return self.at_midnight(date);
        }
        calendar.instant(date, time).map(Some)
    }

    /// A time of day alone: its next occurrence (today, else tomorrow); None when no time of
    /// day was said either.
    fn next_time_of_day(&self) -> Result<Option<DateTime<Utc>>, WhenError> {
        let Some(time) = self.time_of_day.or(self.point_time) else {
            return Ok(None);
        };
        let calendar = self.calendar;
        let today = calendar.instant(calendar.today, time)?;
        if today > calendar.ctx.now {
            return Ok(Some(today));
        }
        let tomorrow = calendar.plus_days(calendar.today, 1)?;
        calendar.instant(tomorrow, time).map(Some)
    }
}

/// A weekday beside a calendar date ("friday 4 dec") must name that date's weekday, and a wrong
/// one is pointed out; beside any other day ("tomorrow or friday") it is a second answer.
fn check_weekday(date: NaiveDate, day: Day, said: Option<Weekday>) -> Result<(), WhenError> {
    match said {
        Some(said) if said != date.weekday() => Err(match day {
            Day::Explicit { .. } | Day::InMonth { .. } => WhenError::WeekdayMismatch {
                date: format!("{} {}", date.day(), month_name(date.month())),
                actual: weekday_name(date.weekday()),
                said: weekday_name(said),
            },
            _ => WhenError::Conflicting,
        }),
        _ => Ok(()),
    }
}
