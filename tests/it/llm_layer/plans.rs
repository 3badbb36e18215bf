//! Plans from the model: the prompt's content and each protocol's shape, strict validation of
//! the actions, the retry of invalid output, and a keyword reply the fast path cannot read.

use super::*;
use crate::common::Needed;

#[actix_rt::test]
async fn paid_and_rename_becomes_a_plan_of_exactly_those_two_and_yes_runs_both() {
    for provider in ["ollama", "openai"] {
        let fake = start_fake_llm();
        let bot = bot_with(&fake, provider).await;
        let (task, thread) = bot.nudged_task("Pay rent").await;
        fake.push(Script::answer(
            json!([
                {"name": "mark_done", "params": {}},
                {"name": "rename_task", "params": {"new_title": "Pay rent for December"}}
            ]),
            "Glad it's paid!",
        ));
        let proposed = bot
            .say(
                &thread,
                "I paid it this morning, and rename it to Pay rent for December",
            )
            .await;
        assert_eq!(proposed["path"], "llm", "{provider}: {proposed}");
        let names: Vec<&str> = proposed["actions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a["name"].as_str())
            .collect();
        assert_eq!(names, vec!["mark_done", "rename_task"], "{provider}");
        let text = reply(&proposed);
        assert!(text.starts_with("Glad it's paid!"), "{text}");
        assert!(
            text.contains(
                "1) mark 'Pay rent' as done; 2) rename 'Pay rent' to 'Pay rent for December'"
            ),
            "{text}"
        );
        assert!(text.contains("Reply 'yes'"), "{text}");
        assert_eq!(
            bot.task_json(&task).await["status"],
            "backlog",
            "nothing before the yes"
        );

        let confirmed = bot.say(&thread, "yes").await;
        assert_eq!(confirmed["path"], "plan_confirmed");
        let results: Vec<bool> = confirmed["results"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["ok"].as_bool())
            .collect();
        assert_eq!(results, vec![true, true]);
        let shown = bot.task_json(&task).await;
        assert_eq!(shown["status"], "done");
        assert_eq!(shown["title"], "Pay rent for December");
        // Only the one classification call: "yes" never reaches the model.
        assert_eq!(fake.requests().len(), 1, "{provider}");
    }
}

#[actix_rt::test]
async fn the_prompt_carries_the_task_and_the_history_and_each_protocol_gets_its_shape() {
    let fake = start_fake_llm();
    fake.always(Script::answer(json!([]), "Sure thing."));
    let bot = bot_with(&fake, "ollama").await;
    let (_, thread) = bot.nudged_task("Renew passport").await;
    bot.say(&thread, "busy").await;
    let answered = bot.say(&thread, "what do I need to bring?").await;
    assert_eq!(answered["path"], "llm");
    assert_eq!(reply(&answered), "Sure thing.");
    let prompt = last_prompt(&fake);
    assert!(prompt.contains("The task: \"Renew passport\""), "{prompt}");
    assert!(
        prompt.contains("Donna: Time for 'Renew passport'"),
        "history lacks the nudge: {prompt}"
    );
    assert!(prompt.contains("User: busy"), "{prompt}");
    assert!(
        prompt.contains("Donna: Snoozed 'Renew passport'"),
        "{prompt}"
    );
    assert_eq!(
        prompt.matches("what do I need to bring?").count(),
        1,
        "the reply appears once"
    );
    let (path, body) = fake.requests().last().cloned().needed();
    assert_eq!(path, "/api/chat");
    assert_eq!(body["stream"], false);
    assert_eq!(body["model"], "fake-model");
    assert!(
        body["format"]["properties"]["actions"].is_object(),
        "{body}"
    );
    assert!(body["options"]["temperature"].is_number());
    assert!(body["keep_alive"].is_string());

    let fake = start_fake_llm();
    fake.always(Script::answer(json!([]), "Sure."));
    let bot = bot_with(&fake, "openai").await;
    let (_, thread) = bot.nudged_task("Renew passport").await;
    bot.say(&thread, "what do I need?").await;
    let (path, body) = fake.requests().last().cloned().needed();
    assert_eq!(path, "/v1/chat/completions");
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert!(
        body["response_format"]["json_schema"]["schema"]["properties"]["reply_to_user"].is_object()
    );
}

#[actix_rt::test]
async fn a_model_supplied_task_id_for_another_task_is_ignored() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama").await;
    let other = bot.task(json!({"title": "Someone else's task"})).await;
    let (task, thread) = bot.nudged_task("My task").await;
    fake.push(Script::answer(
        json!([{"name": "mark_done", "params": {"task_id": other}}]),
        "Done it is.",
    ));
    let proposed = bot
        .say(&thread, "finished that one, the other one too")
        .await;
    assert_eq!(proposed["actions"][0]["params"]["task_id"], task.as_str());
    bot.say(&thread, "yes").await;
    assert_eq!(bot.task_json(&task).await["status"], "done");
    assert_eq!(bot.task_json(&other).await["status"], "backlog");
}

#[actix_rt::test]
async fn an_unknown_or_invalid_action_next_to_a_valid_one_leaves_only_the_valid_one() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama").await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::answer(
        json!([
            {"name": "delete_everything", "params": {}},
            {"name": "snooze", "params": {"duration_hours": "a while"}},
            {"name": "create_task", "params": {"title": "x", "domain": "space"}},
            {"name": "snooze", "params": {"duration_hours": 4}}
        ]),
        "Let me snooze it.",
    ));
    let proposed = bot.say(&thread, "ugh, can you give me a few hours").await;
    assert_eq!(proposed["path"], "llm");
    assert_eq!(
        proposed["actions"],
        json!([{"name": "snooze", "params": {"task_id": proposed["actions"][0]["params"]["task_id"], "duration_hours": 4}}])
    );
}

#[actix_rt::test]
async fn only_invalid_actions_ask_to_clarify_without_repeating_the_model() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "openai").await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::answer(
        json!([{"name": "transfer_money", "params": {"amount": 900}}]),
        "I transferred the money!",
    ));
    let result = bot.say(&thread, "pay it from savings").await;
    assert_eq!(result["path"], "clarify");
    assert!(
        !reply(&result).contains("transferred"),
        "{}",
        reply(&result)
    );
    assert_eq!(result["pending_plan_id"], Value::Null);
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
}

#[actix_rt::test]
async fn invalid_output_is_retried_once() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama").await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::Output("Sure! I'll mark it done.".into()));
    fake.push(Script::answer(
        json!([{"name": "mark_done", "params": {}}]),
        "Marking it.",
    ));
    let result = bot
        // Not a bare report ("paid it" alone is the keyword layer's): the model reads it.
        .say(
            &thread,
            "I paid it yesterday evening, but the bank says it is pending",
        )
        .await;
    assert_eq!(result["path"], "llm");
    assert_eq!(fake.requests().len(), 2);
    let retry = last_prompt(&fake);
    assert!(retry.contains("That answer is not valid"), "{retry}");
}

#[actix_rt::test]
async fn a_keyword_reply_whose_time_cannot_be_read_goes_to_the_model() {
    let fake = start_fake_llm();
    fake.push(Script::answer(
        json!([{"name": "reschedule", "params": {"when": "tomorrow"}}]),
        "Let's move it.",
    ));
    let bot = bot_with(&fake, "ollama").await;
    let (task, thread) = bot.nudged_task("Gym").await;
    let result = bot.say(&thread, "sick today, move it to tomorrow").await;
    assert_eq!(result["path"], "llm", "{result}");
    assert_eq!(fake.requests().len(), 1);
    assert!(result["pending_plan_id"].is_string());
    assert_eq!(
        bot.task_json(&task).await["scheduled_start"],
        Value::Null,
        "nothing before the yes"
    );
}
