//! Times of day: "5pm", "5 pm", "5:30pm", "5.30 p.m.", "17:30", "at 17", "at 15h30", "at 5"
//! (am or pm from a part of day, else asked), "at five o'clock", "half past 3", "quarter to
//! 4", and the day-part words that name a time: "noon", "midday", "midnight" (00:00 at the end
//! of the day), "lunchtime" (12:00), "first thing" (09:00).
//!
//! # Invariants
//! - A number without am/pm, a colon or "at"/"around" before it is not a time ("buy 8 eggs").
//! - "3:15" without am/pm is read like "at 3": a part of day decides, 7..=11 are the morning,
//!   1..=6 are asked; "03:15" and "15:15" are the 24-hour clock.
//! - A time that describes a thing ("the 7pm show", "a 10am slot") is no time.
//! - A time that does not exist ("25:00", "13pm", "23:59:60") is read as such, with its reason.
//! - A time with "ish" ("5ish") is read as what it is: words to ask about, never a guess.

use super::cursor::{one, Match, Words};
use crate::tasks::when::error::WhenError;
use crate::tasks::when::parts::{clock_part, hm, Part};
use crate::tasks::when::words::{count_word, is_digits, meridiem, small_number, weekday_word};

/// "14:00" or "14:00:00" as written numbers, range not yet checked; the flag is false when
/// the seconds cannot be ("23:59:60").
pub(super) fn clock_fields(s: &str) -> Option<(u32, u32, bool)> {
    let (hour, rest) = s.split_once(':')?;
    let (minute, seconds_ok) = match rest.split_once(':') {
        Some((minute, seconds)) if seconds.len() == 2 => (minute, small_number(seconds)? < 60),
        Some(_) => return None,
        None => (rest, true),
    };
    if minute.len() != 2 {
        return None;
    }
    Some((small_number(hour)?, small_number(minute)?, seconds_ok))
}

/// An hour said in words or digits, 1..=12 ("five", "5").
fn hour_word(word: &str) -> Option<u32> {
    let hour = if is_digits(word) {
        small_number(word)?
    } else {
        u32::try_from(count_word(word).filter(|_| !matches!(word, "a" | "an"))?).ok()?
    };
    (1..=12).contains(&hour).then_some(hour)
}

/// "5pm", "5 pm", "5:30pm", "5.30 p.m.", "five pm", "17:30", "15h30" after "at". A number
/// without am/pm or a colon is not a clock time here.
pub(super) fn clock(w: &Words, i: usize) -> Option<Match> {
    let (mut len, parts) = clock_words(w, i)?;
    // "the 7pm show", "a 10am slot": a time that describes a thing, part of the title.
    if matches!(w.before(i), "the" | "a" | "an") && w.followed_by_a_thing(i + len) {
        return None;
    }
    if w.at(i + len) == "sharp" {
        len += 1;
    }
    Some((len, parts))
}

fn clock_words(w: &Words, i: usize) -> Option<Match> {
    let word = w.at(i);
    if let (Some(hour), Some(pm)) = (
        hour_word(word).filter(|_| !is_digits(word)),
        meridiem(w.at(i + 1)),
    ) {
        let hour = if pm { hour % 12 + 12 } else { hour % 12 };
        return Some((2, vec![clock_part(hour, 0, &w.written(i, 2))]));
    }
    if !word.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if let Some(body) = word.strip_suffix("ish") {
        if body.starts_with(|c: char| c.is_ascii_digit()) {
            return one(Part::Invalid(WhenError::Unread(word.to_owned())));
        }
    }
    if matches!(w.intro(i), "at" | "by") {
        if let Some(found) = hours_h_minutes(word).or_else(|| dotted_or_military(word)) {
            return Some(found);
        }
    }
    let suffixed = ["a.m", "p.m", "am", "pm"].iter().find_map(|suffix| {
        let body = word.strip_suffix(suffix)?;
        Some((body, meridiem(suffix)?))
    });
    let (body, pm, len, written) = match suffixed {
        Some((body, pm)) => (body, Some(pm), 1, word.to_owned()),
        None => match meridiem(w.at(i + 1)) {
            Some(pm) => (word, Some(pm), 2, format!("{word} {}", w.at(i + 1))),
            None => (word, None, 1, word.to_owned()),
        },
    };
    let (hour, minute) = match pm {
        None => match clock_fields(body)? {
            // "3:15" without am/pm: as ambiguous as "at 3" (a leading zero, "03:15", is the
            // 24-hour clock); "7:30" is the morning, like "at 7".
            (hour @ 1..=11, minute, true) if !body.starts_with('0') && minute < 60 => {
                return one(Part::BareHour { hour, minute })
            }
            (hour, minute, true) => (hour, minute),
            _ => return one(Part::Invalid(WhenError::NoSuchTime(written))),
        },
        Some(_) => match body.split_once(['.', ':']) {
            Some((hour, minute)) if minute.len() == 2 => {
                (small_number(hour)?, small_number(minute)?)
            }
            Some(_) => return None,
            None => (small_number(body)?, 0),
        },
    };
    let hour = match pm {
        None => Some(hour),
        Some(_) if !(1..=12).contains(&hour) => None,
        Some(false) => Some(hour % 12),
        Some(true) => Some(hour % 12 + 12),
    };
    let part = match hour {
        Some(hour) => clock_part(hour, minute, &written),
        None => Part::Invalid(WhenError::NoSuchTime(written)),
    };
    Some((len, vec![part]))
}

/// "17.30", "5.30", "1730" after "at" or "by": the clock as written in much of Europe and in
/// the military; "5.30" is read like "5:30" (its hour asked when it could be either).
fn dotted_or_military(word: &str) -> Option<Match> {
    let (hour, minute) = match word.split_once('.') {
        Some((h, m)) if is_digits(h) && h.len() <= 2 && is_digits(m) && m.len() == 2 => (h, m),
        Some(_) => return None,
        None if is_digits(word) && word.len() == 4 => word.split_at(2),
        None => return None,
    };
    let (hour, minute) = (small_number(hour)?, small_number(minute)?);
    if minute >= 60 || hour > 23 {
        return one(Part::Invalid(WhenError::NoSuchTime(word.to_owned())));
    }
    if (1..=11).contains(&hour) && !word.starts_with('0') && word.contains('.') {
        return one(Part::BareHour { hour, minute });
    }
    one(clock_part(hour, minute, word))
}

/// "15h", "15h30", "9h00" after "at": the 24-hour clock as much of Europe writes it.
fn hours_h_minutes(word: &str) -> Option<Match> {
    let (hour, minute) = word.split_once('h')?;
    if !is_digits(hour)
        || hour.len() > 2
        || !(minute.is_empty() || is_digits(minute) && minute.len() == 2)
    {
        return None;
    }
    let hour = small_number(hour)?;
    let minute = if minute.is_empty() {
        0
    } else {
        small_number(minute)?
    };
    one(clock_part(hour, minute, word))
}

/// "noon", "12 noon", "midday", "midnight", "lunchtime", "at lunch", "first thing".
pub(super) fn day_time(w: &Words, i: usize) -> Option<Match> {
    let (word, lead) = match w.at(i) {
        "12" if matches!(w.at(i + 1), "noon" | "midnight") => (w.at(i + 1), 1),
        word => (word, 0),
    };
    let next = w.at(i + lead + 1);
    let (len, part) = match word {
        "noon" | "midday" | "mid-day" => (1, Part::Clock(hm(12, 0)?)),
        "midnight" => (1, Part::Midnight),
        "lunchtime" => (1, Part::Clock(hm(12, 0)?)),
        "lunch" if next == "time" => (2, Part::Clock(hm(12, 0)?)),
        "lunch" if matches!(w.before(i), "at" | "over" | "during" | "by" | "around") => {
            (1, Part::Clock(hm(12, 0)?))
        }
        // "first thing tomorrow", not "the first thing I see" or "first thing I need is ...".
        "first" if next == "thing" && !matches!(w.before(i), "the" | "a") => {
            let after = w.at(i + 2);
            let closes = after.is_empty()
                || weekday_word(after).is_some()
                || matches!(
                    after,
                    "tomorrow"
                        | "tmrw"
                        | "today"
                        | "in"
                        | "on"
                        | "next"
                        | "then"
                        | "please"
                        | "and"
                )
                || w.punctuation_after(i + 1);
            if !closes {
                return None;
            }
            (2, Part::Clock(hm(9, 0)?))
        }
        _ => return None,
    };
    // "midnight snack", "noon meeting notes": a time that describes a thing.
    if word != "first" && w.followed_by_a_thing(i + lead + len) {
        return None;
    }
    Some((lead + len, vec![part]))
}

/// "half past 3", "quarter past three", "quarter to 4", with am/pm or not.
pub(super) fn past_the_hour(w: &Words, i: usize) -> Option<Match> {
    let (minutes, at) = match (w.at(i), w.at(i + 1)) {
        ("half", "past") => (30, i + 1),
        ("quarter", "past" | "to") => (if w.at(i + 1) == "past" { 15 } else { 45 }, i + 1),
        ("a", "quarter") if matches!(w.at(i + 2), "past" | "to") => {
            (if w.at(i + 2) == "past" { 15 } else { 45 }, i + 2)
        }
        _ => return None,
    };
    let to = w.at(at) == "to";
    let said = hour_word(w.at(at + 1))?;
    let hour = if to { (said + 11) % 12 } else { said % 12 };
    let mut len = at + 2 - i;
    let part = match meridiem(w.at(at + 2)) {
        Some(pm) => {
            len += 1;
            clock_part(
                if pm { hour + 12 } else { hour },
                minutes,
                &w.written(i, len),
            )
        }
        // "quarter to 1" is 12:45: noon's hour, read like "at 12".
        None => Part::BareHour {
            hour: if hour == 0 { 12 } else { hour },
            minute: minutes,
        },
    };
    Some((len, vec![part]))
}

/// "at 17", "at 5" (needs a part of day), "around 9", "at five", "at 5 o'clock".
pub(super) fn bare_hour(w: &Words, i: usize) -> Option<Match> {
    let word = w.at(i);
    let o_clock = match (w.at(i + 1), w.at(i + 2)) {
        ("o", "clock") => 2,
        ("oclock" | "o'clock", _) => 1,
        _ => 0,
    };
    let introduced = matches!(w.before(i), "at" | "around") || w.intro(i) == "at";
    if !introduced && o_clock == 0 {
        return None;
    }
    let hour = if is_digits(word) {
        small_number(word)?
    } else {
        hour_word(word)?
    };
    let part = match hour {
        1..=11 => Part::BareHour { hour, minute: 0 },
        _ => clock_part(hour, 0, &format!("{hour}:00")),
    };
    let mut len = 1 + o_clock;
    // "the 5 o'clock news": a time that describes a thing.
    if matches!(w.before(i), "the" | "a") && w.followed_by_a_thing(i + len) {
        return None;
    }
    if w.at(i + len) == "sharp" {
        len += 1;
    }
    Some((len, vec![part]))
}
