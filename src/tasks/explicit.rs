//! Whether the words that said a time name the moment themselves (a time the
//! person gave explicitly is honoured in quiet hours).
//!
//! Explicit: a clock time ("23:00", "11pm", "5 pm", "at 7", "7 o'clock", "5.30pm", "noon",
//! "midnight", an RFC 3339 time) or a span from now in hours or minutes ("in 2 hours", "in half
//! an hour", "in 45m", "an hour from now"): the person chose the moment. Not explicit: a day
//! alone ("tomorrow", "friday": Donna picks 09:00), a part of the day ("tonight", "morning"),
//! "later" (`reschedule.later`) or a span of days ("in 3 days": the time of day is now's).
//!
//! Pure: reads only the words it is given (those the time reader used), so it does not depend
//! on how the reader resolves them. Tested as a table of phrases below.

use crate::sentence::tokens::{words, Join};

/// Words of an hour-or-minute span ("in 2 hours", "an hour from now").
const SPAN_UNITS: [&str; 10] = [
    "hour", "hours", "hr", "hrs", "h", "minute", "minutes", "min", "mins", "m",
];

/// Whether `word` is a unit of an hour-or-minute span ("hour", "mins", "h").
pub fn is_span_unit(word: &str) -> bool {
    SPAN_UNITS.contains(&word)
}

/// Named clock times.
const NAMED_TIMES: [&str; 3] = ["noon", "midday", "midnight"];

/// Whether `words` (the words a time was read from) name the moment themselves.
pub fn names_the_moment(said: &str) -> bool {
    let lower = said.to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    // "23:00", "5:30pm", "2026-12-03T14:00": a colon between digits.
    if chars.windows(3).any(|w| {
        w[0].is_ascii_digit() && (w[1] == ':' || w[1] == '\u{2236}') && w[2].is_ascii_digit()
    }) {
        return true;
    }
    // The one tokenizer's command view: "o'clock", "5.30pm" and "a.m" stay whole.
    let owned = words(&lower, Join::Both);
    let tokens: Vec<&str> = owned.iter().map(String::as_str).collect();
    let is_number = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
    for (index, token) in tokens.iter().enumerate() {
        let next = tokens.get(index + 1).copied().unwrap_or_default();
        if NAMED_TIMES.contains(token) || clock_token(token) {
            return true;
        }
        // "5 pm", "7 o'clock", "at 7", "at 17".
        if is_number(token)
            && matches!(
                next,
                "am" | "pm" | "a.m" | "p.m" | "o'clock" | "oclock" | "h"
            )
        {
            return true;
        }
        if *token == "at" && is_number(next) {
            return true;
        }
        // "in 2 hours", "in half an hour", "in an hour and a half", "in 45m".
        if *token == "in" && span_follows(&tokens[index + 1..]) {
            return true;
        }
        // "an hour from now", "20 minutes from now".
        if SPAN_UNITS.contains(token) && next == "from" {
            return true;
        }
    }
    false
}

/// "11pm", "7am", "17h", "5.30pm", "45m" is not a clock (a span, counted by `span_follows`).
fn clock_token(token: &str) -> bool {
    let split = token
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(token.len());
    let (number, suffix) = token.split_at(split);
    !number.is_empty()
        && number.starts_with(|c: char| c.is_ascii_digit())
        && matches!(suffix, "am" | "pm" | "a" | "p" | "a.m" | "p.m")
}

/// Whether an hour or minute span follows "in" within a few words ("2 hours", "half an hour",
/// "an hour", "1 hour 30 minutes", "45m", "2h").
fn span_follows(rest: &[&str]) -> bool {
    rest.iter().take(4).any(|token| {
        if SPAN_UNITS.contains(token) {
            return true;
        }
        let split = token
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(token.len());
        let (number, unit) = token.split_at(split);
        !number.is_empty() && matches!(unit, "h" | "hr" | "hrs" | "m" | "min" | "mins")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_moment_is_named_by_a_clock_time_or_a_span_of_hours_and_nothing_else() {
        for (words, explicit) in [
            ("at 23:00", true),
            ("23:00", true),
            ("tomorrow at 7am", true),
            ("11pm", true),
            ("at 11 pm", true),
            ("5.30pm", true),
            ("friday 9am", true),
            ("at 17", true),
            ("7 o'clock", true),
            ("noon", true),
            ("at midnight", true),
            ("2026-12-03T14:00", true),
            ("in 2 hours", true),
            ("in half an hour", true),
            ("in an hour", true),
            ("in 45m", true),
            ("in 2h", true),
            ("in 1 hour 30 minutes", true),
            ("an hour from now", true),
            ("tomorrow", false),
            ("friday", false),
            ("tonight", false),
            ("tomorrow morning", false),
            ("this evening", false),
            ("later", false),
            ("in 3 days", false),
            ("in a week", false),
            ("next month", false),
            ("dec 3", false),
            ("on the 21st", false),
            ("", false),
        ] {
            assert_eq!(names_the_moment(words), explicit, "{words:?}");
        }
    }
}
