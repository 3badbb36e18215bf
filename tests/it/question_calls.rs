//! How many model calls a question costs, with the fake model counting them per turn: the
//! planner's step that already has what it needs answers, so a question with no look-up is
//! two calls (`route`, `plan_step`) and one with one look-up three. What a person notices on a
//! local model: an answer in two or three calls' time, not four. The composed answer's own
//! call is made only when the steps ran out or a step said `done` without an answer, and what
//! the answer proposes after a look-up still waits for a yes. A question about one task's time
//! ("when is the dentist again?") is answered from the task by the rules: no call at all.

use crate::common;
use crate::common::Fields;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use common::fake_llm::planner::{call, question};
use common::fake_llm::{in_role, out, start_fake_llm, FakeLlm};
use common::Bot;
use serde_json::{json, Value};

async fn bot(fake: &FakeLlm) -> Bot {
    TestConfig::new()
        .with_llm(fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await
}

fn answers(reply: &str, actions: Value) -> common::fake_llm::Script {
    out(json!({"action": "answer", "reply_to_user": reply, "actions": actions}))
}

/// The titles of the calls `bot` made for one message.
async fn calls_for(bot: &Bot, fake: &FakeLlm, thread: &str, text: &str) -> (Value, Vec<String>) {
    let before = fake.titles().len();
    let result = bot.say(thread, text).await;
    (result, fake.titles()[before..].to_vec())
}

#[actix_rt::test]
async fn a_question_the_step_can_answer_at_once_is_two_model_calls() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let thread = bot.free_thread().await;
    fake.push_for("route", question());
    fake.push_for(
        "plan_step",
        answers("You asked me that this morning: Friday.", json!([])),
    );
    let (result, calls) = calls_for(&bot, &fake, &thread, "so which day was it again?").await;
    assert_eq!(result["path"], "answer", "{result}");
    assert_eq!(result["reply"], "You asked me that this morning: Friday.");
    assert_eq!(result["steps"], json!([]), "no look-up ran");
    assert_eq!(calls, ["route", "plan_step"]);
}

#[actix_rt::test]
async fn a_question_about_one_tasks_time_is_answered_from_the_task_with_no_model_call() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    bot.task(json!({"title": "Dentist appointment", "deadline": "2026-11-27T09:00:00Z"}))
        .await;
    let thread = bot.free_thread().await;
    for text in [
        "when is the dentist again?",
        "what time is my dentist appointment?",
    ] {
        let (result, calls) = calls_for(&bot, &fake, &thread, text).await;
        assert_eq!(result["path"], "answer", "{text:?}: {result}");
        let reply = result["reply"].text();
        assert!(
            reply.contains("Dentist appointment") && reply.contains("Friday 27 Nov at 09:00"),
            "{text:?}: {result}"
        );
        assert!(calls.is_empty(), "{text:?}: no model call, got {calls:?}");
    }
}

#[actix_rt::test]
async fn a_question_with_one_look_up_is_three_model_calls_and_answers_from_it() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    bot.task(json!({"title": "Dentist appointment", "deadline": "2026-11-27T09:00:00Z"}))
        .await;
    let thread = bot.free_thread().await;
    fake.push_for("route", question());
    fake.push_for("plan_step", call("get_task", json!({"task": "dentist"})));
    fake.push_for("plan_step", answers("Friday 27 Nov at 09:00.", json!([])));
    // A question about the task's time alone is answered from the task with no call at all
    // (below); this one needs the task looked up.
    let (result, calls) = calls_for(
        &bot,
        &fake,
        &thread,
        "anything I should know about the dentist?",
    )
    .await;
    assert_eq!(result["path"], "answer", "{result}");
    assert_eq!(result["reply"], "Friday 27 Nov at 09:00.");
    assert_eq!(
        result["steps"],
        json!([{"tool": "get_task", "args": {"task": "dentist"}, "ok": true}])
    );
    assert_eq!(calls, ["route", "plan_step", "plan_step"]);
    // The step that answered had the look-up's result, quoted, in a user message.
    let answering = fake.messages_of("plan_step", 1);
    assert!(
        in_role(&answering, "user", "[source: tool get_task"),
        "{answering:?}"
    );
    assert!(
        in_role(&answering, "user", "Dentist appointment"),
        "{answering:?}"
    );
    assert!(
        !in_role(&answering, "system", "Dentist appointment"),
        "{answering:?}"
    );
}

#[actix_rt::test]
async fn a_change_a_step_proposes_after_a_look_up_waits_for_a_yes() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let task = bot
        .task(json!({"title": "Dentist appointment", "deadline": "2026-11-27T09:00:00Z"}))
        .await;
    let before = bot.task_json(&task).await;
    let thread = bot.free_thread().await;
    fake.push_for("route", question());
    fake.push_for("plan_step", call("get_task", json!({"task": "dentist"})));
    fake.push_for(
        "plan_step",
        answers(
            "It's Friday; shall I mark it done?",
            json!([{"name": "mark_done", "params": {"task": "dentist"}}]),
        ),
    );
    let (result, calls) = calls_for(&bot, &fake, &thread, "is the dentist thing done?").await;
    assert_eq!(calls, ["route", "plan_step", "plan_step"]);
    assert!(result["pending_plan_id"].is_string(), "a plan: {result}");
    let after = bot.task_json(&task).await;
    assert_eq!(after["status"], before["status"], "nothing ran: {after}");
}

#[actix_rt::test]
async fn a_step_that_says_only_done_still_gets_its_answer_composed() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let thread = bot.free_thread().await;
    fake.push_for("route", question());
    fake.push_for("plan_step", out(json!({"action": "done"})));
    fake.push_for("chat", out(json!({"reply_to_user": "I don't know yet."})));
    let (result, calls) = calls_for(&bot, &fake, &thread, "what did I decide about it?").await;
    assert_eq!(result["reply"], "I don't know yet.", "{result}");
    assert_eq!(calls, ["route", "plan_step", "chat"]);
}
