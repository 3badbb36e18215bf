//! A sentence as the capture rules read it: its words, lower-cased, each with its byte range in
//! the original text, so a rule can match on words and still cut the person's own spelling out
//! of the text (a title keeps "Anna", not "anna").
//!
//! Invariant: every range is on char boundaries of the original text, in order, not
//! overlapping; apostrophes inside a word are kept ("don't"), curly ones made plain.

use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Lower case, curly apostrophes made plain.
    pub text: String,
    pub range: Range<usize>,
}

/// The words of `text`: runs of letters and digits, an apostrophe kept between two letters.
pub fn words(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut current: Option<(usize, String)> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let apostrophe = c == '\'' || c == '\u{2019}';
        let inner_apostrophe = apostrophe
            && current.is_some()
            && chars.peek().is_some_and(|(_, next)| next.is_alphanumeric());
        if c.is_alphanumeric() || inner_apostrophe {
            let piece = if apostrophe {
                "'".to_string()
            } else {
                c.to_lowercase().collect()
            };
            match &mut current {
                Some((_, word)) => word.push_str(&piece),
                None => current = Some((at, piece)),
            }
        } else if let Some((start, word)) = current.take() {
            words.push(Word {
                text: word,
                range: start..at,
            });
        }
    }
    if let Some((start, word)) = current {
        words.push(Word {
            text: word,
            range: start..text.len(),
        });
    }
    words
}

/// Whether the text asks something: it ends with a question mark (ignoring closing
/// punctuation and emoji-free trailing spaces), or starts with a question word.
pub fn is_question(text: &str, words: &[Word]) -> bool {
    if text.trim_end().ends_with('?') {
        return true;
    }
    const OPENERS: [&str; 24] = [
        "is", "are", "am", "do", "does", "did", "can", "could", "would", "will", "should", "what",
        "what's", "whats", "when", "where", "who", "why", "how", "have", "has", "shall", "may",
        "which",
    ];
    words
        .first()
        .is_some_and(|word| OPENERS.contains(&word.text.as_str()))
}

/// A word that negates what follows it ("not", "never", "don't", "won't", ...).
pub fn is_negator(word: &str) -> bool {
    matches!(word, "not" | "never" | "no" | "nor" | "without") || word.ends_with("n't")
}

/// Collapses runs of whitespace and trims the ends.
pub fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_their_place_in_the_original_text() {
        let text = "Don’t forget: call Anna!";
        let found = words(text);
        let shown: Vec<&str> = found.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(shown, ["don't", "forget", "call", "anna"]);
        assert_eq!(&text[found[3].range.clone()], "Anna");
    }

    #[test]
    fn questions_are_told_by_the_mark_or_the_first_word() {
        for (text, question) in [
            ("is the dentist on my list?", true),
            ("is the dentist on my list", true),
            ("add milk", false),
            ("what's overdue", true),
            ("remind me to call mom?", true),
        ] {
            assert_eq!(is_question(text, &words(text)), question, "{text}");
        }
    }
}
