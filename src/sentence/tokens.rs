//! The one tokenizer: how any text people write (a message, a keyword, a title, a time the
//! model copied) is split into words. Every reader of words goes through here, so a phrase
//! taught to one reader is split the same way for all of them.
//!
//! One pass classifies each character ([`Class`]) and collects the runs of letters and digits
//! with what stands between them ([`scan`]). Views group those runs by what may join them
//! ([`Join`]):
//! - [`Join::Apostrophes`] (the reading of a sentence): "it's" and "don't" are one word; clause
//!   punctuation (`, . ; : ! ?`, an ellipsis, an en or em dash, a line break) becomes one
//!   [`Token::Break`] per run, remembering a comma and a question mark.
//! - [`Join::TimeMarks`] (times): ':', '-', '.', '/', '_' and '+' stay inside a word ("17:30",
//!   "2026-12-03", "america/new_york", "utc+2"), a decimal comma between digits is a point
//!   ("1,5" -> "1.5"), a sign right before a digit at the start of a word stays ("-5", a Unicode
//!   minus made '-'), and an apostrophe splits ("can't" -> "can", "t").
//! - [`Join::Both`] (commands read word by word: schedules, digests, a number picking a task):
//!   both of the above, so "don't" and "9:30am" each stay one word.
//! - [`Join::Nothing`] (titles compared as sets of words): every run alone.
//!
//! Invariants:
//! - Normalization lowercases and makes curly quotes plain; each character is lowercased on its
//!   own and keeps the bytes of the character it came from, so every range is on char
//!   boundaries of the original text, in order, not overlapping.
//! - A word is a run of letters and digits with only the marks its view allows inside it;
//!   everything else only separates words.

use std::borrow::Cow;
use std::ops::Range;

/// What a character is to the tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A letter or a digit (any script).
    Alphanumeric,
    /// An apostrophe, straight or curly.
    Apostrophe,
    /// A mark that may stand inside a time or a zone ("17:30", "utc+2").
    TimeMark,
    /// Clause punctuation: `, . ; : ! ?`, an ellipsis, an en or em dash, a line break.
    Break { comma: bool, question_mark: bool },
    /// Anything else: spaces, emoji, brackets, quotes.
    Other,
}

/// The class of one character. A character can be a break and a time mark (':' and '.'): it is
/// a [`Class::Break`], and the time view reads it as a mark.
pub fn class(character: char) -> Class {
    if character.is_alphanumeric() {
        return Class::Alphanumeric;
    }
    if plain_quote(character) == Some('\'') || character == '\'' {
        return Class::Apostrophe;
    }
    match character {
        ',' => Class::Break {
            comma: true,
            question_mark: false,
        },
        '?' => Class::Break {
            comma: false,
            question_mark: true,
        },
        '.' | ';' | ':' | '!' | '\n' | '\r' | '\u{2026}' | '\u{2013}' | '\u{2014}' => {
            Class::Break {
                comma: false,
                question_mark: false,
            }
        }
        '-' | '/' | '_' | '+' | '\u{2212}' => Class::TimeMark,
        _ => Class::Other,
    }
}

/// Whether a character joins two runs in the time view.
fn time_mark(character: char) -> bool {
    matches!(character, ':' | '-' | '.' | '/' | '_' | '+' | '\u{2212}')
}

/// Lowercases and maps typographic quotes to plain ones; borrows when nothing changes, which
/// is the common case for chat replies.
pub fn normalize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_normalizing) {
        return Cow::Borrowed(text);
    }
    let mut normalized = String::with_capacity(text.len());
    for character in text.chars() {
        push_normalized(&mut normalized, character);
    }
    Cow::Owned(normalized)
}

fn push_normalized(out: &mut String, character: char) {
    match plain_quote(character) {
        Some(plain) => out.push(plain),
        None if character.is_ascii() => out.push(character.to_ascii_lowercase()),
        None => out.extend(character.to_lowercase()),
    }
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

/// A run of letters and digits: its bytes in the original text and in the normalized one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub at: Range<usize>,
    pub lower: Range<usize>,
}

/// A text scanned once: the normalized text and its runs of letters and digits.
#[derive(Debug, Clone)]
pub struct Scan<'t> {
    pub text: &'t str,
    /// The whole text normalized ([`normalize`]).
    pub normalized: Cow<'t, str>,
    pub runs: Cow<'t, [Run]>,
}

/// Scans `text` once (see the module header).
pub fn scan(text: &str) -> Scan<'_> {
    let mut normalized = String::with_capacity(text.len());
    let mut runs = Vec::with_capacity(text.len() / 4 + 1);
    let mut open: Option<(usize, usize)> = None;
    for (at, character) in text.char_indices() {
        let lower_at = normalized.len();
        push_normalized(&mut normalized, character);
        if class(character) == Class::Alphanumeric {
            open.get_or_insert((at, lower_at));
        } else if let Some((start, lower_start)) = open.take() {
            runs.push(Run {
                at: start..at,
                lower: lower_start..lower_at,
            });
        }
    }
    if let Some((start, lower_start)) = open {
        runs.push(Run {
            at: start..text.len(),
            lower: lower_start..normalized.len(),
        });
    }
    Scan {
        text,
        normalized: Cow::Owned(normalized),
        runs: Cow::Owned(runs),
    }
}

/// What may join two runs into one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    Nothing,
    Apostrophes,
    TimeMarks,
    Both,
}

/// A word of a view: its lowercased text and its bytes in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub word: String,
    pub at: Range<usize>,
}

impl Scan<'_> {
    /// Where the characters between run `index - 1` (or the start) and run `index` (or the
    /// end) start, and those characters.
    fn gap_at(&self, index: usize) -> (usize, &str) {
        let start = index
            .checked_sub(1)
            .and_then(|before| self.runs.get(before))
            .map_or(0, |run| run.at.end);
        let end = self
            .runs
            .get(index)
            .map_or(self.text.len(), |run| run.at.start);
        (start, self.text.get(start..end).unwrap_or_default())
    }

    fn gap(&self, index: usize) -> &str {
        self.gap_at(index).1
    }

    /// Whether the gap before run `index` joins it to the run before, in `join`.
    fn joins(&self, index: usize, join: Join) -> bool {
        if index == 0 || join == Join::Nothing {
            return false;
        }
        let gap = self.gap(index);
        let apostrophe = matches!(join, Join::Apostrophes | Join::Both)
            && gap.chars().count() == 1
            && gap.chars().all(|c| class(c) == Class::Apostrophe);
        if apostrophe {
            return true;
        }
        if !matches!(join, Join::TimeMarks | Join::Both) {
            return false;
        }
        let digits_around = || {
            let before = self
                .runs
                .get(index - 1)
                .map(|run| &self.text[run.at.clone()]);
            let after = self.runs.get(index).map(|run| &self.text[run.at.clone()]);
            before.is_some_and(|b| b.ends_with(|c: char| c.is_ascii_digit()))
                && after.is_some_and(|a| a.starts_with(|c: char| c.is_ascii_digit()))
        };
        (!gap.is_empty() && gap.chars().all(time_mark)) || (gap == "," && digits_around())
    }

    /// The words of the text in `join` (see [`Join`]).
    pub fn pieces(&self, join: Join) -> Vec<Piece> {
        let mut pieces: Vec<Piece> = Vec::with_capacity(self.runs.len());
        for (index, run) in self.runs.iter().enumerate() {
            let lower = self.normalized.get(run.lower.clone()).unwrap_or_default();
            if self.joins(index, join) {
                if let Some(last) = pieces.last_mut() {
                    let gap = self.gap(index);
                    for character in gap.chars() {
                        last.word.push(match character {
                            '\u{2212}' => '-',
                            ',' => '.',
                            c if class(c) == Class::Apostrophe => '\'',
                            c => c,
                        });
                    }
                    last.word.push_str(lower);
                    last.at.end = run.at.end;
                    continue;
                }
            }
            let mut piece = Piece {
                word: lower.to_string(),
                at: run.at.clone(),
            };
            if matches!(join, Join::TimeMarks | Join::Both) {
                self.keep_sign(index, &mut piece);
            }
            pieces.push(piece);
        }
        pieces
    }

    /// "-5", "+02:00": a sign right before a digit that starts a word is part of it.
    fn keep_sign(&self, index: usize, piece: &mut Piece) {
        if !piece.word.starts_with(|c: char| c.is_ascii_digit()) {
            return;
        }
        let Some(sign) = self.gap(index).chars().next_back() else {
            return;
        };
        if matches!(sign, '-' | '+' | '\u{2212}') {
            piece.word.insert(0, if sign == '+' { '+' } else { '-' });
            piece.at.start -= sign.len_utf8();
        }
    }
}

/// A word (a byte range of the normalized text) or a clause break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Token {
    /// Byte range in the normalized text.
    Word { start: usize, end: usize },
    /// One or more clause punctuation marks in a row.
    Break { comma: bool, question_mark: bool },
}

impl Token {
    pub fn is_word(&self) -> bool {
        matches!(self, Token::Word { .. })
    }

    pub fn word_in<'t>(&self, text: &'t str) -> Option<&'t str> {
        match *self {
            Token::Word { start, end } => text.get(start..end),
            Token::Break { .. } => None,
        }
    }
}

/// A text read as words and clause breaks ([`Join::Apostrophes`]): the tokens, the original
/// bytes of each (a break: its first mark), the normalized text the words index into, and the
/// runs of the scan (for the other views, without scanning again).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tokens {
    pub normalized: String,
    pub tokens: Vec<Token>,
    pub at: Vec<Range<usize>>,
    pub runs: Vec<Run>,
}

impl Tokens {
    /// Reads `text` into words and clause breaks.
    pub fn read(text: &str) -> Self {
        let scanned = scan(text);
        let tokens_and_places = Self::tokens_of(&scanned);
        Self {
            normalized: scanned.normalized.into_owned(),
            tokens: tokens_and_places.0,
            at: tokens_and_places.1,
            runs: scanned.runs.into_owned(),
        }
    }

    /// The words of `text` (which these tokens were read from) in another view, from the runs
    /// already found.
    pub fn pieces<'t>(&'t self, text: &'t str, join: Join) -> Vec<Piece> {
        Scan {
            text,
            normalized: Cow::Borrowed(&self.normalized),
            runs: Cow::Borrowed(&self.runs),
        }
        .pieces(join)
    }

    fn tokens_of(scanned: &Scan<'_>) -> (Vec<Token>, Vec<Range<usize>>) {
        let mut tokens = Vec::with_capacity(scanned.runs.len() + 2);
        let mut at = Vec::with_capacity(scanned.runs.len() + 2);
        for index in 0..=scanned.runs.len() {
            let joined = index < scanned.runs.len() && scanned.joins(index, Join::Apostrophes);
            if !joined {
                push_breaks(scanned, index, &mut tokens, &mut at);
            }
            let Some(run) = scanned.runs.get(index) else {
                break;
            };
            if joined {
                if let (Some(Token::Word { end, .. }), Some(range)) =
                    (tokens.last_mut(), at.last_mut())
                {
                    *end = run.lower.end;
                    range.end = run.at.end;
                    continue;
                }
            }
            tokens.push(Token::Word {
                start: run.lower.start,
                end: run.lower.end,
            });
            at.push(run.at.clone());
        }
        (tokens, at)
    }

    /// The words, in order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.tokens
            .iter()
            .filter_map(|token| token.word_in(&self.normalized))
    }

    /// The bytes of each word in the text, in order.
    pub fn word_places(&self) -> Vec<Range<usize>> {
        self.tokens
            .iter()
            .zip(&self.at)
            .filter(|(token, _)| token.is_word())
            .map(|(_, at)| at.clone())
            .collect()
    }

    /// For each word, whether a clause break follows it.
    pub fn breaks_after_words(&self) -> Vec<bool> {
        self.tokens
            .iter()
            .enumerate()
            .filter(|(_, token)| token.is_word())
            .map(|(index, _)| matches!(self.tokens.get(index + 1), Some(Token::Break { .. })))
            .collect()
    }
}

/// The breaks in the gap before run `index`, merged into the break already last ("done?!").
fn push_breaks(
    scanned: &Scan<'_>,
    index: usize,
    tokens: &mut Vec<Token>,
    at: &mut Vec<Range<usize>>,
) {
    let (offset, gap) = scanned.gap_at(index);
    for (position, character) in gap.char_indices() {
        let Class::Break {
            comma,
            question_mark,
        } = class(character)
        else {
            continue;
        };
        let start = offset + position;
        if let (
            Some(Token::Break {
                comma: previous_comma,
                question_mark: previous_question_mark,
            }),
            Some(range),
        ) = (tokens.last_mut(), at.last_mut())
        {
            *previous_comma |= comma;
            *previous_question_mark |= question_mark;
            range.end = start + character.len_utf8();
            continue;
        }
        tokens.push(Token::Break {
            comma,
            question_mark,
        });
        at.push(start..start + character.len_utf8());
    }
}

/// Why a keyword can never match a reply; reported by config validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeywordProblem {
    NoWords,
    SpansClauses,
}

/// The words of a keyword after the normalization replies get.
pub fn keyword_words(keyword: &str) -> Result<Vec<String>, KeywordProblem> {
    let read = Tokens::read(keyword);
    let tokens = &read.tokens;
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
        .filter_map(|token| token.word_in(&read.normalized))
        .map(str::to_owned)
        .collect())
}

/// The words of `text` in `join`, each lowercased with its bytes in `text`.
pub fn pieces(text: &str, join: Join) -> Vec<Piece> {
    scan(text).pieces(join)
}

/// The lowercased words of `text` in `join`, without their places.
pub fn words(text: &str, join: Join) -> Vec<String> {
    scan(text)
        .pieces(join)
        .into_iter()
        .map(|piece| piece.word)
        .collect()
}

/// Runs of white space collapsed to one space, the ends trimmed.
pub fn squeeze(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for part in text
        .split(char::is_whitespace)
        .filter(|part| !part.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}
