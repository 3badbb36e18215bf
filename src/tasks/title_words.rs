//! A task title's words as duplicate detection and title references compare them (docs/contract.md
//! "Tasks named in chat", "Duplicates"): lower case, punctuation and the articles a/an/the
//! removed, spaces collapsed ("Renew the Passport!" -> "renew passport").
//!
//! Pure. Invariant: `distinct_words(t)` is exactly the set of words of `normalise(t)`, so the
//! title index (`title_index`) and the Jaccard check of `capture::duplicates` agree.

use std::collections::BTreeSet;

use crate::sentence::tokens::{words, Join};

/// The normalised title (the one tokenizer's words, every mark splitting them).
pub fn normalise(title: &str) -> String {
    words(title, Join::Nothing)
        .into_iter()
        .filter(|word| !matches!(word.as_str(), "a" | "an" | "the"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The distinct words of the normalised title.
pub fn distinct_words(title: &str) -> BTreeSet<String> {
    normalise(title)
        .split(' ')
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether titles of `a` and `b` distinct words sharing `shared` of them reach a Jaccard index
/// of 0.8: shared / (a + b - shared) >= 4/5, in integers (9 * shared >= 4 * (a + b)).
pub fn reach_four_fifths(shared: usize, a: usize, b: usize) -> bool {
    9 * shared >= 4 * (a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_case_without_articles_or_punctuation_and_counted_once() {
        let words: Vec<String> = distinct_words("Renew the Passport! renew, A passport")
            .into_iter()
            .collect();
        assert_eq!(words, ["passport", "renew"]);
        assert!(distinct_words("the a an !!").is_empty());
    }

    #[test]
    fn four_fifths_in_integers_is_the_float_jaccard() {
        for a in 1..=40usize {
            for b in 1..=40usize {
                for shared in 0..=a.min(b) {
                    let float = shared as f64 / (a + b - shared) as f64 >= 0.8;
                    assert_eq!(
                        reach_four_fifths(shared, a, b),
                        float,
                        "{shared} of {a}, {b}"
                    );
                }
            }
        }
    }
}
