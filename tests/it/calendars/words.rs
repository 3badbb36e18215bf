//! Questions about the person's own time, answered by the rules over a real local .ics file
//! (Monday 23 November 2026, 10:00 UTC; working hours 09:00-18:00, quiet hours 22:00-08:00):
//! what is on their calendar (their events and tasks, nobody else's), whether they are free
//! (the event in the way named), and a slot found for a task: one that overlaps no event and
//! no other task, inside working hours, proposed as a plan that moves nothing before a yes.
//! In a group chat calendars are private; a person with no calendar is told how to add one;
//! sentences that only look like these trigger nothing.

use crate::common::Fields;
use chrono::{DateTime, Duration, Utc};
use serde_json::{json, Value};

use super::bot_with_owner_and_sam;
use crate::common::Bot;

const OWNER: &str = r#"
BEGIN:VEVENT
UID:workshop@owner
SUMMARY:Workshop
DTSTART:20261124T090000Z
DTEND:20261124T120000Z
END:VEVENT
BEGIN:VEVENT
UID:dentist@owner
SUMMARY:Dentist check-up
DTSTART:20261124T140000Z
DTEND:20261124T150000Z
END:VEVENT
BEGIN:VEVENT
UID:budget@owner
SUMMARY:Budget review
DTSTART:20261124T153000Z
DTEND:20261124T173000Z
END:VEVENT
BEGIN:VEVENT
UID:conference@owner
SUMMARY:Conference
DTSTART;VALUE=DATE:20261125
DTEND;VALUE=DATE:20261126
END:VEVENT
BEGIN:VEVENT
UID:yoga@owner
SUMMARY:Yoga
DTSTART:20261126T140000Z
DTEND:20261126T160000Z
TRANSP:TRANSPARENT
END:VEVENT
BEGIN:VEVENT
UID:anna@owner
SUMMARY:Call with Anna
DTSTART:20261127T133000Z
DTEND:20261127T150000Z
END:VEVENT
"#;

/// The owner's busy events, (start, end) in UTC.
const BUSY: [(&str, &str); 5] = [
    ("2026-11-24T09:00:00Z", "2026-11-24T12:00:00Z"),
    ("2026-11-24T14:00:00Z", "2026-11-24T15:00:00Z"),
    ("2026-11-24T15:30:00Z", "2026-11-24T17:30:00Z"),
    ("2026-11-25T00:00:00Z", "2026-11-26T00:00:00Z"),
    ("2026-11-27T13:30:00Z", "2026-11-27T15:00:00Z"),
];

const EVERY_TITLE: [&str; 7] = [
    "Workshop",
    "Dentist check-up",
    "Budget review",
    "Conference",
    "Yoga",
    "Call with Anna",
    "Sam's job interview",
];

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .with_timezone(&Utc)
}

async fn bot_with_calendars() -> Bot {
    bot_with_owner_and_sam(OWNER, "").await
}

fn reply(result: &Value) -> String {
    result["reply"].text().to_string()
}

/// Asserts a slot [start, start + minutes) overlaps none of the owner's busy events and lies
/// inside working hours.
fn assert_clear(start: DateTime<Utc>, minutes: i64) {
    let end = start + Duration::minutes(minutes);
    for (busy_start, busy_end) in BUSY {
        assert!(
            end <= at(busy_start) || start >= at(busy_end),
            "{start} overlaps {busy_start}"
        );
    }
    let (from, to) = (
        start.format("%H:%M").to_string(),
        end.format("%H:%M").to_string(),
    );
    assert!(
        from.as_str() >= "09:00" && to.as_str() <= "18:00",
        "{from}-{to}"
    );
}

#[actix_rt::test]
async fn questions_about_the_calendar_name_the_owner_s_own_events_and_tasks() {
    let bot = bot_with_calendars().await;
    let chat = bot.free_thread().await;
    bot.task(json!({"title": "Pay rent", "deadline": "2026-11-26T17:00:00Z"}))
        .await;
    // (question, words the answer holds, titles it must not show)
    let table: &[(&str, &[&str], &[&str])] = &[
        (
            "what's on my calendar tomorrow?",
            &[
                "Tomorrow:",
                "09:00-12:00 Workshop",
                "14:00-15:00 Dentist check-up",
                "Budget review",
            ],
            &[
                "Call with Anna",
                "Conference",
                "Sam's job interview",
                "Pay rent",
            ],
        ),
        (
            "hey donna, anything on my calendar friday?",
            &["13:30-15:00 Call with Anna"],
            &["Workshop", "Sam's job interview"],
        ),
        (
            "What does my week look like?",
            &[
                "This week:",
                "Tue 24 Nov 09:00-12:00 Workshop",
                "Conference",
                "Call with Anna",
                "Tasks:",
                "Pay rent (due",
            ],
            &["Sam's job interview"],
        ),
        (
            "whats in my diary for thursday",
            &["Yoga (free)", "Pay rent"],
            &["Workshop", "Sam's job interview"],
        ),
        (
            "am I free friday at 2?",
            &["No, Fri 27 Nov 14:00-15:00 you have: 13:30-15:00 Call with Anna"],
            &["Workshop"],
        ),
        (
            "am i free friday at 4pm?",
            &["Yes, you're free Fri 27 Nov 16:00-17:00"],
            &["Call with Anna"],
        ),
        (
            "Am I busy tomorrow afternoon?",
            &[
                "Yes, tomorrow afternoon you have:",
                "Dentist check-up",
                "Budget review",
            ],
            &["Workshop"],
        ),
        (
            "am I busy thursday afternoon",
            &["No, you're free"],
            &["Yoga"],
        ),
        (
            "am I available wednesday?",
            &["No,", "all day Conference"],
            &[],
        ),
    ];
    for (question, holds, hides) in table {
        let result = bot.say(&chat, question).await;
        let text = reply(&result);
        assert_eq!(result["path"], "answer", "{question}: {result}");
        for words in *holds {
            assert!(
                text.contains(words),
                "{question}: wants {words:?} in {text}"
            );
        }
        for title in *hides {
            assert!(!text.contains(title), "{question}: shows {title:?}: {text}");
        }
    }
    bot.stop().await;
}

#[actix_rt::test]
async fn in_a_group_calendars_are_private_and_without_a_calendar_the_answer_says_how_to_add_one() {
    let bot = bot_with_calendars().await;
    let group = bot.group_thread().await;
    for question in ["what's on my calendar tomorrow?", "am I free friday at 2?"] {
        let text = reply(&bot.say(&group, question).await);
        assert!(
            text.starts_with("Calendars are private"),
            "{question}: {text}"
        );
        for title in EVERY_TITLE {
            assert!(!text.contains(title), "{question}: {text}");
        }
    }
    let chat = bot.free_thread().await;
    let text = reply(
        &bot.say_as(&chat, "kim", "what's on my calendar tomorrow?")
            .await,
    );
    assert!(text.contains("I don't read a calendar of yours"), "{text}");
    assert!(text.contains("secret iCal address"), "{text}");
    for title in EVERY_TITLE {
        assert!(!text.contains(title), "{text}");
    }
    bot.stop().await;
}

#[actix_rt::test]
async fn sentences_that_only_look_like_calendar_questions_trigger_nothing() {
    let bot = bot_with_calendars().await;
    let chat = bot.free_thread().await;
    let taxes = bot.task(json!({"title": "File taxes"})).await;
    for sentence in [
        "I'm free!",
        "free the slot",
        "my calendar app is broken",
        "find my keys",
        "I'm busy tomorrow afternoon",
        "make dinner tomorrow",
        "block the door",
        "my week was long",
        "is my calendar connected?",
        "are you free friday at 2?",
    ] {
        let result = bot.say(&chat, sentence).await;
        let text = reply(&result);
        assert_ne!(result["path"], "answer", "{sentence}: {result}");
        assert!(result["pending_plan_id"].is_null(), "{sentence}: {result}");
        for title in EVERY_TITLE {
            assert!(!text.contains(title), "{sentence}: {text}");
        }
        assert!(!text.contains("is free for"), "{sentence}: {text}");
    }
    assert_eq!(bot.task_json(&taxes).await["scheduled_start"], Value::Null);
    bot.stop().await;
}

#[actix_rt::test]
async fn a_slot_found_for_a_task_overlaps_nothing_and_moves_it_only_after_a_yes() {
    let bot = bot_with_calendars().await;
    let chat = bot.free_thread().await;
    let taxes = bot.task(json!({"title": "File taxes"})).await;
    let result = bot
        .say(&chat, "find me an hour tomorrow afternoon for the taxes")
        .await;
    let text = reply(&result);
    // Tomorrow afternoon: the workshop ends at 12:00, the dentist is at 14:00.
    assert!(
        text.starts_with("Tue 24 Nov 12:00-13:00 is free for 'File taxes'"),
        "{text}"
    );
    assert!(result["pending_plan_id"].is_string(), "{result}");
    assert_eq!(bot.task_json(&taxes).await["scheduled_start"], Value::Null);
    assert_eq!(bot.say(&chat, "yes").await["path"], "plan_confirmed");
    let moved = bot.task_json(&taxes).await;
    let start = at(moved["scheduled_start"].text());
    assert_eq!(start, at("2026-11-24T12:00:00Z"), "{moved}");
    assert_clear(start, 60);

    // Two hours tomorrow: past the afternoon's events, within working hours, or no slot.
    let gym = bot.task(json!({"title": "Gym session"})).await;
    let text = reply(&bot.say(&chat, "find 2 hours tomorrow for the gym").await);
    assert!(text.contains("no free 120 minutes tomorrow"), "{text}");
    let text = reply(
        &bot.say(&chat, "find 3 hours on wednesday for the gym")
            .await,
    );
    assert!(text.contains("no free 180 minutes"), "{text}");
    // "no" leaves the task as it was.
    let text = reply(
        &bot.say(&chat, "find 30 minutes this week for the gym")
            .await,
    );
    assert!(text.contains("is free for 'Gym session'"), "{text}");
    assert_eq!(bot.say(&chat, "no").await["path"], "plan_rejected");
    assert_eq!(bot.task_json(&gym).await["scheduled_start"], Value::Null);
    // The next free slot keeps clear of the taxes, now set for tomorrow 12:00.
    let text = reply(&bot.say(&chat, "move the gym to my next free slot").await);
    assert!(
        text.starts_with("Mon 23 Nov 10:15-11:15 is free for 'Gym session'"),
        "{text}"
    );
    assert_eq!(bot.say(&chat, "yes").await["path"], "plan_confirmed");
    let start = at(bot.task_json(&gym).await["scheduled_start"].text());
    assert_clear(start, 60);
    // A task that is not there is named back; nothing is added.
    let text = reply(
        &bot.say(&chat, "find me an hour friday for the piano lesson")
            .await,
    );
    assert!(
        text.contains("no open task called \"the piano lesson\""),
        "{text}"
    );
    bot.stop().await;
}

#[actix_rt::test]
async fn without_a_calendar_a_slot_keeps_clear_of_the_person_s_tasks_and_says_so() {
    let bot = bot_with_calendars().await;
    let chat = bot.free_thread().await;
    bot.task(json!({"title": "Standup", "scheduled_start": "2026-11-23T10:30:00Z", "estimated_duration_minutes": 30}))
        .await;
    let plants = bot.task(json!({"title": "Water the plants"})).await;
    let result = bot
        .say_as(&chat, "kim", "find 30 minutes today for the plants")
        .await;
    let text = reply(&result);
    // 10:15-10:30 is too short before the standup; 11:00 is the first clear half hour.
    assert!(
        text.starts_with("Mon 23 Nov 11:00-11:30 is free for 'Water the plants'"),
        "{text}"
    );
    assert!(text.contains("I don't read a calendar of yours"), "{text}");
    assert_eq!(bot.task_json(&plants).await["scheduled_start"], Value::Null);
    assert_eq!(
        bot.say_as(&chat, "kim", "yes").await["path"],
        "plan_confirmed"
    );
    let moved = bot.task_json(&plants).await;
    let start = at(moved["scheduled_start"].text());
    assert_eq!(start, at("2026-11-23T11:00:00Z"), "{moved}");
    bot.stop().await;
}

#[actix_rt::test]
async fn in_a_nudge_thread_my_next_free_slot_is_proposed_for_that_task_and_no_keeps_it() {
    let bot = bot_with_calendars().await;
    let (taxes, thread) = bot.nudged_task("File taxes").await;
    let result = bot.say(&thread, "move it to my next free slot").await;
    let text = reply(&result);
    assert!(
        text.starts_with("Mon 23 Nov 10:15-11:15 is free for 'File taxes'"),
        "{text}"
    );
    assert!(result["pending_plan_id"].is_string(), "{result}");
    assert_eq!(bot.task_json(&taxes).await["scheduled_start"], Value::Null);
    assert_eq!(bot.say(&thread, "no").await["path"], "plan_rejected");
    assert_eq!(bot.task_json(&taxes).await["scheduled_start"], Value::Null);
    bot.stop().await;
}
