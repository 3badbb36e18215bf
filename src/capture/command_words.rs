//! Where people put a capture command besides the start of a message: behind a note prefix
//! followed by a colon or a dash ("reminder: ...", "note to self - ..."), or around the title
//! ("put 'buy milk' on the list"); and the body of a command, cut from the person's own text.
//! A polite opening ("can you", "could you please", "I need you to") is the sentence's wrapper
//! (`crate::sentence`), already set aside. Pure; `rules` decides what a message is.

use crate::sentence::lexicon;
use crate::sentence::tokens::squeeze;
use crate::sentence::Sentence;

/// "put 'buy milk' on the list", "stick oat milk on my shopping list", "throw X onto the
/// list": the words between the verb and the list. `start`: the core's first word.
pub fn put_on_the_list(said: &Sentence, start: usize) -> Option<String> {
    const VERBS: &[&str] = &[
        "put", "stick", "throw", "pop", "chuck", "whack", "jot", "write", "get", "slap", "bung",
    ];
    let words = said.words_of(start..said.core().end);
    let (verb, after) = words.split_first()?;
    if !VERBS.contains(verb) {
        return None;
    }
    for tail in ON_THE_LIST {
        if after.len() > tail.len()
            && lexicon::starts_with(&after[after.len() - tail.len()..], tail)
        {
            let body = start + 1..start + 1 + after.len() - tail.len();
            let (first, last) = (said.word_at(body.start), said.word_at(body.end - 1));
            let inner = said.text().get(first.start..last.end)?;
            return Some(unquoted(inner));
        }
    }
    None
}

/// Where "put X ... " puts it.
const ON_THE_LIST: &[&[&str]] = &[
    &["on", "the", "list"],
    &["on", "my", "list"],
    &["onto", "the", "list"],
    &["onto", "my", "list"],
    &["on", "the", "todo", "list"],
    &["on", "my", "todo", "list"],
    &["on", "my", "to", "do", "list"],
    &["on", "the", "to", "do", "list"],
    &["on", "my", "shopping", "list"],
    &["on", "the", "shopping", "list"],
    &["on", "my", "todos"],
    &["in", "my", "list"],
    &["in", "my", "todos"],
    &["down"],
    &["on", "my", "tasks"],
];

/// A title without the quotes around it ("'buy milk'" -> "buy milk").
fn unquoted(text: &str) -> String {
    let quotes: &[char] = &[
        '\'', '"', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '`',
    ];
    squeeze(text.trim().trim_matches(quotes).trim())
}

/// "reminder: call mum", "note to self - renew passport", "memo: ...", "task: ...", "nb: ...":
/// a prefix people use for notes, followed by a colon or a dash. `start`: the core's first word.
pub fn note_prefix(said: &Sentence, start: usize) -> Option<String> {
    const PREFIXES: &[&[&str]] = &[
        &["note", "to", "self"],
        &["reminder"],
        &["note"],
        &["memo"],
        &["task"],
        &["nb"],
        &["remember"],
        &["todo"],
        &["to", "do"],
    ];
    let words = said.words_of(start..said.core().end);
    let prefix = PREFIXES
        .iter()
        .find(|prefix| lexicon::starts_with(&words, prefix))?;
    let last = said.word_at(start + prefix.len() - 1);
    let after_prefix = said.text().get(last.end..)?.trim_start();
    if !after_prefix.starts_with([':', '-', '\u{2013}', '\u{2014}']) {
        return None;
    }
    if start + prefix.len() >= said.core().end {
        return Some(String::new());
    }
    Some(unquoted(&body_text(said, start + prefix.len())))
}

/// Trailing words that only say where the task goes ("add milk to my list").
const LIST_TAILS: [&[&str]; 10] = [
    &["to", "my", "list"],
    &["to", "the", "list"],
    &["to", "my", "todo", "list"],
    &["to", "my", "to", "do", "list"],
    &["to", "the", "todo", "list"],
    &["to", "my", "tasks"],
    &["to", "my", "task", "list"],
    &["to", "the", "shopping", "list"],
    &["to", "my", "shopping", "list"],
    &["on", "my", "list"],
];

/// The text from word `from` to the end of the core (the wrapper's last words, "thanks!",
/// set aside), without a list tail ("to my list") and without closing punctuation.
pub fn body_text(said: &Sentence, from: usize) -> String {
    let core = said.core();
    if from >= core.end {
        return String::new();
    }
    let text = said.text();
    let mut end = if core.end < said.len() {
        said.word_at(core.end).start
    } else {
        text.len()
    };
    let after = said.words_of(from..core.end);
    for tail in LIST_TAILS {
        // "add to my list" is all tail: nothing to add.
        if after.len() >= tail.len() {
            let at = after.len() - tail.len();
            if lexicon::starts_with(&after[at..], tail) {
                end = said.word_at(from + at).start;
                break;
            }
        }
    }
    let start = with_opening_marks(text, said, from);
    let body = text.get(start..end.max(start)).unwrap_or_default();
    squeeze(body.trim_end_matches(|c: char| c.is_whitespace() || ".!,;?".contains(c)))
}

/// Marks that open what follows them: "<b>", "(maybe)", "**urgent**", "`code`".
const OPENING_MARKS: &[char] = &['<', '(', '[', '{', '*', '_', '~', '`', '#', '@', '$', '&'];

/// Where the body starting at word `from` begins: before the opening marks written against it
/// ("add <b>bold</b> report" keeps its "<"), so a title holds the person's text, never half a
/// tag or a closing mark without its opening one.
fn with_opening_marks(text: &str, said: &Sentence, from: usize) -> usize {
    let start = said.word_at(from).start;
    let floor = from
        .checked_sub(1)
        .map_or(0, |before| said.word_at(before).end.min(start));
    let marks = text.get(floor..start).unwrap_or_default();
    let kept = marks
        .chars()
        .rev()
        .take_while(|c| OPENING_MARKS.contains(c))
        .map(char::len_utf8)
        .sum::<usize>();
    start - kept
}
