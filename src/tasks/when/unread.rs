//! The half-read guard: time words the scan could not read, next to a phrase it did read.
//!
//! A time phrase is read whole or not at all. When the scan reads "in an hour" out of "in an
//! hour and a bit", or "9am" out of "9am PDT-ish", the words it left ("and a bit", "pdt-ish")
//! are still part of the time: reading the rest would be a half-read (a different time, or
//! time words left in a title). So every phrase the scan read is checked on both sides: time
//! words that no phrase took, reached through at most two connecting words ("and", "the", "at",
//! ...) and not across the end of a sentence, are reported, and the reading fails naming them
//! ([`WhenError::Unread`]).
//!
//! # Invariants
//! - Only words that say something about a time count ([`time_like`]): units, numbers with a
//!   unit or a clock, ordinals, day and month names, day parts, zones, "before"/"after"/"next"
//!   ... in front of one of those. A title's own words beside a time ("buy 8 eggs tomorrow",
//!   "email the team friday about the launch") are never reported.
//! - Pure: no clock, no config.

use super::words::{
    count_word, decimal, is_digits, meridiem, month_word, names_a_day_ahead, unit_word,
    weekday_word, Token, PARTS_OF_DAY,
};
use super::zones::looks_like_zone;

/// Words that join a time to its neighbours without saying anything themselves.
const CONNECTORS: [&str; 22] = [
    "and", "a", "an", "the", "of", "on", "at", "in", "by", "for", "or", "to", "then", "around",
    "about", "before", "after", "until", "till", "from", "within", "since",
];

/// Words that lead into a time ("before lunch", "next working day", "end of the month").
const LEADS: [&str; 23] = [
    "next",
    "this",
    "last",
    "coming",
    "following",
    "every",
    "each",
    "early",
    "late",
    "mid",
    "middle",
    "end",
    "beginning",
    "start",
    "close",
    "before",
    "after",
    "until",
    "till",
    "since",
    "between",
    "past",
    "within",
];

/// Words that are a time on their own, whatever is around them.
const TIME_WORDS: [&str; 24] = [
    "today",
    "tonight",
    "tomorrow",
    "tmrw",
    "yesterday",
    "lunchtime",
    "weekend",
    "weekends",
    "weekday",
    "weekdays",
    "eod",
    "cob",
    "eow",
    "eom",
    "eoy",
    "dawn",
    "dusk",
    "sunrise",
    "sunset",
    "ago",
    "sometime",
    "anytime",
    "whenever",
    "asap",
];

/// Whether `word` is a time on its own: one of [`TIME_WORDS`] or a part of the day.
fn time_word(word: &str) -> bool {
    TIME_WORDS.contains(&word) || PARTS_OF_DAY.contains(&word)
}

/// Words that are part of a time only right beside it ("late tonight", "tomorrow early"); with
/// a word between ("leave work early on friday") they are the task's own.
const ONLY_RIGHT_BESIDE: [&str; 4] = ["early", "late", "earlier", "sooner"];

/// Meals and work, which are a time after a preposition ("after lunch", "before work").
const DAY_EVENTS: [&str; 6] = ["breakfast", "brunch", "lunch", "dinner", "supper", "work"];
const EVENT_PREPOSITIONS: [&str; 9] = [
    "before", "after", "at", "by", "until", "till", "around", "during", "over",
];
const HOLIDAYS: [&str; 6] = [
    "christmas",
    "xmas",
    "halloween",
    "easter",
    "thanksgiving",
    "valentine's",
];
/// Points of the day that differ from person to person ("teatime" is 4pm to some, 6pm to
/// others): Donna never places them, and they are a time wherever they stand, so they are asked
/// about even with no other time beside them.
const UNPLACEABLE: [&str; 4] = ["teatime", "dinnertime", "suppertime", "bedtime"];
/// Prepositions an unplaceable point takes with it into the question ("at bedtime").
const POINT_PREPOSITIONS: [&str; 6] = ["at", "around", "about", "by", "before", "after"];

/// Month words that are also everyday words or names: a time only inside a date phrase.
const EVERYDAY_MONTHS: [&str; 4] = ["may", "march", "mar", "jan"];

struct Around<'a> {
    words: Vec<&'a str>,
}

impl Around<'_> {
    fn at(&self, i: usize) -> &str {
        self.words.get(i).copied().unwrap_or("")
    }

    fn before(&self, i: usize) -> &str {
        i.checked_sub(1).map_or("", |j| self.at(j))
    }

    fn is_number(&self, i: usize) -> bool {
        let word = self.at(i);
        decimal(word).is_some() || (count_word(word).is_some() && !matches!(word, "a" | "an"))
    }

    /// Whether word `i` says something about a time. `depth` bounds the look ahead of the
    /// leading words ("the end of next week").
    fn time_like(&self, i: usize, depth: u8) -> bool {
        let (word, prev, next) = (self.at(i), self.before(i), self.at(i + 1));
        if word.is_empty() {
            return false;
        }
        let unit = |w: &str| unit_word(w).is_some() && w.len() > 2;
        let leads_on = |j: usize| depth > 0 && self.time_like(j, depth - 1);
        unit(word)
            || matches!(word, "half" | "quarter" | "quarters" | "fortnight")
            || time_word(word)
            || looks_like_zone(word)
            || meridiem(word).is_some()
            || (word == "o" && next == "clock")
            || (word == "clock" && prev == "o")
            || word == "oclock"
            || word == "ish"
            // "pst-ish", "noonish", "5pm-ish": a time made vague is still a time word.
            || word
                .strip_suffix("ish")
                .map(|stem| stem.trim_end_matches('-'))
                .is_some_and(|stem| {
                    !stem.is_empty()
                        && (looks_like_zone(stem)
                            || time_word(stem)
                            || compact(stem)
                            || is_digits(stem))
                })
            || (word == "thing" && prev == "first")
            || (word == "first" && next == "thing")
            || compact(word)
            || (ordinal(word)
                && (next.is_empty()
                    || CONNECTORS.contains(&next)
                    || (depth > 0 && self.time_like(i + 1, depth - 1))))
            || (self.is_number(i)
                && (unit(next)
                    || unit_word(next).is_some() && is_digits(word)
                    || meridiem(next).is_some()
                    || matches!(next, "o" | "oclock" | "ish" | "business" | "working")
                    || (next == "and" && matches!(self.at(i + 2), "a" | "half"))
                    || (matches!(next, "to" | "or" | "and" | "till" | "until")
                        && self.at(i + 2).starts_with(|c: char| c.is_ascii_digit()))))
            || weekday_word(word)
                .is_some_and(|_| !matches!(word, "sat" | "sun") || names_a_day_ahead(prev))
            || word.strip_suffix('s').and_then(weekday_word).is_some()
            || (month_word(word).is_some() && !EVERYDAY_MONTHS.contains(&word))
            || (matches!(word, "working" | "business" | "work")
                && matches!(next, "day" | "days" | "week"))
            || (DAY_EVENTS.contains(&word) && EVENT_PREPOSITIONS.contains(&prev))
            || (HOLIDAYS.contains(&word) && EVENT_PREPOSITIONS.contains(&prev))
            || (matches!(word, "bit" | "while") && prev == "a")
            || matches!(word, "early" | "late" | "earlier" | "sooner")
            // "an hour or two", "3 to 4 days"
            || (self.is_number(i)
                && matches!(prev, "or" | "to")
                && i.checked_sub(2).is_some_and(|j| {
                    unit(self.at(j)) || compact(self.at(j)) || meridiem(self.at(j)).is_some()
                }))
            || (LEADS.contains(&word)
                && (leads_on(i + 1) || (next == "of" && (leads_on(i + 2) || leads_on(i + 3)))))
    }
}

/// "21st", "3rd": an ordinal written with digits.
fn ordinal(word: &str) -> bool {
    ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|suffix| word.strip_suffix(suffix))
        .is_some_and(|digits| is_digits(digits) && digits.len() <= 2)
}

/// "2h", "90mins", "3/12", "5:30", "5ish", "5pm": a token that is a time or part of one.
fn compact(word: &str) -> bool {
    if !word.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
        return false;
    }
    let body = word.trim_start_matches(['-', '+']);
    let digits_end = body
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(body.len());
    let (number, rest) = body.split_at(digits_end);
    if number.is_empty() {
        return false;
    }
    let rest_digits_free = rest.trim_end_matches(|c: char| c.is_ascii_digit());
    matches!(rest, "ish" | "am" | "pm")
        || unit_word(rest_digits_free).is_some()
        || rest.starts_with(['/', ':'])
        || rest.ends_with("ish")
}

/// Whether a sentence ends between tokens `a` and `b` (a full stop, "!", "?", ";", a new line):
/// the words after it belong to another sentence.
fn sentence_break(text: &str, tokens: &[Token], a: usize, b: usize) -> bool {
    let (Some(left), Some(right)) = (tokens.get(a), tokens.get(b)) else {
        return true;
    };
    text.get(left.range.end..right.range.start)
        .is_some_and(|gap| gap.contains(['.', '!', '?', ';', '\n']))
}

/// Runs of words (token index ranges, `from..to`) that no phrase took (`consumed`) but that say
/// something about a time, next to a phrase that names one (`anchors`: first word, words).
pub(super) fn unread_runs(
    text: &str,
    tokens: &[Token],
    consumed: &[bool],
    anchors: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let around = Around {
        words: tokens.iter().map(|t| t.word.as_str()).collect(),
    };
    let free = |i: usize| !consumed.get(i).copied().unwrap_or(true);
    let connector = |i: usize| CONNECTORS.contains(&around.at(i));
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &(first, len) in anchors {
        let end = first + len;
        // To the right: "in an hour | and a half".
        let mut j = end;
        let mut skipped = 0;
        while free(j) && !sentence_break(text, tokens, j.saturating_sub(1), j) {
            if connector(j) && skipped < 2 {
                skipped += 1;
                j += 1;
                continue;
            }
            let beside_only = ONLY_RIGHT_BESIDE.contains(&around.at(j)) && skipped > 0;
            if around.time_like(j, 2) && !beside_only {
                let mut to = j + 1;
                while free(to)
                    && !sentence_break(text, tokens, to - 1, to)
                    && (around.time_like(to, 2) || connector(to))
                {
                    to += 1;
                }
                while to > j + 1 && connector(to - 1) {
                    to -= 1;
                }
                runs.push((end, to));
            }
            break;
        }
        // To the left: "between 3 and | 5pm", "PST | 9am".
        let mut j = first;
        let mut skipped = 0;
        while let Some(k) = j.checked_sub(1).filter(|&k| free(k)) {
            if sentence_break(text, tokens, k, k + 1) {
                break;
            }
            if connector(k) && skipped < 2 {
                skipped += 1;
                j = k;
                continue;
            }
            let beside_only = ONLY_RIGHT_BESIDE.contains(&around.at(k)) && skipped > 0;
            if around.time_like(k, 2) && !beside_only {
                let mut from = k;
                while let Some(m) = from.checked_sub(1).filter(|&m| free(m)) {
                    if sentence_break(text, tokens, m, m + 1)
                        || !(around.time_like(m, 2) || connector(m))
                    {
                        break;
                    }
                    from = m;
                }
                while from < k && connector(from) {
                    from += 1;
                }
                runs.push((from, first));
            }
            break;
        }
    }
    runs.extend(unplaceable_points(&around, &free));
    runs.sort_unstable();
    runs.dedup();
    runs
}

/// Runs of a point of the day Donna cannot place ([`UNPLACEABLE`] after a preposition or ending
/// the text: "at teatime", "call mum bedtime"; not "a bedtime story"), or a time word made vague
/// with "-ish" ("teatime-ish", "tomorrow-ish"), with the preposition before it, wherever they
/// stand: no reading may leave them in a title, and none may guess them. "before bed" stays a
/// title's own words ("read for an hour before bed" is a habit, not a time).
fn unplaceable_points(around: &Around<'_>, free: &impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    for i in (0..around.words.len()).filter(|&i| free(i)) {
        let word = around.at(i);
        let vague = word
            .strip_suffix("-ish")
            .is_some_and(|stem| time_word(stem) || UNPLACEABLE.contains(&stem));
        let takes_preposition = |j: usize| free(j) && POINT_PREPOSITIONS.contains(&around.at(j));
        let as_a_time =
            i.checked_sub(1).is_some_and(takes_preposition) || around.at(i + 1).is_empty();
        if !((UNPLACEABLE.contains(&word) && as_a_time) || vague) {
            continue;
        }
        let from = match i.checked_sub(1) {
            Some(j) if takes_preposition(j) => j,
            _ => i,
        };
        runs.push((from, i + 1));
    }
    runs
}

/// The words of a run as the person wrote them.
pub(super) fn written(text: &str, tokens: &[Token], (from, to): (usize, usize)) -> String {
    match (
        tokens.get(from),
        to.checked_sub(1).and_then(|last| tokens.get(last)),
    ) {
        (Some(first), Some(last)) => text
            .get(first.range.start..last.range.end)
            .unwrap_or_default()
            .to_string(),
        _ => String::new(),
    }
}
