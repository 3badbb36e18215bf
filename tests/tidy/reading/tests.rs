//! The checks of one reading on synthetic sources: each fires, and stays quiet on good input.

use super::word_lists::guarded_lists;
use super::*;
use crate::source::fake_files as files;

const LEXICON_FILE: (&str, &str) = (
    "src/sentence/lexicon/questions.rs",
    "pub const QUESTION_WORDS: &[&str] = &[\"what\", \"when\", \"where\", \"who\", \"why\"];\n\
     pub const UNGUARDED: &[&str] = &[\"milk\", \"eggs\", \"bread\"];\n",
);
const NEGATORS_FILE: (&str, &str) = (
    "src/sentence/lexicon/negators.rs",
    "pub const NEGATORS: &[&str] = &[\"not\", \"never\", \"no\", \"nor\"];\n",
);
const ZONES_FILE: (&str, &str) = (
    "src/tasks/when/zones.rs",
    "const NAMED: [(&str, &str); 4] = [(\"est\", \"America/New_York\"), (\"pst\", \
     \"America/Los_Angeles\"), (\"cet\", \"Europe/Berlin\"), (\"jst\", \"Asia/Tokyo\")];\n",
);

#[test]
fn a_second_tokenizer_is_reported_and_the_one_tokenizer_is_not() {
    let found = check_tokenizers(&files(&[
        (
            "src/capture/x.rs",
            "fn a(t: &str) -> Vec<&str> { t.split_whitespace().collect() }\n\
             fn b(t: &str) -> Vec<&str> { t.split(|c: char| !c.is_alphanumeric()).collect() }\n\
             fn c(t: &str) { for (at, c) in t.char_indices() { if c.is_alphanumeric() { let _ = at; } } }\n\
             fn d(t: &str) -> Vec<&str> { t.split(',').collect() }\n\
             #[cfg(test)] mod tests { fn e(t: &str) { let _ = t.split_whitespace(); } }\n",
        ),
        (
            "src/sentence/tokens.rs",
            "fn scan(t: &str) { for (at, c) in t.char_indices() { let _ = (at, c.is_alphanumeric()); } }\n",
        ),
        (
            "src/metrics/process.rs",
            "fn f(t: &str) { let _ = t.split_whitespace(); }\n",
        ),
    ]));
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].contains("src/capture/x.rs:1"), "{found:?}");
    assert!(found[1].contains(":2:"), "{found:?}");
    assert!(found[2].contains(":3:"), "{found:?}");
}

#[test]
fn a_second_copy_of_a_word_list_or_of_the_zone_table_is_reported() {
    let found = check_word_lists(&files(&[
        LEXICON_FILE,
        NEGATORS_FILE,
        ZONES_FILE,
        (
            "src/capture/x.rs",
            "const OPENERS: [&str; 3] = [\"what\", \"when\", \"where\"];\n\
             fn a(w: &str) -> bool { matches!(w, \"not\" | \"never\" | \"nor\") }\n\
             fn b(w: &str) -> bool { match w { \"est\" | \"pst\" | \"cet\" => true, _ => false } }\n\
             const PLACES: [(&str, &str); 3] = [(\"est\", \"x\"), (\"pst\", \"y\"), (\"jst\", \"z\")];\n\
             const FINE: [&str; 4] = [\"what\", \"milk\", \"eggs\", \"bread\"];\n\
             #[cfg(test)] mod tests { const T: [&str; 3] = [\"what\", \"when\", \"who\"]; }\n",
        ),
    ]));
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(
        found[0].contains(":1:") && found[0].contains("QUESTION_WORDS"),
        "{found:?}"
    );
    assert!(
        found[1].contains(":2:") && found[1].contains("NEGATORS"),
        "{found:?}"
    );
    assert!(
        found[2].contains(":3:") && found[2].contains("zone table"),
        "{found:?}"
    );
    assert!(
        found[3].contains(":4:") && found[3].contains("zone table"),
        "{found:?}"
    );
}

#[test]
fn the_lexicon_lists_are_read_from_their_source() {
    let lists = guarded_lists(&files(&[LEXICON_FILE, NEGATORS_FILE, ZONES_FILE]));
    let names: Vec<&str> = lists.iter().map(|list| list.name.as_str()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(lists
        .iter()
        .any(|list| list.words.contains(&"jst".to_string())));
    assert!(
        !names.iter().any(|name| name.contains("UNGUARDED")),
        "{names:?}"
    );
}

#[test]
fn a_message_analysed_outside_the_turns_one_place_is_reported() {
    let found = check_one_analysis(&files(&[
        (
            "src/turn/gate.rs",
            "fn a(t: &str) { let _ = crate::sentence::Sentence::read(t); }\n\
             #[cfg(test)] mod tests { fn b() { let _ = Sentence::read(\"x\"); } }\n",
        ),
        (
            "src/turn/message_reading.rs",
            "fn c(t: &str) { let _ = Sentence::read(t); }\n",
        ),
    ]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("src/turn/gate.rs:1:"), "{found:?}");
}
