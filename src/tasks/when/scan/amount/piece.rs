//! One piece of an amount, in each of the ways people write it: "half an hour", "a quarter of
//! an hour", "a couple of hours", "2-3 days" (asked), "-5 days" (refused), "1 1/2 hours",
//! "20 sec", "another hour", "2 and a half hours", "3 business days", "1h15", "1e9 hours".
//!
//! Each written form is one step below; [`piece`] tries them in order, and the first that
//! reads the words decides.
//!
//! # Invariants
//! - A negative amount is always read, as an error naming it: never as the positive one.
//! - "a sec", "one second" are a moment, never an amount ("give me a sec").

use crate::tasks::when::error::WhenError;
use crate::tasks::when::parts::Span;
use crate::tasks::when::scan::cursor::Words;
use crate::tasks::when::words::{count_at, decimal, is_digits, unit_word, Unit};

/// What one amount says: its span (or why it cannot be used), the words it took, and whether
/// its count was written with digits.
pub(crate) struct Amount {
    pub(crate) span: Result<Span, WhenError>,
    pub(crate) len: usize,
    pub(crate) digits: bool,
    /// Said as more time ("another hour", "2 more days", "an extra week"): from now.
    pub(crate) more: bool,
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

/// An amount of `len` words from `i`; words that cannot be said exactly ("1.5 months") are
/// named as written.
fn made(w: &Words, i: usize, span: Result<Span, WhenError>, len: usize, digits: bool) -> Amount {
    let span = span.map_err(|error| match error {
        WhenError::Unread(_) => WhenError::Unread(w.written(i, len)),
        other => other,
    });
    Amount {
        span,
        len,
        digits,
        more: false,
    }
}

/// What one written form made of the words at `i`: None when they are not in its form (the
/// next form is tried); `Some(None)` when they are but name no amount ("half a" with no unit,
/// "a sec"); `Some(Some(_))` the amount read.
type Reading = Option<Option<Amount>>;

/// The written forms of an amount, in the order they are tried.
const FORMS: [fn(&Words, usize) -> Reading; 9] = [
    half, quarters, vague, range, negative, fraction, seconds, another, counted,
];

/// One amount starting at word `i` ("2 hours", "an hour and a half", "half an hour").
pub(super) fn piece(w: &Words, i: usize) -> Option<Amount> {
    for form in FORMS {
        if let Some(reading) = form(w, i) {
            return reading;
        }
    }
    compact(w.at(i)).map(|span| Amount {
        span,
        len: 1,
        digits: true,
        more: false,
    })
}

/// "half an hour", "half a day", "a half hour", "half hour".
fn half(w: &Words, i: usize) -> Reading {
    let half_at = if w.at(i) == "a" && w.at(i + 1) == "half" {
        i + 1
    } else {
        i
    };
    if w.at(half_at) != "half" {
        return None;
    }
    let unit_at = if matches!(w.at(half_at + 1), "a" | "an") {
        half_at + 2
    } else {
        half_at + 1
    };
    let unit = unit_word(w.at(unit_at));
    Some(unit.map(|unit| made(w, i, Span::fraction(1, 2, unit), unit_at + 1 - i, false)))
}

/// "a quarter of an hour", "quarter hour", "three quarters of an hour".
fn quarters(w: &Words, i: usize) -> Reading {
    let (quarters, quarter_at) = match (w.at(i), w.at(i + 1)) {
        ("a" | "one", "quarter") => (1, i + 1),
        ("quarter", _) => (1, i),
        ("three", "quarters") => (3, i + 1),
        _ => return None,
    };
    let mut at = quarter_at + 1;
    if w.at(at) == "of" {
        at += 1;
    }
    if matches!(w.at(at), "a" | "an") {
        at += 1;
    }
    if w.at(at) != "hour" {
        return Some(None);
    }
    let span = Span::fraction(quarters, 4, Unit::Hour);
    Some(Some(made(w, i, span, at + 1 - i, false)))
}

/// "a couple of hours", "couple days", "a few minutes" (3), "several days" (asked).
fn vague(w: &Words, i: usize) -> Reading {
    let vague_at = if w.at(i) == "a" { i + 1 } else { i };
    if !matches!(w.at(vague_at), "couple" | "few" | "several") {
        return None;
    }
    let unit_from = if w.at(vague_at + 1) == "of" {
        vague_at + 2
    } else {
        vague_at + 1
    };
    let Some((unit, working, used)) = unit_at(w, unit_from) else {
        return Some(None);
    };
    let span = match w.at(vague_at) {
        "couple" => span_of(2, 1, unit, working),
        "few" => span_of(3, 1, unit, working),
        _ => Err(WhenError::Unread(String::new())),
    };
    Some(Some(made(w, i, span, unit_from + used - i, false)))
}

/// "2-3 days": a range, asked about.
fn range(w: &Words, i: usize) -> Reading {
    let (low, high) = w.at(i).split_once('-')?;
    if decimal(low).is_none() || decimal(high).is_none() {
        return None;
    }
    let (_, _, used) = unit_at(w, i + 1)?;
    let unread = Err(WhenError::Unread(String::new()));
    Some(Some(made(w, i, unread, 1 + used, true)))
}

/// "1/2 hour", "3/4 of an hour", "1 1/2 hours".
fn fraction(w: &Words, i: usize) -> Reading {
    let (whole, fraction_at) = match decimal(w.at(i)) {
        Some((n, 1)) if w.at(i + 1).contains('/') => (n, i + 1),
        _ => (0, i),
    };
    let (top, bottom) = vulgar_fraction(w.at(fraction_at))?;
    let mut at = fraction_at + 1;
    if w.at(at) == "of" {
        at += 1;
        if matches!(w.at(at), "a" | "an") {
            at += 1;
        }
    }
    let Some((unit, working, used)) = unit_at(w, at) else {
        return Some(None);
    };
    let n = whole.saturating_mul(bottom).saturating_add(top);
    Some(Some(made(
        w,
        i,
        span_of(n, bottom, unit, working),
        at + used - i,
        true,
    )))
}

/// "20 sec": seconds only with a number; "a sec", "one second" are a moment, not an amount
/// ("give me a sec").
fn seconds(w: &Words, i: usize) -> Reading {
    if !matches!(w.at(i + 1), "sec" | "secs") {
        return None;
    }
    let (n, d) = decimal(w.at(i))?;
    if n < 2 * d {
        return Some(None);
    }
    Some(Some(made(
        w,
        i,
        Span::fraction(n, d, Unit::Second),
        2,
        true,
    )))
}

/// "another hour", "another 2 days": more time, from now.
fn another(w: &Words, i: usize) -> Reading {
    if w.at(i) != "another" {
        return None;
    }
    let (n, d, at) = match decimal(w.at(i + 1)) {
        Some((n, d)) => (n, d, i + 2),
        None => (1, 1, i + 1),
    };
    let Some((unit, working, used)) = unit_at(w, at) else {
        return Some(None);
    };
    let mut found = made(w, i, span_of(n, d, unit, working), at + used - i, false);
    found.more = true;
    Some(Some(found))
}

/// "2 hours", "2.5 hours", "2 and a half hours", "two hours", "twenty five minutes", "an hour
/// and a half", "3 business days", "2 more days", "an extra week".
fn counted(w: &Words, i: usize) -> Reading {
    let word = w.at(i);
    let (mut n, mut d, used, digits) = decimal(word)
        .map(|(n, d)| (n, d, 1, true))
        .or_else(|| count_at(word, w.at(i + 1)).map(|(n, used)| (n, 1, used, false)))?;
    let mut at = i + used;
    if and_a_half(w, at) {
        (n, d) = plus_half(n, d);
        at += 3;
    }
    let more = matches!(w.at(at), "more" | "extra");
    if more {
        at += 1;
    }
    let Some((unit, working, used)) = unit_at(w, at) else {
        return Some(None);
    };
    if unit == Unit::Second && n < 2 * d {
        // "a second", "one second": a moment, not an amount ("give me a second").
        return Some(None);
    }
    at += used;
    if and_a_half(w, at) {
        (n, d) = plus_half(n, d);
        at += 3;
    }
    let mut found = made(w, i, span_of(n, d, unit, working), at - i, digits);
    found.more = more;
    Some(Some(found))
}

/// "in 1e9 hours", "in 2e3 minutes": refused as too far when they are, else asked; never read as
/// the digits before the "e", never left in a title.
pub(super) fn scientific_amount(w: &Words, i: usize) -> Option<Amount> {
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
fn negative(w: &Words, i: usize) -> Reading {
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
    Some(Some(Amount {
        span: Err(WhenError::Negative(written)),
        len,
        digits: true,
        more: false,
    }))
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
