//! Free text in people's words, read by the rules with no model (issue 30 item 5): the common
//! questions in many phrasings, captures whose command words stand anywhere (polite requests,
//! note prefixes, a title put on the list), thanks and goodbyes; and the sentences that must not
//! be read as any of them ("remind me what we discussed" is a question, never a task).

use crate::common::reading::read_rules as read;
use donna::capture::rules::{Question, Reading};

use Question::*;

fn capture(body: &str) -> Reading {
    Reading::Capture { body: body.into() }
}

#[test]
fn the_common_questions_in_peoples_words() {
    let table: &[(&str, Question)] = &[
        ("what's on my plate today?", DueToday),
        ("anything due today", DueToday),
        ("what have I got on today", DueToday),
        ("what do I need to do tonight?", DueToday),
        ("can you tell me what's due today", DueToday),
        ("remind me what's on for today", DueToday),
        ("what have I got tomorrow?", DueTomorrow),
        ("anything on for tomorrow", DueTomorrow),
        ("what's coming up this week?", DueThisWeek),
        ("what do I have on this weekend", DueThisWeek),
        ("what's due in the next few days", DueThisWeek),
        ("anything I'm behind on?", Overdue),
        ("what did I miss?", Overdue),
        ("what's late", Overdue),
        ("have I forgotten anything?", Overdue),
        ("what's left?", ListTasks),
        ("what's left on my list", ListTasks),
        ("show me everything", ListTasks),
        ("what's next?", ListTasks),
        ("how many tasks do I have", ListTasks),
        ("what's still open", ListTasks),
        ("list all my reminders", ListTasks),
        ("what should I focus on?", ListTasks),
        ("what do you need from me?", WaitingOn),
        ("anything waiting on me?", WaitingOn),
        ("what's pending?", WaitingOn),
    ];
    let mut wrong = Vec::new();
    for (text, expected) in table {
        let got = read(text);
        if got != Reading::Question(*expected) {
            wrong.push(format!("{text:?}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn captures_with_the_command_words_anywhere() {
    let table: &[(&str, Reading)] = &[
        (
            "can you remind me to call Alice at 4?",
            capture("to call Alice at 4"),
        ),
        ("could you please add milk", capture("milk")),
        ("would you mind adding this", Reading::Nothing),
        ("can you remind me?", Reading::BareCapture),
        (
            "I need you to remind me to renew the passport",
            capture("to renew the passport"),
        ),
        (
            "reminder: dentist friday 3pm",
            capture("dentist friday 3pm"),
        ),
        ("Note to self - buy stamps", capture("buy stamps")),
        (
            "note: pick up the dry cleaning",
            capture("pick up the dry cleaning"),
        ),
        ("todo - email Anna", capture("email Anna")),
        ("remember to water the plants", capture("water the plants")),
        ("put 'buy milk' on the list", capture("buy milk")),
        ("stick oat milk on my shopping list", capture("oat milk")),
        (
            "please throw “renew passport” onto the list",
            capture("renew passport"),
        ),
        ("jot down call the plumber", capture("call the plumber")),
        // The thanks is the wrapper of the command (it once read as nothing at all).
        ("thanks, add milk", capture("milk")),
    ];
    let mut wrong = Vec::new();
    for (text, expected) in table {
        let got = read(text);
        if &got != expected {
            wrong.push(format!("{text:?}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn thanks_goodbyes_and_greetings() {
    let table: &[(&str, Reading)] = &[
        ("thanks, that's all", Reading::Thanks),
        ("cheers mate", Reading::Thanks),
        ("great, thank you so much!", Reading::Thanks),
        ("that's it for now", Reading::Thanks),
        ("ok bye", Reading::Thanks),
        ("good night Donna", Reading::Thanks),
        ("nothing else, thanks", Reading::Thanks),
        ("hi Donna", Reading::Greeting),
        ("hey, good morning!", Reading::Greeting),
        ("hello there, how are you?", Reading::Greeting),
    ];
    let mut wrong = Vec::new();
    for (text, expected) in table {
        let got = read(text);
        if &got != expected {
            wrong.push(format!("{text:?}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// Sentences that look like the above and are none of them: a question about something
/// else, small talk, a report, someone else's intention, a negation, a memory question.
#[test]
fn what_must_not_be_read_as_a_question_a_capture_or_a_closing() {
    let table: &[&str] = &[
        "remind me what we discussed",
        "remind me when the dentist is",
        "remind me who called",
        "how are you doing today?",
        "what's the weather tomorrow?",
        "is the dentist on my list?",
        "what time is it",
        "don't put eggs on the list",
        "I put it on the list already?",
        "my brother will remind me to call",
        "note that I paid",
        "what a day",
        "I'm so tired",
        "what do you think about the meeting tomorrow?",
    ];
    let mut wrong = Vec::new();
    for text in table {
        let got = read(text);
        if !matches!(got, Reading::Nothing) {
            wrong.push(format!("{text:?}: expected nothing, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
