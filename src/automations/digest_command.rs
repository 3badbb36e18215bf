//! Reading a daily digest command without a model: "send me my agenda every day at 8am",
//! "daily summary at 7", "every morning at 8 send me my tasks", "give me a digest every weekday
//! at 9" -> a schedule for an automation of kind `digest`, or why it cannot be used, or "not a
//! digest".
//!
//! Owns: what makes a message a digest request: a digest word (agenda, digest, summary,
//! briefing, rundown, overview, "my tasks", "my to-do list"), a schedule ("every day", "every
//! morning", "every weekday", "each monday", "daily <digest word>"), and nothing else but
//! courtesies, the verbs of asking (send, give, show me) and the time of day. The time is read
//! by the time reader, `tasks::when` (none: [`DEFAULT_HOUR`]); "every evening at 6" is 18:00.
//! Invariants: pure (no clock, no store). Never a digest: a question, a negation ("don't send
//! me ...", "stop sending ..."), a reminder ("every day at 8 remind me to send the agenda": a
//! normal automation), a message with other content ("send the agenda to Bob every day") or
//! without a schedule ("send me my agenda": the agenda, once, now).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use std::ops::Range;

use super::repeat::{find_repeat, Found, Repeat};
use super::rule::rule_and_words;
use super::schedule::Schedule;
use super::stated::said_in;
use crate::sentence::lexicon::{courtesy, negators, questions};
use crate::sentence::tokens::Join;
use crate::sentence::Sentence;
use crate::tasks::when::{find_time_of_day, WhenError};

/// The hour a digest is sent when the person names none.
pub const DEFAULT_HOUR: u32 = 8;

/// What a message says about a daily digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DigestReading {
    NotDigest,
    /// A digest to propose, on this schedule; `time_stated`: the person said its time ("at
    /// 7"), so it is sent then even in their quiet hours (Donna's 08:00 waits for them to end).
    Digest {
        schedule: Schedule,
        time_stated: bool,
    },
    /// A digest Donna cannot use as said; the text asks the person what she needs.
    Unreadable(String),
}

/// Words that are the digest itself (one of them, or a list word after "my", must be there).
const DIGEST_WORDS: [&str; 6] = [
    "agenda", "digest", "summary", "briefing", "rundown", "overview",
];
/// "my tasks", "my to-do list": these count as the digest only after "my" ("every day at 9
/// plan tasks" is a reminder).
const LIST_WORDS: [&str; 8] = [
    "tasks",
    "todos",
    "to-dos",
    "list",
    "todo",
    "to-do",
    "task",
    "reminders",
];
/// Everything else a digest request may say (besides the phatic words: "please", "hey").
const ALLOWED: [&str; 40] = [
    "send",
    "give",
    "show",
    "get",
    "post",
    "dm",
    "message",
    "text",
    "me",
    "my",
    "a",
    "an",
    "the",
    "i",
    "i'd",
    "want",
    "would",
    "like",
    "love",
    "need",
    "to",
    "of",
    "with",
    "and",
    "for",
    "on",
    "in",
    "here",
    "up",
    "daily",
    "weekly",
    "day",
    "today",
    "today's",
    "what's",
    "whats",
    "due",
    "overdue",
    "everything",
    "open",
];
/// What may follow "i" / "i'd" in a request ("I want my agenda ..."); anything else is a report
/// ("I get a summary every day at 8").
const ASKING: [&str; 5] = ["want", "would", "need", "like", "love"];
/// Parts of the day that mean "every day" after every/each, and whether they are afternoon.
const DAY_PARTS: [(&str, bool); 6] = [
    ("morning", false),
    ("mornings", false),
    ("afternoon", true),
    ("evening", true),
    ("evenings", true),
    ("night", true),
];

/// Reads a message as a digest command, in `tz`, at `now`.
pub fn read(message: &Sentence, now: DateTime<Utc>, tz: Tz) -> DigestReading {
    let text = message.text();
    let mut words: Vec<String> = message
        .pieces(Join::Both)
        .into_iter()
        .map(|piece| piece.word)
        .collect();
    let said = |words: &[String], list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let first = words.iter().position(|w| !courtesy::is_phatic(w));
    let is_question = text.trim_end().ends_with('?')
        || first.is_some_and(|at| {
            let next = words.get(at + 1).map(String::as_str).unwrap_or_default();
            questions::opens_question(&words[at], next)
        });
    let a_report = words.iter().enumerate().any(|(at, word)| {
        matches!(word.as_str(), "i" | "i'd")
            && !words
                .get(at + 1)
                .is_some_and(|next| ASKING.contains(&next.as_str()))
    });
    let reminder = said(&words, &["remind", "reminder"]);
    if is_question || a_report || reminder || words.iter().any(|w| negators::refuses(w)) {
        return DigestReading::NotDigest;
    }
    let after_my = |at: usize| at > 0 && words[at - 1] == "my";
    let has_digest_word = words.iter().enumerate().any(|(at, word)| {
        DIGEST_WORDS.contains(&word.as_str())
            || (LIST_WORDS.contains(&word.as_str()) && after_my(at))
            // "send me what's due every morning"
            || (matches!(word.as_str(), "due" | "overdue")
                && at > 0
                && matches!(words[at - 1].as_str(), "what's" | "whats"))
    });
    if !has_digest_word {
        return DigestReading::NotDigest;
    }
    in_the_afternoon(&mut words);
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    let (start, end, repeat) = match schedule_in(&refs) {
        Some(Ok(found)) => found,
        Some(Err(question)) => return DigestReading::Unreadable(question),
        None => return DigestReading::NotDigest,
    };
    // Anything but digest words, the schedule and the time makes it something else ("... to
    // the team"), before any question about the time is asked.
    let other_words = refs.iter().enumerate().any(|(at, word)| {
        let known = ALLOWED.contains(word)
            || courtesy::is_phatic(word)
            || DIGEST_WORDS.contains(word)
            || LIST_WORDS.contains(word)
            || is_time_word(word)
            || matches!(*word, "every" | "each")
            || DAY_PARTS.iter().any(|(part, _)| part == word);
        !(start..end).contains(&at) && !known
    });
    if other_words {
        return DigestReading::NotDigest;
    }
    // "every morning": the part of the day is the schedule's here, not a time (the digest's
    // own hour stays the default).
    let end = if refs
        .get(end)
        .is_some_and(|w| DAY_PARTS.iter().any(|(part, _)| part == w))
        && end > 0
        && matches!(refs.get(end - 1), Some(&"every" | &"each"))
    {
        end + 1
    } else {
        end
    };
    let (hour, minute, time_stated) = match time_of_day(&refs, start..end) {
        Ok(Some(time)) => time,
        Ok(None) => (DEFAULT_HOUR, 0, false),
        Err(question) => return DigestReading::Unreadable(question),
    };
    digest_on(&repeat, (hour, minute), time_stated, tz, now)
}

/// The digest on `repeat` at `time` in `tz`, from now on, or the question to ask.
fn digest_on(
    repeat: &Repeat,
    (hour, minute): (u32, u32),
    time_stated: bool,
    tz: Tz,
    now: DateTime<Utc>,
) -> DigestReading {
    let today = now.with_timezone(&tz).date_naive();
    let (rrule, words_said) = rule_and_words(repeat, hour, minute, today, today);
    match Schedule::starting_after(&rrule, tz, &words_said, now) {
        Ok(schedule) => DigestReading::Digest {
            schedule,
            time_stated,
        },
        Err(error) => {
            tracing::warn!(%error, "a digest rule Donna wrote does not expand");
            DigestReading::Unreadable(
                "I couldn't work out when to send it. Can you say it another way?".into(),
            )
        }
    }
}

/// "every evening at 6": an afternoon part of the day makes a bare hour the afternoon's.
fn in_the_afternoon(words: &mut [String]) {
    let afternoon = words.windows(2).any(|pair| {
        matches!(pair[0].as_str(), "every" | "each")
            && DAY_PARTS.iter().any(|(part, pm)| *pm && pair[1] == *part)
    });
    if !afternoon {
        return;
    }
    for at in 1..words.len() {
        let bare_hour = words[at]
            .parse::<u32>()
            .is_ok_and(|h| (1..=11).contains(&h));
        let meridiem_next = words
            .get(at + 1)
            .is_some_and(|w| matches!(w.as_str(), "am" | "pm"));
        if words[at - 1] == "at" && bare_hour && !meridiem_next {
            words[at] = format!("{}pm", words[at]);
        }
    }
}

/// The time of day in `words` outside the schedule phrase `skip`, read by the time reader:
/// (hour, minute, whether the words name the moment), none, or the question to ask.
fn time_of_day(words: &[&str], skip: Range<usize>) -> Result<Option<(u32, u32, bool)>, String> {
    use chrono::Timelike;
    let mut text = String::new();
    let mut skipped: Vec<Range<usize>> = Vec::new();
    for (at, word) in words.iter().enumerate() {
        if !text.is_empty() {
            text.push(' ');
        }
        if skip.contains(&at) {
            skipped.push(text.len()..text.len() + word.len());
        }
        text.push_str(word);
    }
    match find_time_of_day(&text, &skipped) {
        Ok(time) => Ok(time.map(|t| {
            let stated = said_in(&text, &t.ranges);
            (t.time.hour(), t.time.minute(), stated)
        })),
        Err(WhenError::AmbiguousHour(hour)) => Err(format!(
            "At {hour} in the morning ({hour:02}:00) or in the afternoon ({:02}:00)?",
            hour + 12
        )),
        Err(error) => Err(format!(
            "I couldn't read the time in that ({error}). At what time should I send it?"
        )),
    }
}

/// A word of a time of day: "at", "7", "7:30", "8am", "pm", "noon", "midnight".
fn is_time_word(word: &str) -> bool {
    let digits = word.trim_end_matches("am").trim_end_matches("pm");
    matches!(
        word,
        "at" | "am" | "pm" | "a.m" | "p.m" | "noon" | "midday" | "midnight"
    ) || (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || c == ':'))
}

/// The schedule phrase: what `find_repeat` reads, or "every evening", or "daily <digest word>"
/// with a time or after "a" ("daily summary at 7", "a daily briefing"): its span and repeat.
fn schedule_in(words: &[&str]) -> Option<Result<(usize, usize, Repeat), String>> {
    match find_repeat(words) {
        Some(Found::Repeat {
            start, end, repeat, ..
        }) => return Some(Ok((start, end, repeat))),
        Some(Found::Ask(question)) => return Some(Err(question)),
        None => {}
    }
    let daily = Repeat::Daily { interval: 1 };
    for at in 0..words.len() {
        let next = words.get(at + 1).copied().unwrap_or("");
        if matches!(words[at], "every" | "each") && DAY_PARTS.iter().any(|(part, _)| *part == next)
        {
            return Some(Ok((at, at + 2, daily.clone())));
        }
        // "a daily briefing", "daily summary at 7"; "my daily agenda" alone is today's.
        let recurring = words.contains(&"at") || (at > 0 && matches!(words[at - 1], "a" | "an"));
        if words[at] == "daily" && DIGEST_WORDS.contains(&next) && recurring {
            return Some(Ok((at, at + 1, daily.clone())));
        }
    }
    None
}
