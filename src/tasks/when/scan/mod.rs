//! Finding the phrases that name a time in a list of words ("next tuesday", "at 5 in the
//! afternoon", "3rd of december 2027", "in an hour and a half", "a week before the 20th",
//! "9am PST") and what each one says. One file per kind of phrase: `days` (today, tomorrow,
//! weekdays, next/this ...), `dates` (calendar dates, days of the month, months, holidays),
//! `clock` (times of day and day parts), `points` (end of the week, mid january, early next
//! week ...), `amount` (durations), `relative` (an amount before or after another time);
//! `length` reads how long a task takes ("for an hour", ", 45 min") from the same amounts.
//!
//! # Invariants
//! - Phrases do not overlap; where two could start at the same word the order in [`match_at`]
//!   decides (named points and relative times before the days and amounts inside them, dates
//!   before times, times before durations, durations before bare hours).
//! - A phrase after "from" or a negation names nothing: it is the time being moved away from.
//! - A zone is read only right after a time phrase ("3pm PST"), so "the PST office" is no zone.

mod amount;
mod clock;
mod cursor;
mod dates;
mod days;
mod length;
mod points;
mod relative;

use cursor::{Match, Words};
pub use length::Length;
pub(super) use length::{amounts, lengths};

use super::error::WhenError;
use super::parts::{Day, Part};
use super::words::Token;
use super::zones::zone_at;

/// One phrase the scan read: the words it covers (`first`, `len` words) and what it says.
#[derive(Debug, Clone)]
pub(super) struct Piece {
    pub(super) first: usize,
    pub(super) len: usize,
    pub(super) parts: Vec<Part>,
}

/// Every phrase that names a time, in text order. A phrase naming the time being moved away from
/// ("from friday", "not tomorrow") has no parts: it says nothing about the new time; neither
/// has a phrase written as a name ([`written_as_a_name`]).
pub(super) fn scan(text: &str, tokens: &[Token]) -> Vec<Piece> {
    scan_outside(text, tokens, &[])
}

/// [`scan`], with no phrase starting at a word `skip` marks (words another reader took, such as
/// a recurrence's "every evening"); they still count as the context of their neighbours.
pub(super) fn scan_outside(text: &str, tokens: &[Token], skip: &[bool]) -> Vec<Piece> {
    let mut pieces = phrases(text, tokens, skip);
    for piece in &mut pieces {
        if written_as_a_name(text, tokens, piece) {
            piece.parts.clear();
        }
        after_a_day(tokens, piece);
    }
    pieces
}

/// "after the weekend" is Monday; "after friday", "after christmas" (which day after?) are
/// asked about, never read as that day itself. "after 5pm" stays 5pm.
fn after_a_day(tokens: &[Token], piece: &mut Piece) {
    let word = |i: usize| tokens.get(i).map_or("", |t| t.word.as_str());
    let before = piece.first.checked_sub(1).map_or("", |i| word(i));
    let before = if before == "the" {
        piece.first.checked_sub(2).map_or("", |i| word(i))
    } else {
        before
    };
    let names_a_day = piece
        .parts
        .iter()
        .any(|p| matches!(p, Part::Day(_) | Part::Weekday(_) | Part::NextWeek));
    if before != "after" || !names_a_day {
        return;
    }
    let weekend = piece
        .parts
        .iter()
        .all(|p| matches!(p, Part::Day(Day::Weekend { .. })));
    piece.parts = if weekend {
        vec![Part::Weekday(chrono::Weekday::Mon)]
    } else {
        let phrase = tokens
            .get(piece.first.saturating_sub(1)..piece.first + piece.len)
            .unwrap_or_default()
            .iter()
            .map(|t| t.word.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        vec![Part::Invalid(WhenError::Unread(phrase))]
    };
}

/// Whether a phrase of several words is written like a name in a sentence that is not: every
/// word capitalised ("watch The Day After Tomorrow", "read Next Friday"), while some other word
/// is not. Such a phrase is part of the title, not a time.
fn written_as_a_name(text: &str, tokens: &[Token], piece: &Piece) -> bool {
    let initial = |t: &Token| text.get(t.range.clone()).and_then(|w| w.chars().next());
    let capital = |t: &Token| initial(t).is_some_and(char::is_uppercase);
    let phrase = tokens
        .get(piece.first..piece.first + piece.len)
        .unwrap_or_default();
    let lower_elsewhere = tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| !(piece.first..piece.first + piece.len).contains(i))
        .any(|(_, t)| initial(t).is_some_and(char::is_lowercase));
    phrase.len() >= 2 && phrase.iter().all(capital) && lower_elsewhere
}

fn phrases(text: &str, tokens: &[Token], skip: &[bool]) -> Vec<Piece> {
    let words = Words { tokens, text };
    let mut pieces: Vec<Piece> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if skip.get(i).copied().unwrap_or(false) {
            i += 1;
            continue;
        }
        let after_a_time = pieces
            .last()
            .is_some_and(|p| p.first + p.len == i && !p.parts.is_empty());
        let found = if after_a_time {
            zone_at(tokens, i).map(|(len, part)| (len, vec![part]))
        } else {
            None
        };
        match found.or_else(|| match_at(&words, i)) {
            Some((len, parts)) => {
                let len = len.max(1);
                // The time being moved away from says nothing about the new one; it stays a
                // piece (its words are read, not unread) that names nothing.
                let parts = if words.moved_away_from(i) {
                    Vec::new()
                } else {
                    parts
                };
                pieces.push(Piece {
                    first: i,
                    len: len.min(tokens.len() - i),
                    parts,
                });
                i = i.saturating_add(len);
            }
            None => i += 1,
        }
    }
    pieces
}

/// The phrase starting at word `i`, if any. Order matters where phrases share a first word.
fn match_at(w: &Words, i: usize) -> Option<Match> {
    days::overmorrow(w, i)
        .or_else(|| points::named_point(w, i).filter(|(len, _)| !w.followed_by_a_thing(i + len)))
        .or_else(|| relative::relative(w, i))
        .or_else(|| days::keyword(w, i))
        .or_else(|| days::weekday(w, i))
        .or_else(|| dates::iso_date(w.at(i)))
        .or_else(|| dates::numeric_date(w, i))
        .or_else(|| dates::month_day(w, i))
        .or_else(|| dates::day_of_month(w, i))
        .or_else(|| dates::month_alone(w, i))
        .or_else(|| dates::holiday(w, i))
        .or_else(|| clock::day_time(w, i))
        .or_else(|| clock::clock(w, i))
        .or_else(|| clock::past_the_hour(w, i))
        .or_else(|| amount::duration(w, i))
        .or_else(|| clock::bare_hour(w, i))
}
