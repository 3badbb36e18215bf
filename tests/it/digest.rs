//! The daily digest: "send me my agenda every day at 8am" and the ways people say it are an
//! automation of kind `digest` (proposed, stored after a yes, listed with its kind); at each
//! occurrence ONE message goes to the chat it was made in with what is overdue, due today and
//! waiting for the person's answer; nothing is sent when all three are empty; exactly once per
//! occurrence across ticks and restarts. Through the real app over HTTP on the injected clock,
//! plus the table of sentences the rules read as a digest (and must not).

use crate::common;
use crate::common::{Fields, Needed};

use chrono::{DateTime, TimeZone, Utc};
use chrono_tz::Europe::Paris;
use common::reading::read_digest as read;
use common::{monday_10am, start_bot, Bot};
use donna::automations::digest_command::DigestReading;
use serde_json::json;

const PARIS: &str = "timezone: Europe/Paris\n";

fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0)
        .single()
        .unwrap_or_else(|| panic!("bad test time"))
}

/// Donna's messages in `thread`, oldest first.
async fn donna_said(bot: &Bot, thread: &str) -> Vec<String> {
    bot.said_in(thread, "donna").await
}

async fn restart(bot: Bot) -> Bot {
    bot.stop().await;
    bot.restart(PARIS).await
}

#[test]
fn digest_commands_are_read_into_a_schedule_and_others_are_not() {
    // Now: Monday 23 Nov 2026, 11:00 in Paris. (sentence, schedule said back, first run)
    let digests: &[(&str, &str, &str)] = &[
        (
            "send me my agenda every day at 8am",
            "every day at 08:00",
            "Tue 24 Nov 08:00",
        ),
        (
            "daily summary at 7",
            "every day at 07:00",
            "Tue 24 Nov 07:00",
        ),
        (
            "every morning at 8 send me my tasks",
            "every day at 08:00",
            "Tue 24 Nov 08:00",
        ),
        (
            "give me a digest every weekday at 9",
            "every weekday at 09:00",
            "Tue 24 Nov 09:00",
        ),
        (
            "Please send me a daily briefing at 7:30",
            "every day at 07:30",
            "Tue 24 Nov 07:30",
        ),
        (
            "I want my agenda every morning at 6:45am",
            "every day at 06:45",
            "Tue 24 Nov 06:45",
        ),
        (
            "every evening at 6 send me my agenda",
            "every day at 18:00",
            "Mon 23 Nov 18:00",
        ),
        (
            "each monday at 9 give me an overview of my to-do list",
            "every Monday at 09:00",
            "Mon 30 Nov 09:00",
        ),
        (
            "send me what's due every morning at 7",
            "every day at 07:00",
            "Tue 24 Nov 07:00",
        ),
        (
            "a daily digest please",
            "every day at 08:00",
            "Tue 24 Nov 08:00",
        ),
        (
            "Donna, I'd like a rundown of my tasks every friday at 5pm",
            "every Friday at 17:00",
            "Fri 27 Nov 17:00",
        ),
        (
            "every day at 8 send the agenda to me",
            "every day at 08:00",
            "Tue 24 Nov 08:00",
        ),
    ];
    for (sentence, words, first) in digests {
        match read(sentence, monday_10am(), Paris) {
            DigestReading::Digest {
                schedule,
                time_stated,
            } => {
                assert_eq!(schedule.words, *words, "{sentence}");
                // A time the person said is stated (sent then even in quiet hours); 08:00 is
                // Donna's when they said none.
                let said_a_time = sentence.chars().any(|c| c.is_ascii_digit());
                assert_eq!(time_stated, said_a_time, "{sentence}");
                let at = schedule
                    .first_run_after(monday_10am())
                    .ok()
                    .flatten()
                    .map(|at| {
                        at.with_timezone(&Paris)
                            .format("%a %-d %b %H:%M")
                            .to_string()
                    });
                assert_eq!(at.as_deref(), Some(*first), "{sentence}");
            }
            other => panic!("{sentence:?}: expected a digest, got {other:?}"),
        }
    }
    // Not digests: a one-off ask (answered now), reminders, reports, questions, negations,
    // other people and other content.
    for sentence in [
        "send me my agenda",
        "give me my daily agenda",
        "what's on my agenda?",
        "send me my agenda at 8",
        "every day at 8 remind me to send the agenda",
        "remind me every monday to write the weekly summary",
        "every day at 8 send the agenda to Bob",
        "every friday at 5 send my summary to the team",
        "I send my boss a summary every day at 8",
        "I get a daily digest at 7",
        "can you send me my agenda every day at 8?",
        "don't send me my agenda every day",
        "stop sending me the daily digest",
        "the daily summary at 7 is too early",
        "every day at 9 plan tasks",
        "every morning at 8 call mom",
        "every day at 8 send me the summary of the meeting",
        "my boss sends a digest every monday",
    ] {
        assert_eq!(
            read(sentence, monday_10am(), Paris),
            DigestReading::NotDigest,
            "{sentence}"
        );
    }
    // Said as a digest, but the time needs asking.
    assert!(matches!(
        read("send me my agenda every day at 5", monday_10am(), Paris),
        DigestReading::Unreadable(question) if question.contains("17:00")
    ));
}

#[actix_rt::test]
async fn through_the_chat_a_digest_is_proposed_a_reminder_stays_a_reminder_and_a_one_off_is_answered_now(
) {
    let bot = start_bot(PARIS).await;
    bot.task(json!({ "title": "File taxes", "deadline": "2026-11-20T09:00:00Z" }))
        .await;
    // (sentence, path, the proposal's kind or None)
    let table: &[(&str, &str, Option<&str>)] = &[
        (
            "send me my agenda every day at 8am",
            "automation_proposed",
            Some("digest"),
        ),
        ("daily summary at 7", "automation_proposed", Some("digest")),
        (
            "every morning at 8 send me my tasks",
            "automation_proposed",
            Some("digest"),
        ),
        (
            "give me a digest every weekday at 9",
            "automation_proposed",
            Some("digest"),
        ),
        (
            "every day at 8 remind me to send the agenda",
            "automation_proposed",
            None,
        ),
        ("send me my agenda", "answer", None),
        ("give me my daily agenda", "answer", None),
        ("what's my agenda", "answer", None),
    ];
    for (sentence, path, kind) in table {
        let thread = bot.free_thread().await;
        let result = bot.say(&thread, sentence).await;
        assert_eq!(result["path"], *path, "{sentence}: {result}");
        let params = &result["actions"][0]["params"];
        match kind {
            Some(kind) => assert_eq!(params["kind"], *kind, "{sentence}: {result}"),
            None => assert_eq!(params.get("kind"), None, "{sentence}: {result}"),
        }
        if *path == "answer" {
            let reply = result["reply"].text();
            assert!(
                reply.starts_with("Your agenda for Monday 23 Nov:"),
                "{reply}"
            );
            assert!(reply.contains("Overdue (1):\n1. File taxes"), "{reply}");
        }
    }
    let (_, listed) = bot.get("/api/automations").await;
    assert_eq!(listed, json!([]), "nothing stored without a yes");
}

#[actix_rt::test]
async fn the_digest_sends_one_message_a_day_nothing_when_empty_and_never_twice_across_a_restart() {
    let bot = start_bot(PARIS).await;
    let chat = bot.free_thread().await;
    let proposal = bot.say(&chat, "send me my agenda every day at 8am").await;
    assert_eq!(proposal["path"], "automation_proposed", "{proposal}");
    let reply = proposal["reply"].text();
    assert!(
        reply.contains("send you your agenda")
            && reply.contains("every day at 08:00 (Europe/Paris), first on Tue 24 Nov 08:00"),
        "{reply}"
    );
    assert_eq!(bot.say(&chat, "yes").await["path"], "plan_confirmed");
    let (_, listed) = bot.get("/api/automations").await;
    assert_eq!(listed[0]["kind"], "digest", "{listed}");
    assert_eq!(listed[0]["schedule"], "every day at 08:00");
    let (_, tasks) = bot.get("/api/tasks").await;
    assert_eq!(tasks, json!([]), "a digest makes no tasks");

    let late = bot
        .task(json!({ "title": "File taxes", "deadline": "2026-11-20T09:00:00Z" }))
        .await;
    let today = bot
        .task(json!({ "title": "Buy a gift", "deadline": "2026-11-24T16:00:00Z" }))
        .await;
    bot.task(json!({ "title": "Call the plumber", "scheduled_start": "2026-11-26T08:00:00Z" }))
        .await;
    assert!(bot.digest_tick().await.is_empty(), "nothing before 08:00");

    // Day 1, Tuesday 24 Nov at 08:00 in Paris (07:00 UTC): a proposal waits for a yes.
    bot.clock.set(utc(2026, 11, 24, 6, 50));
    let elsewhere = bot.free_thread().await;
    bot.say(&elsewhere, "add renew passport").await;
    assert_eq!(
        bot.say(&elsewhere, "add renew passport").await["path"],
        "duplicate"
    );
    let before = donna_said(&bot, &chat).await.len();
    bot.clock.set(utc(2026, 11, 24, 7, 0));
    let sent = bot.digest_tick().await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    let text = sent[0].text.clone().needed();
    assert_eq!(
        text,
        "Your agenda for Tuesday 24 Nov:\n\
         Overdue (1):\n\
         1. File taxes (overdue since Fri 20 Nov 10:00)\n\
         Due today (1):\n\
         1. Buy a gift (due today at 17:00)\n\
         Waiting for your answer (1):\n\
         - a yes or no in another chat (50 min left): I'd create a task 'Renew passport' (personal, priority 2)"
    );
    let said = donna_said(&bot, &chat).await;
    assert_eq!(said.len(), before + 1, "one message: {said:?}");
    assert_eq!(said.last(), Some(&text));
    assert!(
        bot.digest_tick().await.is_empty(),
        "a second tick sends nothing"
    );

    // A restart the same morning sends nothing again.
    let bot = restart(bot).await;
    bot.clock.set(utc(2026, 11, 24, 7, 30));
    assert!(
        bot.digest_tick().await.is_empty(),
        "not again after a restart"
    );
    assert_eq!(donna_said(&bot, &chat).await.len(), before + 1);

    // Day 2: everything done and the proposal expired: nothing is sent, the day still counts.
    for id in [&late, &today] {
        let (status, body) = bot
            .patch(&format!("/api/tasks/{id}"), json!({ "status": "done" }))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    bot.clock.set(utc(2026, 11, 25, 7, 1));
    let sent = bot.digest_tick().await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].occurrence_at, utc(2026, 11, 25, 7, 0));
    assert_eq!(sent[0].text, None, "an empty agenda sends nothing");
    assert_eq!(donna_said(&bot, &chat).await.len(), before + 1);
    assert!(bot.digest_tick().await.is_empty());
    bot.stop().await;
}
