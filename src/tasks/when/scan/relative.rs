//! An amount of time before or after another time: "a week before the 20th", "2 days before
//! friday", "the day after tuesday", "a week from tomorrow", "3 days after christmas", "an
//! hour before noon".
//!
//! # Invariants
//! - The amount and the time it counts from are one phrase: "4 days before the 20th" is never
//!   read as "in 4 days".
//! - An amount before or after something that is no time ("a day before the trip", "a week
//!   earlier") is words to ask about, with the thing named, never an amount from now.

use super::amount::amount;
use super::clock;
use super::cursor::{Match, Words};
use super::dates;
use super::days;
use super::points;
use crate::tasks::when::error::WhenError;
use crate::tasks::when::parts::{Part, Span};
use crate::tasks::when::words::Unit;

/// Words that may stand before the noun of a thing an amount is counted from ("the trip").
const DETERMINERS: [&str; 10] = [
    "the", "my", "our", "your", "his", "her", "their", "this", "that", "a",
];

/// Words that end the name of the thing an amount is counted from ("the trip | to rome").
const JOINS: [&str; 12] = [
    "to", "and", "at", "on", "in", "for", "with", "by", "then", "so", "or", "but",
];

pub(super) fn relative(w: &Words, i: usize) -> Option<Match> {
    // "the day before friday": one day; the "the" is the marker's business.
    // "read for an hour before bed": how long the task takes, not a time.
    if w.before(i) == "for" {
        return None;
    }
    let bare = matches!(w.at(i), "day" | "week") && w.before(i) == "the";
    let (span, len) = if bare {
        let unit = if w.at(i) == "day" {
            Unit::Day
        } else {
            Unit::Week
        };
        (Span::of(1, unit), 1)
    } else {
        let found = amount(w, i)?;
        (found.span, found.len)
    };
    let direction = w.at(i + len);
    let after = match direction {
        "before" | "prior" => false,
        "after" => true,
        "from" if w.at(i + len + 1) != "now" => true,
        // "a day earlier": earlier than what? Asked, never read as a day from now.
        "earlier" | "early" | "sooner" => return unread(w, i, len + 1),
        _ => return None,
    };
    let mut at = i + len + 1;
    if direction == "prior" {
        if w.at(at) != "to" {
            return None;
        }
        at += 1;
    }
    let mut anchor = Vec::new();
    while let Some((used, parts)) = anchor_at(w, at) {
        anchor.extend(parts);
        at += used;
    }
    if anchor.is_empty() && bare {
        // "prepare for it the day before": before what? Asked. "the day after was better":
        // no time at all.
        let ends = w.at(at).is_empty() || JOINS.contains(&w.at(at));
        let thing = DETERMINERS.contains(&w.at(at)) && w.at(at) != "a";
        if !(ends || thing) {
            return None;
        }
        // "the day before my flight": the thing it counts from, named in the question.
        let mut end = at;
        if thing {
            end += 1;
            while end < at + 4 && !w.at(end).is_empty() && !JOINS.contains(&w.at(end)) {
                end += 1;
            }
        }
        return Some((
            end - i,
            vec![Part::Invalid(WhenError::Unread(format!(
                "the {}",
                w.written(i, end - i)
            )))],
        ));
    }
    if anchor.is_empty() {
        // "a day before the trip", "2 days after she lands": the thing it counts from (a few
        // words, up to a joining word), named in the question.
        let mut end = at;
        while DETERMINERS.contains(&w.at(end)) {
            end += 1;
        }
        let thing = end;
        while end < thing + 3 && !w.at(end).is_empty() && !JOINS.contains(&w.at(end)) {
            end += 1;
        }
        return unread(w, i, end - i);
    }
    let part = match span {
        Ok(span) => Part::Relative {
            span,
            after,
            anchor,
        },
        Err(error) => Part::Invalid(error),
    };
    Some((at - i, vec![part]))
}

fn unread(w: &Words, i: usize, len: usize) -> Option<Match> {
    Some((
        len,
        vec![Part::Invalid(WhenError::Unread(w.written(i, len)))],
    ))
}

/// A phrase that can be the other end of a relative time ("before the 20th", "after
/// tuesday"): anything but an amount of time or another relative time.
fn anchor_at(w: &Words, i: usize) -> Option<Match> {
    days::overmorrow(w, i)
        .or_else(|| points::named_point(w, i))
        .or_else(|| days::keyword(w, i))
        .or_else(|| days::weekday(w, i))
        .or_else(|| dates::iso_date(w.at(i)))
        .or_else(|| dates::numeric_date(w, i))
        .or_else(|| dates::month_day(w, i))
        .or_else(|| dates::day_of_month(w, i))
        .or_else(|| dates::holiday(w, i))
        .or_else(|| clock::day_time(w, i))
        .or_else(|| clock::clock(w, i))
        .filter(|(_, parts)| {
            !parts
                .iter()
                .any(|p| matches!(p, Part::FromNow(_) | Part::FromStart(_) | Part::Later))
        })
}
