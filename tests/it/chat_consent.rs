//! Consent for chat writes, second adversarial round (issue 28 items 2, 3, 4, 11, 14): a
//! model's write runs at once only when the person asked for that action on that task in their
//! own words. A question, a negation, venting, two tasks, a task id the model supplies, a
//! pinned chat without the action asked for: each waits for a yes. "Which one?" says what it is
//! about and a pick answers only that; drafts and undo belong to the person they were made for;
//! a pending draft never swallows a command; "dingo report" is ambiguous when A and B exist.

use crate::common;
use crate::common::TestConfig;
use crate::common::{Fields, Needed};
use donna::config::LlmProvider;

use common::fake_llm::{out, start_fake_llm, FakeLlm};
use common::{start_bot, Bot};
use serde_json::{json, Value};

async fn bot(fake: &FakeLlm) -> Bot {
    TestConfig::new()
        .with_llm(fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await
}

async fn status(bot: &Bot, id: &str) -> String {
    bot.task_json(id).await["status"].text().to_string()
}

fn text(result: &Value) -> String {
    result["reply"].text().to_string()
}

#[actix_rt::test]
async fn a_write_the_message_does_not_plainly_ask_for_waits_for_a_yes() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let passport = bot.task(json!({"title": "Renew passport"})).await;
    let rent = bot.task(json!({"title": "Pay rent"})).await;
    let chat = bot.free_thread().await;
    let done = |task: &str| json!([{"name": "mark_done", "params": {"task": task}}]);
    // (message, the model's actions): each shares a title word with a task, none asks for it.
    let cases = [
        ("how is the passport thing going?", done("passport")),
        ("don't mark the passport as done", done("passport")),
        ("ugh the passport thing is killing me", done("passport")),
        (
            "passport and rent, both done",
            json!([
            {"name": "mark_done", "params": {"task": "passport"}},
            {"name": "mark_done", "params": {"task": "rent"}}]),
        ),
        // The model names the task by its id; the message names no task at all.
        ("finished it", done(&passport)),
    ];
    for (message, actions) in cases {
        fake.proposes("Sure.", actions);
        let result = bot.say_as(&chat, "owner", message).await;
        assert!(
            result["pending_plan_id"].is_string(),
            "{message}: a plan, not a write: {result}"
        );
        assert_eq!(result["results"], json!([]), "{message}: nothing ran");
        assert_eq!(status(&bot, &passport).await, "backlog", "{message}");
        assert_eq!(status(&bot, &rent).await, "backlog", "{message}");
        bot.say_as(&chat, "owner", "no").await;
    }
    // Asked plainly: runs at once.
    fake.proposes("Sure.", done("passport"));
    let result = bot
        .say_as(&chat, "owner", "renewed the passport, tick it off")
        .await;
    assert_eq!(result["results"][0]["ok"], true, "{result}");
    assert_eq!(status(&bot, &passport).await, "done");
}

#[actix_rt::test]
async fn an_id_from_the_model_never_settles_which_of_two_tasks_is_meant() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let a = bot.task(json!({"title": "Dingo report A"})).await;
    let b = bot.task(json!({"title": "Dingo report B"})).await;
    let chat = bot.free_thread().await;
    // The model passes A's id for "the dingo report": both tasks fit the person's words.
    fake.proposes(
        "Sure.",
        json!([{"name": "mark_done", "params": {"task": a}}]),
    );
    let result = bot.say_as(&chat, "owner", "the dingo report is done").await;
    assert!(result["pending_plan_id"].is_string(), "{result}");
    assert_eq!(status(&bot, &a).await, "backlog");
    bot.say_as(&chat, "owner", "no").await;
    // The model's words "dingo report": no exact title wins by dropping the "A": Donna asks,
    // naming the action.
    fake.proposes(
        "Sure.",
        json!([{"name": "mark_done", "params": {"task": "dingo report"}}]),
    );
    let asked = bot.say_as(&chat, "owner", "the dingo report is done").await;
    assert_eq!(asked["path"], "clarify", "{asked}");
    assert!(text(&asked).contains("mark done"), "{asked}");
    assert!(text(&asked).contains("Dingo report B"), "{asked}");
    // The pick answers that question: "done" was asked, so it runs.
    let number_of_a = text(&asked)
        .lines()
        .find(|line| line.contains("Dingo report A"))
        .and_then(|line| line.split('.').next())
        .needed()
        .to_string();
    let picked = bot.say_as(&chat, "owner", &number_of_a).await;
    assert_eq!(picked["results"][0]["task_id"], a.as_str(), "{picked}");
    assert_eq!(status(&bot, &a).await, "done");
    assert_eq!(status(&bot, &b).await, "backlog");
}

#[actix_rt::test]
async fn a_pick_runs_only_what_the_first_message_asked_for() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let a = bot.task(json!({"title": "Dingo report A"})).await;
    bot.task(json!({"title": "Dingo report B"})).await;
    let chat = bot.free_thread().await;
    fake.proposes(
        "Sure.",
        json!([{"name": "mark_done", "params": {"task": "dingo report"}}]),
    );
    let asked = bot
        .say_as(&chat, "owner", "how's the dingo report going?")
        .await;
    assert_eq!(asked["path"], "clarify", "{asked}");
    let picked = bot.say_as(&chat, "owner", "1").await;
    assert!(picked["pending_plan_id"].is_string(), "a plan: {picked}");
    assert_eq!(status(&bot, &a).await, "backlog");
}

#[actix_rt::test]
async fn a_pinned_chat_still_needs_the_action_asked_for() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let passport = bot.task(json!({"title": "Renew passport"})).await;
    let pinned = bot.open_thread(json!({"task_id": passport})).await;
    fake.proposes(
        "Sure.",
        json!([{"name": "mark_done", "params": {"task": "passport"}}]),
    );
    let result = bot
        .say_as(&pinned, "owner", "what documents do I need for this?")
        .await;
    assert!(result["pending_plan_id"].is_string(), "{result}");
    assert_eq!(status(&bot, &passport).await, "backlog");
}

#[actix_rt::test]
async fn drafts_and_undo_belong_to_the_person_they_were_made_for() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let a = bot.task(json!({"title": "Dingo report A"})).await;
    bot.task(json!({"title": "Dingo report B"})).await;
    let group = bot.group_thread().await;
    fake.proposes(
        "Sure.",
        json!([{"name": "mark_done", "params": {"task": "dingo report"}}]),
    );
    let asked = bot.say_as(&group, "ann", "the dingo report is done").await;
    assert_eq!(asked["path"], "clarify", "{asked}");
    // Bob's answer is not the answer to Ann's question.
    let bobs = bot.say_as(&group, "bob", "dingo report A").await;
    assert_ne!(
        bobs["results"].get(0).map(|r| r["ok"].clone()),
        Some(json!(true)),
        "{bobs}"
    );
    assert_eq!(status(&bot, &a).await, "backlog");
    // Ann's is.
    let anns = bot.say_as(&group, "ann", "dingo report A").await;
    assert_eq!(anns["results"][0]["ok"], true, "{anns}");
    assert_eq!(status(&bot, &a).await, "done");
    // Bob's "undo" does not revert Ann's action, and says so.
    let bob_undo = bot.say_as(&group, "bob", "undo").await;
    assert_eq!(bob_undo["path"], "unhandled", "{bob_undo}");
    assert_eq!(status(&bot, &a).await, "done");
    let ann_undo = bot.say_as(&group, "ann", "undo").await;
    assert_eq!(ann_undo["path"], "undone", "{ann_undo}");
    assert_eq!(status(&bot, &a).await, "backlog");
}

#[actix_rt::test]
async fn a_pending_question_never_takes_a_command_as_its_answer() {
    let bot = start_bot("").await;
    let chat = bot.free_thread().await;
    // "at 3" is 3am or 3pm: Donna asks.
    let asked = bot
        .say_as(&chat, "owner", "remind me to take the pill at 3")
        .await;
    assert_eq!(asked["path"], "clarify", "{asked}");
    let command = bot
        .say_as(
            &chat,
            "owner",
            "every monday at 9 remind me to water the plants",
        )
        .await;
    assert_eq!(command["path"], "automation_proposed", "{command}");
    let tasks = bot.get("/api/tasks").await.1;
    assert_eq!(
        tasks.as_array().map(Vec::len),
        Some(0),
        "nothing created: {tasks}"
    );
    // The question is still open: its answer still works.
    bot.say_as(&chat, "owner", "no").await;
    let answered = bot.say_as(&chat, "owner", "3pm").await;
    assert_eq!(answered["path"], "task_created", "{answered}");
}

#[actix_rt::test]
async fn a_person_never_sees_what_was_said_or_proposed_in_a_chat_they_are_not_in() {
    use common::fake_llm::planner::{call, question};
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    // The owner's 1:1 chat: a note with a PIN, and a task captured there.
    let private = bot.free_thread().await;
    fake.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
    fake.push_for("chat", out(json!({"reply_to_user": "Noted."})));
    bot.say_as(
        &private,
        "owner",
        "fyi the safe code is 4921, keep it between us",
    )
    .await;
    bot.say_as(
        &private,
        "owner",
        "remind me to call the bank about the 4921 card tomorrow",
    )
    .await;
    // A proposal waiting for the owner there.
    bot.say_as(
        &private,
        "owner",
        "every monday at 9 remind me to water the plants",
    )
    .await;
    // A group chat: Bob asks; the planner searches memory and recalls today.
    let group = bot.group_thread().await;
    fake.push_for("route", question());
    fake.push_for(
        "plan_step",
        call("search_memory", json!({"query": "safe code card"})),
    );
    fake.push_for(
        "plan_step",
        call("recall_context", json!({"aspect": "deadlines"})),
    );
    fake.push_for("plan_step", call("list_tasks", json!({"status": "any"})));
    fake.push_for("chat", out(json!({"reply_to_user": "I don't know."})));
    let asked = bot.say_as(&group, "bob", "what's the safe code?").await;
    assert_eq!(asked["path"], "answer", "{asked}");
    let prompts = [
        fake.messages_of("plan_step", 1),
        fake.messages_of("plan_step", 2),
        fake.messages_of("chat", 1),
    ];
    for prompt in prompts {
        let all: String = prompt.iter().map(|(_, text)| text.as_str()).collect();
        assert!(all.contains("[source: tool"), "{all}");
        assert!(
            !all.contains("4921"),
            "a private note reached Bob's prompt: {all}"
        );
    }
    // "What are you waiting on?" from Bob: not the owner's proposal.
    let waiting = bot.say_as(&group, "bob", "what are you waiting on?").await;
    assert!(!text(&waiting).contains("plants"), "{waiting}");
    assert!(!text(&waiting).contains("in another chat"), "{waiting}");
    // The owner still sees their own, from anywhere they take part in.
    let own = bot
        .say_as(&private, "owner", "what are you waiting on?")
        .await;
    assert!(text(&own).contains("yes or no"), "{own}");
}
