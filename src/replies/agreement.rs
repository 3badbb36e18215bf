//! Agreement words ("yes", "yeah", "ok", "sure", "go ahead") as people use them in a reply:
//! alone they answer a question ("yes", "ok, go ahead"); followed by content they only lead into
//! it ("yeah, sent it", "yep that's sorted now", "ok I'll do it at 6"), and the content is what
//! the reply says (the sentence's core). Pure, read through the FastPath's own confirm keywords.
//!
//! Invariant: a reply is "only agreement" when every word is part of a confirm keyword or a
//! filler (the phatic words of `sentence::lexicon::courtesy`, "then", "thing", "just"); anything
//! else is content, and a reply with content is never a bare confirmation.

use super::matcher::FastPath;
use crate::sentence::lexicon::{courtesy, moods};
use crate::sentence::Sentence;

/// Words that add nothing to an agreement besides the phatic ones ("sure thing", "ok then").
const FILLERS: &[&str] = &[
    "you", "then", "thing", "just", "good", "sounds", "of", "course",
];

fn is_filler(word: &str) -> bool {
    FILLERS.contains(&word)
        || courtesy::is_phatic(word)
        || courtesy::is_soft_phatic(word)
        || moods::LAUGHTER.contains(&word)
}

/// Whether the reply is nothing but agreement ("yes", "ok, go ahead", "sure thing, thanks").
/// `confirm_word`: whether it holds a confirm keyword ([`FastPath::is_confirm_word`]).
pub fn only_agreement(matcher: &FastPath, sentence: &Sentence, confirm_word: bool) -> bool {
    if sentence.is_empty() || !confirm_word {
        return false;
    }
    let confirm = matcher.confirm_words(sentence.whole());
    let marks = sentence
        .words()
        .zip(&confirm)
        .all(|(word, confirm)| *confirm || is_filler(word));
    marks
}
