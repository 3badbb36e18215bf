//! Writing iCalendar (RFC 5545) content lines: `NAME[;PARAM=VALUE]:VALUE`, each ended by CRLF
//! and folded so that no line is longer than 75 octets (a continuation starts with one space),
//! TEXT values escaped (`\\`, `\;`, `\,`, `\n`), times in the two forms a feed needs.
//!
//! Invariants: a fold never splits a UTF-8 character; no line (continuations included) is over
//! 75 octets before its CRLF; no value ever carries a raw CR, LF or other control character (a
//! TEXT value escapes line breaks as `\n`, a raw value drops them), so no stored value (a
//! title, a task id in a UID, a rule) can start a property or a component of its own.

use chrono::{DateTime, NaiveDateTime, Utc};

/// Longest line, CRLF not counted (RFC 5545, 3.1).
const MAX_OCTETS: usize = 75;

/// An iCalendar text being written.
#[derive(Debug, Default)]
pub struct Ics {
    text: String,
}

impl Ics {
    /// A property whose value is written as it is (already in its value type's syntax), but
    /// for control characters, which no value type allows and which are dropped.
    pub fn raw(&mut self, name: &str, value: &str) {
        let value: String = value.chars().filter(|c| !c.is_control()).collect();
        self.line(&format!("{name}:{value}"));
    }

    /// A TEXT property: the value escaped.
    pub fn text(&mut self, name: &str, value: &str) {
        self.raw(name, &escape(value));
    }

    /// `BEGIN:COMPONENT`.
    pub fn begin(&mut self, component: &str) {
        self.raw("BEGIN", component);
    }

    /// `END:COMPONENT`.
    pub fn end(&mut self, component: &str) {
        self.raw("END", component);
    }

    /// The whole text.
    pub fn finish(self) -> String {
        self.text
    }

    /// Writes one content line, folded.
    fn line(&mut self, line: &str) {
        let mut width = 0;
        for c in line.chars() {
            let octets = c.len_utf8();
            if width + octets > MAX_OCTETS {
                self.text.push_str("\r\n ");
                // The space of the continuation counts in its line's 75.
                width = 1;
            }
            self.text.push(c);
            width += octets;
        }
        self.text.push_str("\r\n");
    }
}

/// A TEXT value escaped: backslash, semicolon, comma; a line break as `\n`; other control
/// characters dropped.
pub fn escape(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            ';' => escaped.push_str("\\;"),
            ',' => escaped.push_str("\\,"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                escaped.push_str("\\n");
            }
            '\n' => escaped.push_str("\\n"),
            c if c.is_control() => {}
            c => escaped.push(c),
        }
    }
    escaped
}

/// A UTC DATE-TIME: `20261127T090000Z`.
pub fn utc(at: DateTime<Utc>) -> String {
    at.format("%Y%m%dT%H%M%SZ").to_string()
}

/// A local DATE-TIME (with a TZID parameter beside it): `20261127T090000`.
pub fn local(at: NaiveDateTime) -> String {
    at.format("%Y%m%dT%H%M%S").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_folded_at_75_octets_without_splitting_a_character() {
        let mut ics = Ics::default();
        let title = "Ü".repeat(100);
        ics.text("SUMMARY", &title);
        let text = ics.finish();
        assert!(text.ends_with("\r\n"));
        for line in text.split("\r\n") {
            assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
        }
        let unfolded = text.replace("\r\n ", "");
        assert_eq!(unfolded, format!("SUMMARY:{title}\r\n"));
    }

    #[test]
    fn a_raw_value_never_carries_a_line_break() {
        let mut ics = Ics::default();
        ics.raw("RRULE", "FREQ=DAILY\r\nBEGIN:VEVENT\nX\u{0}");
        assert_eq!(ics.finish(), "RRULE:FREQ=DAILYBEGIN:VEVENTX\r\n");
    }

    #[test]
    fn text_values_escape_what_would_end_or_split_them() {
        assert_eq!(
            escape("a,b;c\\d\r\nBEGIN:VEVENT\ne\u{7}"),
            "a\\,b\\;c\\\\d\\nBEGIN:VEVENT\\ne"
        );
    }
}
