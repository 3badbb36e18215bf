//! The reschedule-time table: one line per phrase, read as "saying TEXT at NOW gives EXPECTED".
//!
//! `now` is local wall-clock time written with its weekday ("Fri 2026-03-27 10:00"), in
//! Europe/Berlin unless a zone follows; ", task at <local time>" sets the task's current start.
//! Expected times are local too, with the UTC offset appended where a DST change makes it matter.
//! Weekdays are checked against the dates, so a wrong weekday in a line fails loudly.
//!
//! Calendar notes: Berlin springs forward on Sun 2026-03-29 (02:00 -> 03:00) and falls back on
//! Sun 2026-10-25 (03:00 -> 02:00); New York springs forward on Sun 2026-03-08.
//!
//! `reading`: the phrases by kind; `captures`: the time's words cut from a capture;
//! `describing`: times described and error messages; `random_phrases`: no panic;
//! `replies`: times in replies.

mod captures;
mod describing;
mod random_phrases;
mod reading;
mod replies;

use crate::common::when_context::{parse_local, to_utc, when_context as context};
use donna::tasks::when::{
    describe, describe_absolute, find_when, find_when_span, TimeAnchor, WhenContext, WhenError,
};

enum Expect {
    At(&'static str),
    Fails(WhenError),
    Nothing,
}
use Expect::{At, Fails, Nothing};
use TimeAnchor::{Deadline, Start};

const FRI: &str = "Fri 2026-03-27 10:00";
const MON: &str = "Mon 2026-03-23 10:00";

fn check(text: &str, now: &str, expected: Expect) {
    let ctx = context(now);
    let got = find_when(text, &ctx);
    match expected {
        At(want) => {
            let with_offset = want.contains('+') || want.matches('-').count() > 2;
            let date_and_time = if with_offset {
                want.rsplit_once(' ').map_or(want, |(head, _)| head)
            } else {
                want
            };
            parse_local(date_and_time); // validates the weekday written in the table
            let format = if with_offset {
                "%a %Y-%m-%d %H:%M %:z"
            } else {
                "%a %Y-%m-%d %H:%M"
            };
            let got = got
                .map(|at| at.map(|at| at.with_timezone(&ctx.timezone).format(format).to_string()));
            assert_eq!(got, Ok(Some(want.to_owned())), "{text:?} at {now}");
        }
        Fails(error) => assert_eq!(got, Err(error), "{text:?} at {now}"),
        Nothing => assert_eq!(got, Ok(None), "{text:?} at {now}"),
    }
}

fn no_such_time(written: &str) -> Expect {
    Fails(WhenError::NoSuchTime(written.to_owned()))
}

/// Removes the ranges from the text and collapses the spaces left behind.
fn remaining(text: &str, ranges: &[std::ops::Range<usize>]) -> String {
    let mut kept = String::new();
    let mut from = 0;
    for range in ranges {
        kept.push_str(&text[from..range.start]);
        kept.push(' ');
        from = range.end;
    }
    kept.push_str(&text[from..]);
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

enum SpanExpect {
    Leaves(&'static str, TimeAnchor),
    SpanFails(WhenError),
    NoTime,
}
use SpanExpect::{Leaves, NoTime, SpanFails};

fn check_span(text: &str, now: &str, expected: SpanExpect) {
    let ctx = context(now);
    let got = find_when_span(text, &ctx);
    // The span reading is the plain reading with words attached, never a different answer.
    assert_eq!(
        got.as_ref().map(|span| span.as_ref().map(|s| s.at)),
        find_when(text, &ctx)
            .as_ref()
            .map(|at| at.as_ref().copied()),
        "{text:?}"
    );
    match expected {
        Leaves(rest, anchor) => {
            let span = match got {
                Ok(Some(span)) => span,
                other => panic!("{text:?} at {now}: expected a time, got {other:?}"),
            };
            assert_eq!(
                (remaining(text, &span.ranges).as_str(), span.anchor),
                (rest, anchor),
                "{text:?}"
            );
        }
        SpanFails(error) => assert_eq!(got, Err(error), "{text:?}"),
        NoTime => assert_eq!(got, Ok(None), "{text:?}"),
    }
}

fn check_absolute(at_local: &str, now: &str, expected: &str) {
    let ctx = context(now);
    let at = to_utc(ctx.timezone, at_local);
    assert_eq!(
        describe_absolute(at, ctx.timezone, ctx.now),
        expected,
        "{at_local} seen at {now}"
    );
}

fn check_describe(at_local: &str, now: &str, expected: &str) {
    let ctx = context(now);
    let at = to_utc(ctx.timezone, at_local);
    assert_eq!(describe(at, &ctx), expected, "{at_local} seen at {now}");
}
