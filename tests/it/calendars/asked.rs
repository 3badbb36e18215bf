//! The reading of questions about the person's own time (`capture::calendar_asked`), as a
//! table of sentences the way people write them, with the ones that must read as nothing:
//! which question, and the window it asks about (Monday 23 November 2026, 10:00 UTC).

use crate::common::Needed;
use chrono::{DateTime, TimeZone, Utc};
use donna::capture::calendar_asked::{read, CalendarAsk};
use donna::sentence::Sentence;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 0)
        .single()
        .needed()
}

/// What a sentence reads as, in short: "show tomorrow", "free Fri 27 Nov 14:00-15:00",
/// "busy tomorrow afternoon", "find 60 tomorrow afternoon for the taxes", "next the gym",
/// "unreadable", "none".
fn shown(text: &str) -> String {
    match read(&Sentence::read(text), now(), chrono_tz::UTC) {
        None => "none".into(),
        Some(CalendarAsk::Show(window)) => format!("show {}", window.said),
        Some(CalendarAsk::Free { window, busy_asked }) => {
            let asked = if busy_asked { "busy" } else { "free" };
            format!("{asked} {}", window.said)
        }
        Some(CalendarAsk::FindTime {
            minutes,
            window,
            task,
        }) => format!(
            "find {} {} for {}",
            minutes.map_or("?".to_string(), |m| m.to_string()),
            window.said,
            task.unwrap_or_default()
        ),
        Some(CalendarAsk::NextFreeSlot { task }) => {
            format!("next {}", task.unwrap_or_else(|| "it".into()))
        }
        Some(CalendarAsk::Unreadable(_)) => "unreadable".into(),
    }
}

#[test]
fn questions_about_one_s_time_read_whole_and_look_alikes_read_as_nothing() {
    let table = [
        ("what's on my calendar tomorrow?", "show tomorrow"),
        ("Whats on my calendar today", "show today"),
        ("what's on my calendar?", "show today"),
        ("anything on my calendar friday?", "show Friday 27 Nov"),
        (
            "hey donna, what's in my diary for thursday?",
            "show Thursday 26 Nov",
        ),
        ("what does my week look like?", "show this week"),
        (
            "what does my calendar look like next week?",
            "show next week",
        ),
        ("how's my day looking tomorrow?", "show tomorrow"),
        (
            "what's on my schedule tomorrow afternoon?",
            "show tomorrow afternoon",
        ),
        ("am I free friday at 2?", "free Fri 27 Nov 14:00-15:00"),
        ("am i free at 3pm", "free Mon 23 Nov 15:00-16:00"),
        ("Am I busy tomorrow afternoon?", "busy tomorrow afternoon"),
        ("am I available on wednesday?", "free Wednesday 25 Nov"),
        ("am I booked tonight?", "busy today tonight"),
        (
            "find me an hour tomorrow afternoon for the taxes",
            "find 60 tomorrow afternoon for the taxes",
        ),
        (
            "find 30 minutes this week for the gym",
            "find 30 this week for the gym",
        ),
        (
            "can you find me half an hour on friday for Call mom",
            "find 30 Friday 27 Nov for Call mom",
        ),
        (
            "block 90 mins tomorrow morning to write the report",
            "find 90 tomorrow morning for write the report",
        ),
        (
            "find time for the taxes",
            "find ? in the next 7 days for the taxes",
        ),
        ("move it to my next free slot", "next it"),
        ("move the taxes to my next free slot", "next the taxes"),
        ("put the gym in my first free spot", "next the gym"),
        ("am I free on feb 30?", "unreadable"),
        // Not questions about one's time.
        ("I'm free!", "none"),
        ("free the slot", "none"),
        ("my calendar app is broken", "none"),
        ("find my keys", "none"),
        ("find the charger", "none"),
        ("I'm busy tomorrow afternoon", "none"),
        ("are you free friday at 2?", "none"),
        ("is my calendar connected?", "none"),
        ("what's on my calendar for the taxes?", "none"),
        ("make dinner tomorrow", "none"),
        ("make 30 minutes of soup", "none"),
        ("block the door", "none"),
        ("my week was long", "none"),
        ("what a week", "none"),
        ("list my tasks", "none"),
        ("what's due this week?", "none"),
        ("remind me to check my calendar tomorrow", "none"),
        ("add find an hour for yoga to my list", "none"),
        ("move it to friday", "none"),
        ("the next free slot is mine", "none"),
    ];
    let mut wrong = Vec::new();
    for (text, expected) in table {
        let got = shown(text);
        if got != expected {
            wrong.push(format!("{text:?}: {got:?}, wanted {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
