//! The time grammar by category, one line per
//! sentence: "saying TEXT at NOW gives EXPECTED" for the reader, and "capturing BODY gives
//! TITLE with EXPECTED" for a capture (the real capture time reading and title cut, without the
//! HTTP turn; `tests/it/free_text/` runs a sample of each category end to end).
//!
//! `now` is local wall-clock time with its weekday, in Europe/Berlin (UTC+1 in winter) unless a
//! zone follows. Expected times are local to that zone. Every category has must-not rows:
//! sentences that look like times but are not, and titles whose numbers and day words stay.
//!
//! Calendar notes: Friday 27 November 2026 is the usual "now"; New York moves to summer time on
//! Sun 2027-03-14, Berlin on Sun 2027-03-28 (so for two weeks they are 5 hours apart, not 6).
//!
//! `durations`, `dates`, `day_parts`, `zones`, `refusals` (times that cannot be used, never
//! half read) and `titles` (numbers and day words that stay).

mod dates;
mod day_parts;
mod durations;
mod refusals;
mod titles;
mod zones;

use crate::common::when_context::{parse_local, when_context as context};
use chrono::{DateTime, Utc};
use donna::capture::time_words::{read, CaptureTime};
use donna::capture::title::title_from;
use donna::tasks::when::{describe, find_when, time_words, TimeAnchor, WhenContext, WhenError};

pub(crate) const NOW: &str = "Fri 2026-11-27 10:00";

pub(crate) enum Expect {
    At(&'static str),
    Fails(WhenError),
    Nothing,
}
pub(crate) use Expect::{At, Fails, Nothing};

fn local(at: DateTime<Utc>, ctx: &WhenContext) -> String {
    at.with_timezone(&ctx.timezone)
        .format("%a %Y-%m-%d %H:%M")
        .to_string()
}

pub(crate) fn check(text: &str, now: &str, expected: Expect) {
    let ctx = context(now);
    let got = find_when(text, &ctx).map(|at| at.map(|at| local(at, &ctx)));
    match expected {
        At(want) => {
            parse_local(want); // the weekday written in the table must be right
            assert_eq!(got, Ok(Some(want.to_owned())), "{text:?} at {now}");
        }
        Fails(error) => assert_eq!(got, Err(error), "{text:?} at {now}"),
        Nothing => assert_eq!(got, Ok(None), "{text:?} at {now}"),
    }
}

pub(crate) fn unread(words: &str) -> Expect {
    Fails(WhenError::Unread(words.to_owned()))
}

/// A capture's body: the title left once the time words are cut, and the time read. A title
/// never keeps a word the reader counts as part of a time.
pub(crate) fn cap(body: &str, now: &str, title: &str, expected: Expect) {
    let ctx = context(now);
    let time = read(body, &ctx);
    let got_title = title_from(body, time.ranges());
    assert_eq!(got_title, title, "{body:?}: the title");
    match (expected, &time) {
        (At(want), CaptureTime::At { at, .. }) => {
            assert_eq!(local(*at, &ctx), want, "{body:?}: the time")
        }
        (Fails(error), CaptureTime::Unreadable { reason, .. }) => {
            assert_eq!(reason, &error, "{body:?}: the reason")
        }
        (Nothing, CaptureTime::None) => {}
        (_, other) => panic!("{body:?}: got {other:?}"),
    }
    // Whatever happened, no word of the title is a time word the reader saw.
    let left = time_words(&got_title);
    if !matches!(time, CaptureTime::None) {
        assert!(
            left.is_empty(),
            "{body:?}: the title {got_title:?} still holds time words {:?}",
            left.iter()
                .map(|r| &got_title[r.clone()])
                .collect::<Vec<_>>()
        );
    }
}
