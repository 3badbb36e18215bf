//! A reply that says how long its task takes: "it takes about an hour", "should take 20
//! minutes", "that's a 2 hour job", "I think it'll take me 45 min or so". Read from the
//! message's one reading (`crate::sentence`: its core, clauses, moods, negation) and the time
//! reader's amounts (`when::amounts_of_time`); the words are `sentence::lexicon::lengths`.
//!
//! Rules (pure), each a kind of phrasing:
//! - The task takes it: an optional lead-in ("I think"), a subject that is the task ("it",
//!   "this one", "that'll") or none, helpers ("should", "will usually"), a verb of taking
//!   ("takes"; "take" after a subject or helper: "take an hour" alone is an order), whom from
//!   ("me"), hedges ("about", "like"), the amount.
//! - The task is it: a subject and "be" ("it's about an hour", "should be 20 min").
//! - A job of that length: "a 2 hour job", "that's a 20 minute thing".
//! - After the amount only words that leave it the task's length ("or so", "tops", "of work",
//!   "I think"): "an hour to get there", "an hour each way" are other lengths.
//! - The core (the wrapper aside: "ok,", "sorry,", "thanks!") is that one clause, holding one
//!   amount; a clause that asks ("does it take an hour?"), is negated ("it doesn't take an
//!   hour"), a condition ("if it takes an hour I'll skip it"), a wish, sarcasm or denied, or is
//!   about someone or something else ("the meeting takes an hour", "I have an hour free") says
//!   nothing; so does a past ("it took me an hour to find the form", "took 2 days to arrive"),
//!   a time ("in an hour", "an hour ago") and a length without a verb or a job ("about 45
//!   min": Donna asks no question that it would answer).
//!
//! Invariant: a length read is within the bounds every door to a task's estimate checks
//! (`tasks::fields::check_estimate`); one outside them is no estimate.

use std::ops::Range;

use crate::sentence::lexicon::lengths::{self, Taking};
use crate::sentence::lexicon::{courtesy, longest_opening, negators};
use crate::sentence::{Clause, Mood, Sentence, Subject};
use crate::tasks::fields::check_estimate;
use crate::tasks::when::amounts_of_time;

/// The minutes the message says its task takes, if it says so (see the module header).
pub fn estimate_said(sentence: &Sentence) -> Option<i64> {
    let core = sentence.core();
    if core.is_empty() {
        return None;
    }
    let bytes = sentence.word_at(core.start).start..sentence.word_at(core.end - 1).end;
    let amounts: Vec<_> = amounts_of_time(sentence.text())
        .into_iter()
        .filter(|amount| bytes.start <= amount.range.start && amount.range.end <= bytes.end)
        .collect();
    let [amount] = amounts.as_slice() else {
        return None;
    };
    let words = words_of(sentence, &core, &amount.range)?;
    let clause = sentence.clause_of(words.start)?;
    let only_clause = sentence
        .clauses()
        .iter()
        .filter(|other| other.words.start < core.end && core.start < other.words.end)
        .all(|other| other == clause || phatic(sentence, other));
    // "oh sure, it takes 5 minutes": sarcasm in the wrapper is still sarcasm.
    if !only_clause || !meant(sentence, clause) || sentence.sarcastic() {
        return None;
    }
    let from = clause.words.start.max(core.start);
    let to = clause.words.end.min(core.end);
    let before = sentence.words_of(from..words.start);
    let after = sentence.words_of(words.end..to);
    if !said_of_the_task(&before, &after) {
        return None;
    }
    check_estimate(Some(amount.minutes)).ok().flatten()
}

/// A clause of thanks or courtesy only ("..., thanks!" where the wrapper kept it).
fn phatic(sentence: &Sentence, clause: &Clause) -> bool {
    sentence
        .clause_words(clause)
        .iter()
        .all(|word| courtesy::is_phatic(word) || courtesy::is_soft_phatic(word))
}

/// The words (indices) of the amount's bytes, within the core.
fn words_of(
    sentence: &Sentence,
    core: &Range<usize>,
    bytes: &Range<usize>,
) -> Option<Range<usize>> {
    let first = core
        .clone()
        .find(|&word| sentence.word_at(word).start >= bytes.start)?;
    let end = core
        .clone()
        .rev()
        .find(|&word| sentence.word_at(word).end <= bytes.end)?
        + 1;
    (first < end).then_some(first..end)
}

/// Whether the clause is the person's plain word about the task: no question, no negation, no
/// condition, wish, sarcasm or denial, and not about someone else.
fn meant(sentence: &Sentence, clause: &Clause) -> bool {
    let marks = clause.marks;
    let negated = sentence
        .clause_words(clause)
        .iter()
        .any(|word| negators::is_negator(word));
    !(clause.asks
        || clause.question_mark
        || clause.mood == Mood::Question
        || marks.condition
        || marks.wish
        || marks.sarcasm
        || marks.denied
        || marks.denial
        || negated
        || about_someone_else(sentence, &clause.subject))
}

/// Whether the clause is about someone or something else; "it'll" and "that'd" (the task with
/// a helper, which the clause reader takes for a name) are the task.
fn about_someone_else(sentence: &Sentence, subject: &Subject) -> bool {
    let Subject::Other(words) = subject else {
        return false;
    };
    let contracted =
        words.len() == 1 && lengths::contracted_subject(sentence.word(words.start)).is_some();
    !contracted
}

/// What the words before the amount said, read left to right.
#[derive(Default)]
struct Before {
    subject: bool,
    helper: bool,
    be: bool,
    verb: bool,
    article: bool,
}

/// Whether the words around the amount say it is what the task takes (see the module header).
fn said_of_the_task(before: &[&str], after: &[&str]) -> bool {
    let Some(said) = read_before(before) else {
        return false;
    };
    let job = after.first().is_some_and(|word| lengths::is_job(word));
    if said.article && !job {
        return false;
    }
    let mut at = usize::from(job);
    while at < after.len() {
        match longest_opening(&after[at..], lengths::AFTER_A_LENGTH) {
            Some(length) => at += length,
            None => return false,
        }
    }
    said.verb || (said.be && (said.subject || said.helper)) || job
}

/// Reads the words before the amount; None when one of them is no part of a length's phrasing.
fn read_before(words: &[&str]) -> Option<Before> {
    let mut said = Before::default();
    let mut at = 0;
    let opening = |at: usize, phrases: &[&[&str]]| longest_opening(&words[at..], phrases);
    loop {
        if let Some(length) = opening(at, lengths::LEAD_INS) {
            at += length;
        } else if words
            .get(at)
            .is_some_and(|word| courtesy::is_phatic(word) || courtesy::is_soft_phatic(word))
        {
            at += 1;
        } else {
            break;
        }
    }
    if let Some(length) = lengths::subject_at(&words[at..]) {
        said.subject = true;
        at += length;
    } else if let Some(be) = words
        .get(at)
        .and_then(|word| lengths::contracted_subject(word))
    {
        said.subject = true;
        said.be = be;
        said.helper = !be;
        at += 1;
    }
    loop {
        if let Some(length) = opening(at, lengths::HELPERS) {
            said.helper = true;
            at += length;
        } else if words.get(at).is_some_and(|word| lengths::is_be(word)) {
            said.be = true;
            at += 1;
        } else {
            break;
        }
    }
    if let Some(taking) = words.get(at).and_then(|word| lengths::taking(word)) {
        let fits = match taking {
            Taking::Alone => true,
            Taking::AfterAHelper => said.helper || said.subject,
            Taking::AfterBe => said.be,
        };
        if !fits {
            return None;
        }
        said.verb = true;
        at += 1;
        if words.get(at).is_some_and(|word| lengths::is_taker(word)) {
            at += 1;
        }
    }
    loop {
        if words
            .get(at)
            .is_some_and(|word| lengths::APPROXIMATIONS.contains(word))
        {
            at += 1;
        } else if let Some(length) = opening(at, lengths::ROUGHLY) {
            at += length;
        } else {
            break;
        }
    }
    if words.get(at).is_some_and(|word| lengths::is_article(word)) {
        said.article = true;
        at += 1;
    }
    (at == words.len()).then_some(said)
}

#[cfg(test)]
mod tests;
