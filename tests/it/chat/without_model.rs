//! A failing or missing model: the honest answer, and only the turn's messages stored.

use super::*;
use crate::common::Fields;

#[actix_rt::test]
async fn a_failing_model_gives_llm_unavailable_and_stores_only_the_turns_messages() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    routed_to_chat(&fake);
    fake.push_for("chat", Script::Status(500));
    let result = bot.say(&thread, "I had the weirdest dream").await;
    assert_eq!(result["path"], "llm_unavailable", "{result}");
    assert!(
        !result["reply"].text().contains("again"),
        "never an invitation to say it again: {result}"
    );
    assert_eq!(sessions(&bot, &thread).await, 0, "no session opened");
    let (_, messages) = bot.get(&format!("/api/threads/{thread}/messages")).await;
    assert_eq!(messages.as_array().map(Vec::len), Some(2), "{messages}");
    // The next conversation starts fresh.
    bot.clock.advance(ChronoDuration::minutes(1));
    chat(&bot, &fake, &thread, "anyway, how's your day", "Hello!").await;
    let prompt = fake.messages_of("chat", 1);
    assert_eq!(
        prompt.len() - prefix_len(),
        2,
        "the persona, the time, the message: {prompt:?}"
    );
    assert!(!anywhere(&prompt, "weirdest dream"), "{prompt:?}");
    assert_eq!(sessions(&bot, &thread).await, 1);
}

#[actix_rt::test]
async fn without_a_model_a_change_asked_in_words_gets_the_honest_unhandled_answer_too() {
    let bot = start_bot("").await;
    let rent = bot.task(json!({"title": "Pay rent"})).await;
    let thread = bot.free_thread().await;
    for text in [
        "I finished paying the rent",
        "can you push the rent to next week",
    ] {
        let result = bot.say(&thread, text).await;
        assert_eq!(result["path"], "unhandled", "{text}: {result}");
        assert!(
            result["reply"].text().contains("Without a language model"),
            "{result}"
        );
    }
    assert_eq!(bot.task_json(&rent).await["status"], "backlog");
}

#[actix_rt::test]
async fn without_a_model_chat_gets_the_honest_unhandled_answer() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    for text in ["I feel so tired today", "my cat knocked over a plant"] {
        let result = bot.say(&thread, text).await;
        assert_eq!(result["path"], "unhandled", "{text}: {result}");
        assert!(
            result["reply"].text().contains("Without a language model"),
            "{result}"
        );
    }
    assert_eq!(sessions(&bot, &thread).await, 0);
}
