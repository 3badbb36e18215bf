//! Reading the time a user means from free text, and describing a time back to them: when they
//! reschedule a task ("push it to tomorrow", "friday 3pm", "in 2 hours") with [`find_when`], and
//! when they capture one ("remind me to pay rent friday 9am") with [`find_when_span`], which also
//! gives the words that said the time (cut from the title) and whether it is a deadline ("by",
//! "due") or a start (submodule `spans`). A recurring reminder's time of day is read with
//! [`find_time_of_day`], and [`unread_beside`] finds time words another reader left.
//!
//! This module owns the whole vocabulary of times and the calendar rules behind it.
//! It reads no clock and no config: everything comes in through [`WhenContext`] (the reading
//! zone included), so a rule can be tested at any instant in any timezone.
//!
//! # Invariants
//! - Never a half-read: a time phrase is read whole or not at all. Time words the scan could
//!   not read beside a phrase it did read ("in an hour and a bit", "9am PDT-ish") make the
//!   reading fail with [`WhenError::Unread`] naming them (submodule `unread`); nothing is read
//!   from the rest, and nothing of it is left for a title ([`time_words`]).
//! - Every rule is applied on the user's local calendar (`WhenContext::timezone`), or on the
//!   zone the text names ("3pm PST"); results are UTC.
//! - A result is strictly after `now` and at most five years ahead of it; anything else is an
//!   error, never a silent clamp.
//! - A local time that does not exist (DST gap) moves forward to the first instant that does; an
//!   ambiguous one (DST fold) takes the earlier instant.
//! - No input text panics or overflows: numbers saturate and all date arithmetic is checked; a
//!   number too large to mean anything is [`WhenError::TooFar`], a negative amount
//!   [`WhenError::Negative`]. (`now` itself is assumed to be a real clock reading.)
//! - Words match whole and case-insensitively, punctuation is ignored: "Tomorrow!" is tomorrow,
//!   "tomorrowland" is nothing, "monday's" is monday (an apostrophe splits a word).
//!
//! # Phrases understood (tell users these)
//! - Days: "today", "tonight", "tomorrow" ("tmrw"), "the day after tomorrow", "monday" ..
//!   "sunday" (also "mon", "tue(s)", "wed", "thu(rs)", "fri"; "sat"/"sun" only after "on",
//!   "this", "next", "by", ... since on their own they are usually other words), "this friday",
//!   "next friday", "friday next week", "next week", "next month", "this/next weekend", "next
//!   weekday / working day / business day" (Monday to Friday).
//! - Dates: "2026-12-03", "dec 3", "3 dec", "december 3rd", "3rd of december", each with an
//!   optional year; "2026-12-03T14:00"; "25/12" and "12/25" (one reading only); a day of the
//!   month "on the 21st", "the 3rd", "on the twenty-first", "the 3rd of next month"; a month
//!   "in march", "until january" (its 1st); "before christmas", "on new year's eve".
//! - Named points: "end of (the) day", "EOD", "COB" (17:00), "end of the week" (Friday 17:00),
//!   "end of the month" (its last day, 17:00), "end of the year", "end of next week/month",
//!   "end of january"; "mid january", "mid-month" (the 15th), "mid next week" (Wednesday);
//!   "beginning of next month" (the 1st); "early next week" (Monday), "late next week" (Friday).
//! - Times: "5pm", "5 pm", "5:30pm", "5.30pm", "17:30", "at 17", "at 15h30", "at five",
//!   "at 5 o'clock", "half past 3", "quarter to 4", "noon", "midday", "midnight", "lunchtime"
//!   (12:00), "first thing" (09:00), "morning" (09:00), "afternoon" (14:00), "evening"
//!   (18:00), "night" (20:00), "at 5 in the afternoon", each with an optional zone after it
//!   ("3pm PST", "9:00 UTC+2", "14:00 +02:00", "10am America/New_York", "5pm New York time").
//! - From now: "later", "later today", "in a bit", "in 2 hours", "in 30 minutes", "in 3 days",
//!   "in a week", "in a month", "in 2 years", "in an hour", "in half an hour", "in a quarter of
//!   an hour", "in an hour and a half", "in 2 and a half hours", "in 1.5 hours", "1h15", "in a
//!   couple of hours", "in a few minutes" (3), "in 3 business days", "in 1 hour 30 minutes",
//!   "in 2 days at 3pm", "an hour from now", "this time tomorrow", and a duration alone
//!   ("snooze 20 min").
//! - Relative to a time: "a week before the 20th", "2 days before friday", "the day after
//!   tuesday", "a week from tomorrow", "3 days after christmas", "an hour before noon".
//! - From the task's current start: "by a day", "by 2 hours" ("push it by a day").
//!
//! # Interpretations
//! - A date named without a time keeps the local time of day of the task's current start when
//!   that is a deliberate one (on a quarter hour, no seconds), else 09:00 (10:00 for the
//!   weekend, 17:00 for an end of week/month/year). A named time or part of day always wins.
//! - "today" alone means today 18:00 if that is still ahead, else now + "later". A date that is
//!   today ("dec 3" on 3 December, "the 23rd" on the 23rd) without a time behaves the same.
//! - A time alone ("5pm", "noon", "morning") is today if still ahead, else tomorrow. A time with
//!   "today"/"tonight"/"this evening" that has passed is an error, not tomorrow; so is "EOD"
//!   after 17:00.
//! - "midnight" is the 00:00 that ends the day named ("tonight at midnight", "friday at
//!   midnight": 00:00 on Saturday), today when none is named; it is said as such ("tonight at
//!   midnight (00:00 Sat 28 Nov)"). "12am" is the 00:00 that starts the day named.
//! - A weekday is the next such day strictly after today, so "friday" said on a Friday is a week
//!   away; "this friday" and "next friday" mean the same as "friday". "friday next week" is
//!   the Friday of the following Monday-to-Sunday week. A weekday beside another day must agree
//!   with it ([`WhenError::WeekdayMismatch`], [`WhenError::Conflicting`]).
//! - "next week" is the coming Monday; "next month" the 1st of next month; "this weekend" the
//!   first of this Saturday or Sunday (10:00) still ahead, else next Saturday; "next weekend"
//!   the same on a weekday and next week's Saturday on a weekend day.
//! - "the 21st" is this month's 21st while it is today or ahead, else next month's; a month
//!   without that day ("the 31st" in November) is said ("there is no 31 November"), never
//!   moved. A date without a year that is already past this year means next year.
//! - "in N days/weeks/months/years" moves the local calendar date and keeps the local time of
//!   day (across DST too); "in N hours/minutes" adds elapsed time; business days skip Saturday
//!   and Sunday (no holidays); a part of a day or week is elapsed time after the whole days.
//!   Months end-clamp (31 Jan + 1 month is 28/29 Feb); a part of a month is asked about.
//! - A bare number is a time only after "at" or "around" (or with "o'clock"): 0 and 13..=23
//!   read as 24-hour time and 12 as noon. 7..=11 without am/pm or a part of day is morning;
//!   1..=6 is asked back ([`WhenError::AmbiguousHour`]). "h:mm" follows the same rule ("7:30"
//!   is the morning, "3:15" is asked: [`WhenError::AmbiguousTime`]) unless written with a
//!   leading zero or an hour from 13 ("03:15", "15:15" are the 24-hour clock); "h.mm" only
//!   counts with am/pm. A date in numbers that reads two ways ("3/12") is asked about.
//! - A time or date that describes a thing ("the 7pm show", "the 4th of july party") is part of
//!   the title, not a time; so is a phrase written as a name ("watch The Day After Tomorrow").
//! - A zone named after a time ("9am PST") sets the clock and the calendar the time is read
//!   on; the answer is said in the person's zone. See `zones` for the abbreviations; an
//!   ambiguous one ("IST") is asked about.
//! - Vague or repeating times are asked about, never guessed: "this week", "later this week",
//!   "next year", "several days", "5ish", "a day before the trip", "every friday", "on
//!   mondays" (recurring reminders are read by `automations`).
//! - "later" alone gives way to any other time in the text ("later, say friday" is Friday).
//! - A time right after "from", "not", "cannot" or "can't" is the one being moved away from and
//!   is ignored ("move it from friday to monday", "not tomorrow", "can't today, tomorrow?").
//! - Two different times in one text ("tomorrow or friday") are an error, not a guess; the same
//!   time twice is fine. Past words ("yesterday", "last week", "2 days ago") are an error when
//!   they are the only day named, and ignored as background beside a usable one.
//! - A duration needs no "in" when written with digits ("snooze 20 min", "2 weeks from now"),
//!   but never right after "at". Spelled out it needs "in", "by", "within", "from now" or a
//!   moving verb before it ("postpone a week", "give me an hour"); "what a day" names no time.
//!
//! # In a capture ([`find_when_span`])
//! - The same reading as [`find_when`], never a different answer; it adds the byte ranges of the
//!   words used, each with its marker ("at", "on", "in the", "by", "due", ...), so that removing
//!   them leaves the title: "submit report due next tuesday at 2pm" leaves "submit report".
//! - Words the reading set aside stay in the title ("call the guy I met yesterday tomorrow").
//! - The markers of the first piece decide the anchor: "by", "due", "before", "until", "till"
//!   make it a deadline, anything else a start.
//!
//! # Files
//! `words` (tokens and vocabulary), `zones` (zones and offsets), `scan/` (phrases, by kind),
//! `parts` (what a phrase says), `resolve` (parts to an instant) on `calendar` (date
//! arithmetic), `unread` (the half-read guard), `spans` (the words of the time in a capture,
//! and its anchor), `alone` (whether a text is nothing but a time), `describe` (saying a time
//! back), `past` (times behind us, for questions), `context` and `error`.

use std::ops::Range;

use chrono::{DateTime, NaiveTime, Utc};
use chrono_tz::Tz;

mod alone;
mod calendar;
mod context;
mod describe;
mod error;
mod parts;
mod past;
mod resolve;
mod scan;
mod spans;
mod unread;
mod words;
mod zones;

pub use alone::names_only_a_time;
pub use context::WhenContext;
pub use describe::{describe, describe_absolute};
pub use error::WhenError;
pub use past::find_past;
pub use scan::Length;
pub use spans::{TimeAnchor, WhenSpan};
pub use words::{month_name, month_number, weekday_name, weekday_word};
pub use zones::{abbreviation, Abbreviation};

use calendar::ensure_ahead;
use parts::Part;
use resolve::{resolve, time_of_day_only};
use scan::{scan, scan_outside, Piece};
use words::{tokenize, Token};

/// An instant chosen without words (a time picked on the web page), held to the reader's own
/// rules: strictly after `now` and at most five years ahead, else the reader's error.
pub fn check_ahead(at: DateTime<Utc>, ctx: &WhenContext) -> Result<DateTime<Utc>, WhenError> {
    ensure_ahead(at, ctx)
}

/// Finds a time expression anywhere in `text`. Ok(None): the text names no time at all.
/// Err: it names one that is invalid, in the past, or only partly readable (e.g. "feb 30",
/// "yesterday", "in an hour and a bit").
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

/// How long a task takes, said in `text` ("for an hour", ", 45 min", "it takes about an
/// hour"): each length with the bytes of its words (scan `length`). "in an hour" is a time, not
/// a length.
pub fn lengths(text: &str) -> Vec<Length> {
    scan::lengths(text, &tokenize(text))
}

/// Every amount of time in `text` with the bytes of its words, whatever introduces it ("it
/// takes about | an hour", "a | 2 hour | job"): what a reply's reader of a task's length reads
/// around (scan `length`); the words around it say whether it is what a task takes ("in an
/// hour" is a time). "an hour ago" and "another hour" are left out.
pub fn amounts_of_time(text: &str) -> Vec<Length> {
    scan::amounts(text, &tokenize(text))
}

/// The bytes of a word like "9-11" (two numbers of at most two digits joined by a dash): hours
/// from 9 to 11, or 9 November. Such a word is asked about, never read either way.
pub fn number_range(text: &str) -> Option<Range<usize>> {
    tokenize(text)
        .into_iter()
        .find(|token| {
            token.word.split_once('-').is_some_and(|(a, b)| {
                [a, b]
                    .iter()
                    .all(|n| (1..=2).contains(&n.len()) && words::is_digits(n))
            })
        })
        .map(|token| token.range)
}

/// The byte ranges of every word of `text` that says something about a time: each phrase the
/// scan found (readable or not, with its marker: "at 25:00", "by feb 30") and the time words
/// beside it that it could not read. What a title must not keep when the time cannot be used.
pub fn time_words(text: &str) -> Vec<Range<usize>> {
    let (tokens, pieces, runs) = scanned(text);
    spans::all_time_words(text, &tokens, &pieces, &runs)
}

/// The words of `text`, the phrases the scan found in them, and the runs of time words that no
/// phrase could read (first word, words).
fn scanned(text: &str) -> (Vec<Token>, Vec<Piece>, Vec<(usize, usize)>) {
    let tokens = tokenize(text);
    let pieces = scan(text, &tokens);
    let runs = unread::unread_runs(
        text,
        &tokens,
        &consumed(&tokens, &pieces),
        &anchors(&pieces),
    );
    (tokens, pieces, runs)
}

/// What one text says: the instant and the phrases behind it.
struct Reading {
    at: DateTime<Utc>,
    tokens: Vec<Token>,
    pieces: Vec<Piece>,
}

fn consumed(tokens: &[Token], pieces: &[Piece]) -> Vec<bool> {
    let mut consumed = vec![false; tokens.len()];
    for piece in pieces {
        for flag in consumed.iter_mut().skip(piece.first).take(piece.len) {
            *flag = true;
        }
    }
    consumed
}

/// The phrases that name something, as (first word, words).
fn anchors(pieces: &[Piece]) -> Vec<(usize, usize)> {
    pieces
        .iter()
        .filter(|p| !p.parts.is_empty())
        .map(|p| (p.first, p.len))
        .collect()
}

/// What the phrases say, when every time word was read; else the first run of time words that
/// nothing read, as written (nothing is half-read).
fn all_read(
    text: &str,
    tokens: &[Token],
    pieces: &[Piece],
    runs: &[(usize, usize)],
) -> Result<Vec<Part>, WhenError> {
    if let Some(run) = runs.first() {
        return Err(WhenError::Unread(unread::written(text, tokens, *run)));
    }
    Ok(pieces
        .iter()
        .flat_map(|p| p.parts.iter().cloned())
        .collect())
}

fn read(text: &str, ctx: &WhenContext) -> Result<Option<Reading>, WhenError> {
    let (tokens, pieces, runs) = scanned(text);
    let parts = all_read(text, &tokens, &pieces, &runs)?;
    match resolve(&parts, ctx)? {
        Some(at) => Ok(Some(Reading {
            at: ensure_ahead(at, ctx)?,
            tokens,
            pieces,
        })),
        None => Ok(None),
    }
}

/// The time of day a recurring reminder names ("at 9", "at 7 in the evening", "at noon PST"),
/// read outside the byte ranges `skip` (its schedule phrase and bounds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeOfDay {
    pub time: NaiveTime,
    /// The zone the text names for it, if any.
    pub zone: Option<Tz>,
    /// The words that said it, with their markers ("at", "in the").
    pub ranges: Vec<Range<usize>>,
}

/// Finds a time of day in `text` outside `skip`. Phrases that name a day are left alone (they
/// may be a title's own words); a time of day that cannot be used, or time words beside it or
/// beside `skip` that nothing read, are an error.
pub fn find_time_of_day(text: &str, skip: &[Range<usize>]) -> Result<Option<TimeOfDay>, WhenError> {
    let tokens = tokenize(text);
    let in_skip = |i: usize| {
        tokens.get(i).is_some_and(|t| {
            skip.iter()
                .any(|s| s.start < t.range.end && t.range.start < s.end)
        })
    };
    let of_the_day = |part: &Part| {
        matches!(
            part,
            Part::Clock(_)
                | Part::BareHour { .. }
                | Part::Period(_)
                | Part::Midnight
                | Part::EndOfDay
                | Part::Zone(_)
                | Part::ReadingZone
                | Part::Invalid(_)
        )
    };
    let skipped: Vec<bool> = (0..tokens.len()).map(in_skip).collect();
    let pieces: Vec<Piece> = scan_outside(text, &tokens, &skipped)
        .into_iter()
        .filter(|p| !(p.first..p.first + p.len).any(in_skip))
        .filter(|p| !p.parts.is_empty() && p.parts.iter().all(of_the_day))
        .collect();
    let mut taken = consumed(&tokens, &pieces);
    let mut anchored = anchors(&pieces);
    for (i, flag) in taken.iter_mut().enumerate() {
        if in_skip(i) {
            *flag = true;
            anchored.push((i, 1));
        }
    }
    let runs = unread::unread_runs(text, &tokens, &taken, &anchored);
    let parts = all_read(text, &tokens, &pieces, &runs)?;
    let Some(time) = time_of_day_only(&parts)? else {
        return Ok(None);
    };
    let zone = parts.iter().find_map(|p| match p {
        Part::Zone(tz) => Some(*tz),
        _ => None,
    });
    let (ranges, _) = spans::locate(text, &tokens, &pieces);
    Ok(Some(TimeOfDay { time, zone, ranges }))
}

/// Time words in `text` beside the byte ranges `claimed` (phrases another reader took, such as
/// a recurrence's "every monday") that no one read: the words as written, or None.
pub fn unread_beside(text: &str, claimed: &[Range<usize>]) -> Option<String> {
    let tokens = tokenize(text);
    let mut taken = vec![false; tokens.len()];
    let mut anchored = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        if claimed
            .iter()
            .any(|c| c.start < token.range.end && token.range.start < c.end)
        {
            taken[i] = true;
            anchored.push((i, 1));
        }
    }
    let runs = unread::unread_runs(text, &tokens, &taken, &anchored);
    runs.first().map(|run| unread::written(text, &tokens, *run))
}
