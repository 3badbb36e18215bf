//! Groups of messages that each say one thing, with and without a lead-in, a courtesy, an
//! apology, a tail or punctuation around it, through the real bot with no model: every member
//! of a group gets one outcome (the path, the actions and their parameters, whether they wait
//! for a yes, what changed on the task, what was created), and that outcome is the right one.
//! Groups of every room: nudge replies (done, reports in the task's own verb, a time, an
//! intention with a time, busy, cancel, tomorrow), what must do nothing (not done yet, a
//! question, "I don't know when"), closings, captures, a question about one task's time, the
//! common questions, greetings.

use crate::common::Fields;
use serde_json::json;

use super::outcome::{in_a_free_chat, in_a_nudge_thread, Outcome};
use crate::common::{start_bot, Bot};

/// Where a group is said.
#[derive(Debug, Clone, Copy)]
enum Room {
    /// The reply in a fresh nudge thread about a task of this title.
    Nudge(&'static str),
    /// A fresh free chat.
    Free,
}

/// What the group's one outcome must be.
#[derive(Debug, Clone, Copy)]
struct Expect {
    path: &'static str,
    /// The one action run or proposed, if any.
    action: Option<&'static str>,
    proposed: bool,
    /// The task's status after the turn, in a nudge thread.
    status: Option<&'static str>,
    /// The title of the task created, in a free chat.
    created: Option<&'static str>,
}

const NOTHING: Expect = Expect {
    path: "unhandled",
    action: None,
    proposed: false,
    status: Some("backlog"),
    created: None,
};

fn ran(action: &'static str, status: &'static str) -> Expect {
    Expect {
        path: "fast",
        action: Some(action),
        proposed: false,
        status: Some(status),
        created: None,
    }
}

fn proposed(action: &'static str) -> Expect {
    Expect {
        path: "fast",
        action: Some(action),
        proposed: true,
        status: Some("backlog"),
        created: None,
    }
}

fn said(path: &'static str) -> Expect {
    Expect {
        path,
        action: None,
        proposed: false,
        status: None,
        created: None,
    }
}

fn closing_in_a_nudge_thread() -> Expect {
    Expect {
        status: Some("backlog"),
        ..said("chat")
    }
}

fn captured(title: &'static str) -> Expect {
    Expect {
        path: "task_created",
        action: Some("create_task"),
        proposed: false,
        status: None,
        created: Some(title),
    }
}

/// (what the group says, where, its members, the outcome).
fn groups() -> Vec<(&'static str, Room, Vec<&'static str>, Expect)> {
    use Room::{Free, Nudge};
    vec![
        (
            "done, wrapped",
            Nudge("Pay rent"),
            vec![
                "done",
                "ok, done",
                "yep all done, thanks!",
                "sorry, done",
                "done 👍",
            ],
            ran("mark_done", "done"),
        ),
        (
            "a report in the task's own verb",
            Nudge("Send the invoice"),
            vec![
                "sent",
                "sent it",
                "yep all sent",
                "all sent off, thanks",
                "ok, just sent it",
            ],
            ran("mark_done", "done"),
        ),
        (
            "booked, the title's verb",
            Nudge("Book the dentist"),
            vec!["booked", "booked it", "just booked it!", "yeah, booked"],
            ran("mark_done", "done"),
        ),
        (
            "remind me at a time",
            Nudge("Call the bank"),
            vec![
                "remind me at 7pm",
                "ok, remind me at 7pm",
                "could you remind me at 7pm please",
                "hey, remind me at 7pm",
                "remind me at 7pm, thanks",
            ],
            ran("reschedule", "scheduled"),
        ),
        (
            "an intention with a time",
            Nudge("Water the plants"),
            vec![
                "I'll do it at 5pm",
                "ok I'll do it at 5pm",
                "alright, I'll do it at 5pm",
                "honestly, I'll do it at 5pm",
            ],
            ran("reschedule", "scheduled"),
        ),
        (
            "busy",
            Nudge("File the taxes"),
            vec![
                "busy",
                "sorry, busy",
                "ugh, busy",
                "busy, sorry!",
                "busy please",
            ],
            ran("snooze", "backlog"),
        ),
        (
            "cancel it",
            Nudge("Renew the gym"),
            vec![
                "drop it",
                "ok, drop it",
                "scrap this one",
                "please bin it",
                "scrap it, thanks",
            ],
            proposed("cancel_task"),
        ),
        (
            "tomorrow",
            Nudge("Clean the fridge"),
            vec![
                "tomorrow",
                "tomorrow please",
                "ok, tomorrow",
                "sorry, tomorrow",
                "tomorrow!",
            ],
            ran("reschedule", "scheduled"),
        ),
        (
            "not done yet: nothing",
            Nudge("Pay rent"),
            vec![
                "not done yet",
                "sorry, not done yet",
                "not done yet, sorry",
                "honestly not done yet",
                "ugh, not done yet",
            ],
            NOTHING,
        ),
        (
            "did I pay it? nothing",
            Nudge("Pay rent"),
            vec![
                "did I pay it?",
                "ugh, did I pay it?",
                "hmm did I pay it",
                "sorry, did I pay it?",
            ],
            NOTHING,
        ),
        (
            "I don't know when: nothing",
            Nudge("Book the hotel"),
            vec![
                "I don't know when",
                "honestly I don't know when",
                "sorry, I don't know when",
                "ugh, I don't know when",
            ],
            NOTHING,
        ),
        (
            "a closing in a nudge thread",
            Nudge("Pay rent"),
            vec![
                "thanks",
                "thanks, you're the best",
                "cheers, that's it for today",
                "cool, see you tomorrow",
                "ok bye",
            ],
            closing_in_a_nudge_thread(),
        ),
        (
            "remind me to, or about, a task at a time",
            Free,
            vec![
                "remind me to book the hotel on monday at 3pm",
                "remind me about booking the hotel on monday at 3pm",
                "ok, remind me to book the hotel on monday at 3pm",
                "hey donna, remind me to book the hotel on monday at 3pm please",
                "could you remind me to book the hotel on monday at 3pm?",
            ],
            captured("Book the hotel"),
        ),
        (
            "add a task",
            Free,
            vec![
                "add buy milk",
                "please add buy milk",
                "ok, add buy milk",
                "add buy milk, thanks",
                "thanks, add buy milk",
            ],
            captured("Buy milk"),
        ),
        (
            "a closing in a free chat",
            Free,
            vec![
                "thanks, you're the best",
                "cheers, that's it for today",
                "cool, see you tomorrow",
                "alright, bye",
                "thanks a lot!",
            ],
            said("chat"),
        ),
        (
            "what's due this week",
            Free,
            vec![
                "what's due this week?",
                "hey donna, what's due this week?",
                "so what's due this week",
                "what's due this week, please",
            ],
            said("answer"),
        ),
        (
            "a greeting",
            Free,
            vec!["hi", "hey donna", "hello there", "hi there donna!"],
            said("chat"),
        ),
    ]
}

fn check(name: &str, expect: &Expect, outcome: &Outcome) -> Option<String> {
    let action = outcome.actions.first().map(|(name, _)| name.as_str());
    let created = outcome
        .created
        .first()
        .and_then(|task| task["title"].as_str());
    let status = outcome.task["status"].as_str();
    let right = outcome.path == expect.path
        && action == expect.action
        && outcome.proposed == expect.proposed
        && (expect.status.is_none() || status == expect.status)
        && created == expect.created;
    (!right).then(|| format!("{name}: expected {expect:?}, got {outcome:?}"))
}

async fn outcome_of(bot: &Bot, room: Room, text: &str) -> (Outcome, serde_json::Value) {
    match room {
        Room::Nudge(title) => in_a_nudge_thread(bot, title, text).await,
        Room::Free => in_a_free_chat(bot, text).await,
    }
}

#[actix_rt::test]
async fn each_group_of_equivalent_messages_gets_one_outcome_and_the_right_one() {
    let bot = start_bot("").await;
    let mut wrong = Vec::new();
    let groups = groups();
    assert!(groups.len() >= 15);
    for (name, room, members, expect) in &groups {
        assert!((4..=6).contains(&members.len()), "{name}");
        let mut first: Option<(Outcome, &str)> = None;
        for text in members {
            let (outcome, result) = outcome_of(&bot, *room, text).await;
            if let Some(problem) = check(name, expect, &outcome) {
                wrong.push(format!("{problem}\n    {text:?}: {result}"));
            }
            match &first {
                None => first = Some((outcome, text)),
                Some((reference, said)) if *reference != outcome => wrong.push(format!(
                    "{name}: {text:?} got {outcome:?}, unlike {said:?}: {reference:?}"
                )),
                Some(_) => {}
            }
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// A question about one task's time is answered from the task, in its words and wrappers.
#[actix_rt::test]
async fn a_question_about_one_tasks_time_is_answered_from_the_task() {
    let bot = start_bot("").await;
    bot.task(json!({"title": "Haircut", "scheduled_start": "2026-11-26T15:30:00Z"}))
        .await;
    bot.task(json!({"title": "Renew passport", "deadline": "2026-12-04T09:00:00Z"}))
        .await;
    let table = [
        ("when is the haircut?", "'Haircut' is set for"),
        ("what time is my haircut?", "'Haircut' is set for"),
        ("hey, when's my haircut", "'Haircut' is set for"),
        ("what time's the haircut, please", "'Haircut' is set for"),
        ("when's the passport renewal?", "'Renew passport' is due"),
        (
            "when is my passport renewal due?",
            "'Renew passport' is due",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, says) in table {
        let (outcome, result) = in_a_free_chat(&bot, text).await;
        let reply = result["reply"].text();
        if outcome.path != "answer" || !reply.contains(says) || !outcome.actions.is_empty() {
            wrong.push(format!("{text:?}: {result}"));
        }
    }
    // Not a task: the clock, or words no task holds.
    for text in ["what time is it", "when is lunch?"] {
        let (outcome, result) = in_a_free_chat(&bot, text).await;
        if outcome.path == "answer" {
            wrong.push(format!("{text:?} is no task: {result}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
