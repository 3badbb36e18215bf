//! Time zones named in a sentence, right after the time they qualify: "3pm PST", "9:00 UTC+2",
//! "14:00 +02:00", "10am America/New_York", "5pm New York time", "noon pacific".
//!
//! # Interpretations
//! - A region's abbreviation means that region's clock, whichever of its standard or summer
//!   time is in force that day: "EST", "EDT" and "ET" all mean New York's clock, "PST"/"PDT"/"PT"
//!   Los Angeles', "CST"/"CDT"/"CT" Chicago's, "MST"/"MDT"/"MT" Denver's, "CET"/"CEST" Central
//!   Europe's (Berlin), "BST" London's. "UTC" and "GMT" are UTC, with an offset when one follows
//!   ("GMT+2" is two hours ahead of UTC all year).
//! - An abbreviation several zones use ("IST": India, Israel or Ireland; "AST") is asked about,
//!   never guessed ([`WhenError::AmbiguousZone`]).
//! - A whole-hour offset is the fixed zone `Etc/GMT-N`; a half-hour one is the zone that keeps
//!   it all year (+05:30 Asia/Kolkata, ...); any other offset is [`WhenError::UnknownZone`].
//! - An IANA name ("America/New_York", any case) or a city followed by "time" ("New York time",
//!   "berlin time") names that zone; the city is the last part of an IANA name.
//!
//! Pure: no clock, no config.

use std::str::FromStr;

use chrono_tz::Tz;

use super::error::WhenError;
use super::parts::Part;
use super::words::{is_digits, saturating_number, Token};

/// Abbreviations and region words, and the zone whose clock they mean: the one zone table,
/// read by the time reader ("3pm PST") and by a person setting their zone ("timezone CET").
const NAMED: [(&str, &str); 39] = [
    ("utc", "UTC"),
    ("gmt", "UTC"),
    ("z", "UTC"),
    ("zulu", "UTC"),
    ("et", "America/New_York"),
    ("est", "America/New_York"),
    ("edt", "America/New_York"),
    ("eastern", "America/New_York"),
    ("ct", "America/Chicago"),
    ("cst", "America/Chicago"),
    ("cdt", "America/Chicago"),
    ("central", "America/Chicago"),
    ("mt", "America/Denver"),
    ("mst", "America/Denver"),
    ("mdt", "America/Denver"),
    ("mountain", "America/Denver"),
    ("pt", "America/Los_Angeles"),
    ("pst", "America/Los_Angeles"),
    ("pdt", "America/Los_Angeles"),
    ("pacific", "America/Los_Angeles"),
    ("akst", "America/Anchorage"),
    ("akdt", "America/Anchorage"),
    ("hst", "Pacific/Honolulu"),
    ("cet", "Europe/Berlin"),
    ("cest", "Europe/Berlin"),
    ("eet", "Europe/Athens"),
    ("eest", "Europe/Athens"),
    ("wet", "Europe/Lisbon"),
    ("bst", "Europe/London"),
    ("msk", "Europe/Moscow"),
    ("jst", "Asia/Tokyo"),
    ("kst", "Asia/Seoul"),
    ("hkt", "Asia/Hong_Kong"),
    ("sgt", "Asia/Singapore"),
    ("aest", "Australia/Sydney"),
    ("aedt", "Australia/Sydney"),
    ("awst", "Australia/Perth"),
    ("nzst", "Pacific/Auckland"),
    ("nzdt", "Pacific/Auckland"),
];

/// Abbreviations several zones use: what they could mean and the zones they could be (the
/// first is the example to answer with).
const AMBIGUOUS: [(&str, &str, &[&str]); 3] = [
    (
        "ist",
        "India, Israel or Irish Standard Time",
        &["Asia/Kolkata", "Asia/Jerusalem", "Europe/Dublin"],
    ),
    (
        "ast",
        "Atlantic or Arabia Standard Time",
        &["America/Halifax", "Asia/Riyadh"],
    ),
    (
        "sst",
        "Samoa or Singapore Standard Time",
        &["Asia/Singapore", "Pacific/Pago_Pago"],
    ),
];

/// What an abbreviation or a region word names in the one zone table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Abbreviation {
    Zone(Tz),
    /// Several zones use it ("IST"): these, never a guess.
    Ambiguous(&'static [&'static str]),
}

/// What `word` (lower case) names in the zone table, if anything.
pub fn abbreviation(word: &str) -> Option<Abbreviation> {
    if let Some((_, _, zones)) = AMBIGUOUS.iter().find(|(abbr, _, _)| *abbr == word) {
        return Some(Abbreviation::Ambiguous(zones));
    }
    let (_, name) = NAMED.iter().find(|(abbr, _)| *abbr == word)?;
    zone(name).map(Abbreviation::Zone)
}

/// Half-hour offsets and the zone that keeps each all year.
const ODD_OFFSETS: [(i32, &str); 8] = [
    (210, "Asia/Tehran"),
    (270, "Asia/Kabul"),
    (330, "Asia/Kolkata"),
    (345, "Asia/Kathmandu"),
    (390, "Asia/Yangon"),
    (525, "Australia/Eucla"),
    (570, "Australia/Darwin"),
    (-570, "Pacific/Marquesas"),
];

/// Several words that name a region's clock, with "time" after them or not.
const REGIONS: [(&[&str], &str); 6] = [
    (&["central", "european"], "Europe/Berlin"),
    (&["eastern", "european"], "Europe/Athens"),
    (&["uk"], "Europe/London"),
    (&["british"], "Europe/London"),
    (&["us", "eastern"], "America/New_York"),
    (&["us", "pacific"], "America/Los_Angeles"),
];

fn word(tokens: &[Token], i: usize) -> &str {
    tokens.get(i).map_or("", |t| t.word.as_str())
}

fn zone(name: &str) -> Option<Tz> {
    Tz::from_str(name).ok()
}

/// The zone named at word `i`, with the words it took ("pst", "utc+2", "utc +2", "new york
/// time", "pacific standard time"); None when word `i` starts no zone.
pub(super) fn zone_at(tokens: &[Token], i: usize) -> Option<(usize, Part)> {
    let first = word(tokens, i);
    // "3pm my time", "9am local time": the reading zone, said.
    if matches!(first, "my" | "local" | "our") && word(tokens, i + 1) == "time" {
        return Some((2, Part::ReadingZone));
    }
    let found = named(tokens, i)
        .or_else(|| offset_zone(tokens, i))
        .or_else(|| iana(first).map(|tz| (1, Part::Zone(tz))))
        .or_else(|| city(tokens, i))?;
    // "pacific standard time", "eastern time", "CET time"
    let (mut len, part) = found;
    if matches!(word(tokens, i + len), "standard" | "daylight" | "summer")
        && word(tokens, i + len + 1) == "time"
    {
        len += 2;
    } else if word(tokens, i + len) == "time" {
        len += 1;
    }
    Some((len, part))
}

fn named(tokens: &[Token], i: usize) -> Option<(usize, Part)> {
    for (words, name) in REGIONS {
        let matches = words
            .iter()
            .enumerate()
            .all(|(k, w)| word(tokens, i + k) == *w);
        if matches {
            return Some((words.len(), Part::Zone(zone(name)?)));
        }
    }
    let first = word(tokens, i);
    if let Some((_, could_be, zones)) = AMBIGUOUS.iter().find(|(abbr, _, _)| *abbr == first) {
        let example = zones.first().copied().unwrap_or("UTC");
        let written = tokens
            .get(i)
            .map_or(String::new(), |t| t.word.to_uppercase());
        return Some((
            1,
            Part::Invalid(WhenError::AmbiguousZone {
                written,
                could_be,
                example,
            }),
        ));
    }
    let (_, name) = NAMED.iter().find(|(abbr, _)| *abbr == first)?;
    // "pacific", "central": everyday words, a zone only with "time" after them or at the end
    // ("5pm central time", "noon pacific"; not "5pm central station").
    let everyday = matches!(first, "eastern" | "central" | "mountain" | "pacific");
    let next = word(tokens, i + 1);
    if everyday && !(next.is_empty() || next == "time" || word(tokens, i + 2) == "time") {
        return None;
    }
    // "utc" / "gmt" with an offset in the next word: "utc +2", "gmt -05:00".
    if matches!(first, "utc" | "gmt") {
        if let Some(minutes) = signed_offset(word(tokens, i + 1), true) {
            return Some((2, offset_part(minutes, tokens, i, 2)));
        }
    }
    Some((1, Part::Zone(zone(name)?)))
}

/// "utc+2", "gmt-5", "utc+05:30" in one word, or a bare "+02:00" / "-0500".
fn offset_zone(tokens: &[Token], i: usize) -> Option<(usize, Part)> {
    let first = word(tokens, i);
    let minutes = match first.get(..3) {
        Some("utc" | "gmt") => signed_offset(first.get(3..)?, true)?,
        _ => signed_offset(first, false)?,
    };
    Some((1, offset_part(minutes, tokens, i, 1)))
}

/// Minutes east of UTC in "+2", "-05:00", "+0530" ("+2" alone only after UTC or GMT, where a
/// bare hour is clearly an offset).
fn signed_offset(text: &str, bare_hours: bool) -> Option<i32> {
    let sign = match text.chars().next()? {
        '+' => 1,
        '-' => -1,
        _ => return None,
    };
    let body = text.get(1..)?;
    let (hours, minutes) = match body.split_once(':') {
        Some((h, m)) if is_digits(h) && h.len() <= 2 && is_digits(m) && m.len() == 2 => (h, m),
        Some(_) => return None,
        None if is_digits(body) && body.len() == 4 => body.split_at(2),
        None if bare_hours && is_digits(body) && body.len() <= 2 => (body, "0"),
        None => return None,
    };
    let hours = i32::try_from(saturating_number(hours)).ok()?;
    let minutes = i32::try_from(saturating_number(minutes)).ok()?;
    if minutes >= 60 {
        return None;
    }
    Some(sign * (hours * 60 + minutes))
}

fn offset_part(minutes: i32, tokens: &[Token], i: usize, len: usize) -> Part {
    let written = tokens
        .get(i..i + len)
        .map(|ts| {
            ts.iter()
                .map(|t| t.word.to_uppercase())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    match offset_tz(minutes) {
        Some(tz) => Part::Zone(tz),
        None => Part::Invalid(WhenError::UnknownZone(written)),
    }
}

/// The zone that keeps `minutes` east of UTC all year.
fn offset_tz(minutes: i32) -> Option<Tz> {
    if minutes == 0 {
        return Some(Tz::UTC);
    }
    if minutes % 60 == 0 && (-12 * 60..=14 * 60).contains(&minutes) {
        // The Etc zones count the other way round: UTC+2 is Etc/GMT-2.
        let hours = -minutes / 60;
        return zone(&format!("Etc/GMT{hours:+}"));
    }
    ODD_OFFSETS
        .iter()
        .find(|(at, _)| *at == minutes)
        .and_then(|(_, name)| zone(name))
}

/// An IANA name, any case: "america/new_york", "utc", "europe/berlin".
fn iana(word: &str) -> Option<Tz> {
    if !word.contains('/') {
        return None;
    }
    chrono_tz::TZ_VARIANTS
        .iter()
        .find(|tz| tz.name().eq_ignore_ascii_case(word))
        .copied()
}

/// A city of an IANA name followed by "time": "new york time", "berlin time", "los angeles
/// time" (up to three words).
fn city(tokens: &[Token], i: usize) -> Option<(usize, Part)> {
    for len in (1..=3).rev() {
        if word(tokens, i + len) != "time" {
            continue;
        }
        let words: Vec<&str> = (i..i + len).map(|k| word(tokens, k)).collect();
        if words.iter().any(|w| w.is_empty() || w.contains('/')) {
            continue;
        }
        let wanted = words.join("_");
        let found = chrono_tz::TZ_VARIANTS.iter().find(|tz| {
            tz.name()
                .rsplit('/')
                .next()
                .is_some_and(|last| tz.name().contains('/') && last.eq_ignore_ascii_case(&wanted))
        });
        if let Some(tz) = found {
            return Some((len, Part::Zone(*tz)));
        }
    }
    None
}

/// Whether `word` could only be a zone (for the unread-words check): an abbreviation of the
/// tables, an offset, or an IANA name.
pub(super) fn looks_like_zone(word: &str) -> bool {
    let everyday = matches!(word, "eastern" | "central" | "mountain" | "pacific");
    NAMED
        .iter()
        .any(|(abbr, _)| *abbr == word && word.len() >= 3 && !everyday)
        || AMBIGUOUS.iter().any(|(abbr, _, _)| *abbr == word)
        || signed_offset(word, false).is_some()
        || matches!(word.get(..3), Some("utc" | "gmt")) && word.len() > 3
        || iana(word).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_hour_offsets_are_etc_zones_counted_the_other_way() {
        assert_eq!(offset_tz(120).map(Tz::name), Some("Etc/GMT-2"));
        assert_eq!(offset_tz(-300).map(Tz::name), Some("Etc/GMT+5"));
        assert_eq!(offset_tz(330).map(Tz::name), Some("Asia/Kolkata"));
        assert_eq!(offset_tz(15 * 60), None);
        assert_eq!(offset_tz(20), None);
    }
}
