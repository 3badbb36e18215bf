//! The wrapper of a message: the phatic words at either end that say nothing about what the
//! person wants ("hey donna,", "ok", "sorry,", "ugh", "honestly", "could you", "please",
//! "thanks!"). What is left is the core, and a reader of the core reads the same message with
//! or without them: "ok, remind me at 7" is "remind me at 7".
//!
//! Rules (pure):
//! - At the start: polite openers ("could you please"), phatic phrases ("thank you", "good
//!   morning", "my bad"), phatic words (greetings, thanks, apologies, please, interjections,
//!   agreement, "donna"), and the soft ones ("well", "so", "oh", "right") only before a break
//!   or another phatic word ("well done" is no wrapper).
//! - At the end: "please", interjections and laughter ("push it please", "rent went up again
//!   ugh"); thanks, an apology or "donna" only after a break ("done, thanks!", "not yet, sorry"),
//!   since "say thanks to Anna" and "call donna" mean them.
//! - A message that is all wrapper ("yes please", "thanks!") is its own core.

use std::ops::Range;

use super::lexicon::{self, courtesy, moods};

/// The core's words (indices into `words`); `breaks_after[i]` says whether a clause break
/// follows word `i`.
pub fn core(words: &[&str], breaks_after: &[bool]) -> Range<usize> {
    let mut start = 0;
    while start < words.len() {
        let rest = &words[start..];
        if let Some(length) = lexicon::longest_opening(rest, courtesy::POLITE_OPENERS)
            .or_else(|| lexicon::longest_opening(rest, courtesy::PHATIC_PHRASES))
        {
            start += length;
            continue;
        }
        let word = words[start];
        let soft = courtesy::is_soft_phatic(word)
            && (breaks_after.get(start) == Some(&true)
                || words.get(start + 1).is_some_and(|next| {
                    courtesy::is_phatic(next) || courtesy::is_soft_phatic(next)
                }));
        if courtesy::is_phatic(word) || soft {
            start += 1;
            continue;
        }
        break;
    }
    let end = trailing_start(words, breaks_after, start);
    if start >= end {
        return 0..words.len();
    }
    start..end
}

/// Where the wrapper at the end starts: "please", an interjection or laughter anywhere at the
/// end ("push it please", "rent went up again ugh"); thanks, an apology or "donna" only after a
/// break ("done, thanks!"), since "say thanks to Anna" and "call donna" are what is meant.
fn trailing_start(words: &[&str], breaks_after: &[bool], start: usize) -> usize {
    let loose = |word: &str| {
        courtesy::is_please(word)
            || courtesy::is_interjection(word)
            || moods::LAUGHTER.contains(&word)
    };
    let after_a_break = |word: &str| {
        courtesy::is_thanks(word)
            || courtesy::is_apology(word)
            || courtesy::is_address(word)
            || courtesy::is_greeting(word)
            || courtesy::is_agreement(word)
            || matches!(word, "you" | "u" | "so" | "much" | "again")
    };
    let mut end = words.len();
    while end > start && loose(words[end - 1]) {
        end -= 1;
    }
    // A run of thanks-like words after the last break: "done, thank you so much!".
    let mut run = end;
    while run > start && after_a_break(words[run - 1]) {
        run -= 1;
    }
    let broken = run > start && breaks_after.get(run - 1) == Some(&true);
    let thanks_in_run = words[run..end].iter().any(|word| {
        courtesy::is_thanks(word) || courtesy::is_apology(word) || courtesy::is_address(word)
    });
    if run < end && broken && thanks_in_run {
        end = run;
        while end > start && loose(words[end - 1]) {
            end -= 1;
        }
    }
    end
}
