//! Which words of a text named its time, and whether that time is a deadline or a start.
//!
//! A capture ("remind me to pay rent by friday 9am") is the task's title with a time in it; the
//! title is what is left once the words of the time are taken out. This module owns that cut:
//! the phrases the reading used, the marker words in front of each, and the anchor those
//! markers give (docs/contract.md "Times").
//!
//! # Invariants
//! - Ranges are byte ranges of the original text, on char boundaries, sorted, not overlapping;
//!   ranges separated only by spaces or punctuation are merged ("friday, 9am" is one range).
//! - A phrase the reading did not use is not cut: "later" beside a real time, a past day beside
//!   a usable one ("the guy I met yesterday"), a phrase that names no usable time ("later this
//!   week"), and a time being moved away from ("not tomorrow").
//! - Markers are taken backwards from a phrase, at most one of each kind and in this order:
//!   "the" (only in "in the morning", "the day after tomorrow", "the weekend", or after a
//!   preposition), one preposition ("at", "on", "in", "by", "before", "until", "till", "for",
//!   "around", "within", "from", "after"), then "due". So "check in on friday" keeps "check in".
//! - The anchor is [`TimeAnchor::Deadline`] when the markers of the first phrase used hold
//!   "by", "due", "before", "until" or "till" ("due on friday" is a deadline too), else
//!   [`TimeAnchor::Start`].

use std::ops::Range;

use chrono::{DateTime, Utc};

use super::parts::{Day, Part};
use super::scan::Piece;
use super::words::{Token, HEDGES};

/// A time found in a captured text, with the words that said it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhenSpan {
    pub at: DateTime<Utc>,
    /// Byte ranges of `text` (on char boundaries, sorted, not overlapping) holding every word
    /// the reading used, with the marker before each piece ("at", "by", "due", "in the"):
    /// removing them leaves the rest of the sentence.
    pub ranges: Vec<Range<usize>>,
    pub anchor: TimeAnchor,
}

/// Whether the time is when the task is due or when it should start (docs/contract.md "Times").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeAnchor {
    /// "by", "due", "before", "until", "till" right before the first time piece.
    Deadline,
    /// Anything else: "at", "on", "in", "for", or no marker at all.
    Start,
}

const PREPOSITIONS: [&str; 12] = [
    "at", "on", "in", "by", "before", "after", "until", "till", "for", "around", "within", "from",
];
const DEADLINE_MARKERS: [&str; 5] = ["by", "due", "before", "until", "till"];
/// Phrases that are said with "the" in front even without a preposition.
const TAKES_THE: [&str; 13] = [
    "day",
    "week",
    "weekend",
    "morning",
    "afternoon",
    "evening",
    "night",
    "end",
    "middle",
    "beginning",
    "start",
    "next",
    "close",
];

/// Where a phrase's words start once its markers are taken in, and those markers: "the" (see
/// the module header), one preposition, then "due". `free` says whether a word is not part of
/// another phrase.
fn with_markers<'t>(
    tokens: &'t [Token],
    piece: &Piece,
    free: &dyn Fn(usize, &[&str]) -> bool,
) -> (usize, Vec<&'t str>) {
    let word = |i: usize| tokens.get(i).map_or("", |t| t.word.as_str());
    let mut start = piece.first;
    let mut markers = Vec::new();
    // "the": before the phrases that take it, or between a preposition and the phrase.
    if let Some(the) = start.checked_sub(1).filter(|&j| free(j, &["the"])) {
        let before_the = the.checked_sub(1);
        let takes_the = TAKES_THE.contains(&word(piece.first))
            || before_the.is_some_and(|j| free(j, &PREPOSITIONS) || free(j, &["due"]))
            || before_the.is_none();
        if takes_the {
            start = the;
        }
    }
    // "in about an hour", "at around 5pm": approximation between a preposition and its time.
    let mut hedged = start;
    while let Some(j) = hedged.checked_sub(1).filter(|&j| free(j, &HEDGES)) {
        hedged = j;
    }
    if hedged < start
        && hedged
            .checked_sub(1)
            .is_some_and(|j| free(j, &PREPOSITIONS))
    {
        start = hedged;
    }
    if let Some(j) = start.checked_sub(1).filter(|&j| free(j, &PREPOSITIONS)) {
        markers.push(word(j));
        start = j;
    }
    if let Some(j) = start.checked_sub(1).filter(|&j| free(j, &["due"])) {
        markers.push(word(j));
        start = j;
    }
    (start, markers)
}

fn claimed_by(tokens: &[Token], pieces: &[Piece], runs: &[(usize, usize)]) -> Vec<bool> {
    let mut claimed = vec![false; tokens.len()];
    for piece in pieces {
        for flag in claimed.iter_mut().skip(piece.first).take(piece.len) {
            *flag = true;
        }
    }
    for &(from, to) in runs {
        for flag in claimed.iter_mut().take(to).skip(from) {
            *flag = true;
        }
    }
    claimed
}

/// The byte ranges of every word the reading used, and the anchor of the first phrase used.
pub(super) fn locate(
    text: &str,
    tokens: &[Token],
    pieces: &[Piece],
) -> (Vec<Range<usize>>, TimeAnchor) {
    let claimed = claimed_by(tokens, pieces, &[]);
    let word = |i: usize| tokens.get(i).map_or("", |t| t.word.as_str());
    let free = |i: usize, allowed: &[&str]| {
        !claimed.get(i).copied().unwrap_or(true) && allowed.contains(&word(i))
    };

    let more_than_later = pieces
        .iter()
        .flat_map(|p| &p.parts)
        .any(names_more_than_later);
    let usable_day = pieces
        .iter()
        .flat_map(|p| &p.parts)
        .any(|part| names_a_usable_day(part, more_than_later));

    let mut ranges = Vec::new();
    let mut anchor = None;
    for piece in pieces {
        if !used(piece, more_than_later, usable_day) {
            continue;
        }
        let (start, markers) = with_markers(tokens, piece, &free);
        if anchor.is_none() {
            let deadline = markers.iter().any(|m| DEADLINE_MARKERS.contains(m));
            anchor = Some(if deadline {
                TimeAnchor::Deadline
            } else {
                TimeAnchor::Start
            });
        }
        let last = piece.first + piece.len.saturating_sub(1);
        if let (Some(from), Some(to)) = (tokens.get(start), tokens.get(last)) {
            ranges.push(from.range.start..to.range.end);
        }
    }
    (merge(text, ranges), anchor.unwrap_or(TimeAnchor::Start))
}

/// The byte ranges of every time phrase the scan found (read or not, with its markers) and of
/// the time words no phrase took beside them (`runs`): what a title must not keep when the
/// time cannot be used.
pub(super) fn all_time_words(
    text: &str,
    tokens: &[Token],
    pieces: &[Piece],
    runs: &[(usize, usize)],
) -> Vec<Range<usize>> {
    let claimed = claimed_by(tokens, pieces, runs);
    let word = |i: usize| tokens.get(i).map_or("", |t| t.word.as_str());
    let free = |i: usize, allowed: &[&str]| {
        !claimed.get(i).copied().unwrap_or(true) && allowed.contains(&word(i))
    };
    let mut ranges = Vec::new();
    for piece in pieces.iter().filter(|p| !p.parts.is_empty()) {
        let (start, _) = with_markers(tokens, piece, &free);
        let last = piece.first + piece.len.saturating_sub(1);
        if let (Some(from), Some(to)) = (tokens.get(start), tokens.get(last)) {
            ranges.push(from.range.start..to.range.end);
        }
    }
    for &(from, to) in runs {
        let to = to.saturating_sub(1);
        if let (Some(from), Some(to)) = (tokens.get(from), tokens.get(to)) {
            ranges.push(from.range.start..to.range.end);
        }
    }
    merge(text, ranges)
}

/// Sorts and joins ranges that overlap or are separated only by spaces and punctuation.
fn merge(text: &str, mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.sort_by_key(|r| r.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        if let Some(previous) = merged.last_mut() {
            let joins = range.start <= previous.end
                || text
                    .get(previous.end..range.start)
                    .is_some_and(|gap| !gap.chars().any(char::is_alphanumeric));
            if joins {
                previous.end = previous.end.max(range.end);
                continue;
            }
        }
        merged.push(range);
    }
    merged
}

fn names_more_than_later(part: &Part) -> bool {
    !matches!(part, Part::Later | Part::LaterToday | Part::Invalid(_))
}

/// The same test the resolver makes before it sets a past day aside as background.
fn names_a_usable_day(part: &Part, more_than_later: bool) -> bool {
    match part {
        Part::Day(day) => *day != Day::Past,
        Part::Weekday(_)
        | Part::NextWeek
        | Part::FromNow(_)
        | Part::FromStart(_)
        | Part::Relative { .. } => true,
        // With a more specific time around, "later today" says "today".
        Part::LaterToday => more_than_later,
        _ => false,
    }
}

/// Whether the resolver used what this phrase says.
pub(super) fn used(piece: &Piece, more_than_later: bool, usable_day: bool) -> bool {
    let only = |test: fn(&Part) -> bool| piece.parts.iter().all(test);
    if piece.parts.is_empty() {
        return false;
    }
    if more_than_later && only(|p| matches!(p, Part::Later)) {
        return false;
    }
    !(usable_day && only(|p| matches!(p, Part::Day(Day::Past))))
}
