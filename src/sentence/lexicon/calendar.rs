//! The words of a question about the person's own calendar and time: the nouns that name a
//! calendar ("what's on my calendar"), the words that ask whether time is free or taken ("am I
//! free", "am I busy"), the verbs that ask Donna to find time ("find me an hour"), the words a
//! free slot is named with ("my next free slot"), and the parts of a day as local hours.

/// Nouns that name the person's calendar.
pub const CALENDAR_NOUNS: &[&str] = &["calendar", "calender", "cal", "diary", "schedule"];

/// Words that ask whether the person's time is free.
pub const FREE: &[&str] = &["free", "available", "clear", "open"];

/// Words that ask whether the person's time is taken.
pub const BUSY: &[&str] = &["busy", "booked", "taken", "occupied", "tied"];

/// Verbs that ask Donna to find time (followed by a length or "time": "find me an hour",
/// "block 30 minutes", "make time").
pub const FIND_TIME: &[&str] = &["find", "block", "carve", "make", "set", "book"];

/// Words that name a free stretch of time ("my next free slot", "the first free spot").
pub const SLOTS: &[&str] = &["slot", "spot", "window", "gap", "time"];

/// Words of a question about the calendar that say neither what nor when ("what's on my
/// calendar", "anything in my diary for friday", "what does my week look like"), besides the
/// question words and the verbs that open a question (`questions`).
#[rustfmt::skip]
pub const CALENDAR_GLUE: &[&str] = &[
    "on", "in", "my", "for", "the", "anything", "something", "there", "theres", "i", "got",
    "look", "looks", "like",
    "events", "event", "meetings", "meeting", "appointments", "me", "show", "tell", "whole",
    "rest", "of", "again",
];

/// Whether `word` names a calendar.
pub fn is_calendar_noun(word: &str) -> bool {
    CALENDAR_NOUNS.contains(&word)
}

/// Whether `word` asks whether time is free.
pub fn is_free(word: &str) -> bool {
    FREE.contains(&word)
}

/// Whether `word` asks whether time is taken.
pub fn is_busy(word: &str) -> bool {
    BUSY.contains(&word)
}

/// Whether `word` asks Donna to find time.
pub fn is_find_verb(word: &str) -> bool {
    FIND_TIME.contains(&word)
}

/// Whether `word` names a free stretch of time.
pub fn is_slot(word: &str) -> bool {
    SLOTS.contains(&word)
}

/// Whether `word` is calendar glue (see [`CALENDAR_GLUE`]).
pub fn is_calendar_glue(word: &str) -> bool {
    CALENDAR_GLUE.contains(&word)
}

/// The local hours [start, end) a part of the day names, if `word` is one.
pub fn part_of_day(word: &str) -> Option<(u32, u32)> {
    match word {
        "morning" => Some((6, 12)),
        "afternoon" => Some((12, 18)),
        "evening" | "tonight" => Some((18, 23)),
        "lunchtime" | "lunch" => Some((11, 14)),
        _ => None,
    }
}
