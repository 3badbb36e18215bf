//! Grounding: whether a person's message asks for an action of a kind ("yeah, sent it" asks
//! for done; "bin it" for cancel; "make the title say X" for a rename; "stick milk on the
//! list" for a new task). One judgement for every path where a model proposes an action:
//! a nudge reply's proposal is dropped when the reply does not ask for it, and a chat write runs
//! at once only when the message asks for it (else it waits for a yes).
//!
//! How (see ARCHITECTURE.md "Grounding"): a lexicon per kind of action in people's words
//! (`lexicon`), matched by base forms (`lemma`: "binned" is "bin", "postponing" is
//! "postpone"), past forms where only a report counts, and gaps inside phrasal verbs; plus, for
//! done, any past-form deed with an object ("knocked it out", "watered the plants") and a past
//! form of a verb of the task's own title ("called her" for "Call mum"). Read per clause
//! (`clause`): a question asks for nothing, a negated word grounds nothing ("don't mark it
//! done", "I haven't paid it"), an intention is not a report ("I'll send it tonight").
//!
//! Invariant (pure, no I/O): the same message, kind and context always give the same answer;
//! the model's own words (its reply, its parameters) are never read here, except a proposed
//! title, which must itself stand in the message.

mod ask;
mod clause;
mod lemma;
mod lexicon;

pub use ask::Ask;
pub use clause::Message;

use super::evidence::Grounds;
use lexicon::{Item, Phrase, BLOCKERS, INTENTION, NOT_COMPLETION, OBJECTS, STATE_BEFORE};

/// What else grounding may use besides the message.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The title of the task the action is on (a past form of one of its verbs reports it done).
    pub task_title: Option<&'a str>,
    /// Extra phrases for this action from a rule file (`evidence.words`), read the same way.
    pub extra: Option<&'a Grounds>,
}

/// Whether `message` asks for `ask` (see the module header). `names_a_time` is asked at most
/// once, only for `Move` and `Snooze`, and only when no word decided it: a time the message
/// names ("friday 3pm", "in 2 hours") asks for those two.
pub fn asks_for(
    message: &Message,
    ask: Ask,
    context: &Context<'_>,
    names_a_time: impl FnOnce() -> bool,
) -> bool {
    if message.only_asks() {
        return false;
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
    for clause in message.clauses.iter().filter(|clause| !clause.asks) {
        if lexicon::phrases(ask)
            .iter()
            .chain(&extra)
            .any(|phrase| found_in_clause(clause, phrase, ask))
        {
            return true;
        }
        if ask == Ask::Done && reports_a_deed(clause, context.task_title) {
            return true;
        }
    }
    matches!(ask, Ask::Move | Ask::Snooze) && names_a_time()
}

/// Whether a proposed title stands in the message: at least half of its content words (and at
/// least one) are words of the message, by base form ("stick oat milk on the list" holds "Buy
/// oat milk"'s "oat" and "milk").
pub fn title_in_message(message: &Message, title: &str) -> bool {
    let said: Vec<Vec<String>> = message.words().map(lemma::bases).collect();
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
pub fn message_is_the_title(message: &Message, title: &str) -> bool {
    let title_words: Vec<Vec<String>> = content_words(title)
        .iter()
        .map(|w| lemma::bases(w))
        .collect();
    let said: Vec<String> = message
        .words()
        .filter(|word| !content_words(word).is_empty())
        .map(str::to_string)
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
pub fn title_shares_a_word(message: &Message, title: &str) -> bool {
    let said: Vec<Vec<String>> = message.words().map(lemma::bases).collect();
    content_words(title).iter().any(|word| {
        let bases = lemma::bases(word);
        said.iter()
            .any(|said| said.iter().any(|base| bases.contains(base)))
    })
}

/// Words of a text that say what it is about: not articles, pronouns or small words.
fn content_words(text: &str) -> Vec<String> {
    const SMALL: &[&str] = &[
        "a", "an", "the", "to", "of", "for", "on", "in", "at", "by", "and", "or", "my", "your",
        "our", "it", "is", "be", "with", "from", "up", "me", "i", "new", "task",
    ];
    Message::read(text)
        .words()
        .filter(|word| !SMALL.contains(word) && word.chars().count() >= 2)
        .map(str::to_string)
        .collect()
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
fn match_at(words: &[String], start: usize, phrase: &[Item]) -> Option<usize> {
    let Some((first, rest)) = phrase.split_first() else {
        return Some(start);
    };
    if *first == Item::Gap {
        return (0..=lexicon::GAP)
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

fn found_in_clause(clause: &clause::Clause, phrase: &Phrase, ask: Ask) -> bool {
    let reads_as_written =
        matches!(phrase.first(), Some(Item::Word(word)) if clause::is_negator(word));
    (0..clause.words.len()).any(|start| {
        if match_at(&clause.words, start, phrase).is_none() {
            return false;
        }
        if !reads_as_written && clause.negated_at(start) {
            return false;
        }
        if blocked(clause, start, ask) {
            return false;
        }
        ask != Ask::Done || !intended_before(clause, start)
    })
}

/// Whether a phrase that looks like this ask but is not starts at `start`.
fn blocked(clause: &clause::Clause, start: usize, ask: Ask) -> bool {
    BLOCKERS
        .iter()
        .filter(|(kind, _)| *kind == ask)
        .any(|(_, blocker)| match_at(&clause.words, start, &lexicon::compile(blocker)).is_some())
        || (ask == Ask::Done && venting_before(clause, start))
}

/// "I'm so done", "sick and done": a feeling, not a report.
fn venting_before(clause: &clause::Clause, start: usize) -> bool {
    start > 0
        && matches!(
            clause.words.get(start - 1).map(String::as_str),
            Some("so" | "sick" | "fed" | "tired" | "soo" | "sooo")
        )
}

/// Whether an intention ("I'll", "going to", "should") stands before `start` in the clause.
fn intended_before(clause: &clause::Clause, start: usize) -> bool {
    clause.words[..start.min(clause.words.len())]
        .iter()
        .any(|word| INTENTION.contains(&word.as_str()) || word.ends_with("'ll"))
}

/// Done by a deed in the past: a past form with an object ("knocked it out", "cleaned the
/// kitchen") or standing alone ("sent!"), not a feeling or a state ("I'm so stressed"), not a
/// move, a cancel or a failure; or a past form of a verb of the task's own title.
fn reports_a_deed(clause: &clause::Clause, task_title: Option<&str>) -> bool {
    let title_words: Vec<String> = task_title.map(content_words).unwrap_or_default();
    clause.words.iter().enumerate().any(|(index, word)| {
        if !lemma::is_past(word) || clause.negated_at(index) || intended_before(clause, index) {
            return false;
        }
        let bases = lemma::bases(word);
        let of_the_title = bases.iter().any(|base| title_words.contains(base));
        if of_the_title {
            return true;
        }
        if bases
            .iter()
            .any(|base| NOT_COMPLETION.contains(&base.as_str()))
        {
            return false;
        }
        let before = index
            .checked_sub(1)
            .and_then(|at| clause.words.get(at))
            .map(String::as_str);
        if before.is_some_and(|before| STATE_BEFORE.contains(&before)) {
            return false;
        }
        let after = clause.words.get(index + 1).map(String::as_str);
        match after {
            Some(after) => OBJECTS.contains(&after),
            // "sent", "yep, emailed": the clause is the deed.
            None => index <= 2,
        }
    })
}

#[cfg(test)]
mod tests;
