//! The model path made sensible for small local models, against a fake model server on
//! loopback: the system prompt folded into the first user message for models without a system
//! role, a retry that says what was wrong, a plan reviewed as a whole before it is shown
//! (evidence in the reply, placeholder titles, duplicates, contradictions), and a confirmed plan
//! that applies all of its steps or none.

use crate::common;
use crate::common::action_names;
use crate::common::{Fields, Needed};

use common::fake_llm::{start_fake_llm, FakeLlm, Script};
use common::{start_bot, Bot};
use serde_json::{json, Value};

async fn bot_with(fake: &FakeLlm, provider: &str, extra_llm_lines: &str) -> Bot {
    start_bot(&format!(
        "{}{extra_llm_lines}",
        fake.config(provider, "5s", 2)
    ))
    .await
}

fn reply(result: &Value) -> &str {
    result["reply"].text()
}

/// The messages of request `index` as (role, content).
fn messages(fake: &FakeLlm, index: usize) -> Vec<(String, String)> {
    fake.requests()
        .get(index)
        .map(|(_, body)| {
            body["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|m| {
                    (
                        m["role"].text().to_string(),
                        m["content"].text().to_string(),
                    )
                })
                .collect()
        })
        .needed()
}

#[actix_rt::test]
async fn with_system_role_user_the_rules_travel_inside_the_first_user_message() {
    for provider in ["ollama", "openai"] {
        let fake = start_fake_llm();
        fake.always(Script::answer(json!([]), "It's about paying the rent."));
        let bot = bot_with(&fake, provider, "  system_role: user\n").await;
        let (_, thread) = bot.nudged_task("Pay rent").await;
        let answered = bot.say(&thread, "what was this about again?").await;
        assert_eq!(answered["path"], "llm", "{provider}: {answered}");
        let sent = messages(&fake, 0);
        assert!(
            sent.iter().all(|(role, _)| role != "system"),
            "{provider}: no system message may be sent: {sent:?}"
        );
        let (role, first) = &sent[0];
        assert_eq!(role, "user", "{provider}");
        assert!(
            first.starts_with("<instructions>\nYou are Donna") && first.contains("</instructions>"),
            "{first}"
        );
        assert!(first.contains("You can only PROPOSE actions"), "{first}");
        // The rules come first (the prefix every call shares), the turn last.
        let (_, turn) = sent.last().cloned().needed();
        assert!(
            turn.contains("The task: \"Pay rent\"") && !turn.contains("<instructions>"),
            "{provider}: {turn}"
        );
        assert_eq!(
            sent.len(),
            common::prefix::prefix_len(),
            "{provider}: {sent:?}"
        );
    }

    // The default keeps the system message apart.
    let fake = start_fake_llm();
    fake.always(Script::answer(json!([]), "It's about paying the rent."));
    let bot = bot_with(&fake, "openai", "").await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    bot.say(&thread, "what was this about again?").await;
    let sent = messages(&fake, 0);
    assert_eq!(sent[0].0, "system", "{sent:?}");
    assert!(!sent[1].1.contains("<instructions>"), "{sent:?}");
}

#[actix_rt::test]
async fn an_invalid_answer_is_retried_with_the_answer_and_what_was_wrong_with_it() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama", "").await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    // A raw line break inside a JSON string: the mistake seen from Gemma 3 270M.
    let broken = "{\"actions\": [{\"name\": \"mark_done\", \"params\": {}}], \"reply_to_user\": \"Great!\nShall I mark it done?\", \"reasoning\": \"paid\"}";
    fake.push(Script::Output(broken.to_string()));
    fake.push(Script::answer(
        json!([{"name": "mark_done", "params": {}}]),
        "Great! Shall I mark it done?",
    ));
    let result = bot
        .say(&thread, "the money went out this morning actually")
        .await;
    assert_eq!(result["path"], "llm", "{result}");
    assert_eq!(action_names(&result), ["mark_done"]);
    assert_eq!(fake.requests().len(), 2);
    let first = messages(&fake, 0);
    let retry = messages(&fake, 1);
    assert_eq!(retry.len(), first.len() + 2, "{retry:?}");
    assert_eq!(
        retry[..first.len()],
        first[..],
        "the retry keeps the question"
    );
    assert_eq!(
        retry[first.len()],
        ("assistant".to_string(), broken.to_string()),
        "the model sees its own answer"
    );
    let (role, correction) = &retry[first.len() + 1];
    assert_eq!(role, "user");
    assert!(
        correction.contains("not valid") && correction.contains("raw line break"),
        "the correction says what was wrong: {correction}"
    );
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
}

#[actix_rt::test]
async fn a_plan_that_cancels_the_task_and_also_changes_it_is_refused_and_donna_asks() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama", "").await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    // What Gemma 3 270M proposed nine times out of nine, on a reply that grounds both.
    fake.push(Script::answer(
        json!([
            {"name": "cancel_task", "params": {}},
            {"name": "create_task", "params": {"title": "new task"}},
            {"name": "reschedule", "params": {"when": "friday"}}
        ]),
        "I cancelled it and made a new task for Friday.",
    ));
    let result = bot
        .say(
            &thread,
            "honestly I don't need it anymore, but maybe move it to friday?",
        )
        .await;
    assert_eq!(result["path"], "clarify", "{result}");
    assert_eq!(result["pending_plan_id"], Value::Null, "{result}");
    assert_eq!(
        reply(&result),
        "I'm not sure what you'd like: should I cancel 'Pay rent', or keep it and change it?"
    );
    let after = bot.task_json(&task).await;
    assert_eq!(after["status"], "backlog");
    let answered = bot.say(&thread, "yes").await;
    assert_ne!(answered["path"], "plan_confirmed", "{answered}");
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
}

#[actix_rt::test]
async fn placeholder_titles_duplicates_and_ungrounded_actions_are_trimmed_from_the_plan() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama", "").await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::answer(
        json!([
            {"name": "mark_done", "params": {}},
            {"name": "mark_done", "params": {}},
            {"name": "create_task", "params": {"title": "new task"}},
            {"name": "snooze", "params": {"duration_hours": 2}},
            {"name": "create_task", "params": {"title": "Email the receipt to Anna"}}
        ]),
        "Done, snoozed, and I added a new task!",
    ));
    let result = bot
        .say(
            &thread,
            "I paid it this morning, also add a task to email the receipt to Anna",
        )
        .await;
    assert_eq!(result["path"], "llm", "{result}");
    assert_eq!(action_names(&result), ["mark_done", "create_task"]);
    assert_eq!(
        result["actions"][1]["params"]["title"], "Email the receipt to Anna",
        "{result}"
    );
    // The model's words describe what was left out: the plan speaks for itself.
    assert!(!reply(&result).contains("snoozed"), "{result}");
    assert!(reply(&result).starts_with("I'd "), "{result}");
    assert_eq!(bot.task_json(&task).await["status"], "backlog");

    // When nothing is left, Donna asks instead of proposing.
    let (_, thread) = bot.nudged_task("Water the plants").await;
    fake.push(Script::answer(
        json!([
            {"name": "create_task", "params": {"title": "the new task's title"}},
            {"name": "create_task", "params": {"title": "Water the plants"}},
            {"name": "create_task", "params": {"title": "Buy flowers"}},
            {"name": "cancel_task", "params": {}}
        ]),
        "I cancelled it and added a task.",
    ));
    let result = bot
        .say(&thread, "also add a task for the balcony ones, they're dry")
        .await;
    assert_eq!(result["path"], "clarify", "{result}");
    assert_eq!(result["pending_plan_id"], Value::Null, "{result}");
    assert!(!reply(&result).contains("cancelled"), "{result}");

    // A prompt example copied word for word shares only "the" with the reply: invented.
    let (_, thread) = bot.nudged_task("Groceries").await;
    fake.push(Script::answer(
        json!([{"name": "create_task", "params": {"title": "Email the receipt to Anna"}}]),
        "Shall I add 'Email the receipt to Anna'?",
    ));
    let result = bot
        .say(&thread, "add a task to buy milk on the way home")
        .await;
    assert_eq!(result["path"], "clarify", "{result}");
}

#[actix_rt::test]
async fn a_confirmed_plan_applies_all_of_its_steps_or_none_and_says_which() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama", "").await;

    // All: both steps run.
    let (task, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::answer(
        json!([
            {"name": "rename_task", "params": {"new_title": "Pay rent for December"}},
            {"name": "reschedule", "params": {"when": "friday 9am"}}
        ]),
        "Sure.",
    ));
    let proposed = bot
        .say(
            &thread,
            "call it Pay rent for December and move it to friday 9am",
        )
        .await;
    assert_eq!(action_names(&proposed), ["rename_task", "reschedule"]);
    let confirmed = bot.say(&thread, "yes").await;
    assert_eq!(confirmed["path"], "plan_confirmed", "{confirmed}");
    let oks: Vec<&Value> = confirmed["results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| &r["ok"])
        .collect();
    assert_eq!(oks, [&json!(true), &json!(true)], "{confirmed}");
    let after = bot.task_json(&task).await;
    assert_eq!(after["title"], "Pay rent for December");
    assert_eq!(after["status"], "scheduled");

    // None: the task was finished elsewhere before the yes, so the move cannot happen, and
    // the rename that could have is not applied either.
    let (task, thread) = bot.nudged_task("Call the landlord").await;
    fake.push(Script::answer(
        json!([
            {"name": "rename_task", "params": {"new_title": "Call the landlord about heating"}},
            {"name": "reschedule", "params": {"when": "friday 9am"}}
        ]),
        "Sure.",
    ));
    let proposed = bot
        .say(
            &thread,
            "call it Call the landlord about heating and move it to friday 9am",
        )
        .await;
    assert_eq!(action_names(&proposed), ["rename_task", "reschedule"]);
    let (status, _) = bot
        .patch(&format!("/api/tasks/{task}"), json!({"status": "done"}))
        .await;
    assert_eq!(status, 200);
    let confirmed = bot.say(&thread, "yes").await;
    assert_eq!(confirmed["path"], "plan_confirmed", "{confirmed}");
    let results = confirmed["results"].items().to_vec();
    assert_eq!(results.len(), 2, "{confirmed}");
    assert!(
        results.iter().all(|r| r["ok"] == false),
        "no step reports success: {confirmed}"
    );
    assert!(
        reply(&confirmed).starts_with("I couldn't do all of that, so I changed nothing:"),
        "{confirmed}"
    );
    assert!(
        reply(&confirmed).contains("done"),
        "the reason is given: {confirmed}"
    );
    let after = bot.task_json(&task).await;
    assert_eq!(
        after["title"], "Call the landlord",
        "the rename was rolled back"
    );
    assert_eq!(after["status"], "done");
}

#[actix_rt::test]
async fn with_evidence_not_required_an_ungrounded_action_is_still_proposed() {
    let fake = start_fake_llm();
    fake.always(Script::answer(
        json!([{"name": "snooze", "params": {"duration_hours": 2}}]),
        "Shall I hold off?",
    ));
    let strict = bot_with(&fake, "ollama", "").await;
    let (_, thread) = strict.nudged_task("Pay rent").await;
    let asked = strict.say(&thread, "what was this about again?").await;
    assert_eq!(asked["path"], "clarify", "{asked}");

    let lenient = bot_with(&fake, "ollama", "  require_evidence: false\n").await;
    let (_, thread) = lenient.nudged_task("Pay rent").await;
    let proposed = lenient.say(&thread, "what was this about again?").await;
    assert_eq!(proposed["path"], "llm", "{proposed}");
    assert_eq!(action_names(&proposed), ["snooze"]);
}
