//! Which words of a capture are its time, and what the time sets.
//!
//! The parser (`tasks::when::find_when_span`) says which words it read and whether the word
//! before them makes the time a deadline ("by", "due", "before", "until") or a start ("at",
//! "on", "in", none) (docs/contract.md "Times"). When the words name a time the parser cannot use
//! ("at 3": am or pm?; "feb 30"; "in an hour and a bit": only partly readable), every word of
//! the time (`tasks::when::time_words`: the phrases found and the time words beside them
//! nothing read) is cut from the title and the person is asked for the time; nothing is
//! guessed, and no time word stays in the title.

use std::ops::Range;

use chrono::{DateTime, Utc};

use crate::tasks::when::{find_when_span, time_words, TimeAnchor, WhenContext, WhenError};

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

pub fn read(body: &str, ctx: &WhenContext) -> CaptureTime {
    match find_when_span(body, ctx) {
        Ok(None) => CaptureTime::None,
        Ok(Some(span)) => CaptureTime::At {
            at: span.at,
            anchor: span.anchor,
            ranges: span.ranges,
        },
        Err(reason) => CaptureTime::Unreadable {
            ranges: time_words(body),
            reason,
        },
    }
}
