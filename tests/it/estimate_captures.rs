//! A length said with a capture, however the capture is put (no command word, a lead-in, an
//! apology, a courtesy, "remind me about"), sets the task's estimate, and the completion
//! check-in ("Did you finish 'X'?") then comes once the start and that estimate have passed;
//! an estimate set by a reply in the task's thread brings the check-in the same way. Through
//! the real HTTP API, turns, store and Nudger, on a controlled clock, without a model.
//!
//! The clock starts at Monday 23 November 2026, 10:00 UTC; the config's zone is UTC.

use crate::common;

use chrono::{DateTime, TimeZone, Utc};
use common::fake_llm::{out, start_fake_llm};
use common::{start_bot, Bot};
use serde_json::{json, Value};

/// Ticks never fire on their own within a test; the test ticks by hand.
const NUDGES: &str = "nudges:\n  interval: 1h\n  min_gap: 4h\n";

fn at(day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, minute, 0)
        .single()
        .unwrap_or_default()
}

/// Captures `sentence` in a chat of its own: the new task.
async fn captured(bot: &Bot, sentence: &str) -> Value {
    let chat = bot.free_thread().await;
    let said = bot.say(&chat, sentence).await;
    assert_eq!(said["path"], "task_created", "{sentence:?}: {said}");
    let id = said["results"][0]["task_id"].as_str().unwrap_or_default();
    bot.task_json(id).await
}

/// The texts of the nudges a tick at `when` opens.
async fn nudged_at(bot: &Bot, when: DateTime<Utc>) -> Vec<String> {
    bot.clock.set(when);
    bot.tick_nudger()
        .await
        .into_iter()
        .map(|n| n.text)
        .collect()
}

#[actix_rt::test]
async fn a_length_is_read_the_same_without_a_command_word_and_inside_a_wrapper() {
    let bot = start_bot("").await;
    for (sentence, title, minutes, start) in [
        (
            "ok add gym at 6pm for 45 min please",
            "Gym",
            45,
            "2026-11-23T18:00:00",
        ),
        (
            "sorry, add dentist tomorrow at 3pm, about an hour",
            "Dentist",
            60,
            "2026-11-24T15:00:00",
        ),
        (
            "remind me about the vet tomorrow at 3pm for an hour",
            "The vet",
            60,
            "2026-11-24T15:00:00",
        ),
        (
            "hey donna, add call the bank tomorrow at 10am, should take 20 minutes, thanks",
            "Call the bank",
            20,
            "2026-11-24T10:00:00",
        ),
        (
            "could you add review the slides friday 10am (30 min) please",
            "Review the slides",
            30,
            "2026-11-27T10:00:00",
        ),
    ] {
        let task = captured(&bot, sentence).await;
        assert_eq!(task["title"], title, "{sentence:?}: {task}");
        assert_eq!(
            task["estimated_duration_minutes"],
            json!(minutes),
            "{sentence:?}: {task}"
        );
        let scheduled = task["scheduled_start"].as_str().unwrap_or_default();
        assert!(scheduled.starts_with(start), "{sentence:?}: {task}");
    }
}

/// Without a command word the model reads the capture (`route`); a small model often leaves
/// the length out, and the person's own words still give it.
#[actix_rt::test]
async fn a_length_said_without_a_command_word_is_read_when_the_model_leaves_it_out() {
    let fake = start_fake_llm();
    let bot = start_bot(&fake.config("ollama", "2s", 2)).await;
    for (sentence, title, minutes, model_minutes) in [
        ("dentist tomorrow at 3pm for an hour", "Dentist", 60, None),
        ("sorry, vet tomorrow at 3pm, about an hour", "Vet", 60, None),
        ("gym tomorrow at 3pm, 45 min", "Gym", 45, Some(45)),
        // The model's own number for a length the person did not say is left out.
        ("bank tomorrow at 3pm", "Bank", -1, Some(30)),
    ] {
        let mut route = json!({"intent": "capture", "confidence": 0.9, "title": title,
                               "when": "tomorrow at 3pm"});
        if let Some(model_minutes) = model_minutes {
            route["estimated_minutes"] = json!(model_minutes);
        }
        fake.push_for("route", out(route));
        let task = captured(&bot, sentence).await;
        assert_eq!(task["title"], title, "{sentence:?}: {task}");
        let expected = if minutes < 0 {
            Value::Null
        } else {
            json!(minutes)
        };
        assert_eq!(
            task["estimated_duration_minutes"], expected,
            "{sentence:?}: {task}"
        );
    }
}

#[actix_rt::test]
async fn the_check_in_comes_after_the_start_and_the_length_said_with_the_capture() {
    let bot = start_bot(NUDGES).await;
    let task = captured(&bot, "sorry, add dentist tomorrow at 3pm, about an hour").await;
    let asked = "Did you finish 'Dentist'?";
    let first = nudged_at(&bot, at(24, 15, 0)).await;
    assert_eq!(first.len(), 1, "the start's nudge: {first:?} {task}");
    assert_ne!(first[0], asked);
    let early = nudged_at(&bot, at(24, 15, 59)).await;
    assert!(!early.iter().any(|text| text == asked), "{early:?}");
    let check_in = nudged_at(&bot, at(24, 16, 0)).await;
    assert_eq!(check_in, vec![asked.to_string()]);
}

#[actix_rt::test]
async fn the_check_in_comes_after_the_start_and_the_length_a_reply_said() {
    let bot = start_bot(NUDGES).await;
    let id = bot
        .task(json!({"title": "Write report", "scheduled_start": "2026-11-23T10:30:00Z"}))
        .await;
    bot.clock.set(at(23, 10, 30));
    let first = bot.tick_nudger().await;
    assert_eq!(first.len(), 1, "{first:?}");
    let thread = first[0].thread_id.clone();
    // Without an estimate there is no check-in; a reply gives it one.
    let said = bot.say(&thread, "should take about 45 min").await;
    assert_eq!(said["path"], "fast", "{said}");
    assert_eq!(bot.task_json(&id).await["estimated_duration_minutes"], 45);
    let asked = "Did you finish 'Write report'?";
    let early = nudged_at(&bot, at(23, 11, 14)).await;
    assert!(!early.iter().any(|text| text == asked), "{early:?}");
    let check_in = nudged_at(&bot, at(23, 11, 15)).await;
    assert_eq!(check_in, vec![asked.to_string()]);
    assert_eq!(
        bot.tick_nudger().await.len(),
        0,
        "asked once per scheduled time"
    );
}
