//! The time of day of an automation command: "at 9", "at 9am", "at 9 am", "at 7:30",
//! "at 17:00", "at 8pm", "at noon", "at midnight".
//! Invariants: pure; a bare hour 7..=11 is the morning and 12 is noon; a bare 1..=6 (without a
//! leading zero or am/pm) is asked back, never guessed; anything outside a day is asked back.

/// A time of day read from "at <time>" (the words after "at"): (hour, minute, words used).
fn time_after_at(words: &[&str], at: usize) -> Option<Result<(u32, u32, usize), String>> {
    let first = *words.get(at)?;
    let (text, mut used) = (first, 1);
    let suffix_word = words.get(at + 1).copied();
    let (body, meridiem) = if let Some(body) = text.strip_suffix("am") {
        (body, Some(false))
    } else if let Some(body) = text.strip_suffix("pm") {
        (body, Some(true))
    } else if matches!(suffix_word, Some("am" | "a.m" | "a.m.")) {
        used = 2;
        (text, Some(false))
    } else if matches!(suffix_word, Some("pm" | "p.m" | "p.m.")) {
        used = 2;
        (text, Some(true))
    } else if text == "noon" || text == "midday" {
        return Some(Ok((12, 0, 1)));
    } else if text == "midnight" {
        return Some(Ok((0, 0, 1)));
    } else {
        (text, None)
    };
    let (hour_text, minute_text) = body.split_once(':').unwrap_or((body, "0"));
    if hour_text.is_empty() || !hour_text.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if !minute_text.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let hour: u32 = hour_text.parse().ok()?;
    let minute: u32 = minute_text.parse().ok()?;
    if minute > 59 {
        return Some(Err(format!("{body} is not a time of day. At what time?")));
    }
    let hour = match meridiem {
        Some(pm) => {
            if !(1..=12).contains(&hour) {
                return Some(Err(format!("{text} is not a time of day. At what time?")));
            }
            match (pm, hour) {
                (false, 12) => 0,
                (true, 12) => 12,
                (true, h) => h + 12,
                (false, h) => h,
            }
        }
        // "05:30" with a leading zero is a 24-hour time; a bare 1..=6 could be either.
        None if (1..=6).contains(&hour) && !hour_text.starts_with('0') => {
            let clock = if minute == 0 {
                format!("{hour}")
            } else {
                format!("{hour}:{minute:02}")
            };
            return Some(Err(format!(
                "At {clock} in the morning ({:02}:{minute:02}) or in the afternoon ({:02}:{minute:02})?",
                hour,
                hour + 12
            )));
        }
        None if hour > 23 => {
            return Some(Err(format!("{body} is not a time of day. At what time?")));
        }
        None => hour,
    };
    Some(Ok((hour, minute, used)))
}

/// The first "at <time>" in `words`, outside `skip`: (hour, minute, start, end).
pub(super) fn find_time(
    words: &[&str],
    skip: std::ops::Range<usize>,
) -> Option<Result<(u32, u32, usize, usize), String>> {
    for at in 0..words.len() {
        if skip.contains(&at) || words[at] != "at" {
            continue;
        }
        match time_after_at(words, at + 1)? {
            Ok((hour, minute, used)) => return Some(Ok((hour, minute, at, at + 1 + used))),
            Err(question) => return Some(Err(question)),
        }
    }
    None
}
