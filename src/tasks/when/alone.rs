//! Whether a text says nothing but a time: "friday 3pm", "in 2 hours", "tomorrow morning", "at
//! 5pm then", "feb 30". Such a reply to a nudge answers it as a reschedule, so the
//! test is strict: every word is part of a time phrase or one of a few words that carry none
//! ([`CARRY_NOTHING`]); one other word ("call mom friday", "fridays are busy") and it is not.
//!
//! Invariants: pure, no clock; a time that cannot be used ("25:00", "feb 30") or that is only
//! partly readable ("tomorrow before lunch") still counts as a time here, so the answer to it
//! can be the reader's own reason.

use super::scan::scan;
use super::unread::unread_runs;
use super::words::tokenize;

/// Words that may stand around a time without saying anything else: its prepositions, "the",
/// and the politeness and hedging of a short answer ("maybe friday", "friday then, please").
const CARRY_NOTHING: [&str; 20] = [
    "at", "on", "in", "by", "for", "to", "until", "till", "around", "the", "of", "then", "please",
    "pls", "maybe", "ok", "okay", "and", "after", "before",
];

/// Words that look back: "yesterday" or "2 days ago" on its own tells when something happened
/// ("did you pay it?" "yesterday"), never when to do it again.
const LOOKING_BACK: [&str; 4] = ["yesterday", "ago", "last", "earlier"];

/// Whether every word of `text` is part of a time phrase or carries nothing, and at least one
/// phrase names a time (usable or not). A time that looks back does not count.
#[must_use]
pub fn names_only_a_time(text: &str) -> bool {
    let tokens = tokenize(text);
    if tokens
        .iter()
        .any(|token| LOOKING_BACK.contains(&token.word.as_str()))
    {
        return false;
    }
    let pieces = scan(text, &tokens);
    if !pieces.iter().any(|piece| !piece.parts.is_empty()) {
        return false;
    }
    let mut covered = vec![false; tokens.len()];
    for piece in &pieces {
        for flag in covered.iter_mut().skip(piece.first).take(piece.len) {
            *flag = true;
        }
    }
    // Time words beside a time that the reader could not read ("tomorrow before lunch") are
    // still a time: the answer is the reader's question about them, not "I didn't catch that".
    let anchors: Vec<(usize, usize)> = pieces
        .iter()
        .filter(|p| !p.parts.is_empty())
        .map(|p| (p.first, p.len))
        .collect();
    for (from, to) in unread_runs(text, &tokens, &covered.clone(), &anchors) {
        for flag in covered.iter_mut().take(to).skip(from) {
            *flag = true;
        }
    }
    tokens
        .iter()
        .zip(covered)
        .all(|(token, covered)| covered || CARRY_NOTHING.contains(&token.word.as_str()))
}

#[cfg(test)]
mod tests {
    use super::names_only_a_time;

    #[test]
    fn only_a_time_ahead_and_nothing_else_counts() {
        for text in [
            "friday 3pm",
            "in 2 hours",
            "tomorrow morning",
            "feb 30",
            "friday then, please",
        ] {
            assert!(names_only_a_time(text), "{text}");
        }
        for text in [
            "yesterday",
            "2 days ago",
            "last friday",
            "call mom friday",
            "fridays are busy",
            "done",
        ] {
            assert!(!names_only_a_time(text), "{text}");
        }
    }
}
