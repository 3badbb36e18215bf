//! Every list of words the readers share, each defined once: question words and the verbs that
//! open a question (`questions`), negators (`negators`), the person's phatic words (greetings,
//! thanks, apologies, interjections, agreement, polite openers: `courtesy`), closings and
//! compliments (`closings`), the markers of a clause's mood (wishes, conditions, habits,
//! suggestions, sarcasm, intentions, subjects: `moods`), the words that ask for each kind of
//! change to a task (the done / later / cancel lexicon: `deeds`), and commands in people's
//! words (capture commands, "never mind", "remind me at ...": `commands`), and the words of
//! questions about the person's calendar and time (`calendar`), and the words that say how
//! long a task takes (`lengths`).
//!
//! A new list: a `pub const` in the file of its family (or a new file here for a new family),
//! named for what its words do, with a function that says whether a word is one of them (over a
//! [`WordSet`] when the analysis asks it for every word); readers ask that function and never
//! copy the words (`tests/tidy`:
//! `one_tokenizer_one_list_of_each_kind_one_zone_table`).
//!
//! Invariant (pure): the lists are data; how a reader uses them is the reader's business.

pub mod calendar;
pub mod closings;
pub mod commands;
pub mod courtesy;
pub mod deeds;
pub mod lengths;
pub mod moods;
pub mod negators;
pub mod questions;

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// FNV-1a: hashes a short word in a few cycles (the default SipHash costs more than the lookup
/// it saves). Words are not chosen by an attacker against a set built from constants.
#[derive(Default)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}

/// How the word sets and maps hash their words ([`WordHasher`]).
pub type Words = BuildHasherDefault<WordHasher>;

/// One or more of the lists as a set, built on first use, so a word is looked up by its hash
/// rather than compared with every entry (readers ask a word's kind several times per clause).
pub struct WordSet {
    lists: &'static [&'static [&'static str]],
    set: OnceLock<HashSet<&'static str, Words>>,
}

impl WordSet {
    pub const fn new(lists: &'static [&'static [&'static str]]) -> Self {
        Self {
            lists,
            set: OnceLock::new(),
        }
    }

    pub fn contains(&self, word: &str) -> bool {
        self.set
            .get_or_init(|| {
                self.lists
                    .iter()
                    .flat_map(|list| list.iter().copied())
                    .collect()
            })
            .contains(word)
    }
}

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
