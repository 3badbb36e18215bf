//! Words: how a reply (and every keyword) is normalized and split into words and clause breaks.
//! The FastPath and the rules of later layers read text through this one tokenizer, so a
//! keyword and a reply are always compared the same way.
//!
//! Invariants:
//! - Normalization lowercases and makes curly quotes plain; it borrows when nothing changes.
//! - A word is a run of letters and digits, with an apostrophe kept only inside a word
//!   ("it's"); everything else separates words.
//! - Clause punctuation (`, . ; : ! ?`, ellipsis, em/en dash, line breaks) becomes one
//!   [`Token::Break`] per run, remembering whether it held a comma or a question mark.

use std::borrow::Cow;

/// Why a keyword can never match a reply; reported by config validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeywordProblem {
    NoWords,
    SpansClauses,
}

/// The words of a keyword after the normalization replies get.
pub(crate) fn keyword_words(keyword: &str) -> Result<Vec<String>, KeywordProblem> {
    let text = normalize(keyword);
    let mut tokens = Vec::new();
    tokenize(&text, &mut tokens);
    let first_word = tokens.iter().position(Token::is_word);
    let last_word = tokens.iter().rposition(Token::is_word);
    let (Some(first_word), Some(last_word)) = (first_word, last_word) else {
        return Err(KeywordProblem::NoWords);
    };
    let inner = &tokens[first_word..=last_word];
    if !inner.iter().all(Token::is_word) {
        return Err(KeywordProblem::SpansClauses);
    }
    Ok(inner
        .iter()
        .filter_map(|token| token.word_in(&text))
        .map(str::to_owned)
        .collect())
}

/// A word (a byte range of the normalized text) or a clause break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    /// Byte range in the normalized text.
    Word { start: usize, end: usize },
    /// One or more clause punctuation marks in a row.
    Break { comma: bool, question_mark: bool },
}

impl Token {
    pub(crate) fn is_word(&self) -> bool {
        matches!(self, Token::Word { .. })
    }

    pub(crate) fn word_in<'t>(&self, text: &'t str) -> Option<&'t str> {
        match *self {
            Token::Word { start, end } => text.get(start..end),
            Token::Break { .. } => None,
        }
    }
}

/// Lowercases and maps typographic quotes to plain ones; borrows when nothing changes, which
/// is the common case for chat replies.
pub(crate) fn normalize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_normalizing) {
        return Cow::Borrowed(text);
    }
    let mut normalized = String::with_capacity(text.len());
    for character in text.chars() {
        match plain_quote(character) {
            Some(plain) => normalized.push(plain),
            None => normalized.extend(character.to_lowercase()),
        }
    }
    Cow::Owned(normalized)
}

fn needs_normalizing(character: char) -> bool {
    if character.is_ascii() {
        return character.is_ascii_uppercase();
    }
    plain_quote(character).is_some() || character.to_lowercase().ne(std::iter::once(character))
}

fn plain_quote(character: char) -> Option<char> {
    match character {
        '\u{2018}' | '\u{2019}' | '\u{201B}' | '\u{2032}' | '\u{02BC}' => Some('\''),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' => Some('"'),
        _ => None,
    }
}

/// Splits normalized text into words and clause breaks; everything else (spaces, emoji,
/// brackets, quotes, hyphens) only separates words.
pub(crate) fn tokenize(text: &str, tokens: &mut Vec<Token>) {
    let mut word_start: Option<usize> = None;
    let mut characters = text.char_indices().peekable();
    while let Some((position, character)) = characters.next() {
        if character.is_alphanumeric() {
            word_start.get_or_insert(position);
            continue;
        }
        let apostrophe_inside_word = character == '\''
            && word_start.is_some()
            && characters
                .peek()
                .is_some_and(|&(_, next)| next.is_alphanumeric());
        if apostrophe_inside_word {
            continue;
        }
        if let Some(start) = word_start.take() {
            tokens.push(Token::Word {
                start,
                end: position,
            });
        }
        if let Some((comma, question_mark)) = clause_break(character) {
            push_break(tokens, comma, question_mark);
        }
    }
    if let Some(start) = word_start {
        tokens.push(Token::Word {
            start,
            end: text.len(),
        });
    }
}

/// `Some((is_comma, is_question_mark))` for clause punctuation.
fn clause_break(character: char) -> Option<(bool, bool)> {
    match character {
        ',' => Some((true, false)),
        '?' => Some((false, true)),
        '.' | ';' | ':' | '!' | '\n' | '\r' | '\u{2026}' | '\u{2013}' | '\u{2014}' => {
            Some((false, false))
        }
        _ => None,
    }
}

/// Merges a run of punctuation ("?!", ", ,") into one break so "done?!" still ends with a
/// question mark.
fn push_break(tokens: &mut Vec<Token>, comma: bool, question_mark: bool) {
    if let Some(Token::Break {
        comma: previous_comma,
        question_mark: previous_question_mark,
    }) = tokens.last_mut()
    {
        *previous_comma |= comma;
        *previous_question_mark |= question_mark;
        return;
    }
    tokens.push(Token::Break {
        comma,
        question_mark,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let normalized = normalize(text);
        let mut tokens = Vec::new();
        tokenize(&normalized, &mut tokens);
        tokens
            .iter()
            .map(|token| match token.word_in(&normalized) {
                Some(word) => word.to_owned(),
                None => "|".to_owned(),
            })
            .collect()
    }

    #[test]
    fn tokenizer_keeps_inner_apostrophes_and_clause_breaks() {
        assert_eq!(words("It’s DONE!!!"), ["it's", "done", "|"]);
        assert_eq!(words("'done' 👍"), ["done"]);
        assert_eq!(
            words("no, not done. ok?!"),
            ["no", "|", "not", "done", "|", "ok", "|"]
        );
        assert_eq!(words("re-schedule"), ["re", "schedule"]);
        assert_eq!(words("dogs' toys"), ["dogs", "toys"]);
    }

    #[test]
    fn keyword_words_reject_unmatchable_keywords() {
        assert_eq!(keyword_words("Don’t!"), Ok(vec!["don't".to_owned()]));
        assert_eq!(keyword_words(" 👍 "), Err(KeywordProblem::NoWords));
        assert_eq!(
            keyword_words("done, thanks"),
            Err(KeywordProblem::SpansClauses)
        );
    }

    #[test]
    fn normalize_borrows_lowercase_text() {
        assert!(matches!(normalize("done 👍"), Cow::Borrowed(_)));
        assert!(matches!(normalize("Done"), Cow::Owned(_)));
    }
}
