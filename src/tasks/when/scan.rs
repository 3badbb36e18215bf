//! Finding the phrases that name a time in a list of words ("next tuesday", "at 5 in the
//! afternoon", "3rd of december 2027", "in 1 hour and 30 minutes") and what each one says.
//!
//! # Invariants
//! - Phrases do not overlap; where two could start at the same word the order in [`match_at`]
//!   decides (dates before times, times before durations, durations before bare hours).
//! - A phrase after "from" or a negation is left out: it is the time being moved away from.

use super::error::WhenError;
use super::parts::{clock_part, explicit_part, hm, Day, Part, Period, Span};
use super::words::{
    count_word, day_number, is_digits, meridiem, month_word, names_a_day_ahead, saturating_number,
    small_number, unit_word, weekday_word, year_number, Token, Unit,
};

struct Words<'a> {
    tokens: &'a [Token],
}

impl Words<'_> {
    fn at(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.word.as_str())
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

/// One phrase the scan read: the words it covers (`first`, `len` words) and what it says.
#[derive(Debug, Clone)]
pub(super) struct Piece {
    pub(super) first: usize,
    pub(super) len: usize,
    pub(super) parts: Vec<Part>,
}

/// Every phrase that names a time, in text order. A phrase naming the time being moved away from
/// ("from friday", "not tomorrow") is left out: it says nothing about the new time.
pub(super) fn scan(tokens: &[Token]) -> Vec<Piece> {
    let words = Words { tokens };
    let mut pieces = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match match_at(&words, i) {
            Some((len, parts)) => {
                let len = len.max(1);
                if !words.moved_away_from(i) {
                    pieces.push(Piece {
                        first: i,
                        len: len.min(tokens.len() - i),
                        parts,
                    });
                }
                i = i.saturating_add(len);
            }
            None => i += 1,
        }
    }
    pieces
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

/// Verbs that move a task or put it off by an amount of time: "postpone a week", "push it two
/// days", "give me an hour", "snooze for an hour", "busy for a day", "put it off a day".
const MOVING_VERBS: [&str; 12] = [
    "push",
    "move",
    "postpone",
    "delay",
    "defer",
    "snooze",
    "bump",
    "shift",
    "reschedule",
    "give",
    "put",
    "busy",
];

/// Words after an amount of time that make it something else than the amount to move by ("a day
/// before", "a week earlier"): left unread rather than guessed.
const NOT_AN_AMOUNT_AFTER: [&str; 5] = ["before", "after", "early", "earlier", "late"];

/// Whether the words before `i` are a moving verb with its object and particle: "push it back
/// for", "postpone", "give me", "hold off for". A spelled-out count there is the amount to move
/// by; anywhere else ("what a day", "I'll do it one day") it is not a time.
fn moves_by(w: &Words, i: usize) -> bool {
    let mut j = i;
    for allowed in [
        &["for"][..],
        &["back", "out", "off"][..],
        &["it", "this", "that", "me"][..],
    ] {
        if let Some(prev) = j.checked_sub(1).filter(|&p| allowed.contains(&w.at(p))) {
            j = prev;
        }
    }
    j.checked_sub(1)
        .is_some_and(|p| MOVING_VERBS.contains(&w.at(p)) || (w.at(p) == "hold" && w.at(j) == "off"))
}

/// "in 2 hours", "in an hour and 30 minutes", "by a day", "20 min", "an hour from now",
/// "2 days ago", "postpone a week". Spelled-out counts need "in"/"by"/"within", "from now" or a
/// moving verb before them ([`moves_by`]) so that "what a day" stays nothing.
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
    // "an hour and a half" is more than the hour read so far: better unread than short.
    let and_a_half = w.at(i + len) == "and" && matches!(w.at(i + len + 1), "a" | "half");
    let moved_by = moves_by(w, i) && !and_a_half && !NOT_AN_AMOUNT_AFTER.contains(&w.at(i + len));
    if !with_digits && !from_now && !moved_by && !matches!(introduced, "in" | "by" | "within") {
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
