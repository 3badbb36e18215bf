//! IANA time zone names from people's words: "Europe/Berlin", "europe/berlin", "New York",
//! "Tokyo", "CET", "PST", "UTC+2", and a few big cities and countries that are no zone's name
//! ("San Francisco", "Munich", "Germany"). An unknown name gets the three nearest names.
//!
//! Owns: `find` (a name to a zone, or suggestions), `suggest` (the nearest names, by edit
//! distance to a zone's city or whole name) and `complete` (names for Discord's autocomplete).
//! Invariants: pure (no clock, no config); every zone returned is one chrono-tz knows; a name
//! longer than [`MAX_NAME_CHARS`] is no zone and gets no search (each search is linear in the
//! name and runs over every zone: its cost is bounded before it starts); an abbreviation means
//! the place people mean by it, read in the one zone table (`tasks::when::abbreviation`: "EST"
//! is New York's time, with its summer time, not the fixed UTC-5 zone IANA also calls EST; "CET"
//! and "CEST" are Berlin's; "IST" is asked about).

use std::str::FromStr;

use chrono_tz::{Tz, TZ_VARIANTS};

use super::place_names::{AMBIGUOUS, NO_PLACE, PLACES};
use crate::sentence::tokens::squeeze;
use crate::tasks::when::{abbreviation, Abbreviation};

/// The longest name looked up, in characters (IANA's longest is 32: "America/Argentina/ComodRivadavia").
pub const MAX_NAME_CHARS: usize = 64;

/// Whether `name` is short enough to be looked up at all.
fn searchable(name: &str) -> bool {
    name.chars().take(MAX_NAME_CHARS + 1).count() <= MAX_NAME_CHARS
}

/// What a name turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZoneMatch {
    Found(Tz),
    /// No zone by that name: the nearest names (at most three).
    Unknown {
        suggestions: Vec<&'static str>,
    },
}

/// Regions of the canonical IANA names (the others are old aliases: "US/Eastern", "GB").
const REGIONS: [&str; 10] = [
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
];

/// The zones an ambiguous place could be in.
fn ambiguous(wanted: &str) -> Option<Vec<&'static str>> {
    AMBIGUOUS
        .iter()
        .find(|(place, _)| *place == wanted)
        .map(|(_, zones)| zones.to_vec())
}

/// What a place a person says they are in turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Zone(Tz),
    /// A place in more than one zone ("Victoria"): these, to ask which.
    OneOf(Vec<&'static str>),
}

/// Lower case, `_` and `-` as spaces, spaces collapsed: "New_York" and "new york" meet.
fn key(text: &str) -> String {
    squeeze(&text.to_lowercase().replace(['_', '-'], " "))
}

/// The city part of a zone name: "America/Argentina/Buenos_Aires" -> "buenos aires".
fn city_key(name: &str) -> String {
    key(name.rsplit('/').next().unwrap_or(name))
}

fn canonical(name: &str) -> bool {
    name == "UTC"
        || name
            .split_once('/')
            .is_some_and(|(region, _)| REGIONS.contains(&region))
}

fn zone(name: &str) -> Option<Tz> {
    Tz::from_str(name).ok()
}

/// "UTC+2", "GMT-5", "utc +02:00", "+3": the fixed zone of that whole-hour offset (IANA's
/// Etc/GMT names count the other way: UTC+2 is Etc/GMT-2).
fn offset(text: &str) -> Option<Tz> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let rest = ["utc", "gmt", ""]
        .iter()
        .find_map(|prefix| compact.strip_prefix(prefix))?;
    let (sign, digits) = match rest.chars().next()? {
        '+' => (1, &rest[1..]),
        '-' | '\u{2212}' => (-1, &rest[rest.chars().next()?.len_utf8()..]),
        _ => return None,
    };
    let hours = match digits.split_once(':') {
        Some((hours, "00")) => hours,
        Some(_) => return None,
        None => digits,
    };
    if hours.is_empty() || hours.len() > 2 || !hours.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let hours: i32 = hours.parse().ok()?;
    let signed = sign * hours;
    if !(-12..=14).contains(&signed) {
        return None;
    }
    if signed == 0 {
        return zone("UTC");
    }
    // Etc/GMT-2 is two hours ahead of UTC.
    zone(&format!("Etc/GMT{:+}", -signed))
}

/// The zone `name` names, or the nearest names when none does.
pub fn find(name: &str) -> ZoneMatch {
    if !searchable(name) {
        return ZoneMatch::Unknown {
            suggestions: Vec::new(),
        };
    }
    let wanted = key(name.trim().trim_end_matches(['.', '!', ',']));
    let wanted = without_time_words(&wanted);
    if wanted.is_empty() {
        return ZoneMatch::Unknown {
            suggestions: Vec::new(),
        };
    }
    // Before `key`, which reads "-" as a space: "GMT-5" is an offset, not a city called "gmt 5".
    if let Some(tz) = offset(&name.trim().to_lowercase()) {
        return ZoneMatch::Found(tz);
    }
    let named = |table: &[(&str, &'static str)]| {
        table
            .iter()
            .find(|(word, _)| *word == wanted)
            .and_then(|(_, name)| zone(name))
    };
    // The one zone table ("EST" is New York's clock; "IST" could be three zones).
    match abbreviation(&wanted) {
        Some(Abbreviation::Zone(tz)) => return ZoneMatch::Found(tz),
        Some(Abbreviation::Ambiguous(zones)) => {
            return ZoneMatch::Unknown {
                suggestions: zones.to_vec(),
            }
        }
        None => {}
    }
    if let Some(zones) = ambiguous(&wanted) {
        return ZoneMatch::Unknown { suggestions: zones };
    }
    // A country we know the zone of before IANA's old alias for it ("Japan": Asia/Tokyo).
    let exact = TZ_VARIANTS.iter().find(|tz| key(tz.name()) == wanted);
    let found = exact
        .filter(|tz| tz.name().contains('/'))
        .copied()
        .or_else(|| named(&PLACES))
        .or_else(|| exact.copied())
        .or_else(|| city(&wanted));
    if let Some(tz) = found {
        return ZoneMatch::Found(tz);
    }
    ZoneMatch::Unknown {
        suggestions: suggest(&wanted),
    }
}

/// "the New York time zone" -> "new york": the words around a zone's name.
fn without_time_words(wanted: &str) -> String {
    let wanted = wanted.strip_prefix("the ").unwrap_or(wanted);
    wanted
        .strip_suffix(" time")
        .or_else(|| wanted.strip_suffix(" timezone"))
        .or_else(|| wanted.strip_suffix(" time zone"))
        .unwrap_or(wanted)
        .to_string()
}

/// A place a person says they are in ("Tokyo", "New York", "Europe/Berlin", "Japan"): like
/// `find`, but an abbreviation, an offset or an upper-case alias counts only when said as a
/// time ("Pacific time", "CET time"), since "I'm in PT" is physical therapy, not Los Angeles.
/// A compass word ("the south") or an old alias's clock name ("universal") is no place; a place
/// in several zones ("Victoria", "Jersey") is [`Place::OneOf`], to ask which.
pub fn find_place(name: &str) -> Option<Place> {
    if !searchable(name) {
        return None;
    }
    let said = key(name.trim().trim_end_matches(['.', '!', ',']));
    let as_time =
        said.ends_with(" time") || said.ends_with(" timezone") || said.ends_with(" time zone");
    if as_time {
        return match find(name) {
            ZoneMatch::Found(tz) => Some(Place::Zone(tz)),
            ZoneMatch::Unknown { .. } => None,
        };
    }
    let wanted = without_time_words(&said);
    if wanted.is_empty() || NO_PLACE.contains(&wanted.as_str()) || abbreviation(&wanted).is_some() {
        return None;
    }
    if let Some(zones) = ambiguous(&wanted) {
        return Some(Place::OneOf(zones));
    }
    let named = TZ_VARIANTS.iter().find(|tz| {
        key(tz.name()) == wanted
            && (tz.name().contains('/') || tz.name() != tz.name().to_uppercase())
    });
    let place = || {
        PLACES
            .iter()
            .find(|(place, _)| *place == wanted)
            .and_then(|(_, name)| zone(name))
    };
    named
        .copied()
        .filter(|tz| tz.name().contains('/'))
        .or_else(place)
        .or_else(|| named.copied())
        .or_else(|| city(&wanted))
        .map(Place::Zone)
}

/// The zone whose city is `wanted`, in a region of today's names (not an old alias's: "east"
/// is not "Brazil/East") and not a compass word ("Australia/South"): then the one with more
/// parts ("America/Argentina/Buenos_Aires" over the old "America/Buenos_Aires").
fn city(wanted: &str) -> Option<Tz> {
    if NO_PLACE.contains(&wanted) {
        return None;
    }
    TZ_VARIANTS
        .iter()
        .filter(|tz| canonical(tz.name()) && city_key(tz.name()) == wanted)
        .max_by_key(|tz| {
            (
                canonical(tz.name()),
                tz.name().matches('/').count(),
                std::cmp::Reverse(tz.name()),
            )
        })
        .copied()
}

/// The three canonical names nearest to `wanted` (by edit distance to their city or their
/// whole name, then alphabetically).
pub fn suggest(wanted: &str) -> Vec<&'static str> {
    if !searchable(wanted) {
        return Vec::new();
    }
    let wanted = key(wanted);
    let mut scored: Vec<(usize, &'static str)> = TZ_VARIANTS
        .iter()
        .map(|tz| tz.name())
        .filter(|name| canonical(name))
        .map(|name| {
            let distance =
                edit_distance(&wanted, &city_key(name)).min(edit_distance(&wanted, &key(name)));
            (distance, name)
        })
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, name)| name).collect()
}

/// Names for an autocomplete box: those whose name contains what was typed (a city that
/// starts with it first), canonical names before old aliases, at most `limit`.
pub fn complete(typed: &str, limit: usize) -> Vec<&'static str> {
    if !searchable(typed) {
        return Vec::new();
    }
    let typed = key(typed);
    let mut found: Vec<(bool, bool, &'static str)> = TZ_VARIANTS
        .iter()
        .map(|tz| tz.name())
        .filter(|name| typed.is_empty() || key(name).contains(&typed))
        .map(|name| (!city_key(name).starts_with(&typed), !canonical(name), name))
        .collect();
    found.sort();
    found
        .into_iter()
        .take(limit)
        .map(|(_, _, name)| name)
        .collect()
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(name: &str) -> String {
        match find(name) {
            ZoneMatch::Found(tz) => tz.name().to_string(),
            ZoneMatch::Unknown { suggestions } => format!("unknown {suggestions:?}"),
        }
    }

    #[test]
    fn names_cities_abbreviations_and_offsets_are_zones() {
        for (said, zone) in [
            ("Europe/Berlin", "Europe/Berlin"),
            ("europe/berlin", "Europe/Berlin"),
            ("New York", "America/New_York"),
            ("new_york", "America/New_York"),
            ("Tokyo", "Asia/Tokyo"),
            ("tokyo time", "Asia/Tokyo"),
            ("London.", "Europe/London"),
            ("Buenos Aires", "America/Argentina/Buenos_Aires"),
            ("Port-au-Prince", "America/Port-au-Prince"),
            ("CET", "Europe/Berlin"),
            ("CEST", "Europe/Berlin"),
            ("PST", "America/Los_Angeles"),
            ("EST", "America/New_York"),
            ("UTC", "UTC"),
            ("UTC+2", "Etc/GMT-2"),
            ("GMT-5", "Etc/GMT+5"),
            ("utc +05:00", "Etc/GMT-5"),
            ("San Francisco", "America/Los_Angeles"),
            ("Munich", "Europe/Berlin"),
            ("Germany", "Europe/Berlin"),
        ] {
            assert_eq!(found(said), zone, "{said}");
        }
    }

    #[test]
    fn a_place_is_a_zone_only_by_name_city_or_country_unless_said_as_a_time() {
        let place = |name: &str| match find_place(name) {
            Some(Place::Zone(tz)) => Some(tz.name().to_string()),
            Some(Place::OneOf(zones)) => Some(format!("one of {zones:?}")),
            None => None,
        };
        assert_eq!(place("Tokyo").as_deref(), Some("Asia/Tokyo"));
        assert_eq!(
            place("the New York time zone").as_deref(),
            Some("America/New_York")
        );
        assert_eq!(place("Japan").as_deref(), Some("Asia/Tokyo"));
        assert_eq!(place("Egypt").as_deref(), Some("Egypt"));
        assert_eq!(
            place("Pacific time").as_deref(),
            Some("America/Los_Angeles")
        );
        for not_a_place in [
            "PT",
            "ET",
            "CT",
            "EST",
            "GB",
            "UTC+2",
            "a meeting",
            "central park",
            "the south",
            "south",
            "east",
            "central",
            "West",
            "universal",
            "zulu",
        ] {
            assert_eq!(place(not_a_place), None, "{not_a_place}");
        }
        assert_eq!(place("Adelaide").as_deref(), Some("Australia/Adelaide"));
        assert_eq!(place("Guernsey").as_deref(), Some("Europe/Guernsey"));
        for (ambiguous, first) in [
            ("Victoria", "Australia/Melbourne"),
            ("Jersey", "Europe/Jersey"),
            ("Portland", "America/Los_Angeles"),
            ("Santiago", "America/Santiago"),
            ("San Juan", "America/Puerto_Rico"),
            ("Canada", "America/Toronto"),
            ("the USA", "America/New_York"),
        ] {
            match find_place(ambiguous) {
                Some(Place::OneOf(zones)) => assert_eq!(zones[0], first, "{zones:?}"),
                other => panic!("{ambiguous}: {other:?}"),
            }
            assert!(
                matches!(find(ambiguous), ZoneMatch::Unknown { .. }),
                "{ambiguous}"
            );
        }
        // Said as an IANA name, an old alias is still that zone.
        assert_eq!(found("Australia/South"), "Australia/South");
        assert!(matches!(find("south"), ZoneMatch::Unknown { .. }));
    }

    #[test]
    fn every_zone_the_place_names_give_is_one_chrono_tz_knows() {
        let named = PLACES.iter().map(|(_, zone)| *zone);
        let asked = AMBIGUOUS
            .iter()
            .flat_map(|(_, zones)| zones.iter().copied());
        for name in named.chain(asked) {
            assert!(zone(name).is_some(), "{name}");
        }
    }

    #[test]
    fn an_unknown_name_gets_the_three_nearest_names() {
        match find("Tokio") {
            ZoneMatch::Unknown { suggestions } => {
                assert_eq!(suggestions.len(), 3);
                assert_eq!(suggestions[0], "Asia/Tokyo", "{suggestions:?}");
            }
            other => panic!("{other:?}"),
        }
        for nonsense in ["Mars/Olympus", "the office", "UTC+2:30", "UTC+15", ""] {
            assert!(
                matches!(find(nonsense), ZoneMatch::Unknown { .. }),
                "{nonsense}"
            );
        }
    }

    #[test]
    fn autocomplete_puts_cities_that_start_with_the_text_first() {
        let names = complete("berl", 25);
        assert_eq!(names.first(), Some(&"Europe/Berlin"), "{names:?}");
        let names = complete("new", 25);
        assert!(names.contains(&"America/New_York"), "{names:?}");
        assert_eq!(complete("", 25).len(), 25);
        assert!(complete("zzzz", 25).is_empty());
    }
}
