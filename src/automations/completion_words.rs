//! The words that ask a recurring reminder to repeat from completion, read without a model:
//! "every 2 weeks once I've done it", "every 3 days after I've done it", "every 10 days from
//! when I last did it", "every month after completion", and Todoist's "every! 2 weeks".
//!
//! Owns: where those words stand in a command's words (so they leave the title) and whether
//! "every" was written "every!".
//! Invariants: pure; only the reminder itself counts as what was done ("it", "that", "the last
//! one", or nothing after the verb): "after I've done the dishes" names another thing and is
//! not read here (it stays the reminder's own words).

use std::ops::Range;

/// Openers of the phrase: "once", "after", "when", "from when", "counting from when".
fn opener(words: &[&str]) -> Option<usize> {
    match words {
        ["counting" | "starting", "from", "when", ..] => Some(3),
        ["from" | "since", "when", ..] => Some(2),
        ["once" | "after" | "when" | "whenever", ..] => Some(1),
        _ => None,
    }
}

/// The person, or the reminder, before the verb: "I've", "I have", "I", "it's", "it is".
fn subject(words: &[&str]) -> Option<usize> {
    match words {
        ["it", "has", "been", ..] => Some(3),
        ["i", "have" | "had", ..] | ["it", "is" | "was" | "has", ..] => Some(2),
        ["i've" | "i'd" | "i" | "it's", ..] => Some(1),
        _ => None,
    }
}

fn done(word: &str) -> bool {
    matches!(
        word,
        "done" | "did" | "do" | "finished" | "finish" | "completed" | "complete"
    )
}

/// What was done: the reminder itself, or nothing said (the phrase ends there).
fn object(words: &[&str]) -> Option<usize> {
    match words {
        [] => Some(0),
        ["it" | "that" | "them" | "this", ..] => Some(1),
        ["the" | "each", "last", "one", ..] => Some(3),
        ["the" | "each", "one", ..] | ["each", "time", ..] => Some(2),
        [word, ..] if ends_phrase(word) => Some(0),
        _ => None,
    }
}

/// Words that may follow the phrase without naming something else that was done.
fn ends_phrase(word: &str) -> bool {
    matches!(
        word,
        "please" | "pls" | "thanks" | "thank" | "and" | "last" | "lastly"
    )
}

/// "I last did it", "I did it last": the optional "last" beside the verb.
fn last(words: &[&str]) -> usize {
    usize::from(words.first() == Some(&"last"))
}

/// "after completion", "from completion", "after each completion", "after completing it".
fn completion_noun(words: &[&str]) -> Option<usize> {
    match words {
        ["after" | "from", "completion", ..] => Some(2),
        ["after" | "from", "each" | "the" | "its", "completion", ..] => Some(3),
        ["after" | "from", "completing" | "finishing" | "doing", rest @ ..] => {
            object(rest).map(|len| 2 + len)
        }
        _ => None,
    }
}

/// The length of the phrase starting at `words[0]`, if one starts there.
fn phrase(words: &[&str]) -> Option<usize> {
    if let Some(len) = completion_noun(words) {
        return Some(len);
    }
    let mut at = opener(words)?;
    at += subject(&words[at..])?;
    at += last(&words[at..]);
    if !done(words.get(at)?) {
        return None;
    }
    at += 1;
    at += object(&words[at..])?;
    at += last(&words[at..]);
    Some(at)
}

/// Where the words asking to repeat from completion stand in `words` (lowercased, one per
/// word), outside `claimed`: the word indexes they take.
pub fn find(words: &[&str], claimed: &[bool]) -> Option<Range<usize>> {
    (0..words.len())
        .filter(|&at| !claimed.get(at).copied().unwrap_or(false))
        .find_map(|at| phrase(&words[at..]).map(|len| at..at + len))
        .filter(|range| {
            range
                .clone()
                .all(|at| !claimed.get(at).copied().unwrap_or(false))
        })
}

/// Whether "every" at bytes `every` of `text` is written "every!" (Todoist's way).
pub fn every_bang(text: &str, every: &Range<usize>) -> bool {
    text.get(every.clone())
        .is_some_and(|word| word.eq_ignore_ascii_case("every"))
        && text
            .get(every.end..)
            .is_some_and(|rest| rest.starts_with('!'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(sentence: &str) -> Option<String> {
        use crate::sentence::tokens::{words as words_of, Join};
        let words: Vec<String> = words_of(sentence, Join::Both);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        find(&words, &[]).map(|range| words[range].join(" "))
    }

    #[test]
    fn the_words_asking_to_repeat_from_completion_and_the_ones_that_do_not() {
        for (sentence, phrase) in [
            (
                "descale the kettle every 2 weeks once I've done it",
                Some("once i've done it"),
            ),
            (
                "water the plants every 3 days after I've done it",
                Some("after i've done it"),
            ),
            (
                "every 10 days from when I last did it",
                Some("from when i last did it"),
            ),
            (
                "every month after completion remind me to",
                Some("after completion"),
            ),
            (
                "every week, counting from when I finish it",
                Some("counting from when i finish it"),
            ),
            ("every 2 weeks after it's done", Some("after it's done")),
            (
                "every 2 weeks once I have finished the last one",
                Some("once i have finished the last one"),
            ),
            (
                "every 2 weeks after completing it please",
                Some("after completing it"),
            ),
            // Not the reminder itself, or no completion at all.
            ("every 2 weeks after I've done the dishes", None),
            ("every day once I'm home", None),
            ("every 2 weeks", None),
            ("every monday check what I've done", None),
            ("every day when I wake up", None),
        ] {
            assert_eq!(found(sentence).as_deref(), phrase, "{sentence:?}");
        }
    }

    #[test]
    fn every_bang_is_every_written_with_an_exclamation_mark() {
        assert!(every_bang("every! 2 weeks", &(0..5)));
        assert!(every_bang("Every!2 weeks", &(0..5)));
        assert!(!every_bang("every 2 weeks!", &(0..5)));
    }
}
