//! Times and durations in replies to a nudge (issue 16, items 1-5), end to end through
//! `POST /api/messages`: what a person sees happen to their task, and what Donna says, as a
//! table of sentences. The clock stands at Monday 23 November 2026, 10:00 UTC (the bot's
//! timezone), unless a row says otherwise.
//!
//! Every row gets a task of its own, nudged in its own thread; "nothing changes" rows check that
//! the task's start and snooze stay empty.

use crate::common;
use crate::common::Fields;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use chrono::Duration;
use common::fake_llm::{start_fake_llm, Script};
use common::{monday_10am, start_bot, Bot};
use donna::tasks::{repo, NewTask, TaskSource};
use serde_json::{json, Value};

/// What a reply should do to its task.
#[derive(Debug, Clone, Copy)]
enum Then {
    /// Moved: the task's `scheduled_start` (RFC 3339 as the API shows it).
    StartsAt(&'static str),
    /// Snoozed: the task's `snoozed_until`.
    SnoozedUntil(&'static str),
    /// Neither its start nor its snooze changed.
    Nothing,
}
use Then::{Nothing, SnoozedUntil, StartsAt};

/// One line: the reply, the turn's path, the words Donna's answer holds, what happens.
type Row = (&'static str, &'static str, &'static str, Then);

async fn run_rows(bot: &Bot, task_body: impl Fn(usize) -> Value, rows: &[Row]) {
    for (index, (reply, path, says, then)) in rows.iter().enumerate() {
        let task = bot.task(task_body(index)).await;
        let thread = bot.nudge(&task).await;
        let before = bot.task_json(&task).await;
        let result = bot.say(&thread, reply).await;
        assert_eq!(result["path"], *path, "{reply:?}: {result}");
        let answer = result["reply"].text();
        assert!(
            answer.contains(says),
            "{reply:?}: answer {answer:?} lacks {says:?}"
        );
        let after = bot.task_json(&task).await;
        match then {
            StartsAt(at) => assert_eq!(after["scheduled_start"], *at, "{reply:?}: {after}"),
            SnoozedUntil(at) => assert_eq!(after["snoozed_until"], *at, "{reply:?}: {after}"),
            Nothing => {
                for field in ["scheduled_start", "snoozed_until", "status"] {
                    assert_eq!(after[field], before[field], "{reply:?} changed {field}");
                }
            }
        }
    }
}

fn plain_task(index: usize) -> Value {
    json!({ "title": format!("Task {index}") })
}

#[actix_rt::test]
async fn amounts_and_times_alone_reschedule_and_unreadable_ones_ask() {
    let bot = start_bot("").await;
    let rows: &[Row] = &[
        // 1. A count with a unit after a moving verb, without "in".
        (
            "postpone a week",
            "fast",
            "to Monday 30 Nov at 10:00.",
            StartsAt("2026-11-30T10:00:00+00:00"),
        ),
        (
            "push it a week",
            "fast",
            "to Monday 30 Nov at 10:00.",
            StartsAt("2026-11-30T10:00:00+00:00"),
        ),
        (
            "push it two days",
            "fast",
            "to Wednesday 25 Nov at 10:00.",
            StartsAt("2026-11-25T10:00:00+00:00"),
        ),
        (
            "move it 3 hours",
            "fast",
            "to today at 13:00.",
            StartsAt("2026-11-23T13:00:00+00:00"),
        ),
        (
            "push it back a day",
            "fast",
            "to tomorrow at 10:00.",
            StartsAt("2026-11-24T10:00:00+00:00"),
        ),
        // Only "later", or no time at all, means reschedule.later (3 hours).
        (
            "later",
            "fast",
            "to today at 13:00.",
            StartsAt("2026-11-23T13:00:00+00:00"),
        ),
        (
            "push it",
            "fast",
            "to today at 13:00.",
            StartsAt("2026-11-23T13:00:00+00:00"),
        ),
        (
            "postpone please",
            "fast",
            "to today at 13:00.",
            StartsAt("2026-11-23T13:00:00+00:00"),
        ),
        // ... never words Donna could not read: she asks (no model here), naming them.
        (
            "push it a week and a bit",
            "clarify",
            "(I can't read \"and a bit\"), so 'Task 8' stays as it was.",
            Nothing,
        ),
        (
            "push it, can't today",
            "clarify",
            "I couldn't tell when you mean",
            Nothing,
        ),
        (
            "push it to next year",
            "clarify",
            "(I can't read \"next year\")",
            Nothing,
        ),
        // 3. A time on its own answers the nudge.
        (
            "friday 3pm",
            "fast",
            "Moved 'Task 11' to Friday 27 Nov at 15:00.",
            StartsAt("2026-11-27T15:00:00+00:00"),
        ),
        (
            "in 2 hours",
            "fast",
            "to today at 12:00.",
            StartsAt("2026-11-23T12:00:00+00:00"),
        ),
        (
            "friday",
            "fast",
            "to Friday 27 Nov at 09:00.",
            StartsAt("2026-11-27T09:00:00+00:00"),
        ),
        (
            "tomorrow morning",
            "fast",
            "to tomorrow at 09:00.",
            StartsAt("2026-11-24T09:00:00+00:00"),
        ),
        (
            "Friday, 3pm.",
            "fast",
            "to Friday 27 Nov at 15:00.",
            StartsAt("2026-11-27T15:00:00+00:00"),
        ),
        // 4. An impossible time: the reader's own reason, nothing changes.
        (
            "push it to 25:00",
            "clarify",
            "I couldn't use that time (there is no 25:00), so 'Task 16' stays as it was.",
            Nothing,
        ),
        (
            "push to feb 30",
            "clarify",
            "(there is no 30 February)",
            Nothing,
        ),
        ("feb 30", "clarify", "(there is no 30 February)", Nothing),
        (
            "push it to 2 days ago",
            "clarify",
            "(that date is in the past)",
            Nothing,
        ),
        // Neighbours that are no time answer: nothing moves.
        ("friday 3pm?", "unhandled", "I didn't catch that", Nothing),
        (
            "call mom friday",
            "unhandled",
            "I didn't catch that",
            Nothing,
        ),
        ("what a day", "unhandled", "I didn't catch that", Nothing),
    ];
    run_rows(&bot, plain_task, rows).await;
}

#[actix_rt::test]
async fn a_length_in_a_snooze_reply_is_used_within_the_actions_range() {
    let bot = start_bot("").await;
    let rows: &[Row] = &[
        (
            "busy",
            "fast",
            "Snoozed 'Task 0' for 2 hours (until today at 12:00).",
            SnoozedUntil("2026-11-23T12:00:00+00:00"),
        ),
        (
            "snooze 20 min",
            "fast",
            "Snoozed 'Task 1' for 20 minutes (until today at 10:20).",
            SnoozedUntil("2026-11-23T10:20:00+00:00"),
        ),
        (
            "snooze for 3 hours",
            "fast",
            "for 3 hours (until today at 13:00).",
            SnoozedUntil("2026-11-23T13:00:00+00:00"),
        ),
        (
            "give me an hour",
            "fast",
            "for 1 hour (until today at 11:00).",
            SnoozedUntil("2026-11-23T11:00:00+00:00"),
        ),
        (
            "give me 90 minutes",
            "fast",
            "for 1 hour 30 minutes (until today at 11:30).",
            SnoozedUntil("2026-11-23T11:30:00+00:00"),
        ),
        (
            "busy till 5pm",
            "fast",
            "for 7 hours (until today at 17:00).",
            SnoozedUntil("2026-11-23T17:00:00+00:00"),
        ),
        (
            "not now, snooze 2 days",
            "fast",
            "for 2 days (until Wednesday 25 Nov at 10:00).",
            SnoozedUntil("2026-11-25T10:00:00+00:00"),
        ),
        // Out of the action's range (5 minutes to 7 days): said plainly, nothing changes.
        (
            "snooze 2 weeks",
            "clarify",
            "I can snooze for 5 minutes to 7 days, not 14 days, so nothing changed.",
            Nothing,
        ),
        (
            "snooze 2 min",
            "clarify",
            "I can snooze for 5 minutes to 7 days, not 2 minutes, so nothing changed.",
            Nothing,
        ),
        (
            "snooze feb 30",
            "clarify",
            "I couldn't use that time (there is no 30 February), so nothing changed.",
            Nothing,
        ),
        // No length: the default stays.
        (
            "not now",
            "fast",
            "for 2 hours (until today at 12:00).",
            SnoozedUntil("2026-11-23T12:00:00+00:00"),
        ),
        // "give me" asks for time only when nothing but a time follows.
        ("give me a sec", "unhandled", "I didn't catch that", Nothing),
    ];
    run_rows(&bot, plain_task, rows).await;
    // The action shown carries the length used.
    let (task, thread) = bot.nudged_task("Stretch").await;
    let result = bot.say(&thread, "snooze 20 min").await;
    assert_eq!(
        result["actions"][0]["params"]["duration_minutes"], 20,
        "{result}"
    );
    assert!(bot.task_json(&task).await["snoozed_until"].is_string());
}

#[actix_rt::test]
async fn a_day_without_a_time_keeps_the_tasks_own_time_of_day_never_a_leftover() {
    let bot = start_bot("").await;
    // 5. The task's start, else its deadline, when it is a deliberate time; else 09:00.
    let bodies = [
        json!({ "title": "Swim", "scheduled_start": "2026-11-23T07:30" }),
        json!({ "title": "Call", "scheduled_start": "2026-11-23T03:22" }),
        json!({ "title": "Rent", "deadline": "2026-11-20T17:00" }),
        json!({ "title": "Read", "scheduled_start": "2026-11-23T15:45" }),
        json!({ "title": "Walk", "scheduled_start": "2026-11-23T15:45" }),
    ];
    let rows: &[Row] = &[
        (
            "push it to friday",
            "fast",
            "to Friday 27 Nov at 07:30.",
            StartsAt("2026-11-27T07:30:00+00:00"),
        ),
        (
            "push it to friday",
            "fast",
            "to Friday 27 Nov at 09:00.",
            StartsAt("2026-11-27T09:00:00+00:00"),
        ),
        (
            "friday",
            "fast",
            "to Friday 27 Nov at 17:00.",
            StartsAt("2026-11-27T17:00:00+00:00"),
        ),
        (
            "tomorrow",
            "fast",
            "to tomorrow at 15:45.",
            StartsAt("2026-11-24T15:45:00+00:00"),
        ),
        (
            "friday 8am",
            "fast",
            "to Friday 27 Nov at 08:00.",
            StartsAt("2026-11-27T08:00:00+00:00"),
        ),
    ];
    run_rows(&bot, |index| bodies[index].clone(), rows).await;

    // The issue's own case: "later" at 00:22:41 leaves 03:22:41; "push it to friday" then is
    // Friday 09:00, not Friday 03:22.
    bot.clock
        .set(monday_10am() - Duration::hours(10) + Duration::minutes(22) + Duration::seconds(41));
    let (task, thread) = bot.nudged_task("Call mom").await;
    let later = bot.say(&thread, "later").await;
    assert!(later["reply"].text().contains("today at 03:22"), "{later}");
    let friday = bot.say(&thread, "push it to friday").await;
    assert_eq!(
        friday["reply"], "Moved 'Call mom' to Friday 27 Nov at 09:00.",
        "{friday}"
    );
    assert_eq!(
        bot.task_json(&task).await["scheduled_start"],
        "2026-11-27T09:00:00+00:00"
    );
}

#[actix_rt::test]
async fn with_a_model_an_impossible_time_is_still_the_readers_reason_and_an_unclear_one_is_read() {
    let fake = start_fake_llm();
    fake.always(Script::answer(json!([]), "When would suit you?"));
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 5, 2)
        .start()
        .await;
    let rows: &[Row] = &[
        (
            "push it to 25:00",
            "clarify",
            "(there is no 25:00)",
            Nothing,
        ),
        (
            "push to feb 30",
            "clarify",
            "(there is no 30 February)",
            Nothing,
        ),
        (
            "friday 3pm",
            "fast",
            "to Friday 27 Nov at 15:00.",
            StartsAt("2026-11-27T15:00:00+00:00"),
        ),
        (
            "postpone a week",
            "fast",
            "to Monday 30 Nov at 10:00.",
            StartsAt("2026-11-30T10:00:00+00:00"),
        ),
        (
            "snooze 20 min",
            "fast",
            "for 20 minutes",
            SnoozedUntil("2026-11-23T10:20:00+00:00"),
        ),
    ];
    run_rows(&bot, plain_task, rows).await;
    assert!(
        fake.requests().is_empty(),
        "the model was asked: {:?}",
        fake.requests()
    );
    // Words the reader could not place go to the model, never to "later".
    let (task, thread) = bot.nudged_task("Taxes").await;
    let asked = bot.say(&thread, "push it a week and a bit").await;
    assert_eq!(asked["path"], "llm", "{asked}");
    assert_eq!(asked["reply"], "When would suit you?");
    assert_eq!(fake.requests().len(), 1);
    assert!(bot.task_json(&task).await["scheduled_start"].is_null());
}

/// A task captured in `origin`, inserted as the capture room would record it.
async fn task_from(bot: &Bot, id: &str, origin: &str) -> String {
    let new = NewTask {
        deadline: Some(monday_10am() - Duration::hours(25)),
        source: TaskSource::Capture,
        origin_thread_id: Some(origin.to_string()),
        ..NewTask::titled("Pay rent")
    };
    let (task_id, now) = (id.to_string(), monday_10am());
    bot.app
        .store
        .write(move |conn| repo::insert(conn, &task_id, &new, now))
        .await
        .unwrap_or_else(|e| panic!("insert: {e}"));
    id.to_string()
}

#[actix_rt::test]
async fn a_time_alone_answers_a_nudge_delivered_into_a_free_chat() {
    let bot = start_bot("").await;
    for (index, (reply, start)) in [
        ("friday 3pm", "2026-11-27T15:00:00+00:00"),
        ("in 2 hours", "2026-11-23T12:00:00+00:00"),
        ("postpone a week", "2026-11-30T10:00:00+00:00"),
    ]
    .into_iter()
    .enumerate()
    {
        let chat = bot.free_thread().await;
        let task = task_from(&bot, &format!("tsk_rent_{index}"), &chat).await;
        let (status, nudge) = bot.post("/api/nudges", json!({ "task_id": task })).await;
        assert_eq!(nudge["thread_id"], chat.as_str(), "{status} {nudge}");
        let answer = bot.say(&chat, reply).await;
        assert_eq!(answer["path"], "fast", "{reply:?}: {answer}");
        assert_eq!(
            bot.task_json(&task).await["scheduled_start"],
            start,
            "{reply:?}"
        );
    }
    // The same words in a free chat with no nudge waiting touch no task.
    let chat = bot.free_thread().await;
    let task = task_from(&bot, "tsk_rent_quiet", &chat).await;
    let answer = bot.say(&chat, "friday 3pm").await;
    assert_ne!(answer["path"], "fast", "{answer}");
    assert!(bot.task_json(&task).await["scheduled_start"].is_null());
}

/// Issue 28, item 12 in a reply to a nudge: a time that cannot be used is answered with its
/// reason and nothing changes; a negative amount is refused, never read as the positive one.
/// Issue 30, item 2: the new kinds of time answer a nudge like any other time.
#[actix_rt::test]
async fn unusable_and_negative_times_are_refused_and_new_kinds_of_time_reschedule() {
    let bot = start_bot("").await;
    let rows: &[Row] = &[
        (
            "give me -3 hours",
            "clarify",
            "can't be a negative amount (\"-3 hours\")",
            Nothing,
        ),
        (
            "snooze -10 min",
            "clarify",
            "can't be a negative amount (\"-10 min\")), so nothing changed",
            Nothing,
        ),
        (
            "push it -2 days",
            "clarify",
            "can't be a negative amount (\"-2 days\")",
            Nothing,
        ),
        (
            "in -5 days",
            "clarify",
            "can't be a negative amount (\"-5 days\")",
            Nothing,
        ),
        (
            "push it to 23:59:60",
            "clarify",
            "(there is no 23:59:60)",
            Nothing,
        ),
        (
            "push it 99999999 years",
            "clarify",
            "(that is too far ahead (more than 5 years))",
            Nothing,
        ),
        ("move it to 13pm", "clarify", "(there is no 13pm)", Nothing),
        (
            "in an hour and a half",
            "fast",
            "to today at 11:30.",
            StartsAt("2026-11-23T11:30:00+00:00"),
        ),
        (
            "in half an hour",
            "fast",
            "to today at 10:30.",
            StartsAt("2026-11-23T10:30:00+00:00"),
        ),
        (
            "half past 3 in the afternoon",
            "fast",
            "to today at 15:30.",
            StartsAt("2026-11-23T15:30:00+00:00"),
        ),
        (
            "push it to the 5th",
            "fast",
            "to Saturday 5 Dec at 09:00.",
            StartsAt("2026-12-05T09:00:00+00:00"),
        ),
        (
            "end of the week",
            "fast",
            "to Friday 27 Nov at 17:00.",
            StartsAt("2026-11-27T17:00:00+00:00"),
        ),
        (
            "next working day",
            "fast",
            "to tomorrow at 09:00.",
            StartsAt("2026-11-24T09:00:00+00:00"),
        ),
        (
            "tonight at midnight",
            "fast",
            "to tonight at midnight (00:00 Tue 24 Nov).",
            StartsAt("2026-11-24T00:00:00+00:00"),
        ),
        (
            "3pm PST",
            "fast",
            "to today at 23:00.",
            StartsAt("2026-11-23T23:00:00+00:00"),
        ),
        (
            "a week before the 20th",
            "fast",
            "to Sunday 13 Dec at 09:00.",
            StartsAt("2026-12-13T09:00:00+00:00"),
        ),
    ];
    run_rows(&bot, plain_task, rows).await;
}
