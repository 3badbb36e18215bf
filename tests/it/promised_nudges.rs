//! Nudges as promised (issue 29 items 1 and 2), on a controlled clock through the real HTTP
//! API and store:
//! - a time the person gave explicitly ("remind me at 23:00 to take the pill", "push it to
//!   23:30", an exact instant over the API) fires at that time in quiet hours; a time Donna
//!   chose ("tomorrow": 09:00) and the backoff's repeats wait until the quiet hours end;
//! - nudges held by quiet hours arrive as ONE message per chat listing them, and a reply picks
//!   one by its number ("2 done"); a keyword without a number asks which one;
//! - the completion check-in: "Did you finish 'X'?" once the start and the estimate have
//!   passed, once per scheduled time, answered like any nudge.
//!
//! The clock starts at Monday 23 November 2026, 10:00 UTC; quiet hours are 22:00-10:00 UTC, so
//! 09:00 (the reader's hour for a day alone) falls inside them.

use crate::common;
use crate::common::{Fields, Needed};

use chrono::{DateTime, Duration, TimeZone, Utc};
use common::{start_bot, Bot};
use donna::nudges::NudgeOpened;
use donna::tasks::{repo, NewTask, TaskSource};
use serde_json::{json, Value};

/// Ticks never fire on their own within a test; the test ticks by hand.
const QUIET: &str = "nudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-10:00\"\n";

/// Sets the clock to `when`, then ticks.
async fn nudged_at(bot: &Bot, when: DateTime<Utc>) -> Vec<NudgeOpened> {
    bot.clock.set(when);
    bot.tick_nudger().await
}

fn at(day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, minute, 0)
        .single()
        .needed()
}

/// Captures `sentence` in a chat of its own; returns (task id, chat).
async fn capture(bot: &Bot, sentence: &str) -> (String, String) {
    let chat = bot.free_thread().await;
    let result = bot.say(&chat, sentence).await;
    assert_eq!(result["path"], "task_created", "{sentence:?}: {result}");
    let id = result["results"][0]["task_id"].text().to_string();
    (id, chat)
}

/// The titles nudged by a tick, sorted.
fn titles_of(bot_titles: &[(String, String)], nudged: &[NudgeOpened]) -> Vec<String> {
    let mut titles: Vec<String> = nudged
        .iter()
        .filter_map(|n| {
            bot_titles
                .iter()
                .find(|(id, _)| *id == n.task_id)
                .map(|(_, title)| title.clone())
        })
        .collect();
    titles.sort();
    titles
}

async fn messages(bot: &Bot, thread: &str) -> Vec<(String, String)> {
    let (status, body) = bot.get(&format!("/api/threads/{thread}/messages")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array()
        .into_iter()
        .flatten()
        .map(|m| (m["role"].text().to_string(), m["text"].text().to_string()))
        .collect()
}

/// Issue 29 item 1: one line per capture; explicit times fire at their time in quiet hours, a
/// day alone (09:00, Donna's choice) waits until they end, and so does the backoff's repeat.
#[actix_rt::test]
async fn an_explicit_time_fires_in_quiet_hours_and_a_time_donna_chose_waits() {
    let bot = start_bot(QUIET).await;
    // Explicit: the first four (a clock time, hours from now); Donna's 09:00: the last two.
    let table = [
        ("remind me at 23:00 to take the pill", "Take the pill"),
        ("remind me to stretch in 13 hours", "Stretch"),
        (
            "remind me tomorrow at 9 to call the plumber",
            "Call the plumber",
        ),
        ("remind me to feed the cat tomorrow at 9am", "Feed the cat"),
        ("remind me tomorrow to water the plants", "Water the plants"),
        (
            "remind me on tuesday to renew the passport",
            "Renew the passport",
        ),
    ];
    let mut ids = Vec::new();
    for (sentence, title) in table {
        let (id, _) = capture(&bot, sentence).await;
        ids.push((id, title.to_string()));
    }
    assert!(
        nudged_at(&bot, at(23, 22, 59)).await.is_empty(),
        "nothing due yet"
    );
    assert_eq!(
        titles_of(&ids, &nudged_at(&bot, at(23, 23, 0)).await),
        ["Stretch", "Take the pill"],
        "23:00, said explicitly, in quiet hours"
    );
    assert!(nudged_at(&bot, at(23, 23, 30)).await.is_empty());
    // Four hours on, the unanswered pill would be nudged again: not in quiet hours.
    assert!(
        nudged_at(&bot, at(24, 3, 0)).await.is_empty(),
        "the backoff waits"
    );
    assert_eq!(
        titles_of(&ids, &nudged_at(&bot, at(24, 9, 0)).await),
        ["Call the plumber", "Feed the cat"],
        "09:00, said explicitly"
    );
    assert!(
        nudged_at(&bot, at(24, 9, 30)).await.is_empty(),
        "09:00 by default waits"
    );
    let morning = titles_of(&ids, &nudged_at(&bot, at(24, 10, 0)).await);
    assert_eq!(
        morning,
        [
            "Renew the passport",
            "Stretch",
            "Take the pill",
            "Water the plants"
        ],
        "the quiet hours are over: what was held goes out"
    );
}

/// Issue 29 item 1: a reschedule to an explicit time and an exact instant over the API fire in
/// quiet hours; a reschedule to a part of a day ("tomorrow morning": 09:00) does not.
#[actix_rt::test]
async fn a_reschedule_to_an_explicit_time_and_an_api_instant_fire_in_quiet_hours() {
    let bot = start_bot(QUIET).await;
    let (pill, pill_chat) = capture(&bot, "remind me to take the pill in 2 hours").await;
    let (plants, plants_chat) = capture(&bot, "remind me to water the plants in 3 hours").await;
    bot.clock.set(at(23, 13, 0));
    assert_eq!(bot.tick_nudger().await.len(), 2, "both came due by day");
    assert_eq!(
        bot.say(&pill_chat, "push it to 23:30").await["path"],
        "fast"
    );
    assert_eq!(
        bot.say(&plants_chat, "tomorrow morning").await["path"],
        "fast"
    );
    let api = bot
        .task(json!({"title": "Call Tokyo", "scheduled_start": "2026-11-24T02:15:00Z"}))
        .await;
    bot.clock.set(at(23, 23, 30));
    let nudged = bot.tick_nudger().await;
    let nudged: Vec<String> = nudged.into_iter().map(|n| n.task_id).collect();
    assert_eq!(nudged, vec![pill.clone()], "the reschedule named 23:30");
    bot.clock.set(at(24, 2, 15));
    let nudged: Vec<String> = bot
        .tick_nudger()
        .await
        .into_iter()
        .map(|n| n.task_id)
        .collect();
    assert_eq!(nudged, vec![api], "an exact instant over the API");
    bot.clock.set(at(24, 9, 0));
    assert!(
        bot.tick_nudger().await.is_empty(),
        "'tomorrow morning' is 09:00 by Donna's choice: held"
    );
    bot.clock.set(at(24, 10, 0));
    let nudged: Vec<String> = bot
        .tick_nudger()
        .await
        .into_iter()
        .map(|n| n.task_id)
        .collect();
    assert!(nudged.contains(&plants), "{nudged:?}");
}

/// Inserts a task captured in `origin` (as the capture room records it), with a start and an
/// estimate; returns its id.
async fn task_in(
    bot: &Bot,
    title: &str,
    origin: &str,
    start: DateTime<Utc>,
    minutes: Option<i64>,
) -> String {
    let id = format!("tsk_{}", title.to_lowercase().replace(' ', "_"));
    let new = NewTask {
        scheduled_start: Some(start),
        estimated_duration_minutes: minutes,
        source: TaskSource::Capture,
        origin_thread_id: Some(origin.to_string()),
        ..NewTask::titled(title)
    };
    let (task_id, now) = (id.clone(), donna::clock::Clock::now(&bot.clock));
    bot.app
        .store
        .write(move |conn| repo::insert(conn, &task_id, &new, now))
        .await
        .unwrap_or_else(|e| panic!("insert: {e}"));
    id
}

/// Issue 29 item 1: everything held by quiet hours in one chat arrives as ONE message listing
/// it, not a burst; a reply picks a task by its number ("2 done"), a keyword alone asks which
/// one, and once one task is left a bare answer acts on it. Tasks without a chat keep one
/// message each in their own threads.
#[actix_rt::test]
async fn nudges_held_by_quiet_hours_arrive_as_one_message_per_chat_and_a_number_picks_one() {
    let bot = start_bot(QUIET).await;
    let chat = bot.free_thread().await;
    let night = at(24, 1, 0);
    let plants = task_in(&bot, "Water the plants", &chat, night, None).await;
    let bank = task_in(&bot, "Call the bank", &chat, at(24, 2, 0), None).await;
    let report = task_in(&bot, "Send the report", &chat, at(24, 3, 0), Some(30)).await;
    let other = bot.free_thread().await;
    let alone = task_in(&bot, "Book the dentist", &other, at(24, 4, 0), None).await;
    bot.clock.set(at(24, 9, 59));
    assert!(bot.tick_nudger().await.is_empty(), "all held");
    bot.clock.set(at(24, 10, 0));
    let nudged = bot.tick_nudger().await;
    assert_eq!(nudged.len(), 4, "{nudged:?}");
    let here: Vec<&NudgeOpened> = nudged.iter().filter(|n| n.thread_id == chat).collect();
    assert_eq!(here.len(), 3);
    let shown = messages(&bot, &chat).await;
    let donna: Vec<&(String, String)> = shown.iter().filter(|(role, _)| role == "donna").collect();
    assert_eq!(donna.len(), 1, "one message for the chat: {shown:?}");
    let text = &donna[0].1;
    for line in [
        "1) It's time for 'Water the plants'.",
        "2) It's time for 'Call the bank'.",
        "3) Did you finish 'Send the report'?",
    ] {
        assert!(text.contains(line), "{line:?} in {text}");
    }
    assert_eq!(
        messages(&bot, &other).await.len(),
        1,
        "the other chat: its own one"
    );
    for id in [&plants, &bank, &report, &alone] {
        assert_eq!(bot.task_json(id).await["nudge_count"], 1, "{id}");
    }

    // A keyword with no number: which one? Nothing changes.
    let which = bot.say(&chat, "done").await;
    assert_eq!(which["path"], "clarify", "{which}");
    assert!(
        which["reply"].text().contains("2) 'Call the bank'"),
        "{which}"
    );
    for id in [&plants, &bank, &report] {
        assert_ne!(bot.task_json(id).await["status"], "done");
    }
    // "2 done": the second one.
    let done = bot.say(&chat, "2 done").await;
    assert_eq!(done["path"], "fast", "{done}");
    assert_eq!(done["reply"], "Marked 'Call the bank' as done.");
    assert_eq!(bot.task_json(&bank).await["status"], "done");
    // Numbers still work after the first answer; a time after the number moves that task.
    let moved = bot.say(&chat, "1 push it to friday 3pm").await;
    assert_eq!(moved["path"], "fast", "{moved}");
    assert_eq!(
        bot.task_json(&plants).await["scheduled_start"],
        "2026-11-27T15:00:00+00:00"
    );
    assert_eq!(bot.say(&chat, "done 3").await["path"], "fast");
    assert_eq!(bot.task_json(&report).await["status"], "done");
    // Not picks: a duration, a number that is no task of it.
    let not_a_pick = bot.say(&chat, "5 done").await;
    assert_ne!(not_a_pick["path"], "fast", "{not_a_pick}");
}

/// Issue 29 item 1: with one task of a grouped nudge left open, a bare answer acts on it.
#[actix_rt::test]
async fn when_one_task_of_a_grouped_nudge_is_left_a_bare_answer_acts_on_it() {
    let bot = start_bot(QUIET).await;
    let chat = bot.free_thread().await;
    let plants = task_in(&bot, "Water the plants", &chat, at(24, 1, 0), None).await;
    let bank = task_in(&bot, "Call the bank", &chat, at(24, 2, 0), None).await;
    bot.clock.set(at(24, 10, 0));
    assert_eq!(bot.tick_nudger().await.len(), 2);
    let (status, _) = bot
        .patch(&format!("/api/tasks/{bank}"), json!({"status": "done"}))
        .await;
    assert_eq!(status, 200);
    let done = bot.say(&chat, "done").await;
    assert_eq!(done["path"], "fast", "{done}");
    assert_eq!(
        done["reply"], "Marked 'Water the plants' as done.",
        "{done}"
    );
    assert_eq!(bot.task_json(&plants).await["status"], "done");
}

/// Issue 29 item 2: the completion check-in. A task with a start and an estimate still open
/// once both have passed gets "Did you finish 'X'?" (context completion), once per scheduled
/// time; a reschedule gives a new one; the reply works like any nudge reply.
#[actix_rt::test]
async fn a_task_past_its_start_and_estimate_gets_one_completion_check_in_per_scheduled_time() {
    let bot = start_bot(QUIET).await;
    let id = bot
        .task(
            json!({"title": "Write report", "scheduled_start": "2026-11-23T10:30:00Z",
                     "estimated_duration_minutes": 60}),
        )
        .await;
    bot.clock.set(at(23, 10, 30));
    let first = bot.tick_nudger().await;
    assert_eq!(first.len(), 1);
    assert!(
        first[0].text.starts_with("Time for 'Write report'"),
        "{first:?}"
    );
    let thread = first[0].thread_id.clone();
    bot.clock.set(at(23, 11, 29));
    assert!(
        bot.tick_nudger().await.is_empty(),
        "the estimate has not passed"
    );
    bot.clock.set(at(23, 11, 30));
    let asked = bot.tick_nudger().await;
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].text, "Did you finish 'Write report'?");
    assert_eq!(asked[0].thread_id, thread, "in the task's thread");
    let (_, threads) = bot.get("/api/threads").await;
    let listed: Vec<&Value> = threads.as_array().into_iter().flatten().collect();
    assert_eq!(listed[0]["context_type"], "completion", "{threads}");
    // Once per scheduled time: the backoff's next nudges are check-ins, never the question again.
    for hour in [12, 15, 16] {
        bot.clock.set(at(23, hour, 45));
        for nudge in bot.tick_nudger().await {
            assert_ne!(nudge.text, "Did you finish 'Write report'?", "{hour}:45");
        }
    }
    // "not yet" is answered as in any nudge thread: not now, a snooze.
    let not_yet = bot.say(&thread, "not yet").await;
    assert_eq!(not_yet["path"], "fast", "{not_yet}");
    assert_eq!(not_yet["actions"][0]["name"], "snooze", "{not_yet}");
    // "later" moves it: a new scheduled time, so a new check-in after its estimate.
    let later = bot.say(&thread, "later").await;
    assert_eq!(later["path"], "fast", "{later}");
    let start = bot.task_json(&id).await["scheduled_start"].clone();
    let start = DateTime::parse_from_rfc3339(start.text())
        .map(|s| s.with_timezone(&Utc))
        .unwrap_or_else(|e| panic!("{e}"));
    bot.clock.set(start + Duration::minutes(60));
    let again = bot.tick_nudger().await;
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].text, "Did you finish 'Write report'?");
    let done = bot.say(&thread, "done").await;
    assert_eq!(done["path"], "fast", "{done}");
    assert_eq!(bot.task_json(&id).await["status"], "done");
}

/// Issue 29 item 2: a task without an estimate, or done, gets no completion check-in.
#[actix_rt::test]
async fn no_estimate_or_done_means_no_completion_check_in() {
    let bot = start_bot(QUIET).await;
    let plain = bot
        .task(json!({"title": "Gym", "scheduled_start": "2026-11-23T10:30:00Z"}))
        .await;
    let finished = bot
        .task(
            json!({"title": "Call Anna", "scheduled_start": "2026-11-23T10:30:00Z",
                     "estimated_duration_minutes": 15}),
        )
        .await;
    bot.clock.set(at(23, 10, 30));
    assert_eq!(bot.tick_nudger().await.len(), 2);
    bot.patch(&format!("/api/tasks/{finished}"), json!({"status": "done"}))
        .await;
    for minute in [46, 59] {
        bot.clock.set(at(23, 11, minute));
        for nudge in bot.tick_nudger().await {
            assert!(!nudge.text.starts_with("Did you finish"), "{nudge:?}");
        }
    }
    assert_eq!(bot.task_json(&plain).await["nudge_count"], 1);
}
