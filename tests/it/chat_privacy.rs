//! The chat room's open tasks follow who is asking: task talk shows the model the open tasks
//! of the chats the person takes part in (and those of no chat), never a task captured in
//! someone else's private chat, whichever chat the talk happens in.

use crate::common;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use common::fake_llm::start_fake_llm;
use serde_json::{json, Value};

fn prompt_text(prompt: &[(String, String)]) -> String {
    prompt.iter().map(|(_, text)| text.as_str()).collect()
}

fn created(result: &Value, sentence: &str) {
    assert_eq!(result["path"], "task_created", "{sentence}: {result}");
}

#[actix_rt::test]
async fn task_talk_in_a_group_never_shows_the_model_another_persons_private_tasks() {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    // The owner's task, captured in their own chat.
    let private = bot.free_thread().await;
    let sentence = "remind me to renew the kayak licence tomorrow at 9am";
    created(&bot.say_as(&private, "owner", sentence).await, sentence);
    // Bob's, captured in the group.
    let group = bot.group_thread().await;
    let sentence = "remind me to collect the dry cleaning tomorrow at 10am";
    created(&bot.say_as(&group, "bob", sentence).await, sentence);

    // Bob talks about tasks in the group: the model sees his, not the owner's.
    fake.proposes("Let me look.", json!([]));
    bot.say_as(&group, "bob", "push my errand to friday if you can")
        .await;
    let bobs = prompt_text(&fake.messages_of("chat", 0));
    assert!(bobs.to_lowercase().contains("dry cleaning"), "{bobs}");
    assert!(
        !bobs.to_lowercase().contains("kayak"),
        "the owner's private task reached Bob's prompt: {bobs}"
    );

    // The owner, in their own chat, sees their own task (and not Bob's group, where they never
    // wrote).
    fake.proposes("Let me look.", json!([]));
    bot.say_as(&private, "owner", "push that one to friday if you can")
        .await;
    let owners = prompt_text(&fake.messages_of("chat", 1));
    assert!(owners.to_lowercase().contains("kayak"), "{owners}");
    assert!(!owners.to_lowercase().contains("dry cleaning"), "{owners}");
}
