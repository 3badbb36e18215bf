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

mod piece;

pub(super) use piece::Amount;

use super::cursor::{Match, Words};
use crate::sentence::lexicon::{courtesy, moods};
use crate::tasks::when::error::WhenError;
use crate::tasks::when::parts::{Day, Part};
use crate::tasks::when::words::{count_at, decimal};

/// A whole amount from word `i`: pieces joined by "and" or nothing ("1 hour 30 minutes", "2
/// weeks and 3 days").
pub(super) fn amount(w: &Words, i: usize) -> Option<Amount> {
    let first = piece::scientific_amount(w, i).or_else(|| piece::piece(w, i))?;
    let (mut span, mut len, digits, more) = (first.span, first.len, first.digits, first.more);
    loop {
        let next = if w.at(i + len) == "and" {
            i + len + 1
        } else {
            i + len
        };
        match piece::piece(w, next) {
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
