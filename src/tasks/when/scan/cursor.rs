//! The scan's view of the words: the word at a place, the one before it, the words as
//! written, and whether a phrase names the time being moved away from; and what a phrase reader
//! returns ([`Match`]: the words it took and what they say).

use crate::tasks::when::parts::Part;
use crate::tasks::when::words::Token;

pub(super) struct Words<'a> {
    pub(super) tokens: &'a [Token],
}

impl Words<'_> {
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
