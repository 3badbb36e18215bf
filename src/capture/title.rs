//! A task title from the words of a capture: the body without its time words and without the
//! connecting words around them ("remind me [to] pay rent [friday 9am]" -> "Pay rent"), first
//! letter capitalised, the person's own spelling otherwise kept.

use std::ops::Range;

use super::sentence::{squeeze, words};

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

/// Words left dangling at the end once a time was cut out ("pay rent at", "call mom on").
const TRAILING: [&str; 15] = [
    "at", "on", "by", "before", "after", "until", "till", "in", "for", "and", "or", "please",
    "due", "the", "from",
];

/// The title: `body` without the byte `ranges` (times), connectors trimmed, capitalised.
pub fn title_from(body: &str, ranges: &[Range<usize>]) -> String {
    let mut kept = String::with_capacity(body.len());
    let mut at = 0;
    let mut sorted: Vec<&Range<usize>> = ranges.iter().collect();
    sorted.sort_by_key(|range| range.start);
    for range in sorted {
        if range.start >= at && range.end <= body.len() && body.is_char_boundary(range.start) {
            kept.push_str(&body[at..range.start]);
            kept.push(' ');
            at = range.end;
        }
    }
    if body.is_char_boundary(at) {
        kept.push_str(&body[at..]);
    }
    trim_connectors(&squeeze(&kept))
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
                    .all(|(word, expected)| word.text == *expected)
        });
        let Some(lead) = leading else { break };
        let cut = found[lead.len()].range.start;
        text = text[cut..].to_string();
    }
    loop {
        let found = words(&text);
        match found.last() {
            Some(last) if found.len() > 1 && TRAILING.contains(&last.text.as_str()) => {
                text = text[..last.range.start].to_string();
            }
            _ => break,
        }
        text = text
            .trim_end_matches(|c: char| c.is_whitespace() || ",;:-".contains(c))
            .to_string();
    }
    let text = text.trim_end_matches(|c: char| c.is_whitespace() || ".!,;:-".contains(c));
    if only_connectors(text) {
        // "remind me to", "remind me about <time>": nothing left to name a task.
        return String::new();
    }
    capitalise(text.trim())
}

/// Whether every word of `text` only connects a command to a task ("to", "about", "for"): such
/// a title names nothing, however it is capitalised.
fn only_connectors(text: &str) -> bool {
    words(text).iter().all(|word| {
        LEADING.iter().any(|lead| *lead == [word.text.as_str()])
            || TRAILING.contains(&word.text.as_str())
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
