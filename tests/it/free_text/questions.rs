//! The common questions answered from the database, what Donna is waiting on, and the honest
//! answer without a model.

use super::*;
use crate::common::Fields;

#[actix_rt::test]
async fn the_common_questions_are_answered_from_the_database() {
    let bot = start_bot(PARIS).await;
    bot.task(json!({ "title": "File taxes", "deadline": "2026-11-20T09:00:00Z" }))
        .await;
    bot.task(json!({ "title": "Buy a gift", "deadline": "2026-11-23T17:00:00Z" }))
        .await;
    bot.task(json!({ "title": "Call the plumber", "scheduled_start": "2026-11-24T08:00:00Z" }))
        .await;
    bot.task(json!({ "title": "Plan the trip", "deadline": "2026-11-28T10:00:00Z" }))
        .await;
    bot.task(json!({ "title": "Someday read Proust" })).await;
    let thread = bot.free_thread().await;
    // (question, titles that must be in the answer, titles that must not)
    let table: &[(&str, &[&str], &[&str])] = &[
        (
            "list my tasks",
            &[
                "File taxes",
                "Buy a gift",
                "Call the plumber",
                "Plan the trip",
                "Someday read Proust",
            ],
            &[],
        ),
        (
            "what's overdue?",
            &["File taxes"],
            &["Buy a gift", "Plan the trip"],
        ),
        (
            "What is due today",
            &["Buy a gift"],
            &["File taxes", "Call the plumber", "Plan the trip"],
        ),
        (
            "what's due tomorrow?",
            &["Call the plumber"],
            &["Buy a gift", "Plan the trip"],
        ),
        (
            "what's due this week?",
            &["Buy a gift", "Call the plumber", "Plan the trip"],
            &["Someday read Proust"],
        ),
    ];
    for (question, present, absent) in table {
        let result = bot.say(&thread, question).await;
        assert_eq!(result["path"], "answer", "{question}: {result}");
        let reply = result["reply"].text();
        for title in *present {
            assert!(
                reply.contains(title),
                "{question}: {title} missing in {reply}"
            );
        }
        for title in *absent {
            assert!(
                !reply.contains(title),
                "{question}: {title} listed in {reply}"
            );
        }
    }
    let result = bot.say(&thread, "add pay rent").await;
    assert_eq!(result["path"], "task_created");
    let waiting = bot.say(&thread, "add Pay the rent").await;
    assert_eq!(waiting["path"], "duplicate");
    let other = bot.free_thread().await;
    let result = bot.say(&other, "what are you waiting on?").await;
    assert_eq!(result["path"], "answer");
    assert!(result["reply"].text().contains("Pay the rent"), "{result}");
    for (greeting, path) in [
        ("hi", "chat"),
        ("thanks!", "chat"),
        ("Good morning Donna", "chat"),
    ] {
        assert_eq!(bot.say(&other, greeting).await["path"], path, "{greeting}");
    }
    assert_eq!(tasks(&bot).await.len(), 6, "questions created nothing");
}

/// "what are you waiting on?" lists every live proposal and question, in this chat or another,
/// with the time each has left (asking it drops nothing); once they are answered it says
/// nothing is waiting.
#[actix_rt::test]
async fn waiting_on_lists_every_live_proposal_and_question_with_where_and_time_left() {
    let bot = start_bot(PARIS).await;
    let (first, second) = (bot.free_thread().await, bot.free_thread().await);
    assert_eq!(
        bot.say(&first, "add pay rent").await["path"],
        "task_created"
    );
    assert_eq!(
        bot.say(&first, "add Pay the rent").await["path"],
        "duplicate"
    );
    assert_eq!(bot.say(&second, "add").await["path"], "clarify");
    let asked = bot.say(&second, "what are you waiting on?").await;
    assert_eq!(asked["path"], "answer", "{asked}");
    let reply = asked["reply"].text();
    for line in [
        "I'm waiting on (2):",
        "- a yes or no in another chat (",
        "(60 min left): I'd create a task 'Pay the rent'",
        "- your answer here: what to add (",
    ] {
        assert!(reply.contains(line), "{line:?} missing in {reply}");
    }
    let from_first = bot.say(&first, "what are you waiting on?").await;
    let reply = from_first["reply"].text();
    assert!(reply.contains("- a yes or no here ("), "{reply}");
    assert!(
        reply.contains("- your answer in another chat: what to add ("),
        "{reply}"
    );

    assert_eq!(bot.say(&first, "no").await["path"], "plan_rejected");
    assert_eq!(bot.say(&second, "never mind").await["path"], "unhandled");
    let none = bot.say(&second, "what are you waiting on?").await;
    assert_eq!(
        none["reply"], "I'm not waiting on anything from you.",
        "{none}"
    );
}

#[actix_rt::test]
async fn with_no_model_free_text_gets_an_honest_answer_naming_what_works() {
    let bot = start_bot(PARIS).await;
    let thread = bot.free_thread().await;
    let result = bot
        .say(
            &thread,
            "I need to sort out the car insurance at some point",
        )
        .await;
    assert_eq!(result["path"], "unhandled");
    let reply = result["reply"].text();
    assert!(reply.contains("remind me to"), "{reply}");
    assert!(!reply.contains("can't chat freely"), "{reply}");
}
