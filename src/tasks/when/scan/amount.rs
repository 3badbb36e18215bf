//! Amounts of time: "in 2 hours", "in an hour and a half", "in 2 and a half hours", "in 1.5
//! hours", "1h15", "90 mins", "in half an hour", "a quarter of an hour", "in a couple of
//! hours", "in a few minutes" (3), "in 3 business days", "in 2 years", "2 days ago", "postpone
//! a week", and negative amounts ("in -5 days", "snooze -10 min"), which are refused.
//!
//! # Invariants
//! - A negative amount is always read, as an error naming it: never as the positive one.
//! - "several" and a part of a month ("1.5 months") are words to ask about, never a guess.
//! - Spelled-out counts need "in"/"by"/"within", "from now" or a moving verb before them, so
//!   "what a day" and "I'll do it one day" name no time; digits need nothing ("snooze 20 min").

use super::cursor::{Match, Words};
use crate::sentence::lexicon::{courtesy, moods};
use crate::tasks::when::error::WhenError;
use crate::tasks::when::parts::{Day, Part, Span};
use crate::tasks::when::words::{count_at, decimal, is_digits, unit_word, Unit};

/// What one amount says: its span (or why it cannot be used), the words it took, and whether
/// its count was written with digits.
pub(super) struct Amount {
    pub(super) span: Result<Span, WhenError>,
    pub(super) len: usize,
    pub(super) digits: bool,
    /// Said as more time ("another hour", "2 more days", "an extra week"): from now.
    pub(super) more: bool,
}

/// A count followed by "and a half" (before or after the unit) is that much more: n/d + 1/2.
fn plus_half(n: u64, d: u64) -> (u64, u64) {
    (n.saturating_mul(2).saturating_add(d), d.saturating_mul(2))
}

fn and_a_half(w: &Words, i: usize) -> bool {
    w.at(i) == "and" && w.at(i + 1) == "a" && w.at(i + 2) == "half"
}

/// A unit at `i`, with "business"/"working" before days: (unit, working days?, words).
fn unit_at(w: &Words, i: usize) -> Option<(Unit, bool, usize)> {
    if matches!(w.at(i), "business" | "working" | "work") && matches!(w.at(i + 1), "day" | "days") {
        return Some((Unit::Day, true, 2));
    }
    Some((unit_word(w.at(i))?, false, 1))
}

fn span_of(n: u64, d: u64, unit: Unit, working: bool) -> Result<Span, WhenError> {
    if working {
        if d != 1 {
            return Err(WhenError::Unread(String::new()));
        }
        return Span::working(n);
    }
    Span::fraction(n, d, unit)
}

/// One amount starting at word `i` ("2 hours", "an hour and a half", "half an hour").
fn piece(w: &Words, i: usize) -> Option<Amount> {
    let word = w.at(i);
    let made = |span: Result<Span, WhenError>, len: usize, digits: bool| {
        // Words that cannot be said exactly ("1.5 months") are named as written.
        let span = span.map_err(|error| match error {
            WhenError::Unread(_) => WhenError::Unread(w.written(i, len)),
            other => other,
        });
        Some(Amount {
            span,
            len,
            digits,
            more: false,
        })
    };
    // "half an hour", "half a day", "a half hour", "half hour"
    let half_at = if word == "a" && w.at(i + 1) == "half" {
        i + 1
    } else {
        i
    };
    if w.at(half_at) == "half" {
        let unit_at = if matches!(w.at(half_at + 1), "a" | "an") {
            half_at + 2
        } else {
            half_at + 1
        };
        let unit = unit_word(w.at(unit_at))?;
        return made(Span::fraction(1, 2, unit), unit_at + 1 - i, false);
    }
    // "a quarter of an hour", "quarter hour", "three quarters of an hour"
    let (quarters, quarter_at) = match (word, w.at(i + 1)) {
        ("a" | "one", "quarter") => (1, i + 1),
        ("quarter", _) => (1, i),
        ("three", "quarters") => (3, i + 1),
        _ => (0, i),
    };
    if quarters > 0 {
        let mut at = quarter_at + 1;
        if w.at(at) == "of" {
            at += 1;
        }
        if matches!(w.at(at), "a" | "an") {
            at += 1;
        }
        if w.at(at) != "hour" {
            return None;
        }
        return made(Span::fraction(quarters, 4, Unit::Hour), at + 1 - i, false);
    }
    // "a couple of hours", "couple days", "a few minutes" (3), "several days" (asked)
    let vague_at = if word == "a" { i + 1 } else { i };
    if matches!(w.at(vague_at), "couple" | "few" | "several") {
        let unit_from = if w.at(vague_at + 1) == "of" {
            vague_at + 2
        } else {
            vague_at + 1
        };
        let (unit, working, used) = unit_at(w, unit_from)?;
        let len = unit_from + used - i;
        let span = match w.at(vague_at) {
            "couple" => span_of(2, 1, unit, working),
            "few" => span_of(3, 1, unit, working),
            _ => Err(WhenError::Unread(String::new())),
        };
        return made(span, len, false);
    }
    // "2-3 days": a range, asked about.
    if let Some((low, high)) = word.split_once('-') {
        if decimal(low).is_some() && decimal(high).is_some() && unit_at(w, i + 1).is_some() {
            let len = 1 + unit_at(w, i + 1).map_or(0, |(_, _, used)| used);
            return made(Err(WhenError::Unread(String::new())), len, true);
        }
    }
    // "-5 days", "minus 5 days": refused, never read as five days.
    if let Some(negative) = negative(w, i) {
        return Some(negative);
    }
    // "1/2 hour", "3/4 of an hour", "1 1/2 hours"
    let (whole, fraction_at) = match decimal(word) {
        Some((n, 1)) if w.at(i + 1).contains('/') => (n, i + 1),
        _ => (0, i),
    };
    if let Some((top, bottom)) = vulgar_fraction(w.at(fraction_at)) {
        let mut at = fraction_at + 1;
        if w.at(at) == "of" {
            at += 1;
            if matches!(w.at(at), "a" | "an") {
                at += 1;
            }
        }
        let (unit, working, used) = unit_at(w, at)?;
        let n = whole.saturating_mul(bottom).saturating_add(top);
        return made(span_of(n, bottom, unit, working), at + used - i, true);
    }
    // "20 sec": seconds only with a number ("give me a sec" is no amount).
    if decimal(word).is_some() && matches!(w.at(i + 1), "sec" | "secs") {
        let (n, d) = decimal(word)?;
        if n < 2 * d {
            // "a sec", "one second": a moment, not an amount ("give me a sec").
            return None;
        }
        return made(Span::fraction(n, d, Unit::Second), 2, true);
    }
    // "2 hours", "2.5 hours", "2 and a half hours", "two hours", "twenty five minutes",
    // "an hour and a half", "3 business days"
    // "another hour", "another 2 days"
    if word == "another" {
        let (n, d, at) = match decimal(w.at(i + 1)) {
            Some((n, d)) => (n, d, i + 2),
            None => (1, 1, i + 1),
        };
        let (unit, working, used) = unit_at(w, at)?;
        let mut found = made(span_of(n, d, unit, working), at + used - i, false)?;
        found.more = true;
        return Some(found);
    }
    let counted = decimal(word)
        .map(|(n, d)| (n, d, 1, true))
        .or_else(|| count_at(word, w.at(i + 1)).map(|(n, used)| (n, 1, used, false)));
    if let Some((mut n, mut d, mut at, digits)) =
        counted.map(|(n, d, used, digits)| (n, d, i + used, digits))
    {
        if and_a_half(w, at) {
            (n, d) = plus_half(n, d);
            at += 3;
        }
        // "2 more days", "an extra week"
        let more = matches!(w.at(at), "more" | "extra");
        if more {
            at += 1;
        }
        let (unit, working, used) = unit_at(w, at)?;
        if unit == Unit::Second && n < 2 * d {
            // "a second", "one second": a moment, not an amount ("give me a second").
            return None;
        }
        at += used;
        if and_a_half(w, at) {
            (n, d) = plus_half(n, d);
            at += 3;
        }
        let mut found = made(span_of(n, d, unit, working), at - i, digits)?;
        found.more = more;
        return Some(found);
    }
    compact(word).map(|span| Amount {
        span,
        len: 1,
        digits: true,
        more: false,
    })
}

/// "in 1e9 hours", "in 2e3 minutes": refused as too far when they are, else asked; never read as
/// the digits before the "e", never left in a title.
fn scientific_amount(w: &Words, i: usize) -> Option<Amount> {
    let value = scientific(w.at(i))?;
    let (unit, working, used) = unit_at(w, i + 1)?;
    let span = match value.map(|(n, d)| span_of(n, d, unit, working)) {
        None | Some(Err(WhenError::TooFar)) => Err(WhenError::TooFar),
        Some(_) => Err(WhenError::Unread(w.written(i, 1 + used))),
    };
    Some(Amount {
        span,
        len: 1 + used,
        digits: true,
        more: false,
    })
}

/// "1e9", "2E3", "1.5e+3": a number in scientific notation, as a fraction (None inside when
/// it is too big for one); None when the word is not one.
fn scientific(word: &str) -> Option<Option<(u64, u64)>> {
    let (mantissa, exponent) = word.split_once(['e', 'E'])?;
    let (n, d) = decimal(mantissa)?;
    let exponent = exponent.strip_prefix('+').unwrap_or(exponent);
    if !is_digits(exponent) {
        return None;
    }
    let value = exponent
        .parse::<u32>()
        .ok()
        .and_then(|exponent| 10u64.checked_pow(exponent))
        .and_then(|scale| n.checked_mul(scale));
    Some(value.map(|n| (n, d)))
}

/// "1/2", "3/4", "1/4", "2/3": a fraction of a unit.
fn vulgar_fraction(word: &str) -> Option<(u64, u64)> {
    let (top, bottom) = word.split_once('/')?;
    let top = top.parse::<u64>().ok()?;
    let bottom = bottom.parse::<u64>().ok()?;
    (matches!(bottom, 2..=4) && (1..bottom).contains(&top)).then_some((top, bottom))
}

/// "-5 days", "-10min", "minus 3 hours", "negative 2 days".
fn negative(w: &Words, i: usize) -> Option<Amount> {
    let word = w.at(i);
    let (len, written) = if let Some(rest) = word.strip_prefix('-') {
        if compact(rest).is_some() {
            (1, word.to_owned())
        } else {
            decimal(rest)?;
            let (_, _, used) = unit_at(w, i + 1)?;
            (1 + used, w.written(i, 1 + used))
        }
    } else if matches!(word, "minus" | "negative") {
        let next = w.at(i + 1);
        let used = if decimal(next).is_some() || compact(next).is_some() {
            1
        } else {
            count_at(next, w.at(i + 2))?.1
        };
        let unit = if compact(next).is_some() {
            0
        } else {
            unit_at(w, i + 1 + used)?.2
        };
        (1 + used + unit, w.written(i, 1 + used + unit))
    } else {
        return None;
    };
    Some(Amount {
        span: Err(WhenError::Negative(written)),
        len,
        digits: true,
        more: false,
    })
}

/// "2h", "45min", "1h30m", "1h15", "1.5h", "90mins": numbers each followed by a unit (a last
/// number after hours is minutes).
fn compact(word: &str) -> Option<Result<Span, WhenError>> {
    if !word.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut rest = word;
    let mut total: Result<Span, WhenError> = Ok(Span::default());
    let mut last = None;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(number_end);
        let (n, d) = decimal(number)?;
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_end);
        let unit = match (unit_word(unit), last) {
            (Some(unit), _) => unit,
            (None, Some(Unit::Hour)) if unit.is_empty() && tail.is_empty() => Unit::Minute,
            _ => return None,
        };
        let piece = Span::fraction(n, d, unit);
        total = total.and_then(|t| piece.and_then(|p| t.plus(p)));
        last = Some(unit);
        rest = tail;
    }
    last.map(|_| total)
}

/// A whole amount from word `i`: pieces joined by "and" or nothing ("1 hour 30 minutes", "2
/// weeks and 3 days").
pub(super) fn amount(w: &Words, i: usize) -> Option<Amount> {
    let first = scientific_amount(w, i).or_else(|| piece(w, i))?;
    let (mut span, mut len, digits, more) = (first.span, first.len, first.digits, first.more);
    loop {
        let next = if w.at(i + len) == "and" {
            i + len + 1
        } else {
            i + len
        };
        match piece(w, next) {
            Some(more) => {
                span = span.and_then(|t| more.span.and_then(|p| t.plus(p)));
                len = next + more.len - i;
            }
            None => break,
        }
    }
    Some(Amount {
        span,
        len,
        digits,
        more,
    })
}

/// "in 10", "in a few": an amount after "in" with no unit (minutes? hours?): asked.
fn missing_unit(w: &Words, i: usize) -> Option<Match> {
    if !matches!(w.intro(i), "in" | "within") {
        return None;
    }
    let len = match (w.at(i), w.at(i + 1)) {
        ("a", "few" | "couple" | "bit") => 2,
        (word, _) if decimal(word).is_some() || count_at(word, "").is_some() => 1,
        _ => return None,
    };
    let next = w.at(i + len);
    if !(next.is_empty() || matches!(next, "to" | "please" | "pls" | "then" | "and" | "or")) {
        return None;
    }
    if w.at(i) == "a" && w.at(i + 1) == "bit" {
        return None;
    }
    Some((
        len,
        vec![Part::Invalid(WhenError::Unread(format!(
            "in {}",
            w.written(i, len)
        )))],
    ))
}

/// Words that may follow an amount written with digits and nothing before it ("snooze 20 min
/// please", "20 min then"): anything else makes it describe a thing ("8 hours of sleep").
const AFTER_AN_AMOUNT: [&str; 12] = [
    "at", "on", "to", "and", "then", "from", "later", "or", "if", "so", "is", "instead",
];

/// Whether `word` may follow an amount ([`AFTER_AN_AMOUNT`], or a phatic word: "please", "ok",
/// "thanks").
fn after_an_amount(word: &str) -> bool {
    AFTER_AN_AMOUNT.contains(&word)
        || courtesy::is_please(word)
        || courtesy::is_agreement(word)
        || courtesy::is_thanks(word)
}

/// Words before an amount written with digits that leave it an amount from now ("ok 20 min",
/// "maybe 2 hours", "then 30 mins").
const BEFORE_A_BARE_AMOUNT: [&str; 2] = ["then", "just"];

/// Whether `word` before an amount leaves it an amount from now ([`BEFORE_A_BARE_AMOUNT`],
/// agreement, a hedge: "ok 20 min", "maybe 2 hours").
fn before_a_bare_amount(word: &str) -> bool {
    BEFORE_A_BARE_AMOUNT.contains(&word)
        || courtesy::is_agreement(word)
        || moods::HEDGES.contains(&word)
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
pub(super) fn duration(w: &Words, i: usize) -> Option<Match> {
    let introduced = w.intro(i);
    // "at 15h" is a clock time in some countries, never an amount of time.
    if matches!(introduced, "at" | "around") {
        return None;
    }
    let Some(Amount {
        span,
        mut len,
        digits,
        more,
    }) = amount(w, i)
    else {
        return missing_unit(w, i);
    };
    if let Err(error @ WhenError::Negative(_)) = span {
        return Some((len, vec![Part::Invalid(error)]));
    }
    if w.at(i + len) == "ago" {
        return Some((len + 1, vec![Part::Day(Day::Past)]));
    }
    let from_now = w.at(i + len) == "from" && w.at(i + len + 1) == "now";
    if from_now {
        len += 2;
    }
    // "in 10 days time", "in two weeks' time"
    if matches!(introduced, "in" | "within") && w.at(i + len) == "time" {
        len += 1;
    }
    let next_word = w.at(i + len);
    let more = more && (next_word.is_empty() || after_an_amount(next_word));
    let introduced_as_time =
        more || from_now || moves_by(w, i) || matches!(introduced, "in" | "by" | "within");
    // "walk the dog for 30 minutes", "study for 2 hours tonight": how long the task takes,
    // read (so it is no unread time) but naming no time; it stays in the title.
    if introduced == "for" && !introduced_as_time && span.is_ok() {
        return Some((len, Vec::new()));
    }
    if !digits && !introduced_as_time {
        return None;
    }
    // "8 hours of sleep", "a 30 minute walk", "2 day trip", "sleep 8 hours": an amount that
    // describes a thing or a task's length. Digits with nothing before them ("20 min", "ok,
    // 2 hours") are an amount from now.
    let next = w.at(i + len);
    let stands_alone = i == 0 || w.punctuation_after(i - 1) || before_a_bare_amount(introduced);
    if !introduced_as_time && !(stands_alone && (next.is_empty() || after_an_amount(next))) {
        return None;
    }
    let part = match span {
        Err(error) => Part::Invalid(error),
        Ok(span) if introduced == "by" => Part::FromStart(span),
        Ok(span) => Part::FromNow(span),
    };
    Some((len, vec![part]))
}
