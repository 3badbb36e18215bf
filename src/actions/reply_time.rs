//! What a keyword reply's own words say about its time, beyond the instant the reader finds:
//! whether a reschedule reply that names no time asks for "later" ("push it", "postpone
//! please") or says something the reader could not place ("postpone till the audit", "move it
//! when you can"), and how long a snooze reply asks for ("snooze 20 min", "give me an hour", "busy
//! till 5pm"), checked against the snooze action's range.
//!
//! Invariants: "later" is used only when the reply says it or names no time at all; a word the
//! reader could not place is asked about (or read by the model), never replaced by "later". A
//! snooze length outside the action's declared range is refused with the range, not clamped.

use serde_json::{Map, Value};

use super::registry::ActionDef;
use super::snooze_length::say_minutes;
use crate::sentence::lexicon::courtesy;
use crate::sentence::tokens::{self, Join};
use crate::tasks::when::{find_when, WhenContext};

/// The reason given when a reschedule reply says more than "move it" but names no time.
pub const UNCLEAR_TIME: &str = "I couldn't tell which time you mean";

/// Words that say nothing about a time in a short reschedule reply: the moving verbs, their
/// objects and particles, fillers (and the phatic words of `sentence::lexicon::courtesy`).
#[rustfmt::skip]
const NAME_NO_TIME: &[&str] = &[
    "push", "move", "postpone", "reschedule", "delay", "defer", "bump", "shift", "put", "it",
    "this", "that", "task", "one", "you", "just", "then", "again", "back", "out", "off", "up",
    "for", "now", "a", "bit", "little", "the", "to", "can", "could", "would", "will", "i", "i'll",
    "me", "we", "let's", "lets", "let", "us",
];

/// The lowercased words of `text` (the one tokenizer: letters, digits and apostrophes inside a
/// word).
fn words(text: &str) -> Vec<String> {
    tokens::words(text, Join::Apostrophes)
}

/// Whether a reply that names no time says more than "move it": a word that is neither one of
/// the matched `keyword`'s nor one of [`NAME_NO_TIME`]. "push it" and "postpone please" do not;
/// "postpone till the audit", "push it, can't today" and "move it to the 5th" do.
pub fn says_more_than_moving(text: &str, keyword: &str) -> bool {
    let keyword = words(keyword);
    words(text).iter().any(|word| {
        !keyword.contains(word)
            && !NAME_NO_TIME.contains(&word.as_str())
            && !courtesy::is_phatic(word)
    })
}

/// Fills the snooze length a reply names ("snooze 20 min": 20 minutes; "busy till 5pm": until
/// then) into `params`, in the action's `duration_minutes` when it declares one, else in whole
/// hours (rounded up) in `duration_hours`. Nothing named: `params` stay (the default). A time
/// that cannot be used, or a length outside the declared range, is refused: the sentence for
/// the person.
pub fn fill_snooze_length(
    def: &ActionDef,
    text: &str,
    context: &WhenContext,
    params: &mut Map<String, Value>,
) -> Result<(), String> {
    let at = match find_when(text, context) {
        Ok(Some(at)) => at,
        Ok(None) => return Ok(()),
        Err(error) => {
            return Err(format!(
                "I couldn't use that time ({error}), so nothing changed."
            ))
        }
    };
    let seconds = (at - context.now).num_seconds().max(0);
    let minutes = seconds.saturating_add(59) / 60;
    let (name, minutes_per_unit) = if def.params.contains_key("duration_minutes") {
        ("duration_minutes", 1)
    } else {
        ("duration_hours", 60)
    };
    let Some(param) = def.params.get(name) else {
        return Ok(());
    };
    // Declared bounds in minutes; a bound not declared leaves that side open.
    let bound = |limit: Option<f64>| limit.map(|limit| (limit * minutes_per_unit as f64) as i64);
    let (min, max) = (bound(param.min), bound(param.max));
    let below = min.is_some_and(|min| minutes < min);
    let above = max.is_some_and(|max| minutes > max);
    if below || above {
        let range = match (min, max) {
            (Some(min), Some(max)) => format!("for {} to {}", say_minutes(min), say_minutes(max)),
            (Some(min), None) => format!("for at least {}", say_minutes(min)),
            (None, Some(max)) => format!("for at most {}", say_minutes(max)),
            (None, None) => String::new(),
        };
        return Err(format!(
            "I can snooze {range}, not {}, so nothing changed.",
            say_minutes(minutes)
        ));
    }
    let value = (minutes + minutes_per_unit - 1) / minutes_per_unit;
    params.insert(name.to_string(), Value::from(value));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_reply_with_no_other_word_means_later() {
        let means_later = [
            ("push it", "push"),
            ("Push it!", "push"),
            ("postpone please", "postpone"),
            ("reschedule", "reschedule"),
            ("move it back", "move"),
            ("ok, push it then", "push"),
            ("could you postpone it", "postpone"),
        ];
        for (text, keyword) in means_later {
            assert!(
                !says_more_than_moving(text, keyword),
                "{text:?} means later"
            );
        }
        let says_more = [
            ("postpone a fortnight", "postpone"),
            ("push it, can't today", "push"),
            ("move it to the 5th", "move"),
            ("push it to next year", "push"),
            ("move it to end of day", "move"),
            ("push it after lunch", "push"),
        ];
        for (text, keyword) in says_more {
            assert!(says_more_than_moving(text, keyword), "{text:?} says more");
        }
    }
}
