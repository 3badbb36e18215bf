//! Thanks, goodbyes, praise and greetings in people's words: "thanks, that's all", "cheers
//! mate", "great, thank you so much", "that's it for now", "bye!", "good night", "cool, see you
//! tomorrow", "thanks, you're the best", "hi Donna", "hey, good morning". Read as a whole
//! message: every word must be one such a message is made of (the lists of
//! `sentence::lexicon::courtesy` and `closings`, and the glue below), and one of them must
//! thank, close, praise or greet. So "thanks, add milk" is not one (it asks for something).
//!
//! Invariant (pure): a message read here creates nothing and needs no model.

use crate::sentence::lexicon::{self, closings, courtesy, moods, questions};

/// What a closing or greeting is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Thanks,
    Greeting,
}

/// Everything else such a message may hold besides phatic words, goodbyes and praise.
#[rustfmt::skip]
const GLUE: &[&str] = &[
    "you", "youre", "your", "so", "much", "a", "lot", "lots", "again", "good", "that", "thats",
    "all", "for", "now", "it", "nothing", "else", "no", "more", "i", "im", "we", "done", "set",
    "see", "ya", "take", "care", "day", "mate", "helps", "helped", "help", "got", "understood",
    "noted", "sounds", "then", "catch", "speak", "talk", "soon", "today", "tonight", "tomorrow",
    "very", "really", "there", "the", "guys", "dear", "one", "my", "friend", "doing", "going",
    "up", "back", "to", "too", "u", "and", "thatll", "week", "weekend", "nice", "great", "job",
    "work", "rock", "absolute", "real", "such", "an", "as", "always", "ever", "rocks",
];

/// Whether `words` (lower case, apostrophes dropped) are a thanks, a goodbye, praise or a
/// greeting.
pub fn read(words: &[String]) -> Option<Kind> {
    if words.is_empty() {
        return None;
    }
    let known = |word: &String| {
        let word = word.as_str();
        courtesy::is_phatic(word)
            || courtesy::is_soft_phatic(word)
            || closings::is_goodbye(word)
            || closings::is_compliment(word)
            || moods::LAUGHTER.contains(&word)
            || questions::is_question_word(word)
            || questions::is_auxiliary(word)
            || GLUE.contains(&word)
    };
    if !words.iter().all(known) {
        return None;
    }
    let closes = words.iter().any(|word| {
        courtesy::is_thanks(word) || closings::is_goodbye(word) || closings::is_compliment(word)
    }) || closings::CLOSING_PHRASES
        .iter()
        .chain(closings::GOODBYE_PHRASES)
        .any(|phrase| lexicon::holds(words, phrase));
    if closes {
        return Some(Kind::Thanks);
    }
    words
        .iter()
        .any(|word| {
            courtesy::is_greeting(word)
                || matches!(word.as_str(), "morning" | "afternoon" | "evening")
        })
        .then_some(Kind::Greeting)
}
