//! The words of a capture that say how long it takes, as the time reader and the title see
//! them: the length's words blanked so "45 min" is never read as a time from now, a range of
//! clock times ("from 9:00 to 11:00") given to the time reader as its start ("at 9:00"), and
//! the ranges of the length and the time made one for the title.
//! Invariant: pure; every other word keeps its byte place, so the time reader's ranges are the
//! body's.

use std::ops::Range;

use crate::tasks::when::Length;

/// `text` as the time reader sees it: the length's words made spaces (every other word keeps
/// its place), and a range of clock times ("from 9:00 to 11:00") said as its start ("at 9:00").
pub fn time_without_length(text: &str, length: Option<&Length>) -> String {
    let Some(length) = length else {
        return text.to_string();
    };
    let range = length.range.clone();
    let mut read: String = text
        .char_indices()
        .map(|(at, c)| {
            if range.contains(&at) {
                " ".repeat(c.len_utf8())
            } else {
                c.to_string()
            }
        })
        .collect();
    if let Some(start) = length.start.clone() {
        let said = format!("at {}", text.get(start).unwrap_or_default());
        if said.len() <= range.len() {
            read.replace_range(range.start..range.start + said.len(), &said);
        }
    }
    read
}

/// `ranges` with the overlapping ones made one (a length's words and a time read in them).
pub fn merged(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.sort_by_key(|range| range.start);
    let mut out: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match out.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => out.push(range),
        }
    }
    out
}
