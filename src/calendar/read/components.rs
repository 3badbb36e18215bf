//! From a calendar file's text to what Donna reads of it: the VEVENTs (`Series`) and the
//! VTIMEZONEs (`observances::Observance`), with the `icalendar` crate's parser (unfolding,
//! content lines, parameters, components): none of our own.
//!
//! Invariants: pure; a file nested deeper than `MAX_DEPTH` is refused before it is parsed (the
//! parser recurses per level, and a file of nothing but BEGIN lines would overflow the stack);
//! a parse error says what is wrong in our words, never the file's text (the parser's own
//! message quotes it); a VEVENT without a DTSTART that reads is counted, not guessed.

use chrono::Duration;
use icalendar::parser::{read_calendar, unfold, Component, Property};

use super::observances::{self, Observance};
use super::reading::ReadError;
use super::values::{self, Stamp};

/// The deepest nesting of components read (VCALENDAR > VEVENT > VALARM is 3).
const MAX_DEPTH: usize = 8;
/// The longest title kept, in characters.
const MAX_TITLE_CHARS: usize = 500;

/// One VEVENT: a single event, the master of a recurring one, or one overridden occurrence
/// (`recurrence_id`).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub uid: String,
    pub title: String,
    pub start: Stamp,
    pub end: Option<Stamp>,
    pub duration: Option<Duration>,
    pub rules: Vec<String>,
    pub rdates: Vec<Stamp>,
    pub exdates: Vec<Stamp>,
    pub recurrence_id: Option<Stamp>,
    /// STATUS:CANCELLED.
    pub cancelled: bool,
    /// TRANSP:TRANSPARENT: shown, but the time stays free.
    pub transparent: bool,
}

/// What a file holds.
#[derive(Debug, Default)]
pub struct Document {
    pub series: Vec<Series>,
    /// Each VTIMEZONE by its TZID.
    pub zones: Vec<(String, Vec<Observance>)>,
    /// VEVENTs that could not be read (no DTSTART that reads).
    pub unreadable: usize,
}

fn depth_of(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for line in text.lines() {
        let line = line.trim_start();
        let head = line.get(..6).unwrap_or("");
        if head.eq_ignore_ascii_case("BEGIN:") {
            depth += 1;
            deepest = deepest.max(depth);
        } else if line.get(..4).unwrap_or("").eq_ignore_ascii_case("END:") {
            depth = depth.saturating_sub(1);
        }
    }
    deepest
}

fn named(name: &str, expected: &str) -> bool {
    name.eq_ignore_ascii_case(expected)
}

fn props<'a>(
    component: &'a Component<'a>,
    name: &'a str,
) -> impl Iterator<Item = &'a Property<'a>> {
    component
        .properties
        .iter()
        .filter(move |property| named(property.name.as_str(), name))
}

fn prop<'a>(component: &'a Component<'a>, name: &'a str) -> Option<&'a Property<'a>> {
    props(component, name).next()
}

fn tzid<'a>(property: &'a Property<'a>) -> Option<&'a str> {
    property
        .params
        .iter()
        .find(|param| named(param.key.as_str(), "TZID"))
        .and_then(|param| param.val.as_ref())
        .map(|value| value.as_str())
}

fn stamp_of(property: &Property<'_>) -> Option<Stamp> {
    values::stamp(property.val.as_str(), tzid(property))
}

fn text_of(property: &Property<'_>) -> String {
    property
        .val
        .clone()
        .unescape_text()
        .as_str()
        .chars()
        .take(MAX_TITLE_CHARS)
        .collect()
}

fn series(event: &Component<'_>) -> Option<Series> {
    let value = |name| prop(event, name).map(|property| property.val.as_str().trim().to_string());
    Some(Series {
        uid: value("UID").unwrap_or_default(),
        title: prop(event, "SUMMARY").map(text_of).unwrap_or_default(),
        start: stamp_of(prop(event, "DTSTART")?)?,
        end: prop(event, "DTEND").and_then(stamp_of),
        duration: value("DURATION").and_then(|text| values::duration(&text)),
        rules: props(event, "RRULE")
            .map(|p| p.val.as_str().to_string())
            .collect(),
        rdates: props(event, "RDATE")
            .flat_map(|p| values::stamps(p.val.as_str(), tzid(p)))
            .collect(),
        exdates: props(event, "EXDATE")
            .flat_map(|p| values::stamps(p.val.as_str(), tzid(p)))
            .collect(),
        recurrence_id: prop(event, "RECURRENCE-ID").and_then(stamp_of),
        cancelled: value("STATUS").is_some_and(|status| named(&status, "CANCELLED")),
        transparent: value("TRANSP").is_some_and(|transp| named(&transp, "TRANSPARENT")),
    })
}

fn observance(part: &Component<'_>) -> Option<Observance> {
    let wall = match stamp_of(prop(part, "DTSTART")?)? {
        Stamp::Floating(wall) | Stamp::Zoned(wall, _) => wall,
        Stamp::Utc(at) => at.naive_utc(),
        Stamp::Date(day) => values::midnight(day),
    };
    let rdates = props(part, "RDATE")
        .flat_map(|p| values::stamps(p.val.as_str(), None))
        .filter_map(|stamp| match stamp {
            Stamp::Floating(wall) => Some(wall),
            _ => None,
        })
        .collect();
    Some(Observance {
        start: wall,
        offset_from: observances::offset(prop(part, "TZOFFSETFROM")?.val.as_str())?,
        offset_to: observances::offset(prop(part, "TZOFFSETTO")?.val.as_str())?,
        rule: prop(part, "RRULE").map(|p| p.val.as_str().to_string()),
        rdates,
    })
}

/// Reads a calendar file's text.
pub fn document(text: &str) -> Result<Document, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Measured on the unfolded text: a BEGIN line folded in two is still one to the parser.
    let unfolded = unfold(text);
    if depth_of(&unfolded) > MAX_DEPTH {
        return Err(ReadError::TooDeep(MAX_DEPTH));
    }
    let starts_as_calendar = unfolded
        .lines()
        .find(|line| !line.trim().is_empty())
        .is_some_and(|line| named(line.trim(), "BEGIN:VCALENDAR"));
    if !starts_as_calendar {
        return Err(ReadError::NotCalendar);
    }
    let calendar = read_calendar(&unfolded).map_err(|_| ReadError::Malformed)?;
    let mut document = Document::default();
    for component in &calendar.components {
        if named(component.name.as_str(), "VEVENT") {
            match series(component) {
                Some(series) => document.series.push(series),
                None => document.unreadable += 1,
            }
        } else if named(component.name.as_str(), "VTIMEZONE") {
            let Some(id) = prop(component, "TZID") else {
                continue;
            };
            let parts = component
                .components
                .iter()
                .filter(|part| {
                    named(part.name.as_str(), "STANDARD") || named(part.name.as_str(), "DAYLIGHT")
                })
                .filter_map(observance)
                .collect();
            document
                .zones
                .push((id.val.as_str().trim().to_string(), parts));
        }
    }
    Ok(document)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_are_not_calendars_are_refused_without_quoting_them() {
        let deep = format!("BEGIN:VCALENDAR\n{}", "BEGIN:X\n".repeat(100_000));
        assert!(matches!(document(&deep), Err(ReadError::TooDeep(_))));
        let folded = format!("BEGIN:VCALENDAR\r\n{}", "BE\r\n GIN:X\r\n".repeat(100_000));
        assert!(matches!(document(&folded), Err(ReadError::TooDeep(_))));
        assert!(matches!(
            document("<html><body>Sign in</body></html>"),
            Err(ReadError::NotCalendar)
        ));
        assert!(matches!(document(""), Err(ReadError::NotCalendar)));
        let broken = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART 20261123\r\nsecret words\r\n";
        let error = document(broken)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(!error.is_empty() && !error.contains("secret"), "{error}");
    }

    #[test]
    fn events_keep_their_zone_recurrence_and_exceptions() {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a@x\r\nSUMMARY:Stand-up\\, daily\r\nDTSTART;TZID=\"W. Europe Standard Time\":20261005T090000\r\nDTEND;TZID=\"W. Europe Standard Time\":20261005T091500\r\nRRULE:FREQ=DAILY\r\nEXDATE;TZID=\"W. Europe Standard Time\":20261006T090000,20261007T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let read = document(text).unwrap_or_else(|e| panic!("{e}"));
        let event = &read.series[0];
        assert_eq!(event.title, "Stand-up, daily");
        assert!(matches!(&event.start, Stamp::Zoned(_, zone) if zone == "W. Europe Standard Time"));
        assert_eq!(event.exdates.len(), 2);
        assert_eq!(event.rules, vec!["FREQ=DAILY".to_string()]);
    }
}
