//! Random phrases never panic the reader.

use super::*;

/// Random phrases from the vocabulary, digits and punctuation: nothing may panic, and every time
/// returned must be ahead of now and within five years.
#[test]
fn random_phrases_never_panic() {
    const VOCABULARY: &[&str] = &[
        "tomorrow",
        "Tomorrow",
        "DEC",
        "İN",
        "due",
        "before",
        "until",
        "today",
        "tonight",
        "later",
        "in",
        "a",
        "an",
        "half",
        "hour",
        "hours",
        "h",
        "m",
        "min",
        "minutes",
        "day",
        "days",
        "d",
        "week",
        "weeks",
        "w",
        "month",
        "months",
        "mo",
        "next",
        "last",
        "this",
        "on",
        "at",
        "around",
        "by",
        "from",
        "not",
        "and",
        "ago",
        "the",
        "of",
        "after",
        "friday",
        "fri",
        "sat",
        "sun",
        "monday",
        "weekend",
        "morning",
        "afternoon",
        "evening",
        "night",
        "noon",
        "midnight",
        "dec",
        "december",
        "feb",
        "may",
        "am",
        "pm",
        "p.m.",
        "yesterday",
        "3rd",
        "29",
        "30",
        "31",
        "0",
        "12",
        "13",
        "24",
        "25",
        "61",
        "2026-12-03",
        "2027-02-29",
        "2026-03-29t02:30",
        "17:30",
        "25:00",
        "5.30pm",
        "1h30m",
        "99999999999999999999",
        "-",
        ":",
        ".",
        "/",
        ",",
        "'s",
        "é",
        "İ",
        "२",
        "🙂",
        // the newer grammar: fractions, ordinals, points, relative times, zones, signs
        "half",
        "quarter",
        "couple",
        "few",
        "several",
        "1.5",
        "1,5",
        "-5",
        "−3",
        "minus",
        "21st",
        "twenty-first",
        "end",
        "mid",
        "middle",
        "beginning",
        "eod",
        "cob",
        "first",
        "thing",
        "midnight",
        "lunchtime",
        "o'clock",
        "past",
        "working",
        "business",
        "christmas",
        "years",
        "fortnight",
        "pst",
        "ist",
        "utc+2",
        "gmt-14",
        "+05:30",
        "america/new_york",
        "new",
        "york",
        "time",
        "3/12",
        "25/12",
        "5ish",
        "every",
        "mondays",
        "23:59:60",
        "1h15",
        "2-3",
        "99999999999999999999.5",
    ];
    let starts = [
        "Fri 2026-03-27 10:00",
        "Sat 2026-03-28 23:30",
        "Sun 2026-03-29 01:59",
        "Sun 2026-10-25 01:30",
        "Thu 2026-12-31 23:59",
        "Sat 2028-02-26 12:00 America/New_York",
        "Mon 2026-03-09 00:00 Pacific/Apia",
        "Tue 2026-06-30 23:00 UTC",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        // xorshift64: deterministic, so a failure reproduces.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let contexts: Vec<WhenContext> = starts.iter().map(|s| context(s)).collect();
    for round in 0..10_000u64 {
        let words = next() % 7;
        let mut text = String::new();
        for _ in 0..words {
            let pick = next();
            let word = match pick % 5 {
                0 => (pick >> 8).to_string(),
                1 => ((pick >> 8) % 100).to_string(),
                _ => VOCABULARY[(pick >> 8) as usize % VOCABULARY.len()].to_owned(),
            };
            text.push_str(&word);
            text.push(if next() % 4 == 0 { ',' } else { ' ' });
        }
        let mut ctx = contexts[round as usize % contexts.len()].clone();
        if next() % 3 == 0 {
            let hours = i64::try_from(next() % 24).unwrap_or(0);
            ctx.current_start = Some(ctx.now + chrono::TimeDelta::hours(hours - 12));
        }
        let plain = find_when(&text, &ctx);
        let span = find_when_span(&text, &ctx);
        assert_eq!(
            span.as_ref().map(|s| s.as_ref().map(|s| s.at)),
            plain.as_ref().map(|at| at.as_ref().copied()),
            "{text:?}: the span reading differs from the plain one"
        );
        if let Ok(Some(span)) = &span {
            assert!(!span.ranges.is_empty(), "{text:?}: a time from no words");
            let mut end = 0;
            for range in &span.ranges {
                assert!(
                    range.start >= end && range.start < range.end && range.end <= text.len(),
                    "{text:?}: ranges {:?} out of order, empty or outside the text",
                    span.ranges
                );
                assert!(
                    text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
                    "{text:?}: range {range:?} splits a character"
                );
                end = range.end;
            }
        }
        if let Ok(Some(at)) = plain {
            assert!(at > ctx.now, "{text:?} gave {at}, not after {}", ctx.now);
            assert!(
                at <= ctx.now + chrono::TimeDelta::days(5 * 366),
                "{text:?} gave {at}, too far ahead"
            );
            assert!(!describe(at, &ctx).is_empty());
        }
    }
}
