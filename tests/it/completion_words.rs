//! Repeat from completion said in words, through the chat on a controlled clock: "descale the
//! kettle every 2 weeks once I've done it", "every! 2 weeks" are proposed as counted from
//! completion, and after the person's "yes" `GET /api/automations` shows `repeat_from:
//! "completion"` (without the words in the title); "every 2 weeks" alone stays a fixed schedule;
//! sentences that only look like one are not read as one.
//!
//! The clock starts at Monday 23 November 2026, 10:00 UTC; the config's zone is UTC.

use crate::common;
use crate::common::Fields;

use common::{start_bot, Bot};
use serde_json::Value;

/// `sentence` said in a chat of its own, then "yes": the automation the yes stored, as
/// `GET /api/automations` lists it, and the proposal's words.
async fn proposed_and_confirmed(bot: &Bot, sentence: &str) -> (Value, String) {
    let before = automations(bot).await;
    let chat = bot.free_thread().await;
    let proposal = bot.say(&chat, sentence).await;
    assert_eq!(
        proposal["path"], "automation_proposed",
        "{sentence:?}: {proposal}"
    );
    let words = proposal["reply"].text().to_string();
    let yes = bot.say(&chat, "yes").await;
    assert_eq!(yes["path"], "plan_confirmed", "{sentence:?}: {yes}");
    let new: Vec<Value> = automations(bot)
        .await
        .into_iter()
        .filter(|automation| !before.iter().any(|old| old["id"] == automation["id"]))
        .collect();
    assert_eq!(new.len(), 1, "{sentence:?}: one automation stored: {new:?}");
    (new[0].clone(), words)
}

async fn automations(bot: &Bot) -> Vec<Value> {
    let (status, all) = bot.get("/api/automations").await;
    assert_eq!(status, 200, "{all}");
    all.items().to_vec()
}

#[actix_rt::test]
async fn words_that_count_from_completion_are_proposed_so_and_stored_so_after_the_yes() {
    let bot = start_bot("").await;
    for (sentence, title, repeat_from) in [
        (
            "descale the kettle every 2 weeks once I've done it",
            "Descale the kettle",
            "completion",
        ),
        (
            "water the plants every 3 days after I've done it",
            "Water the plants",
            "completion",
        ),
        (
            "every! 2 weeks remind me to change the bed sheets",
            "Change the bed sheets",
            "completion",
        ),
        (
            "remind me to clean the filter every month at 18:00, counting from when I finish it",
            "Clean the filter",
            "completion",
        ),
        (
            "remind me to descale the kettle every 2 weeks",
            "Descale the kettle",
            "schedule",
        ),
        (
            "every 10 days remind me to water the cactus after I've done the dishes",
            "Water the cactus after I've done the dishes",
            "schedule",
        ),
    ] {
        let (automation, proposal) = proposed_and_confirmed(&bot, sentence).await;
        assert_eq!(
            (&automation["title"], &automation["repeat_from"]),
            (&Value::from(title), &Value::from(repeat_from)),
            "{sentence:?}: {automation}"
        );
        assert_eq!(
            proposal.contains("counted from when you've done the last one"),
            repeat_from == "completion",
            "{sentence:?}: the proposal says how it repeats: {proposal}"
        );
    }
}

#[actix_rt::test]
async fn sentences_that_only_look_like_counting_from_completion_store_nothing() {
    let bot = start_bot("").await;
    for sentence in [
        // A report, not a request.
        "I descale the kettle every 2 weeks once I've done it",
        // No one interval to count.
        "every monday and thursday remind me to water the plants once I've done it",
        // A question.
        "do I water the plants every 3 days after I've done it?",
    ] {
        let chat = bot.free_thread().await;
        let answer = bot.say(&chat, sentence).await;
        assert_ne!(
            answer["path"], "automation_proposed",
            "{sentence:?}: {answer}"
        );
        let yes = bot.say(&chat, "yes").await;
        assert_ne!(yes["path"], "plan_confirmed", "{sentence:?}: {yes}");
    }
    let (status, all) = bot.get("/api/automations").await;
    assert_eq!((status, all), (200, serde_json::json!([])));
}
