//! The base forms a word may have ("sent" -> send, "binned" -> bin, "postponing" -> postpone,
//! "tidied" -> tidy), and whether it is a past form ("sent", "watered", "knocked"), so that a
//! lexicon of verbs matches the way people conjugate them.
//!
//! Invariant (pure): `bases(word)` always holds the word itself; a base is only ever a guess
//! that a lexicon entry confirms: nothing here decides on its own that a word is a verb.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::lexicon::Words;

/// Irregular past forms and participles, with their base.
#[rustfmt::skip]
const IRREGULAR: &[(&str, &str)] = &[
    ("sent", "send"), ("paid", "pay"), ("did", "do"), ("done", "do"), ("made", "make"),
    ("bought", "buy"), ("took", "take"), ("taken", "take"), ("wrote", "write"),
    ("written", "write"), ("gave", "give"), ("given", "give"), ("brought", "bring"),
    ("sold", "sell"), ("found", "find"), ("ran", "run"), ("rang", "ring"), ("rung", "ring"),
    ("fed", "feed"), ("built", "build"), ("drew", "draw"), ("drawn", "draw"), ("drove", "drive"),
    ("driven", "drive"), ("swept", "sweep"), ("taught", "teach"), ("threw", "throw"),
    ("thrown", "throw"), ("won", "win"), ("hung", "hang"), ("met", "meet"), ("kept", "keep"),
    ("spent", "spend"), ("caught", "catch"), ("dug", "dig"), ("hid", "hide"), ("laid", "lay"),
    ("led", "lead"), ("lit", "light"), ("mown", "mow"), ("sewn", "sew"), ("shook", "shake"),
    ("shot", "shoot"), ("stuck", "stick"), ("struck", "strike"), ("tore", "tear"),
    ("torn", "tear"), ("woke", "wake"), ("got", "get"), ("gotten", "get"), ("went", "go"),
    ("gone", "go"), ("left", "leave"), ("forgot", "forget"), ("forgotten", "forget"),
    ("began", "begin"), ("begun", "begin"), ("chose", "choose"), ("chosen", "choose"),
    ("ate", "eat"), ("eaten", "eat"), ("spoke", "speak"), ("spoken", "speak"), ("told", "tell"),
    ("said", "say"), ("thought", "think"), ("felt", "feel"), ("heard", "hear"), ("knew", "know"),
    ("known", "know"), ("saw", "see"), ("seen", "see"), ("came", "come"), ("became", "become"),
    ("sang", "sing"), ("sung", "sing"), ("wore", "wear"), ("worn", "wear"), ("read", "read"),
    ("put", "put"), ("set", "set"), ("cut", "cut"), ("shut", "shut"), ("quit", "quit"),
    ("sorted", "sort"), ("understood", "understand"), ("held", "hold"), ("lent", "lend"),
    ("bent", "bend"), ("slept", "sleep"), ("swam", "swim"), ("flew", "fly"), ("flown", "fly"),
    ("froze", "freeze"), ("frozen", "freeze"), ("rode", "ride"), ("ridden", "ride"),
    ("broke", "break"), ("broken", "break"), ("stole", "steal"), ("stood", "stand"),
    ("fought", "fight"), ("sought", "seek"), ("wound", "wind"), ("ground", "grind"),
    ("dealt", "deal"), ("meant", "mean"), ("burnt", "burn"), ("learnt", "learn"),
    ("spelt", "spell"), ("spilt", "spill"), ("dreamt", "dream"), ("knelt", "kneel"),
    ("leapt", "leap"), ("smelt", "smell"), ("shone", "shine"), ("bit", "bite"), ("hit", "hit"),
    ("let", "let"), ("sat", "sit"), ("slid", "slide"), ("spun", "spin"), ("stung", "sting"),
    ("swung", "swing"), ("binned", "bin"), ("axed", "axe"),
];

/// The irregular forms by form (a form has one base).
fn irregular(word: &str) -> Option<&'static str> {
    static BY_FORM: OnceLock<HashMap<&'static str, &'static str, Words>> = OnceLock::new();
    BY_FORM
        .get_or_init(|| IRREGULAR.iter().copied().collect())
        .get(word)
        .copied()
}

/// The base forms `word` may have, itself first.
pub fn bases(word: &str) -> Vec<String> {
    let mut found = vec![word.to_string()];
    let mut add = |base: String| {
        if base.len() >= 2 && !found.contains(&base) {
            found.push(base);
        }
    };
    if let Some(base) = irregular(word) {
        add(base.to_string());
    }
    for (suffix, replacements) in [
        ("ied", &["y"][..]),
        ("ies", &["y"][..]),
        ("ed", &["", "e"][..]),
        ("ing", &["", "e"][..]),
        ("es", &["", "e"][..]),
        ("s", &[""][..]),
        ("d", &[""][..]),
    ] {
        let Some(stem) = word.strip_suffix(suffix) else {
            continue;
        };
        if stem.len() < 2 {
            continue;
        }
        for replacement in replacements {
            add(format!("{stem}{replacement}"));
        }
        // "dropped" -> drop, "binned" -> bin, "scrapping" -> scrap.
        let mut chars = stem.chars().rev();
        if let (Some(last), Some(before)) = (chars.next(), chars.next()) {
            if last == before {
                add(stem[..stem.len() - last.len_utf8()].to_string());
            }
        }
    }
    found
}

/// Whether `word` is a past form (a report that something happened): an irregular past or a
/// regular "-ed" form.
pub fn is_past(word: &str) -> bool {
    if word.len() >= 4 && word.ends_with("ed") {
        return !NOT_PAST.contains(&word);
    }
    irregular(word).is_some_and(|base| base != word)
}

/// Words that end in "ed" without being past forms.
#[rustfmt::skip]
const NOT_PAST: &[&str] = &[
    "need", "needed", "seed", "speed", "feed", "weed", "bed", "red", "shed", "bleed", "breed",
    "greed", "indeed", "proceed", "succeed", "exceed", "hundred", "sacred", "naked", "wicked",
    "wretched", "rugged", "ragged", "beloved", "learned", "aged", "blessed", "crooked", "dogged",
    "jagged", "kindred", "sled", "wed", "fled", "embed", "ted", "ned", "fred", "ed",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_has_the_bases_people_conjugate_it_from() {
        let table = [
            ("sent", "send"),
            ("binned", "bin"),
            ("dropped", "drop"),
            ("postponing", "postpone"),
            ("moved", "move"),
            ("tidied", "tidy"),
            ("knocked", "knock"),
            ("pushes", "push"),
            ("watered", "water"),
            ("cancelled", "cancel"),
            ("called", "call"),
        ];
        for (word, base) in table {
            assert!(
                bases(word).iter().any(|b| b == base),
                "{word} -> {base}: {:?}",
                bases(word)
            );
        }
    }

    #[test]
    fn past_forms_are_reports() {
        for word in ["sent", "paid", "watered", "knocked", "emailed", "did"] {
            assert!(is_past(word), "{word}");
        }
        for word in ["send", "pay", "need", "speed", "do", "red"] {
            assert!(!is_past(word), "{word}");
        }
    }
}
