//! Where people put a capture command besides the start of a message: after a polite opening
//! ("can you", "could you please", "I need you to"), behind a note prefix followed by a colon
//! or a dash ("reminder: ...", "note to self - ..."), or around the title ("put 'buy milk' on
//! the list"). Pure; `rules` decides what a message is.

use super::sentence::{squeeze, Word};

/// Openings that make a command polite ("can you", "could you please", "would you mind",
/// "I need you to"): how many words they take.
pub fn polite_opening(all: &[Word]) -> usize {
    const POLITE: &[&[&str]] = &[
        &["would", "you", "mind"],
        &["can", "you", "please"],
        &["could", "you", "please"],
        &["would", "you", "please"],
        &["will", "you", "please"],
        &["can", "you"],
        &["could", "you"],
        &["would", "you"],
        &["will", "you"],
        &["can", "u"],
        &["could", "u"],
        &["i", "need", "you", "to"],
        &["i", "want", "you", "to"],
        &["i'd", "like", "you", "to"],
        &["id", "like", "you", "to"],
        &["kindly"],
    ];
    let start = leading_fillers(all);
    POLITE
        .iter()
        .find(|polite| starts_with(&all[start..], polite))
        .map_or(0, |polite| start + polite.len())
}

/// "put 'buy milk' on the list", "stick oat milk on my shopping list", "throw X onto the
/// list": the words between the verb and the list.
pub fn put_on_the_list(text: &str, rest: &[Word]) -> Option<String> {
    const VERBS: &[&str] = &[
        "put", "stick", "throw", "pop", "chuck", "whack", "jot", "write", "get", "slap", "bung",
    ];
    let (verb, after) = rest.split_first()?;
    if !VERBS.contains(&verb.text.as_str()) {
        return None;
    }
    for tail in ON_THE_LIST {
        if after.len() > tail.len() && starts_with(&after[after.len() - tail.len()..], tail) {
            let body = &after[..after.len() - tail.len()];
            let (first, last) = (body.first()?, body.last()?);
            let inner = text.get(first.range.start..last.range.end)?;
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
/// a prefix people use for notes, followed by a colon or a dash.
pub fn note_prefix(text: &str, rest: &[Word]) -> Option<String> {
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
    let prefix = PREFIXES.iter().find(|prefix| starts_with(rest, prefix))?;
    let last = rest.get(prefix.len() - 1)?;
    let after_prefix = text.get(last.range.end..)?.trim_start();
    if !after_prefix.starts_with([':', '-', '\u{2013}', '\u{2014}']) {
        return None;
    }
    let body = rest.get(prefix.len()..)?;
    Some(unquoted(&body_text(text, body)))
}

/// Words that open a message without meaning anything for the rules.
const FILLERS: [&str; 11] = [
    "please", "pls", "plz", "donna", "hey", "hi", "ok", "okay", "oh", "also", "and",
];

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

/// How many words at the start are fillers (always leaving at least one word).
pub fn leading_fillers(all: &[Word]) -> usize {
    let mut start = 0;
    while start + 1 < all.len() && FILLERS.contains(&all[start].text.as_str()) {
        start += 1;
    }
    start
}

pub fn starts_with(words: &[Word], command: &[&str]) -> bool {
    words.len() >= command.len()
        && words
            .iter()
            .zip(command)
            .all(|(word, expected)| word.text == *expected)
}

/// The text from the first of `after` to the end, without a list tail ("to my list") and
/// without a leading colon or dash.
pub fn body_text(text: &str, after: &[Word]) -> String {
    let Some(first) = after.first() else {
        return String::new();
    };
    let mut end = text.len();
    for tail in LIST_TAILS {
        // "add to my list" is all tail: nothing to add.
        if after.len() >= tail.len() {
            let from = after.len() - tail.len();
            if starts_with(&after[from..], tail) {
                end = after[from].range.start;
                break;
            }
        }
    }
    let body = &text[first.range.start..end];
    squeeze(body.trim_end_matches(|c: char| c.is_whitespace() || ".!,;?".contains(c)))
}
