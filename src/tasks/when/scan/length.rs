//! How long a task takes, said with it: "for an hour", "for 45 minutes", ", 45 min" (an amount
//! with digits after a comma), "it takes about an hour", "should take 30 minutes", "lasts 2
//! hours". Read with the same amounts as times (`amount`), on the same words.
//!
//! # Invariants
//! - Only an amount that a length word introduces ("for", "takes", "take", "lasts", "lasting")
//!   or that stands alone after punctuation with digits is a length: "in an hour" is a time,
//!   "an hour ago" a past, "for the 3rd time" no amount at all.
//! - A length is at least a minute and at most 12 hours: "for 2 days" or "for a week" is how
//!   long something goes on, not what a task takes, and is left alone.

use std::ops::Range;

use super::amount::{amount, Amount};
use super::cursor::Words;
use crate::tasks::when::parts::Part;
use crate::tasks::when::words::Token;
use crate::tasks::when::words::HEDGES;

/// A length said in the text: its minutes and the bytes of its words (the introducing word
/// included); for a range of clock times ("from 9:00 to 11:00") also the bytes of its start's
/// clock time ("9:00"), which is when the task starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Length {
    pub minutes: i64,
    pub range: Range<usize>,
    pub start: Option<Range<usize>>,
}

/// Words that introduce a length.
const INTRODUCERS: [&str; 9] = [
    "for", "takes", "take", "taking", "took", "lasts", "last", "lasting", "needs",
];

/// Words before a length's verb that belong to it ("it should take", "which usually takes").
const SAYING_IT: [&str; 12] = [
    "it", "should", "will", "would", "might", "usually", "probably", "which", "that", "ll",
    "normally", "only",
];

/// The longest length a task may take.
const MOST_MINUTES: u64 = 12 * 60;

/// Every length in the text, in order.
pub fn lengths(text: &str, tokens: &[Token]) -> Vec<Length> {
    let w = Words { tokens, text };
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match clock_range(&w, i).or_else(|| length_at(&w, i)) {
            Some((length, len)) => {
                found.push(length);
                i += len;
            }
            None => i += 1,
        }
    }
    found
}

/// A length whose amount starts at word `i`, and how many words it took.
fn length_at(w: &Words, i: usize) -> Option<(Length, usize)> {
    let Amount {
        span,
        len,
        digits,
        more,
    } = amount(w, i)?;
    let introduced = INTRODUCERS.contains(&w.intro(i));
    // ", 45 min", ", about an hour": a spelled amount needs a hedge after the break, so that
    // "call mom, an hour" is no length by accident.
    let hedges = (0..i)
        .rev()
        .take_while(|&j| HEDGES.contains(&w.at(j)))
        .count();
    let after_punctuation =
        i > hedges && w.punctuation_after(i - hedges - 1) && (digits || hedges > 0);
    if more || !(introduced || after_punctuation) {
        return None;
    }
    // "an hour ago", "for an hour from now", "45 min before": times, not lengths.
    if matches!(
        w.at(i + len),
        "ago" | "before" | "after" | "earlier" | "later" | "from" | "late"
    ) {
        return None;
    }
    let span = span.ok()?;
    if span.months != 0 || span.days != 0 || span.working_days != 0 {
        return None;
    }
    let minutes = span.seconds / 60;
    if !(1..=MOST_MINUTES).contains(&minutes) {
        return None;
    }
    let mut first = if introduced {
        (0..i)
            .rev()
            .find(|&j| INTRODUCERS.contains(&w.at(j)))
            .unwrap_or(i)
    } else {
        i - hedges
    };
    // "it should take 20 minutes": the words that make the verb a sentence are the length's.
    if w.at(first) != "for" {
        while first > 0 && SAYING_IT.contains(&w.at(first - 1)) {
            first -= 1;
        }
    }
    let start = w.tokens.get(first)?.range.start;
    let end = w.tokens.get(i + len - 1)?.range.end;
    Some((
        Length {
            minutes: i64::try_from(minutes).ok()?,
            range: start..end,
            start: None,
        },
        len,
    ))
}

/// Every amount of time in the text that says how long something lasts, whatever word comes
/// before it: its minutes (a day is 24 hours; months and working days are no length) and the
/// bytes of its own words ("an hour", "2 hours and 15 minutes"). "another hour", "an hour ago"
/// and "45 min before" are left out. The reader of a reply decides from the words around it
/// whether it is what the task takes (`tasks::estimate_said`).
pub fn amounts(text: &str, tokens: &[Token]) -> Vec<Length> {
    let w = Words { tokens, text };
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let Some(Amount {
            span, len, more, ..
        }) = amount(&w, i)
        else {
            i += 1;
            continue;
        };
        let relative = matches!(
            w.at(i + len),
            "ago" | "before" | "after" | "earlier" | "later" | "from" | "late"
        );
        let minutes = span
            .ok()
            .filter(|span| span.months == 0 && span.working_days == 0)
            .map(|span| {
                span.days
                    .saturating_mul(24 * 60)
                    .saturating_add(span.seconds / 60)
            });
        let bytes = w.tokens.get(i).zip(w.tokens.get(i + len - 1));
        if let (false, false, Some(minutes), Some((first, last))) = (more, relative, minutes, bytes)
        {
            if let Ok(minutes) = i64::try_from(minutes) {
                found.push(Length {
                    minutes,
                    range: first.range.start..last.range.end,
                    start: None,
                });
            }
        }
        i += len.max(1);
    }
    found
}

/// "from 9:00 to 11:00", "between 2pm and 3:30pm", "10am-noon" as two words: two clock times
/// (a colon or am/pm each; a bare "9-11" is also a date and is left to the time reader, which
/// asks), the second later the same day.
fn clock_range(w: &Words, i: usize) -> Option<(Length, usize)> {
    let opened = usize::from(matches!(w.at(i), "from" | "between"));
    let first = i + opened;
    let (from_len, from_time, from_bare) = clock_at(w, first)?;
    let from = (from_time, from_bare);
    let joint = first + from_len;
    let joined = match w.at(joint) {
        "to" | "until" | "till" | "til" | "-" => 1,
        "and" if w.at(i) == "between" => 1,
        _ => return None,
    };
    let (to_len, to, to_bare) = clock_at(w, joint + joined)?;
    let mut minutes = (to - from.0).num_minutes();
    // "from 11:00 to 1:00": an end without am/pm is the first one after the start.
    if minutes <= 0 && to_bare {
        minutes += 12 * 60;
    }
    if !(1..=i64::try_from(MOST_MINUTES).ok()?).contains(&minutes) {
        return None;
    }
    let len = joint + joined + to_len - i;
    let bytes =
        |from: usize, to: usize| Some(w.tokens.get(from)?.range.start..w.tokens.get(to)?.range.end);
    Some((
        Length {
            minutes,
            range: bytes(i, i + len - 1)?,
            start: bytes(first, first + from_len - 1),
        },
        len,
    ))
}

/// A clock time written as one ("9:00", "2pm", "3:30 pm", "noon"): its words, its time, and
/// whether it was said without am/pm ("9:00": its half of the day is the time reader's to
/// settle for a start; a length is the same in either half).
fn clock_at(w: &Words, i: usize) -> Option<(usize, chrono::NaiveTime, bool)> {
    let (len, parts) = super::clock::clock(w, i)?;
    match parts.as_slice() {
        [Part::Clock(time)] => Some((len, *time, false)),
        [Part::BareHour { hour, minute }] => Some((
            len,
            chrono::NaiveTime::from_hms_opt(*hour, *minute, 0)?,
            true,
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::tasks::when::words::tokenize;

    /// The minutes said and the words that said them.
    fn read(text: &str) -> Vec<(i64, &str)> {
        super::lengths(text, &tokenize(text))
            .into_iter()
            .map(|length| (length.minutes, &text[length.range]))
            .collect()
    }

    #[test]
    fn lengths_said_with_a_task_and_amounts_that_are_no_length() {
        for (text, expected) in [
            (
                "dentist tomorrow at 3pm for an hour",
                vec![(60, "for an hour")],
            ),
            ("gym at 6pm, 45 min", vec![(45, "45 min")]),
            ("dentist at 3pm, about an hour", vec![(60, "about an hour")]),
            ("call mom, an hour", vec![]),
            (
                "it takes about an hour",
                vec![(60, "it takes about an hour")],
            ),
            (
                "should take 30 minutes",
                vec![(30, "should take 30 minutes")],
            ),
            (
                "review the slides, it'll take 20 min",
                vec![(20, "it'll take 20 min")],
            ),
            ("study for 1.5 hours tonight", vec![(90, "for 1.5 hours")]),
            (
                "call the bank for half an hour",
                vec![(30, "for half an hour")],
            ),
            ("review slides (20 min)", vec![(20, "20 min")]),
            (
                "walk the dog for 2 hours and 15 minutes",
                vec![(135, "for 2 hours and 15 minutes")],
            ),
            (
                "deep work from 9:00 to 11:00",
                vec![(120, "from 9:00 to 11:00")],
            ),
            (
                "review between 2pm and 3:30pm",
                vec![(90, "between 2pm and 3:30pm")],
            ),
            // A bare "9-11" is also a date; a range that ends before it starts is no length.
            ("deep work 9-11", vec![]),
            ("night shift from 22:00 to 06:00", vec![]),
            ("call from 11:00 to 1:00", vec![(120, "from 11:00 to 1:00")]),
            // A time, a past, no amount, too long to be a task's length.
            ("call mom in an hour", vec![]),
            ("I called an hour ago", vec![]),
            ("asking for the 3rd time", vec![]),
            ("remind me for 2 days", vec![]),
            ("out of office for a week", vec![]),
            ("snooze 20 min", vec![]),
            ("meeting at 3 for 45 minutes before lunch", vec![]),
            ("waited for hours", vec![]),
        ] {
            assert_eq!(read(text), expected, "{text:?}");
        }
    }
}
