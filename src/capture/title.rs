//! A task title from the words of a capture: the body without its time words and without the
//! connecting words around them ("remind me [to] pay rent [friday 9am]" -> "Pay rent"), first
//! letter capitalised, the person's own spelling otherwise kept.

use std::ops::Range;

use crate::sentence::tokens::{pieces, squeeze, Join, Piece};

/// The words of a title being cut, with their places (the one tokenizer).
fn words(text: &str) -> Vec<Piece> {
    pieces(text, Join::Apostrophes)
}

/// Words that only connect the command to the task ("remind me to ...", "... about ...").
const LEADING: [&[&str]; 9] = [
    &["that", "i", "need", "to"],
    &["that", "i", "have", "to"],
    &["i", "need", "to"],
    &["i", "have", "to"],
    &["i", "should"],
    &["to"],
    &["about"],
    &["that"],
    &["of"],
];

/// Words left dangling before a time that was cut out ("pay rent at", "call mom on"): trimmed
/// only there, so a title's own last word stays ("try the jacket on").
const TRAILING: [&str; 15] = [
    "at", "on", "by", "before", "after", "until", "till", "in", "for", "and", "or", "please",
    "due", "the", "from",
];

/// Words that carry nothing at the very end of a message, time or not ("pay rent please").
const FILLERS: [&str; 4] = ["please", "pls", "and", "or"];

/// The title: `body` without the byte `ranges` (times), the words each cut left dangling and the
/// connectors around it trimmed, capitalised.
pub fn title_from(body: &str, ranges: &[Range<usize>]) -> String {
    let mut kept = String::with_capacity(body.len());
    let mut at = 0;
    let mut sorted: Vec<&Range<usize>> = ranges.iter().collect();
    sorted.sort_by_key(|range| range.start);
    for range in sorted {
        if range.start >= at && range.end <= body.len() && body.is_char_boundary(range.start) {
            kept.push_str(&body[at..range.start]);
            // A cut that took its own preposition ("at 6pm") leaves nothing dangling: the word
            // before it is the title's ("turn the heating on at 6pm").
            let cut_first_word = words(&body[range.start..range.end])
                .first()
                .map(|word| word.word.clone())
                .unwrap_or_default();
            if !TRAILING.contains(&cut_first_word.as_str()) {
                kept = without_trailing(&kept, &TRAILING);
            }
            kept.push(' ');
            at = range.end;
        }
    }
    if body.is_char_boundary(at) {
        kept.push_str(&body[at..]);
    }
    trim_connectors(&without_empty_brackets(&squeeze(&kept)))
}

/// `text` without brackets a cut emptied ("review the slides (30 min) please" -> "review the
/// slides please").
fn without_empty_brackets(text: &str) -> String {
    let mut text = text.to_string();
    for empty in ["( )", "()", "[ ]", "[]"] {
        text = text.replace(empty, "");
    }
    squeeze(&text)
}

fn trim_connectors(text: &str) -> String {
    let mut text = text
        .trim_matches(|c: char| c.is_whitespace() || ",;:-".contains(c))
        .to_string();
    loop {
        let found = words(&text);
        let leading = LEADING.iter().find(|lead| {
            found.len() > lead.len()
                && found
                    .iter()
                    .zip(lead.iter())
                    .all(|(word, expected)| word.word == *expected)
        });
        let Some(lead) = leading else { break };
        let cut = found[lead.len()].at.start;
        text = text[cut..].to_string();
    }
    let text = without_trailing(&text, &FILLERS);
    let text = text.trim_end_matches(|c: char| c.is_whitespace() || ".!,;:-".contains(c));
    if only_connectors(text) {
        // "remind me to", "remind me about <time>": nothing left to name a task.
        return String::new();
    }
    capitalise(text.trim())
}

/// `text` without the words of `trailing` at its end (and the separators before them); the
/// first word always stays.
fn without_trailing(text: &str, trailing: &[&str]) -> String {
    let mut text = text
        .trim_end_matches(|c: char| c.is_whitespace() || ",;:-".contains(c))
        .to_string();
    loop {
        let found = words(&text);
        match found.last() {
            Some(last) if found.len() > 1 && trailing.contains(&last.word.as_str()) => {
                text = text[..last.at.start].to_string();
            }
            _ => break,
        }
        text = text
            .trim_end_matches(|c: char| c.is_whitespace() || ",;:-".contains(c))
            .to_string();
    }
    text
}

/// Whether every word of `text` only connects a command to a task ("to", "about", "for"): such
/// a title names nothing, however it is capitalised.
fn only_connectors(text: &str) -> bool {
    words(text).iter().all(|word| {
        LEADING.iter().any(|lead| *lead == [word.word.as_str()])
            || TRAILING.contains(&word.word.as_str())
    })
}

/// First letter in upper case, the rest as written.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connectors_and_times_go_the_persons_words_stay() {
        for (body, cut, expected) in [
            ("to pay rent friday 9am", "friday 9am", "Pay rent"),
            ("tomorrow at 8 to call mom", "tomorrow at 8", "Call mom"),
            ("about the iPhone order", "", "The iPhone order"),
            ("to", "", ""),
            ("to tomorrow", "tomorrow", ""),
            ("about at 5pm", "5pm", ""),
            ("for tomorrow", "tomorrow", ""),
            (
                "review the slides (30 min) please",
                "30 min",
                "Review the slides",
            ),
            (
                "submit report due next tuesday",
                "next tuesday",
                "Submit report",
            ),
        ] {
            let ranges = match body.find(cut) {
                Some(start) if !cut.is_empty() => {
                    std::iter::once(start..start + cut.len()).collect()
                }
                _ => Vec::new(),
            };
            assert_eq!(title_from(body, &ranges), expected, "{body}");
        }
    }
}
