//! Every list of words the readers share, each defined once: question words and the verbs that
//! open a question (`questions`), negators (`negators`), the person's phatic words (greetings,
//! thanks, apologies, interjections, agreement, polite openers: `courtesy`), closings and
//! compliments (`closings`), the markers of a clause's mood (wishes, conditions, habits,
//! suggestions, sarcasm, intentions, subjects: `moods`), the words that ask for each kind of
//! change to a task (the done / later / cancel lexicon: `deeds`), and commands in people's
//! words (capture commands, "never mind", "remind me at ...": `commands`).
//!
//! A new list: a `pub const` in the file of its family (or a new file here for a new family),
//! named for what its words do, with a function that says whether a word is one of them; readers
//! ask that function and never copy the words (`tests/tidy`:
//! `one_tokenizer_one_list_of_each_kind_one_zone_table`).
//!
//! Invariant (pure): the lists are data; how a reader uses them is the reader's business.

pub mod closings;
pub mod commands;
pub mod courtesy;
pub mod deeds;
pub mod moods;
pub mod negators;
pub mod questions;

/// Whether `words` starts with `phrase`.
pub fn starts_with<S: AsRef<str>>(words: &[S], phrase: &[&str]) -> bool {
    words.len() >= phrase.len()
        && words
            .iter()
            .zip(phrase)
            .all(|(word, wanted)| word.as_ref() == *wanted)
}

/// The longest phrase of `phrases` that `words` starts with: how many words it takes.
pub fn longest_opening<S: AsRef<str>>(words: &[S], phrases: &[&[&str]]) -> Option<usize> {
    phrases
        .iter()
        .filter(|phrase| starts_with(words, phrase))
        .map(|phrase| phrase.len())
        .max()
}

/// Whether `words` holds `phrase` as consecutive words.
pub fn holds<S: AsRef<str>>(words: &[S], phrase: &[&str]) -> bool {
    !phrase.is_empty()
        && words.len() >= phrase.len()
        && (0..=words.len() - phrase.len()).any(|start| starts_with(&words[start..], phrase))
}
