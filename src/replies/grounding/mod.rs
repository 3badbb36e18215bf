//! Grounding: whether a person's message asks for an action of a kind ("yeah, sent it" asks
//! for done; "bin it" for cancel; "make the title say X" for a rename; "stick milk on the
//! list" for a new task), and whether it asks plainly enough for the action to run at once.
//! One judgement for every path where a model proposes an action: a nudge reply's proposal is
//! dropped when the reply does not ask for it, and a chat write runs at once only when the
//! message plainly asks for it (else it waits for a yes).
//!
//! How (see ARCHITECTURE.md "Grounding"): the message's one reading (`crate::sentence`), clause
//! by clause, against the done / later / cancel lexicon (`sentence::lexicon::deeds`), matched by
//! base forms (`sentence::lemma`), past forms where only a report counts, and gaps inside
//! phrasal verbs; plus, for done, any past-form deed with an object ("knocked it out") and a
//! past form of a verb of the task's own title ("called her" for "Call mum").
//!
//! The verdict ([`Grounded`]): a question, a negated word, an intention to do it later ("I'll
//! send it tonight"), a wish, a condition, a habit or a clause a later one denies asks for
//! nothing; a suggestion ("we could push it maybe"), sarcasm ("oh sure, it's done lol") or
//! someone else doing the task's deed ("Tom paid it") asks for a plan; only the person's own
//! plain clause (or the task's: "it's done") asks for the action. Someone or something else
//! never reports the person's task done: at most a plan ("the money went out"), and nothing
//! at all when the task's own thing is the one acting ("mum called" for "Call mum", "rent went
//! up" for "Pay rent").
//!
//! Invariant (pure, no I/O): the same message, kind and context always give the same answer;
//! the model's own words (its reply, its parameters) are never read here, except a proposed
//! title, which must itself stand in the message.

pub use crate::sentence::Ask;

use super::evidence::Grounds;
use crate::sentence::clause::{self, Clause, Subject};
use crate::sentence::lemma;
use crate::sentence::lexicon::deeds::{self, Item, Phrase, BLOCKERS, NOT_COMPLETION};
use crate::sentence::lexicon::moods;
use crate::sentence::tokens::Tokens;
use crate::sentence::Sentence;

/// What else grounding may use besides the message.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The title of the task the action is on (a past form of one of its verbs reports it done).
    pub task_title: Option<&'a str>,
    /// Extra phrases for this action from a rule file (`evidence.words`), read the same way.
    pub extra: Option<&'a Grounds>,
}

/// How plainly a message asks for an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grounded {
    /// It does not ask for it.
    No,
    /// It asks, but not plainly (a suggestion, sarcasm, someone else did it): a plan.
    Plan,
    /// The person's own plain request or report: it may run at once.
    Asked,
}

/// Whether `sentence` plainly asks for `ask` ([`judge`] is [`Grounded::Asked`]).
pub fn asks_for(
    sentence: &Sentence,
    ask: Ask,
    context: &Context<'_>,
    names_a_time: impl FnOnce() -> bool,
) -> bool {
    judge(sentence, ask, context, names_a_time) == Grounded::Asked
}

/// Whether `sentence` plainly asks for `ask` on one of the tasks titled `titles`: the answer
/// of [`asks_for`] with each title as `Context::task_title` (no rule-file phrases, no time),
/// judged once per distinct part of a title that matters. A title is only ever compared with
/// the base forms of the message's own words, so titles holding the same of those words get
/// the same answer; a message that shares its words with hundreds of open tasks ("call the
/// bank" beside as many "Call the bank about case N") is judged once, not hundreds of times.
pub fn asks_for_on_any(sentence: &Sentence, ask: Ask, titles: &[&str]) -> bool {
    let said: Vec<String> = sentence.words().flat_map(lemma::bases).collect();
    let mut judged: Vec<String> = Vec::new();
    titles.iter().any(|title| {
        let shared: Vec<String> = content_words(title)
            .into_iter()
            .filter(|word| said.contains(word))
            .collect();
        let part = shared.join(" ");
        if judged.contains(&part) {
            return false;
        }
        let context = Context {
            task_title: Some(&part),
            extra: None,
        };
        let asked = asks_for(sentence, ask, &context, || false);
        judged.push(part);
        asked
    })
}

/// How plainly `sentence` asks for `ask` (see the module header). `names_a_time` is asked at
/// most once, only for `Move` and `Snooze`, and only when no word decided it: a time the
/// message names ("friday 3pm", "in 2 hours") asks for those two.
pub fn judge(
    sentence: &Sentence,
    ask: Ask,
    context: &Context<'_>,
    names_a_time: impl FnOnce() -> bool,
) -> Grounded {
    if sentence.only_asks() {
        return Grounded::No;
    }
    // The rule file's own phrases, read exactly like the lexicon's.
    let extra: Vec<Phrase> = context
        .extra
        .map(|extra| {
            extra
                .phrases()
                .iter()
                .map(|words| words.iter().cloned().map(Item::Word).collect())
                .collect()
        })
        .unwrap_or_default();
    let mut best = Grounded::No;
    for clause in sentence.clauses().iter().filter(|clause| !clause.asks) {
        let words = sentence.clause_words(clause);
        let mut found: Vec<usize> = deeds::phrases(ask)
            .iter()
            .chain(&extra)
            .flat_map(|phrase| found_at(&words, phrase, ask))
            .collect();
        if ask == Ask::Done {
            found.extend(reports_a_title_deed(&words, context.task_title));
        }
        let deed = (ask == Ask::Done && found.is_empty())
            .then(|| reports_a_deed(&words))
            .flatten();
        found.extend(deed);
        for at in found {
            best = best.max(verdict(sentence, clause, ask, context, at));
        }
    }
    let hedged = sentence
        .clauses()
        .iter()
        .any(|clause| clause.marks.hedged());
    if best == Grounded::No && matches!(ask, Ask::Move | Ask::Snooze) && names_a_time() {
        best = if hedged {
            Grounded::Plan
        } else {
            Grounded::Asked
        };
    }
    if best == Grounded::Asked && sentence.sarcastic() {
        // Sarcasm turns an action into a plan, not into nothing.
        best = Grounded::Plan;
    }
    best
}

/// What one clause that holds the words of `ask` (from its word `at`) says about it.
fn verdict(
    sentence: &Sentence,
    clause: &Clause,
    ask: Ask,
    context: &Context<'_>,
    at: usize,
) -> Grounded {
    let marks = clause.marks;
    if marks.wish || marks.condition || marks.habit || marks.denied {
        return Grounded::No;
    }
    let words = sentence.clause_words(clause);
    if let Subject::Other(subject) = clause::subject_at(&words, at, clause.words.start) {
        if words[..at.min(words.len())]
            .iter()
            .any(|word| moods::is_intention(word))
        {
            // "Tom will have it done": someone else's intention.
            return Grounded::No;
        }
        // "mum called" (for "Call mum"), "rent went up" (for "Pay rent"): the task's own thing
        // acting is no report that the person did it.
        let about_the_title = context.task_title.is_some_and(|title| {
            let title_words = content_words(title);
            sentence.words_of(subject).iter().any(|word| {
                lemma::bases(word)
                    .iter()
                    .any(|base| title_words.contains(base))
            })
        });
        if ask == Ask::Done && about_the_title {
            return Grounded::No;
        }
        // "Tom paid it": someone else did it; the person confirms.
        return Grounded::Plan;
    }
    if marks.suggestion || marks.sarcasm {
        return Grounded::Plan;
    }
    Grounded::Asked
}

/// Whether a proposed title stands in the message: at least half of its content words (and at
/// least one) are words of the message, by base form ("stick oat milk on the list" holds "Buy
/// oat milk"'s "oat" and "milk").
pub fn title_in_message(said: &[&str], title: &str) -> bool {
    let said: Vec<Vec<String>> = said.iter().map(|word| lemma::bases(word)).collect();
    let wanted = content_words(title);
    if wanted.is_empty() {
        return false;
    }
    let found = wanted
        .iter()
        .filter(|word| {
            let bases = lemma::bases(word);
            said.iter()
                .any(|said| said.iter().any(|base| bases.contains(base)))
        })
        .count();
    found * 2 >= wanted.len() && found >= 1
}

/// Whether the message is little more than the title itself ("call the bank tomorrow" for
/// "Call the bank"): at least half of its content words are words of the title. Typing a
/// task is asking for it.
pub fn message_is_the_title(said: &[&str], title: &str) -> bool {
    let title_words: Vec<Vec<String>> = content_words(title)
        .iter()
        .map(|w| lemma::bases(w))
        .collect();
    let said: Vec<&str> = said
        .iter()
        .copied()
        .filter(|word| is_content_word(word))
        .collect();
    if said.is_empty() || title_words.is_empty() {
        return false;
    }
    let in_title = said
        .iter()
        .filter(|word| {
            let bases = lemma::bases(word);
            title_words
                .iter()
                .any(|title| title.iter().any(|base| bases.contains(base)))
        })
        .count();
    in_title * 2 >= said.len()
}

/// Whether a proposed title shares at least one content word with the message (by base form).
/// A title that shares none ("what a day" -> "Wire 5000 USD to ...") is the model's invention.
pub fn title_shares_a_word<S: AsRef<str>>(said: &[S], title: &str) -> bool {
    let said: Vec<Vec<String>> = said
        .iter()
        .map(|word| lemma::bases(word.as_ref()))
        .collect();
    content_words(title).iter().any(|word| {
        let bases = lemma::bases(word);
        said.iter()
            .any(|said| said.iter().any(|base| bases.contains(base)))
    })
}

/// Whether time words a model gave (`when`: "friday at 5") are the person's: at least one of
/// their words other than a preposition or an article is a word of the message ("5" counts, so
/// "at 5" is said by "call mom at 5"). Time words the message holds none of are the model's
/// invention (a small model fills `when` in), and a time read wrong is worse than none.
pub fn time_words_said<S: AsRef<str>>(said: &[S], when: &str) -> bool {
    const GLUE: &[&str] = &["at", "on", "in", "by", "the", "a", "an", "of", "to", "for"];
    Tokens::read(when)
        .words()
        .filter(|word| !GLUE.contains(word))
        .any(|word| said.iter().any(|said| said.as_ref() == word))
}

/// Words of a text that say what it is about: not articles, pronouns or small words.
fn content_words(text: &str) -> Vec<String> {
    Tokens::read(text)
        .words()
        .filter(|word| is_content_word(word))
        .map(str::to_string)
        .collect()
}

fn is_content_word(word: &str) -> bool {
    const SMALL: &[&str] = &[
        "a", "an", "the", "to", "of", "for", "on", "in", "at", "by", "and", "or", "my", "your",
        "our", "it", "is", "be", "with", "from", "up", "me", "i", "new", "task",
    ];
    !SMALL.contains(&word) && word.chars().count() >= 2
}

/// Whether `word` matches `item` (a word or one of its bases; a past form for `Past`).
fn matches_item(word: &str, item: &Item) -> bool {
    match item {
        Item::Word(wanted) => word == wanted || lemma::bases(word).iter().any(|b| b == wanted),
        Item::Past(base) => lemma::is_past(word) && lemma::bases(word).iter().any(|b| b == base),
        Item::Exact(wanted) => word == wanted,
        Item::Gap => true,
    }
}

/// Whether `phrase` matches `words` from `start`; returns where the match ends.
fn match_at(words: &[&str], start: usize, phrase: &[Item]) -> Option<usize> {
    let Some((first, rest)) = phrase.split_first() else {
        return Some(start);
    };
    if *first == Item::Gap {
        return (0..=deeds::GAP)
            .filter(|skip| start + skip <= words.len())
            .find_map(|skip| match_at(words, start + skip, rest));
    }
    let word = words.get(start)?;
    if matches_item(word, first) {
        match_at(words, start + 1, rest)
    } else {
        None
    }
}

/// Where `phrase` stands in the clause's `words`, meant: not negated, not blocked, and for
/// done not after an intention.
fn found_at(words: &[&str], phrase: &Phrase, ask: Ask) -> Vec<usize> {
    let reads_as_written = matches!(phrase.first(), Some(Item::Word(word))
        if crate::sentence::lexicon::negators::negates(word));
    (0..words.len())
        .filter(|&start| {
            if match_at(words, start, phrase).is_none() {
                return false;
            }
            if !reads_as_written && clause::negated_at(words, start) {
                return false;
            }
            if blocked(words, start, ask) {
                return false;
            }
            ask != Ask::Done || !intended_before(words, start)
        })
        .collect()
}

/// Whether a phrase that looks like this ask but is not starts at `start`.
fn blocked(words: &[&str], start: usize, ask: Ask) -> bool {
    BLOCKERS
        .iter()
        .filter(|(kind, _)| *kind == ask)
        .any(|(_, blocker)| match_at(words, start, &deeds::compile(blocker)).is_some())
        || (ask == Ask::Done && venting_before(words, start))
}

/// "I'm so done", "sick and done": a feeling, not a report.
fn venting_before(words: &[&str], start: usize) -> bool {
    start > 0
        && matches!(
            words.get(start - 1).copied(),
            Some("so" | "sick" | "fed" | "tired" | "soo" | "sooo")
        )
}

/// Whether an intention ("I'll", "going to", "should") stands before `start` in the clause,
/// after the words that only make a request polite ("can you mark it done" is a request).
fn intended_before(words: &[&str], start: usize) -> bool {
    let from = clause::courtesy_opening(words).min(start);
    words[from..start.min(words.len())]
        .iter()
        .any(|word| moods::is_intention(word))
}

/// Done by a deed in the past: a past form with an object ("knocked it out", "cleaned the
/// kitchen") or standing alone ("sent!"), not a feeling or a state ("I'm so stressed"), not a
/// move, a cancel or a failure. Where it stands.
fn reports_a_deed(words: &[&str]) -> Option<usize> {
    words.iter().enumerate().position(|(index, word)| {
        if !lemma::is_past(word)
            || clause::negated_at(words, index)
            || intended_before(words, index)
        {
            return false;
        }
        let bases = lemma::bases(word);
        if bases
            .iter()
            .any(|base| NOT_COMPLETION.contains(&base.as_str()))
        {
            return false;
        }
        let before = index.checked_sub(1).and_then(|at| words.get(at)).copied();
        if before.is_some_and(|before| deeds::STATE_BEFORE.contains(&before)) {
            return false;
        }
        match words.get(index + 1).copied() {
            Some(after) => deeds::OBJECTS.contains(&after),
            // "sent", "yep, emailed": the clause is the deed.
            None => index <= 2,
        }
    })
}

/// A past form of a verb of the task's own title ("called her" for "Call mum"): where it
/// stands.
fn reports_a_title_deed(words: &[&str], task_title: Option<&str>) -> Option<usize> {
    let title_words: Vec<String> = task_title.map(content_words).unwrap_or_default();
    if title_words.is_empty() {
        return None;
    }
    words.iter().enumerate().position(|(index, word)| {
        lemma::is_past(word)
            && !clause::negated_at(words, index)
            && !intended_before(words, index)
            && lemma::bases(word)
                .iter()
                .any(|base| title_words.contains(base))
    })
}

#[cfg(test)]
mod tests;
