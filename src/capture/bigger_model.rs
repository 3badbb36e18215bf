//! "Ask the bigger model", "think harder about this": the person asks for the bigger model
//! (escalation) in plain words, read without a model.
//!
//! A request is the whole message: fillers and a polite opener ("please", "donna", "can you",
//! "could you"), then a request phrase at the start, then
//! - nothing that names anything ("about this", "on that one", "for me", "again"): the question
//!   is the person's previous message in the chat (`BiggerModel::Previous`);
//! - for the ask/use phrases, the question itself ("ask the bigger model: what are the tax
//!   rules in France?", "ask the big model about Spanish inheritance law"): `BiggerModel::Ask`.
//!
//! "Think harder" phrases take no question of their own: "think harder about the essay" may be
//! a thought about a task, so it is not a request (the model reads it).
//! Never a request: a negation ("don't ask the bigger model"), a report ("I asked the bigger
//! model"), a question about it ("should I ask the bigger model?", "what does the bigger model
//! cost?"), someone else ("ask mom about the big party"). A capture that holds the words ("remind
//! me to think harder about the essay") is read as a capture first by the free-text room.
//!
//! Pure: no clock, no store. Tested as a table of sentences (`tests/it/escalation.rs`).

use std::ops::Range;

use crate::sentence::lexicon;
use crate::sentence::tokens::{squeeze, Tokens};
use crate::sentence::{wrapper, Sentence};

/// What the person asked the bigger model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BiggerModel {
    /// The question is their previous message in this chat.
    Previous,
    /// The question as they wrote it after the request.
    Ask(String),
}

/// Words that open a message without meaning anything here, besides the wrapper the sentence
/// already set aside ("please", "hey donna", "can you").
const FILLERS: [&str; 4] = ["so", "and", "then", "now"];

/// Verbs that hand the question to a model ("ask the bigger model", "check with a smarter AI").
const HAND_OVER: [&[&str]; 8] = [
    &["ask"],
    &["use"],
    &["try"],
    &["consult"],
    &["check", "with"],
    &["escalate", "to"],
    &["escalate", "this", "to"],
    &["escalate", "it", "to"],
];

const ARTICLES: [&str; 4] = ["the", "a", "your", "that"];
const BIGGER: [&str; 8] = [
    "bigger", "big", "larger", "smarter", "stronger", "better", "cleverer", "more",
];
const MODELS: [&str; 5] = ["model", "ai", "llm", "brain", "one"];

/// Phrases that ask for more thought about the previous message, with no question of their own.
const THINK_HARDER: [&[&str]; 11] = [
    &["think", "harder"],
    &["think", "more", "carefully"],
    &["think", "deeper"],
    &["think", "more", "deeply"],
    &["think", "about", "it", "harder"],
    &["think", "about", "this", "harder"],
    &["think", "about", "that", "harder"],
    &["think", "it", "through", "properly"],
    &["escalate"],
    &["escalate", "this"],
    &["escalate", "it"],
];

/// Words after a request that name nothing: the question is the previous message.
const REFERRING: [&str; 17] = [
    "about", "on", "for", "with", "this", "that", "it", "one", "me", "please", "again", "donna",
    "instead", "then", "now", "question", "the",
];

/// Words that may open the question after an ask phrase and are not part of it.
const QUESTION_OPENERS: [&str; 3] = ["about", "regarding", "on"];

/// Reads a free-text message: a request for the bigger model, or None.
pub fn read(said: &Sentence) -> Option<BiggerModel> {
    let words: Vec<&str> = said.words().collect();
    let places: Vec<Range<usize>> = (0..said.len()).map(|index| said.word_at(index)).collect();
    read_words(said.text(), &words, &places, said.core())
}

/// Whether an earlier message, kept as text, asked for the bigger model (read by the one
/// tokenizer and the same wrapper, not analysed again as a message).
pub fn asked_for_it(text: &str) -> bool {
    let read = Tokens::read(text);
    let words: Vec<&str> = read.words().collect();
    let core = wrapper::core(&words, &read.breaks_after_words());
    read_words(text, &words, &read.word_places(), core).is_some()
}

/// A request for the bigger model in `words` (their `places` in `text`), from the `core`.
fn read_words(
    text: &str,
    words: &[&str],
    places: &[Range<usize>],
    core: Range<usize>,
) -> Option<BiggerModel> {
    let mut at = core.start;
    while at < core.end && FILLERS.contains(&words[at]) {
        at += 1;
    }
    let rest = &words[at..core.end];
    let Some(after) = bigger_model_phrase(rest) else {
        let think = THINK_HARDER
            .iter()
            .find(|phrase| lexicon::starts_with(rest, phrase))?;
        return only_referring(&rest[think.len()..]).then_some(BiggerModel::Previous);
    };
    let after_words = &rest[after..];
    if only_referring(after_words) {
        return Some(BiggerModel::Previous);
    }
    let mut from = 0;
    if after_words
        .first()
        .is_some_and(|word| QUESTION_OPENERS.contains(word))
        && after_words.len() > 1
    {
        from = 1;
    }
    let start = places.get(at + after + from)?.start;
    let question = squeeze(
        text.get(start..)
            .unwrap_or_default()
            .trim_start_matches(|c: char| ":,-".contains(c)),
    );
    (!question.is_empty()).then_some(BiggerModel::Ask(question))
}

/// "ask the bigger model", "use a smarter AI", "escalate to the big model": how many words the
/// phrase takes at the start of `rest`.
fn bigger_model_phrase(rest: &[&str]) -> Option<usize> {
    let verb = HAND_OVER
        .iter()
        .find(|verb| lexicon::starts_with(rest, verb))?;
    let mut at = verb.len();
    if rest.get(at).is_some_and(|word| ARTICLES.contains(word)) {
        at += 1;
    }
    let mut bigger = 0;
    while rest
        .get(at)
        .is_some_and(|word| BIGGER.contains(word) || *word == "powerful")
    {
        at += 1;
        bigger += 1;
    }
    let model = rest.get(at).is_some_and(|word| MODELS.contains(word));
    // "ask the model" or "use the one" alone names no bigger model.
    (bigger > 0 && model).then_some(at + 1)
}

fn only_referring(words: &[&str]) -> bool {
    words.iter().all(|word| REFERRING.contains(word))
}
