//! One reading of a message (ARCHITECTURE.md, "A message is analysed once per turn"): one
//! tokenizer, one definition of each shared list of words, one zone table, and one place where
//! a turn analyses its message. Read from the parsed sources (syn), test code aside.
//!
//! - Tokenizers: outside `src/sentence/`, no `split_whitespace`, no `split` (nor its kin) on a
//!   class of characters (`is_alphanumeric`, `is_whitespace`, ...), no `char_indices` walk in a
//!   function that tests `is_alphanumeric`: people's words are split by `sentence::tokens`.
//!   Text that is not people's words (a /proc line) is named in [`NOT_WORDS`] with the reason.
//! - Word lists: every list of `src/sentence/lexicon/` is read from its source; any other
//!   collection of string literals in `src/` (an array, a slice, the alternatives of a `match`
//!   or `matches!`) holding three or more words of one of them is a second copy.
//! - The zone table: the abbreviations of `src/tasks/when/zones.rs`; three or more of them in
//!   another collection are a second table.
//! - One analysis: `Sentence::read` is called in `src/` (outside `src/sentence/` and tests)
//!   only in `src/turn/message_reading.rs`.

/// The `Visit` methods that keep a visitor out of test code (`#[cfg(test)]` modules and
/// `#[test]` functions): `outside_test_code!('ast);` in an `impl<'ast> Visit<'ast>`.
macro_rules! outside_test_code {
    ($ast:lifetime) => {
        fn visit_item_mod(&mut self, module: &$ast syn::ItemMod) {
            if !crate::lengths::is_test_code(&module.attrs) {
                syn::visit::visit_item_mod(self, module);
            }
        }

        fn visit_item_fn(&mut self, item: &$ast syn::ItemFn) {
            if !crate::lengths::is_test_code(&item.attrs) {
                syn::visit::visit_item_fn(self, item);
            }
        }
    };
}

mod analysis;
mod tokenizers;
mod word_lists;

pub use analysis::check_one_analysis;
pub use tokenizers::check_tokenizers;
pub use word_lists::check_word_lists;

use crate::source::under;

/// The module that owns the tokenizer and the word lists.
const SENTENCE: &str = "src/sentence";
/// Where the shared word lists are defined.
const LEXICON: &str = "src/sentence/lexicon";
/// The one zone table.
const ZONE_TABLE: &str = "src/tasks/when/zones.rs";
/// The one place a turn analyses its message.
const ANALYSIS: &str = "src/turn/message_reading.rs";
/// How many words of a list make a collection a second copy of it.
const SHARED: usize = 3;

/// The guarded lists: (file, list, how many of its words make a copy, whether only its
/// phrases and marked verbs count). The verbs that open a question are also everyday verbs, so
/// only a list holding most of them copies them; the done / later / cancel lexicon holds
/// everyday words ("hours", "until"), so only its phrases and verbs ("took care", "pay+")
/// count.
const GUARDED: &[(&str, &str, usize, bool)] = &[
    (
        "src/sentence/lexicon/questions.rs",
        "QUESTION_WORDS",
        SHARED,
        false,
    ),
    ("src/sentence/lexicon/questions.rs", "AUXILIARIES", 6, false),
    (
        "src/sentence/lexicon/negators.rs",
        "NEGATORS",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/negators.rs",
        "NOT_QUITE",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/negators.rs",
        "REFUSALS",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/courtesy.rs",
        "GREETINGS",
        SHARED,
        false,
    ),
    ("src/sentence/lexicon/courtesy.rs", "THANKS", SHARED, false),
    (
        "src/sentence/lexicon/courtesy.rs",
        "APOLOGIES",
        SHARED,
        false,
    ),
    ("src/sentence/lexicon/courtesy.rs", "PLEASE", SHARED, false),
    (
        "src/sentence/lexicon/courtesy.rs",
        "INTERJECTIONS",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/courtesy.rs",
        "AGREEMENT",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/courtesy.rs",
        "POLITE_OPENERS",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/courtesy.rs",
        "PHATIC_PHRASES",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/closings.rs",
        "GOODBYES",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/closings.rs",
        "CLOSING_PHRASES",
        SHARED,
        false,
    ),
    (
        "src/sentence/lexicon/closings.rs",
        "COMPLIMENTS",
        SHARED,
        false,
    ),
    ("src/sentence/lexicon/moods.rs", "WISHES", SHARED, false),
    ("src/sentence/lexicon/moods.rs", "CONDITIONS", SHARED, false),
    ("src/sentence/lexicon/moods.rs", "HABITS", SHARED, false),
    (
        "src/sentence/lexicon/moods.rs",
        "SUGGESTIONS",
        SHARED,
        false,
    ),
    ("src/sentence/lexicon/moods.rs", "SARCASM", SHARED, false),
    ("src/sentence/lexicon/moods.rs", "DENIALS", SHARED, false),
    ("src/sentence/lexicon/moods.rs", "LAUGHTER", SHARED, false),
    ("src/sentence/lexicon/deeds.rs", "DONE", SHARED, true),
    ("src/sentence/lexicon/deeds.rs", "MOVE", SHARED, true),
    ("src/sentence/lexicon/deeds.rs", "SNOOZE", SHARED, true),
    ("src/sentence/lexicon/deeds.rs", "CANCEL", SHARED, true),
    ("src/sentence/lexicon/deeds.rs", "RENAME", SHARED, true),
    ("src/sentence/lexicon/deeds.rs", "CREATE", SHARED, true),
    ("src/sentence/lexicon/deeds.rs", "CHANGE", SHARED, true),
    (
        "src/sentence/lexicon/calendar.rs",
        "CALENDAR_NOUNS",
        SHARED,
        false,
    ),
    ("src/sentence/lexicon/calendar.rs", "FREE", SHARED, false),
    ("src/sentence/lexicon/calendar.rs", "BUSY", SHARED, false),
    (ZONE_TABLE, "NAMED", SHARED, false),
    (ZONE_TABLE, "AMBIGUOUS", SHARED, false),
];

/// Files that split text that is not people's words, and why.
fn parsed(path: &std::path::Path, text: &str, out: &mut Vec<String>) -> Option<syn::File> {
    match syn::parse_file(text) {
        Ok(file) => Some(file),
        Err(error) => {
            out.push(format!("{}: cannot parse: {error}", path.display()));
            None
        }
    }
}

/// Whether a piece of code names a character class anywhere (an identifier of [`CLASSES`]).
/// Whether a file holds only tests (a `tests.rs` module file).
fn test_file(path: &std::path::Path) -> bool {
    path.file_name().is_some_and(|name| name == "tests.rs")
}

/// Whether a file is checked: in `src/`, not a test file, not under `skipped`.
fn checked(path: &std::path::Path, skipped: &[&str]) -> bool {
    under(path, "src") && !test_file(path) && !skipped.iter().any(|prefix| under(path, prefix))
}

#[cfg(test)]
mod tests;
