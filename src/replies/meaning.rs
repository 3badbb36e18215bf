//! Whether a keyword of the FastPath is meant, read from the sentence's moods: a question, a
//! wish, a condition, a habit, a denied claim, sarcasm, someone else (`crate::sentence`).
//!
//! Invariant: pure; reads the message's one reading only.

use crate::sentence::clause::{self, Subject};
use crate::sentence::lexicon::moods;
use crate::sentence::View;

/// Whether the keyword at token `at` of `view` is meant: its clause asks nothing, is no wish,
/// condition, habit or denied claim; a report of done (`reports_done`) is the person's (or the
/// task's: "it's done"), not someone else's intention; sarcasm, a suggestion or someone
/// else's report only hedge it.
pub(super) fn meant(view: View<'_>, at: usize, reports_done: bool) -> Meant {
    let Some(clause) = view.clause_at(at) else {
        return Meant::Plainly;
    };
    if clause.asks {
        return Meant::Question;
    }
    let marks = clause.marks;
    if marks.wish || marks.condition || marks.habit || marks.denied {
        return Meant::Not;
    }
    if reports_done {
        let words = view.sentence.clause_words(clause);
        let in_clause = view
            .sentence
            .word_of_token(view.first + at)
            .map_or(0, |word| word.saturating_sub(clause.words.start));
        if let Subject::Other(_) = clause::subject_at(&words, in_clause, clause.words.start) {
            let intended = words[..in_clause.min(words.len())]
                .iter()
                .any(|word| moods::is_intention(word));
            if intended {
                return Meant::Not;
            }
            return Meant::Hedged;
        }
    }
    if marks.sarcasm || marks.suggestion || view.sentence.sarcastic() {
        return Meant::Hedged;
    }
    Meant::Plainly
}

/// Whether a keyword is meant (see [`meant`]).
pub(super) enum Meant {
    Plainly,
    Hedged,
    /// It stands in a question.
    Question,
    /// A wish, a condition, a habit, a denied claim, someone else's intention.
    Not,
}
