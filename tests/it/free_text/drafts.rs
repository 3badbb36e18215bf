//! Drafts: a capture missing something asks once, merges the answer (across a restart), and
//! keeps the time said before; a command with no title left creates nothing.

use super::*;

#[actix_rt::test]
async fn a_draft_asks_once_merges_the_answer_and_survives_a_restart() {
    let bot = start_bot(PARIS).await;
    let thread = bot.free_thread().await;
    let asked = bot.say(&thread, "add a task").await;
    assert_eq!(asked["path"], "clarify");
    assert_eq!(asked["reply"], "What should I add?");
    // A question in between is answered on its own; the draft stays.
    assert_eq!(
        bot.say(&thread, "what's due today?").await["path"],
        "answer"
    );
    bot.stop().await;
    bot.stop_server_now().await;
    let Bot { app, dir, .. } = bot;
    drop(app);
    let bot = start_bot_in(dir, PARIS, TestEnv(Vec::new())).await;
    let created = bot.say(&thread, "call the bank tomorrow").await;
    assert_eq!(created["path"], "task_created", "{created}");
    let task = &tasks(&bot).await[0];
    assert_eq!(task["title"], "Call the bank");
    assert_eq!(
        local(&task["scheduled_start"]).as_deref(),
        Some("2026-11-24T09:00")
    );

    // "never mind" drops a draft.
    assert_eq!(bot.say(&thread, "remind me").await["path"], "clarify");
    assert_eq!(bot.say(&thread, "never mind").await["path"], "unhandled");
    assert_eq!(
        bot.say(&thread, "the blue folder").await["path"],
        "unhandled"
    );
    assert_eq!(
        tasks(&bot).await.len(),
        1,
        "a dropped draft takes no answer"
    );

    // At most two questions, then Donna gives up.
    assert_eq!(bot.say(&thread, "add").await["path"], "clarify");
    assert_eq!(
        bot.say(&thread, "tomorrow").await["path"],
        "clarify",
        "no title yet"
    );
    let gave_up = bot.say(&thread, "friday").await;
    assert_eq!(gave_up["path"], "unhandled", "{gave_up}");
    assert_eq!(tasks(&bot).await.len(), 1);
}

/// A capture command with nothing to add after its own words, or only a time,
/// asks what to add (a `what` draft) and never creates a task ("remind me to" once became a
/// task titled "To"). One line per sentence; the last rows must still capture.
#[actix_rt::test]
async fn a_command_with_no_title_left_asks_what_to_add_and_creates_nothing() {
    let bot = start_bot(PARIS).await;
    let asks = [
        "remind me to",
        "Remind me to.",
        "remind me",
        "remind me!",
        "please remind me to",
        "hey donna, remind me to",
        "remind me that",
        "add",
        "add:",
        "add to my list",
        "add a task",
        "add a task for tomorrow",
        "add task:",
        "todo:",
        "todo: tomorrow",
        "new task:",
        "new task: friday 3pm",
        "new reminder",
        "don't forget to",
        "don't forget",
        "remind me at 5pm",
        "remind me in 2 hours",
        "remind me on friday at 9",
    ];
    for sentence in asks {
        let thread = bot.free_thread().await;
        let result = bot.say(&thread, sentence).await;
        assert_eq!(result["path"], "clarify", "{sentence:?}: {result}");
        assert_eq!(
            result["reply"], "What should I add?",
            "{sentence:?}: {result}"
        );
        assert!(tasks(&bot).await.is_empty(), "{sentence:?} created a task");
    }
    // Read as questions ("remind me about" what?, "remind me tomorrow": what is due then?),
    // never as a task titled "About" or "To".
    for sentence in [
        "remind me about",
        "remind me tomorrow",
        "remind me to tomorrow",
        "remind me tomorrow to",
        "remind me tonight",
    ] {
        let thread = bot.free_thread().await;
        let result = bot.say(&thread, sentence).await;
        assert_ne!(result["path"], "task_created", "{sentence:?}: {result}");
        assert!(tasks(&bot).await.is_empty(), "{sentence:?} created a task");
    }
    let captures = [
        ("remind me to call mom", "Call mom"),
        ("remind me tomorrow to pay rent", "Pay rent"),
        ("add milk", "Milk"),
        ("todo: ask about the lease", "Ask about the lease"),
        (
            "add something for Anna's birthday",
            "Something for Anna's birthday",
        ),
        ("remind me to take the pill at 23:00", "Take the pill"),
    ];
    for (sentence, title) in captures {
        let thread = bot.free_thread().await;
        let result = bot.say(&thread, sentence).await;
        assert_eq!(result["path"], "task_created", "{sentence:?}: {result}");
        let created = tasks(&bot).await;
        assert!(
            created.iter().any(|task| task["title"] == title),
            "{sentence:?}: no task {title:?} in {created:?}"
        );
    }
}

/// The time said with a bare command is kept for the answer to "What should I
/// add?"; an answer with its own time uses that one.
#[actix_rt::test]
async fn the_answer_to_what_should_i_add_keeps_the_time_said_before() {
    let bot = start_bot(PARIS).await;
    let thread = bot.free_thread().await;
    assert_eq!(
        bot.say(&thread, "remind me tomorrow at 9").await["path"],
        "clarify"
    );
    let created = bot.say(&thread, "call the bank").await;
    assert_eq!(created["path"], "task_created", "{created}");
    let task = &tasks(&bot).await[0];
    assert_eq!(task["title"], "Call the bank");
    assert_eq!(
        local(&task["scheduled_start"]).as_deref(),
        Some("2026-11-24T09:00"),
        "{task}"
    );
    let other = bot.free_thread().await;
    assert_eq!(bot.say(&other, "remind me to").await["path"], "clarify");
    let created = bot.say(&other, "water the plants friday 18:00").await;
    assert_eq!(created["path"], "task_created", "{created}");
    let planted = tasks(&bot).await;
    let plants = planted
        .iter()
        .find(|task| task["title"] == "Water the plants")
        .unwrap_or_else(|| panic!("{planted:?}"));
    assert_eq!(
        local(&plants["scheduled_start"]).as_deref(),
        Some("2026-11-27T18:00"),
        "{plants}"
    );
}
