//! One reading of a message: the analysis a turn makes once and every reader takes instead of
//! the text (the keyword layer, grounding and consent, the capture rules and questions,
//! automation and digest commands, nudge groups, time-zone sentences, "more", the bigger-model
//! words).
//!
//! [`Sentence::read`] gives the message's words with their places (the one tokenizer,
//! `tokens`), its clauses, each with its mood, markers, subject and negation (`clause`), the
//! wrapper of phatic words at either end and the core it leaves (`wrapper`), and the titles it
//! quotes (`quoted`). `lexicon` holds every shared list of words, `lemma` the base forms of
//! words, `ask` the kinds of change a message may ask for.
//!
//! Takes: a message's text. Sends: nothing (pure). Where to extend it: a new kind of sentence
//! is a function over [`Sentence`] in the reader that needs it; a new list of words goes into
//! `lexicon` (see its header).
//!
//! Invariants: a turn analyses its message once (`turn::pipeline`, counted by
//! [`analyses_total`]: /metrics `donna_message_analyses_total`); no other module splits text
//! into words (`tests/tidy`: `one_tokenizer_one_list_of_each_kind_one_zone_table`).

pub mod ask;
pub mod clause;
pub mod lemma;
pub mod lexicon;
pub mod quoted;
pub mod tokens;
pub mod wrapper;

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

pub use ask::Ask;
pub use clause::{Clause, Marks, Mood, Subject};
use tokens::{Token, Tokens};

/// How many messages this process has analysed.
static ANALYSES: AtomicU64 = AtomicU64::new(0);

/// How many messages this process has analysed ([`Sentence::read`]).
pub fn analyses_total() -> u64 {
    ANALYSES.load(Ordering::Relaxed)
}

/// A message, read once.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sentence {
    text: String,
    read: Tokens,
    /// The token of each word.
    word_tokens: Vec<usize>,
    clauses: Vec<Clause>,
    /// The core's words (see `wrapper`).
    core: Range<usize>,
    quoted: Vec<Range<usize>>,
}

/// A part of a sentence as the keyword layer reads it: a run of its tokens, and its text.
#[derive(Debug, Clone, Copy)]
pub struct View<'s> {
    pub sentence: &'s Sentence,
    /// The first of its tokens in the sentence.
    pub first: usize,
    pub tokens: &'s [Token],
    /// What the view covers as written (the whole message, or its core).
    text: &'s str,
}

impl<'s> View<'s> {
    /// The normalized text the tokens index into.
    pub fn normalized(&self) -> &'s str {
        &self.sentence.read.normalized
    }

    /// The text the view covers, as written.
    pub fn text(&self) -> &'s str {
        self.text
    }

    /// The clause token `index` (of this view) is in.
    pub fn clause_at(&self, index: usize) -> Option<&'s Clause> {
        let token = self.first + index;
        self.sentence
            .clauses
            .iter()
            .find(|clause| clause.tokens.start <= token && token < clause.tokens.end)
    }
}

impl Sentence {
    /// Analyses `text` (see the module header). A turn calls this once, for its message.
    pub fn read(text: &str) -> Self {
        ANALYSES.fetch_add(1, Ordering::Relaxed);
        let read = Tokens::read(text);
        let word_tokens: Vec<usize> = read
            .tokens
            .iter()
            .enumerate()
            .filter(|(_, token)| token.is_word())
            .map(|(index, _)| index)
            .collect();
        let words: Vec<&str> = read.words().collect();
        let breaks_after = read.breaks_after_words();
        let clauses = clauses(&read, &word_tokens, &words);
        let core = wrapper::core(&words, &breaks_after);
        let quoted = quoted::titles(text);
        Self {
            text: text.to_string(),
            read,
            word_tokens,
            clauses,
            core,
            quoted,
        }
    }

    /// The message as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The message normalized (lower case, plain quotes): what the tokens index into.
    pub fn normalized(&self) -> &str {
        &self.read.normalized
    }

    /// The words in another view of the one tokenizer (times, commands, titles), from the
    /// runs this reading already found.
    pub fn pieces(&self, join: tokens::Join) -> Vec<tokens::Piece> {
        self.read.pieces(&self.text, join)
    }

    /// Every token, words and breaks.
    pub fn tokens(&self) -> &[Token] {
        &self.read.tokens
    }

    /// How many words.
    pub fn len(&self) -> usize {
        self.word_tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.word_tokens.is_empty()
    }

    /// Word `index`, normalized (lower case, plain apostrophes).
    pub fn word(&self, index: usize) -> &str {
        self.word_tokens
            .get(index)
            .and_then(|&token| self.read.tokens.get(token))
            .and_then(|token| token.word_in(&self.read.normalized))
            .unwrap_or_default()
    }

    /// Every word, normalized, in order.
    pub fn words(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|index| self.word(index))
    }

    /// The words of `range` (word indices).
    pub fn words_of(&self, range: Range<usize>) -> Vec<&str> {
        range.map(|index| self.word(index)).collect()
    }

    /// The bytes of word `index` in the text.
    pub fn word_at(&self, index: usize) -> Range<usize> {
        self.word_tokens
            .get(index)
            .and_then(|&token| self.read.at.get(token))
            .cloned()
            .unwrap_or(self.text.len()..self.text.len())
    }

    /// The token of word `index`.
    pub fn token_of(&self, index: usize) -> usize {
        self.word_tokens
            .get(index)
            .copied()
            .unwrap_or(self.read.tokens.len())
    }

    /// The word a token is (None for a break).
    pub fn word_of_token(&self, token: usize) -> Option<usize> {
        self.word_tokens.binary_search(&token).ok()
    }

    pub fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    /// The clause word `index` is in.
    pub fn clause_of(&self, index: usize) -> Option<&Clause> {
        self.clauses
            .iter()
            .find(|clause| clause.words.contains(&index))
    }

    /// The words of a clause.
    pub fn clause_words(&self, clause: &Clause) -> Vec<&str> {
        self.words_of(clause.words.clone())
    }

    /// The core's words (see `wrapper`).
    pub fn core(&self) -> Range<usize> {
        self.core.clone()
    }

    /// The core's words, normalized.
    pub fn core_words(&self) -> Vec<&str> {
        self.words_of(self.core.clone())
    }

    /// The core as written: from its first word to its last, with a question mark after it.
    pub fn core_text(&self) -> &str {
        let mut tokens = self.core_tokens();
        if let Some(Token::Break {
            question_mark: false,
            ..
        }) = tokens
            .end
            .checked_sub(1)
            .and_then(|last| self.read.tokens.get(last))
        {
            tokens.end -= 1;
        }
        self.tokens_text(tokens)
    }

    /// Whether the wrapper set anything aside.
    pub fn has_wrapper(&self) -> bool {
        self.core != (0..self.len())
    }

    /// The whole message, as the keyword layer reads it.
    pub fn whole(&self) -> View<'_> {
        View {
            sentence: self,
            first: 0,
            tokens: &self.read.tokens,
            text: &self.text,
        }
    }

    /// The core, as the keyword layer reads it: its words and the breaks between them, and the
    /// break right after its last word ("sorry, done?" keeps its question mark).
    pub fn core_view(&self) -> View<'_> {
        let range = self.core_tokens();
        if !self.has_wrapper() {
            return self.whole();
        }
        View {
            sentence: self,
            first: range.start,
            tokens: self.read.tokens.get(range.clone()).unwrap_or_default(),
            text: self.tokens_text(range),
        }
    }

    fn core_tokens(&self) -> Range<usize> {
        if self.is_empty() {
            return 0..self.read.tokens.len();
        }
        let start = self.token_of(self.core.start);
        let last = self.token_of(self.core.end.saturating_sub(1));
        let end = match self.read.tokens.get(last + 1) {
            Some(Token::Break { .. }) => last + 2,
            _ => last + 1,
        };
        start..end.min(self.read.tokens.len())
    }

    /// The text from the first token of `tokens` to the end of its last.
    fn tokens_text(&self, tokens: Range<usize>) -> &str {
        let (Some(first), Some(last)) = (
            self.read.at.get(tokens.start),
            tokens
                .end
                .checked_sub(1)
                .and_then(|last| self.read.at.get(last)),
        ) else {
            return "";
        };
        self.text.get(first.start..last.end).unwrap_or_default()
    }

    /// The text from word `from` (a word index) to the end of the core, as written.
    pub fn core_text_from(&self, from: usize) -> &str {
        let start = self.word_at(from).start;
        let end = self.word_at(self.core.end.saturating_sub(1)).end;
        self.text.get(start..end.max(start)).unwrap_or_default()
    }

    /// The same reading with a narrower core (the answer to a grouped nudge without its
    /// number: "2 done" is "done" about task 2). Nothing is read again.
    pub fn with_core(&self, core: Range<usize>) -> Self {
        let mut narrowed = self.clone();
        if core.start < core.end && core.end <= self.len() {
            narrowed.core = core;
        }
        narrowed
    }

    /// Whether the whole message asks something (every clause is a question).
    pub fn only_asks(&self) -> bool {
        !self.clauses.is_empty() && self.clauses.iter().all(|clause| clause.asks)
    }

    /// Whether the message reads as a question: it ends with a question mark, or its core
    /// opens with a question word or a verb before its subject.
    pub fn is_question(&self) -> bool {
        let ends_asking = self.text.trim_end().ends_with('?');
        let core = self.core_words();
        let first = core.first().copied().unwrap_or_default();
        let second = core.get(1).copied().unwrap_or_default();
        ends_asking || lexicon::questions::opens_question(first, second)
    }

    /// Whether some clause is sarcastic.
    pub fn sarcastic(&self) -> bool {
        self.clauses.iter().any(|clause| clause.marks.sarcasm)
    }

    /// Whether the message only closes the conversation: some clause closes it and every
    /// other clause is phatic ("cool, see you tomorrow", "thanks, you're the best").
    pub fn only_closes(&self) -> bool {
        let phatic = |clause: &Clause| {
            self.clause_words(clause).iter().all(|word| {
                lexicon::courtesy::is_phatic(word) || lexicon::courtesy::is_soft_phatic(word)
            })
        };
        self.clauses
            .iter()
            .any(|clause| clause.mood == Mood::Closing)
            && self
                .clauses
                .iter()
                .all(|clause| clause.mood == Mood::Closing || phatic(clause))
    }

    /// Whether it says goodbye ("bye", "see you tomorrow", "talk to you later"); "later" alone
    /// is an answer ("remind me later"), not a goodbye.
    pub fn says_goodbye(&self) -> bool {
        use lexicon::closings;
        let words: Vec<_> = self.words().map(clause::without_apostrophes).collect();
        words
            .iter()
            .any(|word| closings::is_goodbye(word) && !matches!(&**word, "later" | "laters"))
            || closings::GOODBYE_PHRASES
                .iter()
                .any(|phrase| lexicon::holds(&words, phrase))
    }

    /// The titles the message quotes, as written (without the quotes).
    pub fn quoted(&self) -> impl Iterator<Item = &str> {
        self.quoted
            .iter()
            .filter_map(|range| self.text.get(range.clone()))
    }
}

/// Splits the tokens into clauses and reads each; a denial marks the clause before it.
fn clauses(read: &Tokens, word_tokens: &[usize], words: &[&str]) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    let mut first_word = 0;
    let mut first_token = 0;
    for (index, token) in read.tokens.iter().enumerate() {
        if let Token::Break { question_mark, .. } = token {
            let last_word = word_tokens.partition_point(|&t| t < index);
            if last_word > first_word {
                out.push(clause::read(
                    words,
                    first_word..last_word,
                    first_token..index,
                    *question_mark,
                ));
            }
            first_word = last_word;
            first_token = index + 1;
        }
    }
    if words.len() > first_word {
        out.push(clause::read(
            words,
            first_word..words.len(),
            first_token..read.tokens.len(),
            false,
        ));
    }
    for index in 1..out.len() {
        let own = &words[out[index].words.clone()];
        if clause::denies(own) {
            out[index].marks.denial = true;
            out[index - 1].marks.denied = true;
        }
    }
    out
}

#[cfg(test)]
mod tests;
