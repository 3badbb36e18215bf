//! A report in the task's own verb ("sent" for "Send the invoice", "booked" for "Book the
//! dentist"): the keyword layer's reading of a reply about a task that no keyword of the
//! config names.
//!
//! Invariant: pure; reads the message's one reading and the compiled FastPath only.

use super::matcher::{FastPath, IntentMatch, MARK_DONE};
use super::phrases::Role;
use crate::sentence::clause::{self, Subject};
use crate::sentence::lemma;
use crate::sentence::lexicon::moods;
use crate::sentence::tokens::Tokens;
use crate::sentence::View;

/// A report in the task's own verb: "sent" (or "all sent off", "I booked it") for a task
/// whose title holds that verb ("Send the invoice", "Book the dentist"), as the person's
/// own report: the first intent whose action marks a task done, with that word as its
/// keyword. Not in a question, not negated, not someone else's ("mum called" is not "Call
/// mum" done), not an intention, not a wish, a condition or a habit.
#[must_use]
pub fn title_report(fast: &FastPath, view: View<'_>, title: &str) -> Option<IntentMatch> {
    let reply = fast.simple_reply(view).ok()?;
    let title_words: Vec<String> = Tokens::read(title).words().map(str::to_string).collect();
    let found = (0..reply.tokens.len()).find(|&at| {
        let Some(word) = reply.word(at) else {
            return false;
        };
        lemma::is_past(word)
            && lemma::bases(word)
                .iter()
                .skip(1)
                .any(|base| title_words.contains(base))
            && !fast.phrases.negated_before(&reply, at, Role::is_intent)
    })?;
    let clause = view.clause_at(found)?;
    let words = view.sentence.clause_words(clause);
    let in_clause = view
        .sentence
        .word_of_token(view.first + found)
        .map(|word| word.saturating_sub(clause.words.start))?;
    let intended = words[..in_clause.min(words.len())]
        .iter()
        .any(|word| moods::is_intention(word));
    let person = matches!(
        clause::subject_at(&words, in_clause, clause.words.start),
        Subject::Person | Subject::Task
    );
    if clause.asks
        || intended
        || !person
        || clause::negated_at(&words, in_clause)
        || clause.marks.wish
        || clause.marks.condition
        || clause.marks.habit
        || clause.marks.denied
    {
        return None;
    }
    let target = fast
        .intents
        .iter()
        .find(|intent| intent.action == MARK_DONE)?;
    Some(IntentMatch {
        intent: target.name.clone(),
        action: target.action.clone(),
        confirm: target.confirm,
        params: target.params.clone(),
        keyword: reply.word(found)?.to_string(),
        only_confirm_word: false,
        hedged: clause.marks.sarcasm || view.sentence.sarcastic(),
    })
}
