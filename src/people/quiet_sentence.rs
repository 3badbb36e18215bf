//! The sentences that set, reset or ask for a person's own quiet hours, read without a model.
//!
//! Set, naming them: "quiet hours 23:00 to 7:00", "set my quiet hours to 22:00-06:30", "my
//! quiet hours are 11pm to 7am", "do not disturb from 10pm until 8".
//! Set, asking not to be nudged at night: "don't nudge me between 10pm and 7am", "no reminders
//! after 11pm until 8", "please stop pinging me from 23:00 to 07:00" (the hours must be all
//! that follows: "don't remind me about the report between 10 and 7" is not this).
//! Reset: "use the default quiet hours", "reset my quiet hours", "quiet hours back to normal".
//! Ask: "quiet hours?", "what are my quiet hours?", "when are my quiet hours".
//! Never: a sentence without quiet hours or a nudge refused ("I'm quiet today", "the meeting
//! runs from 10 to 7"), a question about nudges, a negated setting ("I don't want quiet hours").
//! Times: "23:00", "7:00", "10pm", "10:30 pm", "7 a.m.", "noon", "midnight", or a bare hour
//! (1 to 12) read as the one that makes the shorter night; both ends bare with no shorter
//! reading ("quiet hours 10 to 10") asks (`Unclear`) instead of guessing.

use chrono::NaiveTime;

use crate::config::QuietHours;
use crate::sentence::lexicon::{courtesy, negators};
use crate::sentence::tokens::Join;
use crate::sentence::Sentence;

/// What a sentence says about the sender's quiet hours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuietSentence {
    /// Set these (local times in the person's zone).
    Set(QuietHours),
    /// Back to the config's default.
    Reset,
    /// "what are my quiet hours?"
    Ask,
    /// About quiet hours, without hours Donna can read: she asks for them.
    Unclear,
    Nothing,
}

/// One end of the range as written: a clock time, or a bare hour that may be either half of
/// the day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Clock(NaiveTime),
    Bare(u32),
}

impl End {
    fn readings(self) -> Vec<NaiveTime> {
        match self {
            End::Clock(time) => vec![time],
            End::Bare(hour) => [hour % 12, hour % 12 + 12]
                .into_iter()
                .filter_map(|hour| NaiveTime::from_hms_opt(hour, 0, 0))
                .collect(),
        }
    }
}

/// Reads a message.
pub fn read(message: &Sentence) -> QuietSentence {
    let pieces = message.pieces(Join::Both);
    let all: Vec<&str> = pieces.iter().map(|piece| piece.word.as_str()).collect();
    let start = all
        .iter()
        .take_while(|word| {
            courtesy::is_phatic(word) || courtesy::is_soft_phatic(word) || courtesy::is_please(word)
        })
        .count();
    let words = &all[start..];
    let named = (0..words.len()).find_map(|at| quiet_words(&words[at..]).map(|len| (at, len)));
    if let Some(len) = refusal(words) {
        return match hours(&words[len..]) {
            Some(Some(hours)) => QuietSentence::Set(hours),
            Some(None) => QuietSentence::Unclear,
            None => QuietSentence::Nothing,
        };
    }
    let Some((at, len)) = named else {
        return QuietSentence::Nothing;
    };
    if words.iter().any(|word| negators::is_negator(word)) {
        return QuietSentence::Nothing;
    }
    if message.is_question() || message.text().trim_end().ends_with('?') {
        return QuietSentence::Ask;
    }
    let before = &words[..at];
    let after = &words[at + len..];
    // Only a command may stand before the words: "set my", "change the", "my".
    if !before.iter().all(|word| COMMAND.contains(word)) {
        return QuietSentence::Nothing;
    }
    if before.iter().chain(after).any(|word| RESETS.contains(word)) {
        return QuietSentence::Reset;
    }
    if after.is_empty() && !before.iter().any(|word| SETS.contains(word)) {
        return QuietSentence::Ask;
    }
    let after = match after {
        ["are" | "is" | "to" | "should" | "be" | "from" | "as", rest @ ..] => rest,
        rest => rest,
    };
    let after = match after {
        ["be" | "to", rest @ ..] => rest,
        rest => rest,
    };
    match hours(after) {
        Some(Some(hours)) => QuietSentence::Set(hours),
        _ => QuietSentence::Unclear,
    }
}

/// Words that may stand before "quiet hours" in a command.
const COMMAND: [&str; 17] = [
    "set", "change", "update", "make", "use", "my", "the", "reset", "restore", "put", "give", "me",
    "clear", "back", "default", "usual", "normal",
];
/// Of those, the ones that ask for a change (so "set my quiet hours" asks which).
const SETS: [&str; 5] = ["set", "change", "update", "make", "put"];
/// Words that give back the default.
const RESETS: [&str; 6] = ["default", "defaults", "reset", "usual", "normal", "restore"];

/// The length of "quiet hours" at the start of `words`: "quiet hours", "quiet time", "do not
/// disturb", "dnd".
fn quiet_words(words: &[&str]) -> Option<usize> {
    match words {
        ["quiet", "hours" | "hour" | "time" | "times", ..] => Some(2),
        ["do", "not", "disturb", ..] => Some(3),
        ["dnd", ..] => Some(1),
        _ => None,
    }
}

/// The length of a refusal to be nudged at the start of `words`: "don't nudge me", "no
/// reminders", "stop pinging me".
fn refusal(words: &[&str]) -> Option<usize> {
    let not = match words {
        ["don't" | "dont" | "never", ..] => 1,
        ["do", "not", ..] => 2,
        ["no", rest @ ..] => {
            return match rest {
                [noun, ..] if NOUNS.contains(noun) => Some(2),
                _ => None,
            }
        }
        ["stop", ..] => 1,
        _ => return None,
    };
    let verb = words.get(not)?;
    if !VERBS.iter().any(|known| verb.starts_with(known)) {
        return None;
    }
    Some(not + 1 + usize::from(matches!(words.get(not + 1), Some(&"me" | &"us"))))
}

const VERBS: [&str; 9] = [
    "nudg", "remind", "ping", "messag", "bother", "disturb", "notify", "text", "dm",
];
const NOUNS: [&str; 7] = [
    "reminders",
    "nudges",
    "pings",
    "messages",
    "notifications",
    "alerts",
    "dms",
];

/// The range `words` say and nothing else (courtesies at the end aside): Some(Some) read,
/// Some(None) a range Donna cannot read either way, None no range at all.
fn hours(words: &[&str]) -> Option<Option<QuietHours>> {
    let mut words = words;
    while let [rest @ .., last] = words {
        if courtesy::is_please(last) || courtesy::is_thanks(last) || *last == "night" {
            words = rest;
        } else {
            break;
        }
    }
    let words = match words {
        [rest @ .., "at"] => rest,
        rest => rest,
    };
    let (from, to) = ends(words)?;
    Some(chosen(from, to))
}

/// The two ends: "X to Y", "from X to Y", "between X and Y", "after X until Y", "X-Y".
fn ends(words: &[&str]) -> Option<(End, End)> {
    let words = match words {
        ["from" | "between" | "after" | "past", rest @ ..] => rest,
        rest => rest,
    };
    if let [range] = words {
        let (from, to) = range.split_once('-')?;
        return Some((end(&[from])?.0, end(&[to])?.0));
    }
    let (from, used) = end(words)?;
    let rest = &words[used..];
    let rest = match rest {
        ["and", "before", rest @ ..] => rest,
        ["to" | "until" | "till" | "til" | "and" | "-" | "through", rest @ ..] => rest,
        // "10 pm - 6 am": the dash between spaces is no word.
        rest => rest,
    };
    let (to, used) = end(rest)?;
    (used == rest.len()).then_some((from, to))
}

/// One end at the start of `words`, and how many words it took.
fn end(words: &[&str]) -> Option<(End, usize)> {
    let first = *words.first()?;
    match first {
        "midnight" => return Some((End::Clock(NaiveTime::MIN), 1)),
        "noon" | "midday" => return Some((End::Clock(NaiveTime::from_hms_opt(12, 0, 0)?), 1)),
        _ => {}
    }
    let (digits, half) = split_half(first);
    let (half, used) = match (half, words.get(1).map(|next| split_half(next))) {
        (Some(half), _) => (Some(half), 1),
        (None, Some(("", Some(half)))) => (Some(half), 2),
        _ => (None, 1),
    };
    let (hour, minute) = match digits.split_once(':') {
        Some((hour, minute)) => (hour.parse::<u32>().ok()?, Some(minute.parse::<u32>().ok()?)),
        None => (digits.parse::<u32>().ok()?, None),
    };
    let time = |hour| NaiveTime::from_hms_opt(hour, minute.unwrap_or(0), 0);
    let at = match half {
        Some(pm) if (1..=12).contains(&hour) => End::Clock(time(hour % 12 + 12 * u32::from(pm))?),
        Some(_) => return None,
        None if minute.is_some() || hour == 0 || hour > 12 => End::Clock(time(hour)?),
        None => End::Bare(hour),
    };
    Some((at, used))
}

/// "10pm" -> ("10", Some(true)); "7a.m" -> ("7", Some(false)); "23:00" -> ("23:00", None).
fn split_half(word: &str) -> (&str, Option<bool>) {
    for (mark, pm) in [
        ("a.m", false),
        ("am", false),
        ("a", false),
        ("p.m", true),
        ("pm", true),
        ("p", true),
    ] {
        if let Some(digits) = word.strip_suffix(mark) {
            if digits.is_empty() || digits.ends_with(|c: char| c.is_ascii_digit()) {
                return (digits, Some(pm));
            }
        }
    }
    (word, None)
}

/// The range the ends make: for a bare hour, the reading that makes the shorter span (a bare
/// "8" after 23:00 is 08:00); None when no reading is shorter or the ends are equal.
fn chosen(from: End, to: End) -> Option<QuietHours> {
    let span = |start: NaiveTime, end: NaiveTime| {
        let minutes = (end - start).num_minutes();
        if minutes <= 0 {
            minutes + 24 * 60
        } else {
            minutes
        }
    };
    let mut options: Vec<(i64, QuietHours)> = from
        .readings()
        .into_iter()
        .flat_map(|start| to.readings().into_iter().map(move |end| (start, end)))
        .filter(|(start, end)| start != end)
        .map(|(start, end)| (span(start, end), QuietHours { start, end }))
        .collect();
    options.sort_by_key(|(span, _)| *span);
    match options.as_slice() {
        [(_, only)] => Some(*only),
        [(first, hours), (second, _), ..] if first < second => Some(*hours),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hours(text: &str) -> QuietHours {
        QuietHours::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn sentences_that_set_reset_ask_and_the_ones_that_do_nothing() {
        use QuietSentence::*;
        for (text, expected) in [
            ("quiet hours 23:00 to 7:00", Set(hours("23:00-07:00"))),
            (
                "set my quiet hours to 22:00-06:30",
                Set(hours("22:00-06:30")),
            ),
            ("my quiet hours are 11pm to 7am", Set(hours("23:00-07:00"))),
            (
                "Quiet hours: 10 pm - 6 am please",
                Set(hours("22:00-06:00")),
            ),
            (
                "don't nudge me between 10pm and 7am",
                Set(hours("22:00-07:00")),
            ),
            ("no reminders after 11pm until 8", Set(hours("23:00-08:00"))),
            (
                "please stop pinging me from 23:00 to 07:00",
                Set(hours("23:00-07:00")),
            ),
            (
                "do not disturb from midnight until 9",
                Set(hours("00:00-09:00")),
            ),
            (
                "hey, do not message me between 1 and 9:30am",
                Set(hours("01:00-09:30")),
            ),
            ("use the default quiet hours", Reset),
            ("reset my quiet hours", Reset),
            ("quiet hours back to normal", Reset),
            ("quiet hours?", Ask),
            ("what are my quiet hours?", Ask),
            ("my quiet hours", Ask),
            ("set my quiet hours", Unclear),
            ("quiet hours 10 to 10", Unclear),
            ("quiet hours from late to early", Unclear),
            ("I'm quiet today", Nothing),
            ("the meeting runs from 10 to 7", Nothing),
            ("remind me to call mom between 10 and 7", Nothing),
            ("don't remind me about the report between 10 and 7", Nothing),
            ("don't nudge me about taxes", Nothing),
            ("I don't want quiet hours", Nothing),
            ("the library has quiet hours from 9 to 5", Nothing),
            ("no reminders today", Nothing),
        ] {
            assert_eq!(read(&Sentence::read(text)), expected, "{text:?}");
        }
    }
}
