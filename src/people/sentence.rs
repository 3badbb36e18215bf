//! The sentences that set or ask for a person's time zone, read without a model.
//!
//! Set, naming the zone plainly (`explicit`: an unknown name is answered with the nearest
//! names): "my time zone is Europe/Berlin", "my timezone is now CET", "timezone CET", "set my
//! timezone to New York", "change the time zone to Tokyo", "set Europe/Paris as my time zone".
//! Set, saying where the person is now (not explicit: only a place that is a zone counts, so
//! "I'm in a meeting" is nothing): "I'm in Tokyo now", "I moved to London", "I live in Chicago
//! now", "we're based in Lisbon", "I'm on Tokyo time", "use Berlin time".
//! Ask: "what's my time zone?", "which timezone am I in?", "timezone".
//! Never: a question about a place ("what time is it in Tokyo?"), a negation ("I'm not in London
//! any more"), someone else ("my sister moved to London"), travel ahead or behind ("I'll be in
//! Berlin next week", "I was in Paris"), a capture or an event ("meeting in new york tomorrow").

use crate::sentence::lexicon::{courtesy, negators};
use crate::sentence::Sentence;

/// What a sentence says about the sender's time zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZoneSentence {
    /// Set the zone `name` names (the person's own spelling).
    Set {
        name: String,
        explicit: bool,
    },
    /// "set my time zone" without a name.
    SetWithoutName,
    /// "what's my time zone?"
    Ask,
    Nothing,
}

/// Words after the zone that say nothing about it ("I'm in Tokyo now, thanks"), besides the
/// phatic ones.
const CLOSERS: [&str; 5] = ["now", "you", "currently", "permanently", "anymore"];

fn closes(word: &str) -> bool {
    CLOSERS.contains(&word)
        || word == "again"
        || courtesy::is_please(word)
        || courtesy::is_thanks(word)
}
/// "my time zone is wrong" is a complaint, not a zone (nor is agreement: "fine", "ok").
const NOT_NAMES: [&str; 7] = [
    "wrong",
    "off",
    "incorrect",
    "right",
    "correct",
    "confusing",
    "broken",
];

/// The length of the time-zone word at `at`: "timezone", "tz", "time zone", "time-zone".
fn zone_word(words: &[&str], at: usize) -> Option<usize> {
    match words.get(at..) {
        Some(["timezone" | "tz", ..]) => Some(1),
        Some(["time", "zone", ..]) => Some(2),
        _ => None,
    }
}

fn mentions_zone(words: &[&str]) -> bool {
    (0..words.len()).any(|at| zone_word(words, at).is_some())
}

/// Reads a message.
pub fn read(message: &Sentence) -> ZoneSentence {
    let text = message.text();
    let all: Vec<&str> = message.words().collect();
    if all.iter().any(|word| negators::is_negator(word)) {
        return ZoneSentence::Nothing;
    }
    let start = all
        .iter()
        .take_while(|word| courtesy::is_phatic(word) || courtesy::is_soft_phatic(word))
        .count();
    let lower = &all[start..];
    if message.is_question() || text.trim_end().ends_with('?') {
        let about_me = lower.contains(&"my")
            || lower.windows(2).any(|pair| pair == ["am", "i"])
            || lower.contains(&"i'm");
        return if mentions_zone(lower) && about_me {
            ZoneSentence::Ask
        } else {
            ZoneSentence::Nothing
        };
    }
    if matches!(lower, ["my"] | []) {
        return ZoneSentence::Nothing;
    }
    let bare = match lower.first() {
        Some(&"my") => 1,
        _ => 0,
    };
    if zone_word(lower, bare).is_some_and(|len| bare + len == lower.len()) {
        return ZoneSentence::Ask;
    }
    if let Some(rest) = explicit(lower) {
        return set(message, start, rest, true);
    }
    if let Some(rest) = implicit(lower) {
        return set(message, start, rest, false);
    }
    ZoneSentence::Nothing
}

/// Where the name starts in an explicit command, if `words` is one.
fn explicit(words: &[&str]) -> Option<usize> {
    // "my time zone is (now) X", "timezone: X", "my tz should be X", "my timezone changed to X"
    let mine = usize::from(words.first() == Some(&"my"));
    if let Some(len) = zone_word(words, mine) {
        let mut at = mine + len;
        at += match words.get(at..) {
            Some(["is" | "to" | "as", ..]) => 1,
            Some(["should" | "must", "be", ..]) => 2,
            Some(["changed" | "moved", "to", ..]) => 2,
            _ => 0,
        };
        at += usize::from(words.get(at) == Some(&"now"));
        return Some(at);
    }
    match words {
        // "set my timezone to X", "change the time zone to X", "switch tz X"
        ["set" | "change" | "update" | "switch" | "make", rest @ ..] => {
            let owner = usize::from(matches!(rest.first(), Some(&"my" | &"the")));
            if let Some(len) = zone_word(rest, owner) {
                let at = 1 + owner + len;
                return Some(at + usize::from(matches!(words.get(at), Some(&"to" | &"as"))));
            }
            // "set Europe/Paris as my time zone"
            as_my_zone(words).map(|_| 1)
        }
        // "use Europe/Paris as my timezone"
        ["use", ..] if as_my_zone(words).is_some() => Some(1),
        _ => None,
    }
}

/// Where "as my time zone" starts, at the end of `words`.
fn as_my_zone(words: &[&str]) -> Option<usize> {
    (2..words.len()).find(|&at| {
        words[at..].first() == Some(&"as")
            && words.get(at + 1) == Some(&"my")
            && zone_word(words, at + 2).is_some_and(|len| at + 2 + len == words.len())
    })
}

/// Where the place starts in a sentence saying where the person is now, if `words` is one.
fn implicit(words: &[&str]) -> Option<usize> {
    let subject = match words {
        // "use Berlin time": only a place that is a zone counts ("use the car this time" is not)
        ["use", .., "time"] => return Some(1),
        ["i'm" | "im" | "we're", ..] => 1,
        ["i" | "we", "am" | "are", ..] => 2,
        ["i've" | "we've", "moved", ..] => 1,
        ["i" | "we", "have", "moved", ..] => 2,
        ["i" | "we", "moved" | "relocated" | "live" | "now" | "just", ..] => 1,
        // "moved to Toronto", "just moved to Lisbon": said of oneself, without "I"
        ["moved" | "relocated" | "just", ..] => 0,
        // "switch to Tokyo time"
        ["switch" | "change", "to", .., "time"] => return Some(2),
        _ => return None,
    };
    let mut at = subject;
    while matches!(
        words.get(at),
        Some(&"now" | &"currently" | &"just" | &"back")
    ) {
        at += 1;
    }
    let verb = match words.get(at..) {
        Some(["in", ..]) => 1,
        Some(["based" | "living" | "settled" | "located", "in", ..]) => 2,
        Some(["moved" | "relocated", "to", ..]) => 2,
        Some(["live", "in", ..]) => 2,
        Some(["on", ..]) if said_as_time(words) => 1,
        _ => return None,
    };
    Some(at + verb)
}

/// Whether the sentence ends with "time" (closing words aside): "I'm on Tokyo time now".
fn said_as_time(words: &[&str]) -> bool {
    words
        .iter()
        .rev()
        .find(|word| !closes(word))
        .is_some_and(|word| *word == "time")
}

/// The name from word `from` (after the `offset` opening words of `message`) up to the first
/// comma or semicolon after it ("I'm in London now, please update it"), without closing words.
fn set(message: &Sentence, offset: usize, from: usize, explicit: bool) -> ZoneSentence {
    let text = message.text();
    let count = message.len() - offset;
    let at = |index: usize| message.word_at(offset + index);
    let mut end = (from + 1..count)
        .find(|&index| text[at(index - 1).end..at(index).start].contains([',', ';']))
        .unwrap_or(count);
    while end > from && closes(message.word(offset + end - 1)) {
        end -= 1;
    }
    // "...as my time zone" closes the name too.
    let lower: Vec<&str> = message.words().skip(offset).collect();
    if let Some(found) = as_my_zone(&lower[..end]).filter(|&found| found > from) {
        end = found;
    }
    if end <= from {
        return if explicit {
            ZoneSentence::SetWithoutName
        } else {
            ZoneSentence::Nothing
        };
    }
    let mut start = at(from).start;
    // "+2", "-5": the sign is not part of a word.
    while start > 0 && matches!(text.as_bytes()[start - 1], b'+' | b'-') {
        start -= 1;
    }
    let name = text[start..at(end - 1).end].trim().to_string();
    let lower = name.to_lowercase();
    if NOT_NAMES.contains(&lower.as_str()) || courtesy::is_agreement(&lower) {
        return ZoneSentence::Nothing;
    }
    ZoneSentence::Set { name, explicit }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_cut_from_the_persons_own_words() {
        for (text, name, explicit) in [
            ("my time zone is Europe/Berlin", "Europe/Berlin", true),
            ("set my timezone to New York please", "New York", true),
            ("timezone: UTC+2", "UTC+2", true),
            ("I'm in Tokyo now.", "Tokyo", false),
            ("set Europe/Paris as my time zone", "Europe/Paris", true),
            ("moved to Toronto", "Toronto", false),
            ("just moved to Lisbon!", "Lisbon", false),
        ] {
            assert_eq!(
                read(&Sentence::read(text)),
                ZoneSentence::Set {
                    name: name.into(),
                    explicit
                },
                "{text}"
            );
        }
    }
}
