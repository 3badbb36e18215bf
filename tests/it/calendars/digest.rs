//! The digest with a calendar (a real .ics file; the digest at 08:00 UTC, working hours
//! 09:00-18:00): it lists the person's own events of the day with their tasks, and offers ONE
//! slot for a task with a deadline and an estimate but no start: a slot that overlaps no
//! event, lies inside working hours and ends before the deadline. Nothing moves without a yes;
//! a yes moves the task there; a no is never asked again for that task. In a group chat the
//! digest shows no events and offers nothing.

use crate::common::{Fields, Needed};
use chrono::{DateTime, TimeZone, Utc};
use serde_json::{json, Value};

use super::bot_with_calendars_read;
use crate::common::Bot;

const OWNER: &str = r#"
BEGIN:VEVENT
UID:workshop@owner
SUMMARY:Workshop
DTSTART:20261124T090000Z
DTEND:20261124T120000Z
END:VEVENT
BEGIN:VEVENT
UID:offsite@owner
SUMMARY:Offsite
DTSTART:20261124T130000Z
DTEND:20261124T180000Z
END:VEVENT
BEGIN:VEVENT
UID:dentist@owner
SUMMARY:Dentist
DTSTART:20261125T090000Z
DTEND:20261125T100000Z
END:VEVENT
"#;

/// (start, end) of each busy event, as UTC.
const BUSY: [(&str, &str); 3] = [
    ("2026-11-24T09:00:00Z", "2026-11-24T12:00:00Z"),
    ("2026-11-24T13:00:00Z", "2026-11-24T18:00:00Z"),
    ("2026-11-25T09:00:00Z", "2026-11-25T10:00:00Z"),
];

fn utc(day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, minute, 0)
        .single()
        .needed()
}

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .with_timezone(&Utc)
}

async fn bot_with_calendar() -> Bot {
    bot_with_calendars_read(&[("Mine", "owner", OWNER)], "").await
}

/// A daily 08:00 digest made (and confirmed) in `chat`.
async fn digest_in(bot: &Bot, chat: &str) {
    let proposal = bot.say(chat, "send me my agenda every day at 8am").await;
    assert_eq!(proposal["path"], "automation_proposed", "{proposal}");
    assert_eq!(bot.say(chat, "yes").await["path"], "plan_confirmed");
}

/// The offer for "File taxes" (90 minutes, due Friday 17:00) in the Tuesday digest: Tuesday's
/// 12:00-13:00 is too short, Wednesday's dentist ends at 10:00.
const TAXES_TOMORROW: &str = "\n\nI could set aside tomorrow at 10:00 (until 11:30) for 'File taxes', before it is due Friday 27 Nov at 17:00: your calendar is free then. Shall I put it there? (yes or no)";

fn file_taxes() -> Value {
    json!({"title": "File taxes", "deadline": "2026-11-27T17:00:00Z", "estimated_duration_minutes": 90})
}

async fn add_tasks(bot: &Bot, bodies: impl IntoIterator<Item = Value>) {
    for body in bodies {
        bot.task(body).await;
    }
}

async fn task(bot: &Bot, id: &str) -> Value {
    bot.task_json(id).await
}

/// The digest of Tuesday 24 Nov at 08:00: its text.
async fn tuesday_digest(bot: &Bot) -> String {
    bot.clock.set(utc(24, 8, 0));
    let sent = bot.digest_tick().await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    sent[0].text.clone().needed()
}

#[actix_rt::test]
async fn the_digest_lists_today_s_events_and_offers_one_free_slot_that_moves_the_task_only_after_a_yes(
) {
    let bot = bot_with_calendar().await;
    let chat = bot.free_thread().await;
    digest_in(&bot, &chat).await;
    let taxes = bot.task(file_taxes()).await;
    // Not placed: no estimate; a start already; a deadline gone by.
    let others = [
        json!({"title": "Call the bank", "deadline": "2026-11-26T17:00:00Z"}),
        json!({"title": "Book flights", "deadline": "2026-11-26T17:00:00Z", "estimated_duration_minutes": 30, "scheduled_start": "2026-11-26T15:00:00Z"}),
        json!({"title": "Send invoice", "deadline": "2026-11-23T09:00:00Z", "estimated_duration_minutes": 30}),
    ];
    add_tasks(&bot, others).await;
    let text = tuesday_digest(&bot).await;
    assert!(
        text.starts_with(
            "Your agenda for Tuesday 24 Nov:\nOn your calendar (2):\n- 09:00-12:00 Workshop\n- 13:00-18:00 Offsite\n"
        ),
        "{text}"
    );
    assert!(!text.contains("Dentist"), "only today's events: {text}");
    // 12:00-13:00 is too short for 90 minutes; Wednesday's dentist ends at 10:00.
    assert!(text.ends_with(TAXES_TOMORROW), "{text}");
    for untouched in ["Call the bank", "Book flights", "Send invoice"] {
        assert!(!text.contains(&format!("for '{untouched}'")), "{text}");
    }
    assert_eq!(
        task(&bot, &taxes).await["scheduled_start"],
        Value::Null,
        "nothing moved yet"
    );
    let yes = bot.say(&chat, "yes").await;
    assert_eq!(yes["path"], "plan_confirmed", "{yes}");
    let placed = task(&bot, &taxes).await;
    let start = at(placed["scheduled_start"].text());
    let end = start + chrono::Duration::minutes(90);
    assert_eq!(start, utc(25, 10, 0), "{placed}");
    assert!(end <= utc(27, 17, 0), "before the deadline");
    assert!(
        start >= utc(25, 9, 0) && end <= utc(25, 18, 0),
        "inside working hours"
    );
    for (busy_start, busy_end) in BUSY {
        assert!(
            end <= at(busy_start) || start >= at(busy_end),
            "overlaps {busy_start}"
        );
    }
    // Placed: the next digest offers it nothing more.
    bot.clock.set(utc(25, 8, 0));
    let sent = bot.digest_tick().await;
    let text = sent[0].text.clone().needed();
    assert!(!text.contains("I could set aside"), "{text}");
    bot.stop().await;
}

#[actix_rt::test]
async fn a_declined_slot_is_never_offered_again_for_that_task_and_the_task_stays_as_it_was() {
    let bot = bot_with_calendar().await;
    let chat = bot.free_thread().await;
    digest_in(&bot, &chat).await;
    let essay = bot
        .task(json!({"title": "Write the essay", "deadline": "2026-11-30T17:00:00Z", "estimated_duration_minutes": 60}))
        .await;
    let before = task(&bot, &essay).await;
    let text = tuesday_digest(&bot).await;
    // Tuesday 12:00-13:00 is free and long enough.
    assert!(
        text.contains("I could set aside today at 12:00 (until 13:00) for 'Write the essay'"),
        "{text}"
    );
    let no = bot.say(&chat, "no").await;
    assert_eq!(no["path"], "plan_rejected", "{no}");
    assert_eq!(
        task(&bot, &essay).await["scheduled_start"],
        before["scheduled_start"]
    );
    for day in [25, 26] {
        bot.clock.set(utc(day, 8, 0));
        let sent = bot.digest_tick().await;
        // A day with nothing to say offers nothing either.
        if let Some(text) = &sent[0].text {
            assert!(!text.contains("Write the essay'"), "day {day}: {text}");
        }
    }
    assert_eq!(task(&bot, &essay).await["scheduled_start"], Value::Null);
    bot.stop().await;
}

#[actix_rt::test]
async fn in_a_group_chat_the_digest_shows_no_events_and_offers_no_slot() {
    let bot = bot_with_calendar().await;
    let group = bot.group_thread().await;
    digest_in(&bot, &group).await;
    // The group's own task, as a capture there stores it; and one of no chat (the HTTP API's),
    // which a group's digest does not name.
    let new = donna::tasks::NewTask {
        deadline: Some(utc(24, 16, 0)),
        estimated_duration_minutes: Some(30),
        origin_thread_id: Some(group.clone()),
        ..donna::tasks::NewTask::titled("File taxes")
    };
    let taxes = "tsk_file_taxes".to_string();
    let id = taxes.clone();
    bot.app
        .store
        .write(move |conn| donna::tasks::repo::insert(conn, &id, &new, utc(23, 8, 0)))
        .await
        .unwrap_or_else(|e| panic!("insert: {e}"));
    bot.task(json!({"title": "Renew my passport", "deadline": "2026-11-24T15:00:00Z"}))
        .await;
    let text = tuesday_digest(&bot).await;
    assert!(text.contains("File taxes (due today at 16:00)"), "{text}");
    for private in [
        "Workshop",
        "Offsite",
        "On your calendar",
        "I could set aside",
        "Renew my passport",
    ] {
        assert!(!text.contains(private), "{private}: {text}");
    }
    assert_eq!(task(&bot, &taxes).await["scheduled_start"], Value::Null);
    bot.stop().await;
}

/// The offer reads only the tasks due after the earliest slot (the answer time, one hour, from
/// the digest): a task due before then, tasks with no deadline and one due months away are
/// not what it offers, and the offer stays the soonest deadline that has room.
#[actix_rt::test]
async fn the_offer_is_the_soonest_deadline_with_room_whatever_else_is_open() {
    let bot = bot_with_calendar().await;
    let chat = bot.free_thread().await;
    digest_in(&bot, &chat).await;
    let taxes = bot.task(file_taxes()).await;
    let others = [
        // Due 08:30, and no slot can start before 09:00 (the answer time).
        json!({"title": "Pay the rent", "deadline": "2026-11-24T08:30:00Z", "estimated_duration_minutes": 30}),
        json!({"title": "Tidy the garage", "estimated_duration_minutes": 60}),
        json!({"title": "Read a novel"}),
        json!({"title": "Renew the passport", "deadline": "2027-03-01T17:00:00Z", "estimated_duration_minutes": 60}),
    ];
    add_tasks(&bot, others).await;
    let text = tuesday_digest(&bot).await;
    assert!(text.ends_with(TAXES_TOMORROW), "{text}");
    assert_eq!(bot.say(&chat, "yes").await["path"], "plan_confirmed");
    let placed = task(&bot, &taxes).await;
    assert_eq!(
        at(placed["scheduled_start"].text()),
        utc(25, 10, 0),
        "{placed}"
    );
    bot.stop().await;
}
