//! Reading the time a user means from free text, and describing a time back to them: when they
//! reschedule a task ("push it to tomorrow", "friday 3pm", "in 2 hours") with [`find_when`], and
//! when they capture one ("remind me to pay rent friday 9am") with [`find_when_span`], which also
//! gives the words that said the time (cut from the title) and whether it is a deadline ("by",
//! "due") or a start (submodule `spans`).
//!
//! This module owns the whole vocabulary of times and the calendar rules behind it.
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
//! - A date named without a time keeps the local time of day of the task's current start when
//!   that is a deliberate one (on a quarter hour, no seconds; not a leftover of "later" such as
//!   03:22), else 09:00 (10:00 for the weekend). A named time or part of day ("morning") always
//!   wins.
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
//!   12 as noon. 7..=11 without am/pm or a part of day is morning ("tomorrow at 8" is 08:00,
//!   "at 9" 09:00), since that is how people book reminders; a part of day still wins ("tonight
//!   at 9" is 21:00). 1..=6 needs am/pm or a part of day, else it is asked back as
//!   [`WhenError::AmbiguousHour`] rather than guessing 3am for "at 3". Without "at", "friday 3"
//!   is just Friday.
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
//!   but never right after "at" ("at 15h" is nothing, not fifteen hours). Spelled out it needs
//!   "in", "by", "within", "from now" or a moving verb before it ("postpone a week", "push it
//!   two days", "give me an hour", "snooze for an hour"), and is then counted from now; "what a
//!   day", "I'll do it one day" and "a day before" name no time.
//!
//! # In a capture ([`find_when_span`])
//! - The same reading as [`find_when`], never a different answer; it adds the byte ranges of the
//!   words used, each with its marker ("at", "on", "in the", "by", "due", ...), so that removing
//!   them leaves the title: "submit report due next tuesday at 2pm" leaves "submit report".
//! - Words the reading set aside stay in the title ("call the guy I met yesterday tomorrow").
//! - The markers of the first piece decide the anchor: "by", "due", "before", "until", "till"
//!   make it a deadline, anything else a start (DESIGN.md "Times").
//!
//! # Files
//! `words` (tokens and vocabulary), `scan` (phrases), `parts` (what a phrase says), `resolve`
//! (parts to an instant), `spans` (the words of the time in a capture, and its anchor), `alone`
//! (whether a text is nothing but a time),
//! `context` and `error` (what comes in and what goes wrong).

use chrono::{DateTime, Datelike, Utc};
use chrono_tz::Tz;

mod alone;
mod context;
mod error;
mod parts;
mod past;
mod resolve;
mod scan;
mod spans;
mod words;

pub use alone::names_only_a_time;
pub use context::WhenContext;
pub use error::WhenError;
pub use past::find_past;
pub use spans::{TimeAnchor, WhenSpan};
pub use words::{weekday_name, weekday_word};

use parts::Part;
use resolve::{ensure_ahead, resolve};
use scan::{scan, Piece};
use words::{tokenize, Token};

/// Finds a time expression anywhere in `text`. Ok(None): the text names no time at all.
/// Err: it names one that is invalid or in the past (e.g. "feb 30", "yesterday", "2020-01-01").
pub fn find_when(text: &str, ctx: &WhenContext) -> Result<Option<DateTime<Utc>>, WhenError> {
    Ok(read(text, ctx)?.map(|reading| reading.at))
}

/// Like [`find_when`], and also says which words named the time and whether it is a deadline.
/// Ok(None) and Err exactly when [`find_when`] gives them.
pub fn find_when_span(text: &str, ctx: &WhenContext) -> Result<Option<WhenSpan>, WhenError> {
    let Some(reading) = read(text, ctx)? else {
        return Ok(None);
    };
    let (ranges, anchor) = spans::locate(text, &reading.tokens, &reading.pieces);
    Ok(Some(WhenSpan {
        at: reading.at,
        ranges,
        anchor,
    }))
}

/// What one text says: the instant and the phrases behind it.
struct Reading {
    at: DateTime<Utc>,
    tokens: Vec<Token>,
    pieces: Vec<Piece>,
}

fn read(text: &str, ctx: &WhenContext) -> Result<Option<Reading>, WhenError> {
    let tokens = tokenize(text);
    let pieces = scan(&tokens);
    let parts: Vec<Part> = pieces
        .iter()
        .flat_map(|p| p.parts.iter().cloned())
        .collect();
    match resolve(&parts, ctx)? {
        Some(at) => Ok(Some(Reading {
            at: ensure_ahead(at, ctx)?,
            tokens,
            pieces,
        })),
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

/// Describes a time without reference to today, for text that is read later or quoted back
/// ("You already have 'Pay rent', due Fri 27 Nov 09:00"): short weekday, day, short month,
/// 24-hour time in `timezone`; the year only when it is not the year of `now` there.
pub fn describe_absolute(at: DateTime<Utc>, timezone: Tz, now: DateTime<Utc>) -> String {
    let local = at.with_timezone(&timezone);
    if local.year() == now.with_timezone(&timezone).year() {
        local.format("%a %-d %b %H:%M").to_string()
    } else {
        local.format("%a %-d %b %Y %H:%M").to_string()
    }
}
