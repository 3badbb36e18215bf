//! Which words of a capture are its time, and what the time sets.
//!
//! The parser (`tasks::when::find_when_span`) says which words it read and whether the word
//! before them makes the time a deadline ("by", "due", "before", "until") or a start ("at",
//! "on", "in", none) (DESIGN.md "Times"). When the words name a time the parser cannot use
//! ("at 3": am or pm?; "feb 30"), the words are found by elimination: the smallest run of words
//! whose removal leaves a text with no time in it. They are cut from the title and the person is
//! asked for the time; nothing is guessed.

use std::ops::Range;

use chrono::{DateTime, Utc};

use super::sentence::words;
use crate::tasks::when::{find_when, find_when_span, TimeAnchor, WhenContext, WhenError};

/// The time of a capture, as read.
#[derive(Debug, Clone, PartialEq)]
pub enum CaptureTime {
    None,
    At {
        at: DateTime<Utc>,
        anchor: TimeAnchor,
        ranges: Vec<Range<usize>>,
    },
    /// Words that name a time Donna cannot use; the parser's reason, and where they are.
    Unreadable {
        reason: WhenError,
        ranges: Vec<Range<usize>>,
    },
}

impl CaptureTime {
    pub fn ranges(&self) -> &[Range<usize>] {
        match self {
            CaptureTime::None => &[],
            CaptureTime::At { ranges, .. } | CaptureTime::Unreadable { ranges, .. } => ranges,
        }
    }
}

/// Longest run of words tried when looking for an unreadable time.
const MAX_TIME_WORDS: usize = 6;

/// Words before a time that belong to it.
const MARKERS: [&str; 10] = [
    "at", "on", "in", "by", "due", "before", "until", "till", "for", "around",
];

pub fn read(body: &str, ctx: &WhenContext) -> CaptureTime {
    match find_when_span(body, ctx) {
        Ok(None) => CaptureTime::None,
        Ok(Some(span)) => CaptureTime::At {
            at: span.at,
            anchor: span.anchor,
            ranges: span.ranges,
        },
        Err(reason) => CaptureTime::Unreadable {
            ranges: unreadable_words(body, ctx),
            reason,
        },
    }
}

/// The smallest run of words (with its marker) whose removal leaves no time in `body`.
fn unreadable_words(body: &str, ctx: &WhenContext) -> Vec<Range<usize>> {
    let all = words(body);
    for length in 1..=MAX_TIME_WORDS.min(all.len()) {
        for start in 0..=all.len() - length {
            let from = all[start].range.start;
            let to = all[start + length - 1].range.end;
            let rest = format!("{} {}", &body[..from], &body[to..]);
            // The run must name a time on its own (readable or not), and nothing else may.
            let names_time = !matches!(find_when(&body[from..to], ctx), Ok(None));
            if names_time && matches!(find_when(&rest, ctx), Ok(None)) {
                let from = match start.checked_sub(1).map(|i| &all[i]) {
                    Some(marker) if MARKERS.contains(&marker.text.as_str()) => marker.range.start,
                    _ => from,
                };
                return std::iter::once(from..to).collect();
            }
        }
    }
    Vec::new()
}
