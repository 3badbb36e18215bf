//! Reading the time a user means when they reschedule a task ("push it to tomorrow", "friday
//! 3pm", "in 2 hours") from free text in a reply, and describing a time back to them.
//!
//! This module owns the whole vocabulary of reschedule times and the calendar rules behind it.
//! It reads no clock and no config: everything comes in through [`WhenContext`], so a rule can be
//! tested at any instant in any timezone.
//!
//! # Invariants
//! - Every rule is applied on the user's local calendar (`WhenContext::timezone`); results are UTC.
//! - A result is strictly after `now` and at most five years ahead of it; anything else is an
//!   error, never a silent clamp.
//! - A local time that does not exist (DST gap) moves forward to the first instant that does; an
//!   ambiguous one (DST fold) takes the earlier instant.
//! - No input text panics or overflows: numbers saturate and all date arithmetic is checked; a
//!   number too large to mean anything is [`WhenError::TooFar`]. (`now` itself is assumed to be
//!   a real clock reading, not chrono's extreme values.)
//! - Words match whole and case-insensitively, punctuation is ignored: "Tomorrow!" is tomorrow,
//!   "tomorrowland" is nothing, "monday's" is monday (an apostrophe splits a word).
//!
//! # Phrases understood (tell users these)
//! - Days: "today", "tonight", "tomorrow" ("tmrw"), "the day after tomorrow", "monday" .. "sunday"
//!   (also "mon", "tue(s)", "wed", "thu(rs)", "fri"; "sat"/"sun" only after "on", "this", "next",
//!   "to", "until", "till", "by" or "for", since on their own they are usually other words),
//!   "this friday", "next friday", "friday next week", "next week", "next month",
//!   "this weekend", "weekend".
//! - Dates: "2026-12-03", "dec 3", "3 dec", "december 3rd", "3rd of december", each with an
//!   optional year ("dec 3 2027"); "2026-12-03T14:00".
//! - Times: "5pm", "5 pm", "5:30pm", "5.30pm", "17:30", "at 17", "noon", "midday", "morning"
//!   (09:00), "afternoon" (14:00), "evening" (18:00), "night" (20:00), "at 5 in the afternoon".
//! - From now: "later", "later today", "in a bit", "in 2 hours", "in 30 minutes", "in 3 days",
//!   "in a week", "in a month", "in an hour", "in half an hour", "in a couple of hours",
//!   "in 1 hour 30 minutes", "in 2h", "in 45m", "in 2 days at 3pm", "an hour from now", and a
//!   duration alone ("snooze 20 min").
//! - From the task's current start: "by a day", "by 2 hours" ("push it by a day").
//!
//! # Interpretations
//! - A date named without a time keeps the local time of day of the task's current start, else
//!   09:00 (10:00 for the weekend). A named time or part of day ("morning") always wins.
//! - "today" alone means today 18:00 if that is still ahead, else now + "later". A date that is
//!   today ("dec 3" on 3 December) without a time behaves the same.
//! - A time alone ("5pm", "noon", "morning") is today if still ahead, else tomorrow. A time with
//!   "today"/"tonight"/"this evening" that has passed is an error, not tomorrow.
//! - A weekday is the next such day strictly after today, so "friday" said on a Friday is a week
//!   away; "this friday" and "next friday" mean the same as "friday" (people use "next" for both
//!   meanings, so guessing a second week would be wrong as often as right). "friday next week" is
//!   the Friday of the following Monday-to-Sunday week. A weekday beside another day must agree
//!   with it: "friday 4 dec" on a Thursday date is a [`WhenError::WeekdayMismatch`], and
//!   "tomorrow or friday" (not tomorrow's weekday) is [`WhenError::Conflicting`].
//! - "next week" is the coming Monday (tomorrow on a Sunday); "next month" the 1st of next month;
//!   "weekend", "this weekend" and "next weekend" the first of this Saturday or Sunday (10:00)
//!   still ahead, else next Saturday.
//! - A date without a year that is already past this year means next year; one that is today
//!   stays today (so "dec 3 at 7am" after 7am on 3 December is an error, not next year).
//! - "in N days/weeks/months" moves the local calendar date and keeps the local time of day
//!   (across DST too); "in N hours/minutes" adds elapsed time. Months end-clamp (31 Jan + 1 month
//!   is 28/29 Feb).
//! - A bare number is a time only after "at" or "around": 0 and 13..=23 read as 24-hour time and
//!   12 as noon, but 1..=11 needs am/pm or a part of day ("tonight at 9" is 21:00), else it is
//!   asked back as [`WhenError::AmbiguousHour`] rather than guessing 3am for "at 3". Without "at",
//!   "friday 3" is just Friday.
//! - "h:mm" is always 24-hour; "h.mm" only counts with am/pm because "3.12" is a date in much of
//!   Europe. Numeric day/month forms ("3/12", "12/3", "3.12.") are never read: which is the day
//!   depends on the user's country. "midnight" is asked back (23:59 or 00:00?). "the 5th" alone,
//!   "next year", "end of day", seconds and fractional durations are not understood.
//! - "later" alone gives way to any other time in the text ("later, say friday" is Friday);
//!   "later this week/month" names no usable time.
//! - A time right after "from", "not", "cannot" or "can't" is the one being moved away from and
//!   is ignored ("move it from friday to monday", "not tomorrow", "can't today, tomorrow?").
//! - Two different times in one text ("tomorrow or friday") are an error, not a guess; the same
//!   time twice is fine. Past words ("yesterday", "last week", "2 days ago") are an error when
//!   they are the only day named, and ignored as background beside a usable one ("it was due
//!   yesterday, push to friday" is Friday).
//! - A duration needs no "in" when written with digits ("snooze 20 min", "2 weeks from now"),
//!   but never right after "at" ("at 15h" is nothing, not fifteen hours).

use chrono::{
    DateTime, Datelike, Days, LocalResult, Months, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta,
    TimeZone, Timelike, Utc, Weekday,
};
use chrono_tz::Tz;

/// What a time expression is read against.
#[derive(Debug, Clone)]
pub struct WhenContext {
    pub now: DateTime<Utc>,
    pub timezone: Tz,
    /// the task's current scheduled start, if any ("tomorrow" keeps its local time of day)
    pub current_start: Option<DateTime<Utc>>,
    /// what "later" means (config reschedule.later, default 3h)
    pub later: std::time::Duration,
}

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

/// Finds a time expression anywhere in `text`. Ok(None): the text names no time at all.
/// Err: it names one that is invalid or in the past (e.g. "feb 30", "yesterday", "2020-01-01").
pub fn find_when(text: &str, ctx: &WhenContext) -> Result<Option<DateTime<Utc>>, WhenError> {
    let tokens = tokenize(text);
    let parts = scan(&tokens);
    match resolve(&parts, ctx)? {
        Some(at) => ensure_ahead(at, ctx).map(Some),
        None => Ok(None),
    }
}

/// Describes a time for a reply to the user, in their timezone, relative to now when short:
/// "today at 15:00", "tomorrow at 09:00", "Friday 5 Dec at 09:00", "Tue 3 Feb 2027 at 14:30"
/// (year only when not this year).
pub fn describe(at: DateTime<Utc>, ctx: &WhenContext) -> String {
    let local = at.with_timezone(&ctx.timezone);
    let today = ctx.now.with_timezone(&ctx.timezone).date_naive();
    let date = local.date_naive();
    let clock = local.format("%H:%M");
    if date == today {
        format!("today at {clock}")
    } else if today.succ_opt() == Some(date) {
        format!("tomorrow at {clock}")
    } else if today.pred_opt() == Some(date) {
        format!("yesterday at {clock}")
    } else if date.year() == today.year() {
        local.format("%A %-d %b at %H:%M").to_string()
    } else {
        local.format("%a %-d %b %Y at %H:%M").to_string()
    }
}

/// How far ahead a result may be; also keeps every intermediate value far inside chrono's range.
const MAX_AHEAD_DAYS: u64 = 5 * 366;
const DEFAULT_HOUR: u32 = 9;
const WEEKEND_HOUR: u32 = 10;
/// "today" alone: the end of a working day, the last point most people still act on a task.
const TODAY_HOUR: u32 = 18;

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

// ---------------------------------------------------------------------------------------------
// Words

/// Lowercased words. ':', '-', '.' and '/' stay inside a word so "17:30", "2026-12-03", "5.30pm"
/// and "3/12" arrive whole (the last so that it is ignored whole, not read as "3" and "12").
fn tokenize(text: &str) -> Vec<String> {
    let inner = |c: char| matches!(c, ':' | '-' | '.' | '/');
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || inner(c)))
        .map(|word| word.trim_matches(inner))
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Saturates instead of failing: a huge number is still a number, and the range checks that
/// follow turn it into a readable error.
fn saturating_number(s: &str) -> u64 {
    s.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10)
            .saturating_add(u64::from(b.wrapping_sub(b'0')))
    })
}

/// A number of one or two digits (hours, minutes, days of the month).
fn small_number(s: &str) -> Option<u32> {
    if is_digits(s) && s.len() <= 2 {
        u32::try_from(saturating_number(s)).ok()
    } else {
        None
    }
}

fn weekday_word(word: &str) -> Option<Weekday> {
    Some(match word {
        "monday" | "mon" => Weekday::Mon,
        "tuesday" | "tue" | "tues" => Weekday::Tue,
        "wednesday" | "wed" | "weds" => Weekday::Wed,
        "thursday" | "thu" | "thur" | "thurs" => Weekday::Thu,
        "friday" | "fri" => Weekday::Fri,
        "saturday" | "sat" => Weekday::Sat,
        "sunday" | "sun" => Weekday::Sun,
        _ => return None,
    })
}

/// "sat" and "sun" are everyday words ("I sat on it"); they count only after one of these.
fn names_a_day_ahead(previous: &str) -> bool {
    matches!(
        previous,
        "on" | "this" | "next" | "to" | "until" | "till" | "by" | "for" | "from" | "not" | "last"
    )
}

fn weekday_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    }
}

fn month_word(word: &str) -> Option<u32> {
    Some(match word {
        "jan" | "january" => 1,
        "feb" | "february" => 2,
        "mar" | "march" => 3,
        "apr" | "april" => 4,
        "may" => 5,
        "jun" | "june" => 6,
        "jul" | "july" => 7,
        "aug" | "august" => 8,
        "sep" | "sept" | "september" => 9,
        "oct" | "october" => 10,
        "nov" | "november" => 11,
        "dec" | "december" => 12,
        _ => return None,
    })
}

fn month_name(month: u32) -> &'static str {
    usize::try_from(month)
        .ok()
        .and_then(|m| m.checked_sub(1))
        .and_then(|i| MONTH_NAMES.get(i))
        .copied()
        .unwrap_or("?")
}

/// Days a month can ever have; 29 February is checked against the year once it is known.
fn max_days(month: u32) -> u32 {
    match month {
        2 => 29,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// "3", "03", "3rd", "21st": one or two digits, any English ordinal suffix.
fn day_number(word: &str) -> Option<u32> {
    let digits = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|suffix| word.strip_suffix(suffix))
        .unwrap_or(word);
    small_number(digits)
}

fn year_number(word: &str) -> Option<i32> {
    if is_digits(word) && word.len() == 4 {
        i32::try_from(saturating_number(word)).ok()
    } else {
        None
    }
}

/// Some(true) for pm.
fn meridiem(word: &str) -> Option<bool> {
    match word {
        "am" | "a.m" => Some(false),
        "pm" | "p.m" => Some(true),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Minute,
    Hour,
    Day,
    Week,
    Month,
}

fn unit_word(word: &str) -> Option<Unit> {
    Some(match word {
        "m" | "min" | "mins" | "minute" | "minutes" => Unit::Minute,
        "h" | "hr" | "hrs" | "hour" | "hours" => Unit::Hour,
        "d" | "day" | "days" => Unit::Day,
        "w" | "wk" | "wks" | "week" | "weeks" => Unit::Week,
        "mo" | "mos" | "month" | "months" => Unit::Month,
        _ => return None,
    })
}

fn count_word(word: &str) -> Option<u64> {
    Some(match word {
        "a" | "an" | "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// Parts: what each phrase contributes, before they are combined

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Period {
    Morning,
    Afternoon,
    Evening,
    Night,
}

impl Period {
    fn default_hour(self) -> u32 {
        match self {
            Period::Morning => 9,
            Period::Afternoon => 14,
            Period::Evening => 18,
            Period::Night => 20,
        }
    }

    fn is_pm(self) -> bool {
        self != Period::Morning
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Day {
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
struct Span {
    months: u32,
    days: u64,
    minutes: u64,
}

impl Span {
    fn of(n: u64, unit: Unit) -> Result<Span, WhenError> {
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

    fn plus(self, other: Span) -> Result<Span, WhenError> {
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

    fn is_calendar_only(self) -> bool {
        self.minutes == 0
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
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

fn hm(hour: u32, minute: u32) -> Option<NaiveTime> {
    NaiveTime::from_hms_opt(hour, minute, 0)
}

fn clock_part(hour: u32, minute: u32, written: &str) -> Part {
    match hm(hour, minute) {
        Some(time) => Part::Clock(time),
        None => Part::Invalid(WhenError::NoSuchTime(written.to_owned())),
    }
}

fn explicit_part(year: Option<i32>, month: u32, day: u32) -> Part {
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

// ---------------------------------------------------------------------------------------------
// Scanning

struct Words<'a> {
    tokens: &'a [String],
}

impl Words<'_> {
    fn at(&self, i: usize) -> &str {
        self.tokens.get(i).map(String::as_str).unwrap_or("")
    }

    fn before(&self, i: usize) -> &str {
        i.checked_sub(1).map(|j| self.at(j)).unwrap_or("")
    }

    /// Whether the phrase starting at `start` follows "from" or a negation (skipping
    /// "on"/"at"/"the"): that is the time being moved away from.
    fn moved_away_from(&self, start: usize) -> bool {
        let mut j = start;
        while let Some(prev) = j.checked_sub(1) {
            match self.at(prev) {
                "on" | "at" | "the" => j = prev,
                // "t" is what is left of "can't" / "won't" once the apostrophe splits it.
                "from" | "not" | "t" | "cannot" => return true,
                _ => return false,
            }
        }
        false
    }
}

type Match = (usize, Vec<Part>);

fn scan(tokens: &[String]) -> Vec<Part> {
    let words = Words { tokens };
    let mut parts = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match match_at(&words, i) {
            Some((len, found)) => {
                if !words.moved_away_from(i) {
                    parts.extend(found);
                }
                i = i.saturating_add(len.max(1));
            }
            None => i += 1,
        }
    }
    parts
}

/// The phrase starting at word `i`, if any. Order matters where phrases share a first word: dates
/// before times ("3 dec" is not "3"), times before durations, durations before bare hours.
fn match_at(w: &Words, i: usize) -> Option<Match> {
    keyword(w, i)
        .or_else(|| weekday(w, i))
        .or_else(|| iso_date(w.at(i)))
        .or_else(|| month_day(w, i))
        .or_else(|| clock(w, i))
        .or_else(|| duration(w, i))
        .or_else(|| bare_hour(w, i))
}

fn one(part: Part) -> Option<Match> {
    Some((1, vec![part]))
}

fn keyword(w: &Words, i: usize) -> Option<Match> {
    let next = w.at(i + 1);
    match w.at(i) {
        "day" if next == "after" && w.at(i + 2) == "tomorrow" => {
            Some((3, vec![Part::Day(Day::Overmorrow)]))
        }
        "overmorrow" => one(Part::Day(Day::Overmorrow)),
        "later" => match next {
            "today" => Some((2, vec![Part::LaterToday])),
            // Some day this week or month, not in three hours: names no time we can use.
            "this" if matches!(w.at(i + 2), "week" | "month") => Some((3, Vec::new())),
            "on" => Some((2, vec![Part::Later])),
            _ => one(Part::Later),
        },
        "in" if next == "a" && matches!(w.at(i + 2), "bit" | "while") => {
            Some((3, vec![Part::Later]))
        }
        "in" if next == "a" && w.at(i + 2) == "little" && w.at(i + 3) == "while" => {
            Some((4, vec![Part::Later]))
        }
        "yesterday" => one(Part::Day(Day::Past)),
        "last" => {
            let past = matches!(next, "week" | "month" | "year" | "weekend" | "night")
                || weekday_word(next).is_some();
            past.then(|| (2, vec![Part::Day(Day::Past)]))
        }
        "next" => {
            let part = match next {
                "week" => Part::NextWeek,
                "month" => Part::Day(Day::NextMonth),
                "weekend" => Part::Day(Day::Weekend),
                other => Part::Weekday(weekday_word(other)?),
            };
            Some((2, vec![part]))
        }
        "this" => {
            let parts = match next {
                "morning" => vec![Part::Day(Day::Today), Part::Period(Period::Morning)],
                "afternoon" => vec![Part::Day(Day::Today), Part::Period(Period::Afternoon)],
                "evening" => vec![Part::Day(Day::Today), Part::Period(Period::Evening)],
                "weekend" => vec![Part::Day(Day::Weekend)],
                other => vec![Part::Weekday(weekday_word(other)?)],
            };
            Some((2, parts))
        }
        "today" => one(Part::Day(Day::Today)),
        "tonight" => Some((1, vec![Part::Day(Day::Today), Part::Period(Period::Night)])),
        "tomorrow" | "tmrw" | "tmr" | "tomorow" => one(Part::Day(Day::Tomorrow)),
        "weekend" => one(Part::Day(Day::Weekend)),
        "morning" => one(Part::Period(Period::Morning)),
        "afternoon" => one(Part::Period(Period::Afternoon)),
        "evening" => one(Part::Period(Period::Evening)),
        "night" => one(Part::Period(Period::Night)),
        "noon" | "midday" => one(Part::Clock(hm(12, 0)?)),
        "midnight" => one(Part::Invalid(WhenError::Midnight)),
        _ => None,
    }
}

fn weekday(w: &Words, i: usize) -> Option<Match> {
    let word = w.at(i);
    let day = weekday_word(word)?;
    if matches!(word, "sat" | "sun") && !names_a_day_ahead(w.before(i)) {
        return None;
    }
    one(Part::Weekday(day))
}

/// "2026-12-03" or "2026-12-03t14:00" (the tokenizer lowercased the T).
fn iso_date(word: &str) -> Option<Match> {
    let (date, time) = match word.split_once('t') {
        Some((date, time)) => (date, Some(time)),
        None => (word, None),
    };
    let mut fields = date.split('-');
    let (year, month, day) = (fields.next()?, fields.next()?, fields.next()?);
    if fields.next().is_some() || !(is_digits(year) && year.len() == 4) {
        return None;
    }
    let year = year_number(year)?;
    let (month, day) = (small_number(month)?, small_number(day)?);
    let mut parts = vec![explicit_part(Some(year), month, day)];
    if let Some(time) = time {
        let (hour, minute) = clock_fields(time)?;
        parts.push(clock_part(hour, minute, time));
    }
    Some((1, parts))
}

/// "14:00" or "14:00:00" (seconds ignored) as written numbers, range not yet checked.
fn clock_fields(s: &str) -> Option<(u32, u32)> {
    let (hour, rest) = s.split_once(':')?;
    let minute = match rest.split_once(':') {
        Some((minute, seconds)) => {
            (seconds.len() == 2 && small_number(seconds)? < 60).then_some(minute)?
        }
        None => rest,
    };
    if minute.len() != 2 {
        return None;
    }
    Some((small_number(hour)?, small_number(minute)?))
}

/// "dec 3", "december the 3rd", "3 dec", "3rd of december", each with an optional year.
fn month_day(w: &Words, i: usize) -> Option<Match> {
    let with_year = |month: u32, day: u32, mut len: usize| {
        let year = year_number(w.at(i + len));
        if year.is_some() {
            len += 1;
        }
        Some((len, vec![explicit_part(year, month, day)]))
    };
    if let Some(month) = month_word(w.at(i)) {
        let at = if w.at(i + 1) == "the" { i + 2 } else { i + 1 };
        let day = day_number(w.at(at))?;
        // "dec 3 pm" would be a strange date but is a plain time; leave it to the clock reader.
        if meridiem(w.at(at + 1)).is_some() {
            return None;
        }
        return with_year(month, day, at + 1 - i);
    }
    let day = day_number(w.at(i))?;
    let at = if w.at(i + 1) == "of" { i + 2 } else { i + 1 };
    let month = month_word(w.at(at))?;
    with_year(month, day, at + 1 - i)
}

/// "5pm", "5 pm", "5:30pm", "5.30 p.m.", "17:30". A number without am/pm or a colon is not a
/// clock time here.
fn clock(w: &Words, i: usize) -> Option<Match> {
    let word = w.at(i);
    if !word.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let suffixed = ["a.m", "p.m", "am", "pm"].iter().find_map(|suffix| {
        let body = word.strip_suffix(suffix)?;
        Some((body, meridiem(suffix)?))
    });
    let (body, pm, len, written) = match suffixed {
        Some((body, pm)) => (body, Some(pm), 1, word.to_owned()),
        None => match meridiem(w.at(i + 1)) {
            Some(pm) => (word, Some(pm), 2, format!("{word} {}", w.at(i + 1))),
            None => (word, None, 1, word.to_owned()),
        },
    };
    let (hour, minute) = match pm {
        None => clock_fields(body)?,
        Some(_) => match body.split_once(['.', ':']) {
            Some((hour, minute)) if minute.len() == 2 => {
                (small_number(hour)?, small_number(minute)?)
            }
            Some(_) => return None,
            None => (small_number(body)?, 0),
        },
    };
    let hour = match pm {
        None => Some(hour),
        Some(_) if !(1..=12).contains(&hour) => None,
        Some(false) => Some(hour % 12),
        Some(true) => Some(hour % 12 + 12),
    };
    let part = match hour {
        Some(hour) => clock_part(hour, minute, &written),
        None => Part::Invalid(WhenError::NoSuchTime(written)),
    };
    Some((len, vec![part]))
}

/// One piece of a duration starting at word `i`: (span, words used, written with digits).
fn span_piece(w: &Words, i: usize) -> Option<(Result<Span, WhenError>, usize, bool)> {
    let word = w.at(i);
    if word == "half" && matches!(w.at(i + 1), "a" | "an") && w.at(i + 2) == "hour" {
        return Some((Span::of(30, Unit::Minute), 3, false));
    }
    // "a couple of hours", "couple days"
    let couple_at = if word == "a" { i + 1 } else { i };
    if w.at(couple_at) == "couple" {
        let unit_at = if w.at(couple_at + 1) == "of" {
            couple_at + 2
        } else {
            couple_at + 1
        };
        let unit = unit_word(w.at(unit_at))?;
        return Some((Span::of(2, unit), unit_at + 1 - i, false));
    }
    if is_digits(word) {
        let unit = unit_word(w.at(i + 1))?;
        return Some((Span::of(saturating_number(word), unit), 2, true));
    }
    if let Some(n) = count_word(word) {
        let unit = unit_word(w.at(i + 1))?;
        return Some((Span::of(n, unit), 2, false));
    }
    // "2h", "45min", "1h30m": digit runs each followed by a unit.
    if !word.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut rest = word;
    let mut total: Result<Span, WhenError> = Ok(Span::default());
    while !rest.is_empty() {
        let digits_end = rest.find(|c: char| !c.is_ascii_digit())?;
        let (digits, tail) = rest.split_at(digits_end);
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_end);
        if digits.is_empty() {
            return None;
        }
        let piece = Span::of(saturating_number(digits), unit_word(unit)?);
        total = total.and_then(|t| piece.and_then(|p| t.plus(p)));
        rest = tail;
    }
    Some((total, 1, true))
}

/// "in 2 hours", "in an hour and 30 minutes", "by a day", "20 min", "an hour from now",
/// "2 days ago". Spelled-out counts need "in"/"by"/"within" or "from now" so that "what a day"
/// stays nothing.
fn duration(w: &Words, i: usize) -> Option<Match> {
    let introduced = w.before(i);
    // "at 15h" is a clock time in some countries, never an amount of time.
    if matches!(introduced, "at" | "around") {
        return None;
    }
    let (first, mut len, with_digits) = span_piece(w, i)?;
    let mut total = first;
    loop {
        let next = if w.at(i + len) == "and" {
            i + len + 1
        } else {
            i + len
        };
        match span_piece(w, next) {
            Some((piece, used, _)) => {
                total = total.and_then(|t| piece.and_then(|p| t.plus(p)));
                len = next + used - i;
            }
            None => break,
        }
    }
    if w.at(i + len) == "ago" {
        return Some((len + 1, vec![Part::Day(Day::Past)]));
    }
    let from_now = w.at(i + len) == "from" && w.at(i + len + 1) == "now";
    if from_now {
        len += 2;
    }
    if !with_digits && !from_now && !matches!(introduced, "in" | "by" | "within") {
        return None;
    }
    let part = match total {
        Err(error) => Part::Invalid(error),
        Ok(span) if introduced == "by" => Part::FromStart(span),
        Ok(span) => Part::FromNow(span),
    };
    Some((len, vec![part]))
}

/// "at 17", "at 5" (needs a part of day), "around 9".
fn bare_hour(w: &Words, i: usize) -> Option<Match> {
    if !matches!(w.before(i), "at" | "around") {
        return None;
    }
    let word = w.at(i);
    let hour = small_number(word)?;
    let part = match hour {
        1..=11 => Part::BareHour(hour),
        _ => clock_part(hour, 0, &format!("{hour}:00")),
    };
    one(part)
}

// ---------------------------------------------------------------------------------------------
// Combining parts into one instant

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
            let period = period.ok_or(WhenError::AmbiguousHour(hour))?;
            let hour = if period.is_pm() { hour + 12 } else { hour };
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

    fn start_time_of_day(&self) -> Option<NaiveTime> {
        self.ctx
            .current_start
            .map(|start| start.with_timezone(&self.ctx.timezone).time())
    }
}

fn resolve(parts: &[Part], ctx: &WhenContext) -> Result<Option<DateTime<Utc>>, WhenError> {
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

fn ensure_ahead(at: DateTime<Utc>, ctx: &WhenContext) -> Result<DateTime<Utc>, WhenError> {
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
