//! An edit of the chat config or the rules while Donna runs: applied, or refused when invalid.

use super::*;
use crate::common::Fields;

#[actix_rt::test]
async fn an_edit_of_the_chat_config_or_the_rules_is_applied_and_an_invalid_one_refused() {
    let fake = start_fake_llm();
    let model = fake.config("ollama", "10s", 2);
    let bot = chat_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    chat(&bot, &fake, &thread, "long day", "Rest up.").await;
    assert!(system_of(&fake, 0).contains("You are Donna"));
    let first = config_health(&bot).await;
    assert_eq!(first["error"], Value::Null, "{first}");

    // The persona changes for the next turn.
    let path = write_config(&bot, &format!("{model}chat:\n  persona: neutral\n"));
    bot.app.reload_config(Some(&path));
    assert_eq!(config_health(&bot).await["error"], Value::Null);
    chat(&bot, &fake, &thread, "still tired", "Take a break.").await;
    assert!(
        system_of(&fake, 1).contains("no persona"),
        "{}",
        system_of(&fake, 1)
    );

    // A keyword added to the intents file is matched by the next reply.
    let (task, nudge_thread) = bot.nudged_task("Pay rent").await;
    let intents = include_str!("../../../config/reply_intents.yaml").replace(
        "keywords: [\"done\", \"finished\",",
        "keywords: [\"nailed it\", \"done\", \"finished\",",
    );
    std::fs::write(bot.dir.path().join("intents.yaml"), &intents).unwrap_or_else(|e| panic!("{e}"));
    let with_intents = format!("{model}chat:\n  persona: neutral\nintents_file: intents.yaml\n");
    let path = write_config(&bot, &with_intents);
    bot.app.reload_config(Some(&path));
    assert_eq!(config_health(&bot).await["error"], Value::Null);
    let done = bot.say(&nudge_thread, "nailed it").await;
    assert_eq!(done["path"], "fast", "{done}");
    assert_eq!(bot.task_json(&task).await["status"], "done");

    // Invalid edits are refused, named by their key path, and the previous version stays.
    let table = [
        (
            format!("{model}chat:\n  persona: pirate\nintents_file: intents.yaml\n"),
            None,
            "chat.persona",
        ),
        (
            format!(
                "{model}chat:\n  persona: neutral\n  mood: sunny\nintents_file: intents.yaml\n"
            ),
            None,
            "chat.mood",
        ),
        (
            with_intents.clone(),
            Some("intents: [this is not\n"),
            "intents",
        ),
        (
            format!("{with_intents}chat_actions_file: chat_actions.yaml\n"),
            Some(intents.as_str()),
            "actions.mark_done.safety",
        ),
    ];
    let unsafe_actions = include_str!("../../../config/chat_actions.yaml").replace(
        "    safety: write\n    description: Mark a task as completed.",
        "    description: Mark a task as completed.",
    );
    std::fs::write(bot.dir.path().join("chat_actions.yaml"), unsafe_actions)
        .unwrap_or_else(|e| panic!("{e}"));
    for (config, broken_intents, named) in table {
        if let Some(broken) = broken_intents {
            std::fs::write(bot.dir.path().join("intents.yaml"), broken)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let path = write_config(&bot, &config);
        bot.app.reload_config(Some(&path));
        let shown = config_health(&bot).await;
        let error = shown["error"].text().to_string();
        assert!(error.contains(named), "{named}: {shown}");
        let turn = chat(&bot, &fake, &thread, "what now", "Whatever you like.").await;
        assert_eq!(turn["path"], "chat", "{turn}");
        let last = fake.count("chat") - 1;
        assert!(
            system_of(&fake, last).contains("no persona"),
            "{named}: the old version stays"
        );
    }
    let (other, other_thread) = bot.nudged_task("Call mum").await;
    let done = bot.say(&other_thread, "nailed it").await;
    assert_eq!(done["path"], "fast", "the old intents stay: {done}");
    assert_eq!(bot.task_json(&other).await["status"], "done");

    // The next good edit clears the error.
    std::fs::write(bot.dir.path().join("intents.yaml"), &intents).unwrap_or_else(|e| panic!("{e}"));
    let path = write_config(&bot, &with_intents);
    bot.app.reload_config(Some(&path));
    assert_eq!(config_health(&bot).await["error"], Value::Null);
}
