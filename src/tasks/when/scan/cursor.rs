//! The scan's view of the words: the word at a place, the one before it, the words as
//! written, and whether a phrase names the time being moved away from; and what a phrase reader
//! returns ([`Match`]: the words it took and what they say).

use crate::tasks::when::parts::Part;
use crate::tasks::when::words::{month_word, weekday_word, Token, HEDGES};
use crate::tasks::when::zones::looks_like_zone;

/// Words after a time that leave it a time ("noon tomorrow", "midnight tonight", "noon then").
const AFTER_A_TIME: [&str; 39] = [
    "", "at", "in", "on", "by", "and", "then", "please", "pls", "or", "if", "so", "but", "to",
    "for", "is", "works", "would", "will", "should", "today", "tomorrow", "tonight", "tmrw",
    "next", "this", "sharp", "latest", "instead", "ok", "remind", "ping", "nudge", "every",
    "after", "before", "until", "till", "from",
];

pub(super) struct Words<'a> {
    pub(super) tokens: &'a [Token],
    pub(super) text: &'a str,
}

impl Words<'_> {
    /// The word before `i`, skipping words of approximation ("in about | an hour").
    pub(super) fn intro(&self, i: usize) -> &str {
        let mut j = i;
        while let Some(k) = j.checked_sub(1) {
            if !HEDGES.contains(&self.at(k)) {
                break;
            }
            j = k;
        }
        self.before(j)
    }

    /// Whether punctuation stands between word `i` and the next ("noon: call mom").
    pub(super) fn punctuation_after(&self, i: usize) -> bool {
        match (self.tokens.get(i), self.tokens.get(i + 1)) {
            (Some(a), Some(b)) => self
                .text
                .get(a.range.end..b.range.start)
                .is_some_and(|gap| gap.chars().any(|c| !c.is_whitespace())),
            _ => false,
        }
    }

    /// Whether the word after a time phrase ending before `end` makes the phrase describe a
    /// thing ("midnight snack", "the 7pm show", "noon meeting notes"): a plain word, not a time
    /// word, a zone, a closing word or across punctuation.
    pub(super) fn followed_by_a_thing(&self, end: usize) -> bool {
        let next = self.at(end);
        end > 0
            && !self.punctuation_after(end - 1)
            && next.chars().next().is_some_and(char::is_alphabetic)
            && !AFTER_A_TIME.contains(&next)
            && weekday_word(next).is_none()
            && month_word(next).is_none()
            && !looks_like_zone(next)
            && crate::tasks::when::abbreviation(next).is_none()
            && !matches!(next, "morning" | "afternoon" | "evening" | "night")
    }

    pub(super) fn at(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.word.as_str())
    }

    pub(super) fn before(&self, i: usize) -> &str {
        i.checked_sub(1).map(|j| self.at(j)).unwrap_or("")
    }

    /// The words `from..from + len` as written (lowercased), for a message.
    pub(super) fn written(&self, from: usize, len: usize) -> String {
        (from..from + len)
            .map(|i| self.at(i))
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether the phrase starting at `start` follows "from" or a negation (skipping
    /// "on"/"at"/"the"): that is the time being moved away from.
    pub(super) fn moved_away_from(&self, start: usize) -> bool {
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

pub(super) type Match = (usize, Vec<Part>);

pub(super) fn one(part: Part) -> Option<Match> {
    Some((1, vec![part]))
}
