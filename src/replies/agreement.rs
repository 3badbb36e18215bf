//! Agreement words ("yes", "yeah", "ok", "sure", "go ahead") as people use them in a reply:
//! alone they answer a question ("yes", "ok, go ahead"); followed by content they only lead into
//! it ("yeah, sent it", "yep that's sorted now", "ok I'll do it at 6"), and the content is what
//! the reply says. Pure, read through the FastPath's own confirm keywords.
//!
//! Invariant: a reply is "only agreement" when every word is part of a confirm keyword or a
//! filler ("please", "thanks", "then"); anything else is content, and a reply with content is
//! never a bare confirmation.

use super::matcher::FastPath;
use super::words::{normalize, tokenize, Token};

/// Words that add nothing to an agreement ("yes please", "ok thanks", "sure thing").
const FILLERS: &[&str] = &[
    "please",
    "pls",
    "plz",
    "thanks",
    "thank",
    "you",
    "thx",
    "ty",
    "then",
    "thing",
    "just",
    "alright",
    "right",
    "fine",
    "cool",
    "great",
    "perfect",
    "good",
    "sounds",
    "oh",
    "ah",
    "um",
    "uh",
    "so",
    "well",
    "haha",
    "lol",
    "absolutely",
    "definitely",
    "of",
    "course",
    "totally",
];

/// The reply's words, normalised, in order (clause breaks dropped).
fn words(text: &str) -> Vec<String> {
    let text = normalize(text);
    let mut tokens = Vec::new();
    tokenize(&text, &mut tokens);
    tokens
        .iter()
        .filter_map(|token| match token {
            Token::Word { .. } => token.word_in(&text).map(str::to_string),
            Token::Break { .. } => None,
        })
        .collect()
}

/// Which words are agreement: part of a confirm keyword (one or two words long) or a filler.
fn agreement_marks(matcher: &FastPath, words: &[String]) -> Vec<bool> {
    let mut marks: Vec<bool> = words
        .iter()
        .map(|word| FILLERS.contains(&word.as_str()) || matcher.is_confirm_word(word))
        .collect();
    for index in 0..words.len().saturating_sub(1) {
        let pair = format!("{} {}", words[index], words[index + 1]);
        if matcher.is_confirm_word(&pair) {
            marks[index] = true;
            marks[index + 1] = true;
        }
    }
    marks
}

/// Whether the reply is nothing but agreement ("yes", "ok, go ahead", "sure thing, thanks").
pub fn only_agreement(matcher: &FastPath, text: &str) -> bool {
    let words = words(text);
    let marks = agreement_marks(matcher, &words);
    let says_yes = matcher.is_confirm_word(&words.join(" "));
    !words.is_empty() && marks.iter().all(|mark| *mark) && says_yes
}

/// The content after leading agreement words ("yeah, sent it" -> "sent it"), when the reply
/// opens with agreement and says more; None otherwise.
pub fn content_after_agreement(matcher: &FastPath, text: &str) -> Option<String> {
    let words = words(text);
    let marks = agreement_marks(matcher, &words);
    let leading = marks.iter().take_while(|mark| **mark).count();
    let opens_with_confirm = (1..=leading).any(|end| {
        words[..end]
            .iter()
            .any(|word| matcher.is_confirm_word(word))
    });
    if leading == 0 || leading == words.len() || !opens_with_confirm {
        return None;
    }
    Some(words[leading..].join(" "))
}
