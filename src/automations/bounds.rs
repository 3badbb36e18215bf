//! The bounds of a recurring reminder: when it stops ("until march", "until 1 feb", "till
//! friday", "for 6 weeks"), how many times it fires ("10 times"), and when it starts
//! ("starting next monday", "from 1 december", "beginning tomorrow"). Dates are read by the
//! time reader (`tasks::when`), in the reading zone.
//!
//! Invariants: pure. A bound whose date cannot be read ("until I finish the book", "until feb
//! 30") is a question with the reason, never dropped or left in the title. "until <day>"
//! includes that day; a stop and a count together are asked about (RFC 5545 allows one).

use chrono::{DateTime, Datelike, Days, Months, NaiveDate, Utc};

use crate::tasks::when::{find_when, names_only_a_time, WhenContext};

/// A count of weeks, months, ... after "for".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Length {
    Days(u32),
    Weeks(u32),
    Months(u32),
    Years(u32),
}

/// What the bounds say, and the words (token indices) that said them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Bounds {
    /// The last local day it may fire on.
    pub(super) until: Option<NaiveDate>,
    pub(super) length: Option<Length>,
    pub(super) count: Option<u32>,
    /// The first local day it may fire on.
    pub(super) starting: Option<NaiveDate>,
    pub(super) words: Vec<usize>,
}

const STOPS: [&str; 4] = ["until", "till", "til", "through"];
const STARTS: [&str; 5] = ["starting", "beginning", "from", "commencing", "effective"];
/// Words that end a bound's date ("until march | remind me ...").
const ENDS_A_DATE: [&str; 14] = [
    "remind",
    "to",
    "every",
    "each",
    "at",
    "until",
    "till",
    "starting",
    "beginning",
    "from",
    "for",
    "and",
    "then",
    "daily",
];
/// The most occurrences a count may ask for.
const MAX_COUNT: u32 = 1_000;

/// A count in words or digits; a number too big for a count saturates (and is refused later as
/// too long or too many), so it is never dropped into the title.
fn number(word: &str) -> Option<u32> {
    let words = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    if let Some(i) = words.iter().position(|w| *w == word) {
        return u32::try_from(i + 1).ok();
    }
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(word.parse().unwrap_or(u32::MAX))
}

/// The longest run of words after the bound word at `at` that is nothing but a time, read as
/// "until <run>" (so a month or a day of the month reads as a date after any bound word): its
/// local date and its last index.
fn date_after(
    words: &[&str],
    originals: &[&str],
    at: usize,
    skip: &[bool],
    ctx: &WhenContext,
) -> Option<Result<(NaiveDate, usize), String>> {
    let mut end = at + 1;
    while end < words.len()
        && end < at + 8
        && !skip.get(end).copied().unwrap_or(true)
        && !ENDS_A_DATE.contains(&words[end])
    {
        end += 1;
    }
    for last in (at + 1..end).rev() {
        let text = format!("until {}", originals.get(at + 1..=last)?.join(" "));
        if !names_only_a_time(&text) {
            continue;
        }
        return Some(match find_when(&text, ctx) {
            Ok(Some(when)) => Ok((local_date(when, ctx), last)),
            Ok(None) => continue,
            Err(error) => Err(format!(
                "I couldn't read \"{}\" ({error}). When should it stop or start?",
                originals.get(at + 1..=last)?.join(" ")
            )),
        });
    }
    None
}

fn local_date(at: DateTime<Utc>, ctx: &WhenContext) -> NaiveDate {
    at.with_timezone(&ctx.timezone).date_naive()
}

/// The bounds in `words` outside the ones `skip` marks (the schedule phrase, the command).
pub(super) fn find_bounds(
    words: &[&str],
    originals: &[&str],
    skip: &[bool],
    ctx: &WhenContext,
) -> Result<Bounds, String> {
    let reader = BoundWords {
        words,
        originals,
        skip,
        ctx,
    };
    let mut bounds = Bounds::default();
    let mut i = 0;
    while i < words.len() {
        i = match reader.free(i) {
            true => reader.bound_at(i, &mut bounds)?.unwrap_or(i + 1),
            false => i + 1,
        };
    }
    let stops = [
        bounds.until.is_some(),
        bounds.length.is_some(),
        bounds.count.is_some(),
    ];
    if stops.iter().filter(|s| **s).count() > 1 {
        return Err(
            "Should it stop on a date, after a while, or after a number of times? Please give one."
                .into(),
        );
    }
    Ok(bounds)
}

/// The words a reminder's bounds are read from, and what reads them. Each step reads one kind
/// of bound at a word: the index after its words when it read one, None when the word starts
/// no bound of its kind, an error (a question) when it does but cannot be read.
struct BoundWords<'a> {
    words: &'a [&'a str],
    originals: &'a [&'a str],
    skip: &'a [bool],
    ctx: &'a WhenContext,
}

impl BoundWords<'_> {
    /// Whether word `i` is not the schedule phrase or the command.
    fn free(&self, i: usize) -> bool {
        !self.skip.get(i).copied().unwrap_or(true)
    }

    /// The bound starting at word `i`, of any kind, noted in `bounds`.
    fn bound_at(&self, i: usize, bounds: &mut Bounds) -> Result<Option<usize>, String> {
        if let Some(after) = self.until(i, bounds)? {
            return Ok(Some(after));
        }
        if let Some(after) = self.starting(i, bounds)? {
            return Ok(Some(after));
        }
        if let Some(after) = self.length(i, bounds) {
            return Ok(Some(after));
        }
        self.count(i, bounds)
    }

    /// "until march", "till friday", "through 1 feb": a stop word must be followed by a date.
    fn until(&self, i: usize, bounds: &mut Bounds) -> Result<Option<usize>, String> {
        let words = self.words;
        if !STOPS.contains(&words[i]) {
            return Ok(None);
        }
        match date_after(words, self.originals, i, self.skip, self.ctx) {
            Some(Ok((date, last))) => {
                bounds.until = Some(date);
                bounds.words.extend(i..=last);
                Ok(Some(last + 1))
            }
            Some(Err(question)) => Err(question),
            None => {
                let stop = (i + 1..words.len())
                    .find(|&k| ENDS_A_DATE.contains(&words[k]) || !self.free(k))
                    .unwrap_or(words.len());
                let rest = self.originals.get(i..stop).unwrap_or_default().join(" ");
                Err(format!(
                    "I couldn't read when it should stop (\"{rest}\"). Say it like 'until 1 \
                     march' or 'for 6 weeks'."
                ))
            }
        }
    }

    /// "starting next monday", "from 1 december", "as of tomorrow": a start word followed by no
    /// date is no bound ("from work").
    fn starting(&self, i: usize, bounds: &mut Bounds) -> Result<Option<usize>, String> {
        let (word, next) = (self.words[i], self.words.get(i + 1));
        if !(STARTS.contains(&word) || (word == "as" && next == Some(&"of"))) {
            return Ok(None);
        }
        let from = if matches!(next, Some(&"from" | &"on" | &"of")) {
            i + 1
        } else {
            i
        };
        match date_after(self.words, self.originals, from, self.skip, self.ctx) {
            Some(Ok((date, last))) => {
                bounds.starting = Some(date);
                bounds.words.extend(i..=last);
                Ok(Some(last + 1))
            }
            Some(Err(question)) => Err(question),
            None => Ok(None),
        }
    }

    /// "for 6 weeks", "for ten days".
    fn length(&self, i: usize, bounds: &mut Bounds) -> Option<usize> {
        if self.words[i] != "for" {
            return None;
        }
        let n = number(self.words.get(i + 1)?)?;
        let length = match self.words.get(i + 2)?.trim_end_matches('s') {
            "day" => Length::Days(n),
            "week" => Length::Weeks(n),
            "month" => Length::Months(n),
            "year" => Length::Years(n),
            _ => return None,
        };
        bounds.length = Some(length);
        bounds.words.extend(i..i + 3);
        Some(i + 3)
    }

    /// "10 times", "for 10 times"; "3 times a day" is more than a recurring reminder does.
    fn count(&self, i: usize, bounds: &mut Bounds) -> Result<Option<usize>, String> {
        let words = self.words;
        let (Some(n), Some(&"times")) = (number(words[i]), words.get(i + 1)) else {
            return Ok(None);
        };
        if matches!(words.get(i + 2), Some(&"a" | &"per" | &"an")) {
            return Err(
                "I can remind you at most once a day with a recurring reminder. How often \
                 should it be?"
                    .into(),
            );
        }
        if !(1..=MAX_COUNT).contains(&n) {
            return Err(format!(
                "I can repeat a reminder at most {MAX_COUNT} times. How many times should it be?"
            ));
        }
        bounds.count = Some(n);
        let from = if i > 0 && words[i - 1] == "for" && self.free(i - 1) {
            i - 1
        } else {
            i
        };
        bounds.words.extend(from..i + 2);
        Ok(Some(i + 2))
    }
}

/// The longest a bounded reminder may run: ten years.
const MAX_LENGTH_DAYS: u64 = 3_660;

/// The last local day a reminder that runs for `length` from `first` may fire on; None when
/// that is further than ten years (or no calendar date).
pub(super) fn last_day(first: NaiveDate, length: Length) -> Option<NaiveDate> {
    let days = match length {
        Length::Days(n) => u64::from(n),
        Length::Weeks(n) => u64::from(n) * 7,
        Length::Months(n) => u64::from(n) * 28,
        Length::Years(n) => u64::from(n) * 365,
    };
    if days > MAX_LENGTH_DAYS {
        return None;
    }
    let end = match length {
        Length::Days(n) => first.checked_add_days(Days::new(u64::from(n))),
        Length::Weeks(n) => first.checked_add_days(Days::new(u64::from(n) * 7)),
        Length::Months(n) => first.checked_add_months(Months::new(n)),
        Length::Years(n) => first.checked_add_months(Months::new(n.checked_mul(12)?)),
    }?;
    end.pred_opt()
}

/// "for 6 weeks", "for 1 month".
pub(super) fn length_words(length: Length) -> String {
    let (n, unit) = match length {
        Length::Days(n) => (n, "day"),
        Length::Weeks(n) => (n, "week"),
        Length::Months(n) => (n, "month"),
        Length::Years(n) => (n, "year"),
    };
    if n == 1 {
        format!("for 1 {unit}")
    } else {
        format!("for {n} {unit}s")
    }
}

/// A local day said back: "Sun 28 Feb", with the year when it is not `today`'s.
pub(super) fn day_words(day: NaiveDate, today: NaiveDate) -> String {
    if day.year() == today.year() {
        day.format("%a %-d %b").to_string()
    } else {
        day.format("%a %-d %b %Y").to_string()
    }
}
