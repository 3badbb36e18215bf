//! One model call where `route` already answered for the room (issue 34), with the fake model on
//! loopback answering by schema title. What a person notices: small talk and a plainly asked
//! task are answered after ONE model call instead of two (the slow part of a turn on a local
//! model), with the same answer and the same checks as before; where `route` did not carry the
//! room's answer, or the chat remembers more than `route` was shown, the room's own call is made
//! as before.

use crate::common;
use crate::common::{Fields, Needed};

use common::fake_llm::{out, start_fake_llm, FakeLlm};
use common::{start_bot, Bot};
use serde_json::{json, Value};

async fn bot(fake: &FakeLlm) -> Bot {
    start_bot(&format!(
        "timezone: Europe/Paris\n{}",
        fake.config("ollama", "10s", 2)
    ))
    .await
}

async fn titles(bot: &Bot) -> Vec<String> {
    tasks(bot)
        .await
        .into_iter()
        .map(|(title, _)| title)
        .collect()
}

/// Every task: its title and whether it has a time.
async fn tasks(bot: &Bot) -> Vec<(String, bool)> {
    let (_, list) = bot.get("/api/tasks").await;
    list.as_array()
        .into_iter()
        .flatten()
        .map(|task| {
            let timed = !task["scheduled_start"].is_null() || !task["deadline"].is_null();
            (task["title"].text().to_string(), timed)
        })
        .collect()
}

#[actix_rt::test]
async fn small_talk_that_route_answered_is_one_call_and_stays_in_the_conversation() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let thread = bot.free_thread().await;
    fake.push_for(
        "route",
        out(json!({"intent": "chat", "confidence": 0.9,
                   "reply_to_user": "That sounds like a long week. Want to talk about it?"})),
    );
    let result = bot.say(&thread, "ugh, this week is endless").await;
    assert_eq!(result["path"], "chat", "{result}");
    assert_eq!(
        result["reply"],
        "That sounds like a long week. Want to talk about it?"
    );
    assert_eq!(fake.titles(), vec!["route"], "one call: no chat call");
    assert_eq!(titles(&bot).await, Vec::<String>::new(), "nothing created");
    // The next turn, answered by the chat room (route carries no reply), shows the exchange.
    fake.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
    fake.push_for(
        "chat",
        out(json!({"reply_to_user": "Rest sounds good.", "actions": []})),
    );
    let result = bot.say(&thread, "yes, I need a rest").await;
    assert_eq!(result["reply"], "Rest sounds good.", "{result}");
    let prompt = fake.messages_of("chat", 0);
    assert!(
        prompt.iter().any(|(role, content)| role == "assistant"
            && content == "That sounds like a long week. Want to talk about it?"),
        "the routed reply is part of the session: {prompt:?}"
    );
    assert!(
        prompt
            .iter()
            .any(|(role, content)| role == "user" && content == "ugh, this week is endless"),
        "{prompt:?}"
    );
}

#[actix_rt::test]
async fn route_is_shown_what_the_person_said_before_but_not_donnas_lines() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let thread = bot.free_thread().await;
    fake.push_for(
        "route",
        out(json!({"intent": "chat", "confidence": 0.9,
                   "reply_to_user": "Long week? Want to talk about it?"})),
    );
    bot.say(&thread, "ugh, this week is endless").await;
    fake.push_for(
        "route",
        out(json!({"intent": "chat", "confidence": 0.9,
                   "reply_to_user": "A walk sounds good."})),
    );
    let result = bot.say(&thread, "going for a walk now").await;
    assert_eq!(result["reply"], "A walk sounds good.", "{result}");
    let prompt = fake.messages_of("route", 1);
    let (_, turn) = prompt.last().cloned().needed();
    assert!(
        turn.contains("> User: ugh, this week is endless"),
        "the person's earlier message is shown: {turn}"
    );
    assert!(
        !prompt
            .iter()
            .any(|(_, content)| content.contains("Long week? Want to talk about it?")),
        "Donna's earlier line is not: {prompt:?}"
    );
    assert!(
        turn.trim_end().ends_with("> going for a walk now"),
        "{turn}"
    );
}

#[actix_rt::test]
async fn a_change_to_a_task_asked_in_words_is_task_talk_without_route() {
    // (what the person wrote, whether it asks for a change to one of their tasks)
    let table = [
        ("I finished paying the rent", true),
        ("can you push the dentist to next week", true),
        ("rent's paid btw", true),
        ("scrap the dentist, I'm not going", true),
        ("bump the dentist to 3pm", true),
        ("no need to remind me about the rent anymore", true),
        // Mentions a task, asks for nothing: route's own reply.
        ("ugh, the rent here is insane", false),
        ("what's the deal with the dentist thing?", false),
        ("I'm dreading the dentist", false),
        // Not done, not asked: negated, a question, an intention, someone else's wish.
        ("I haven't paid the rent yet", false),
        ("don't move the dentist", false),
        ("should I move the dentist?", false),
        ("I'll pay the rent tonight", false),
        ("my landlord wants the rent early", false),
        // No task of theirs named.
        ("I finished the book, loved it", false),
        ("the weather is so nice today", false),
    ];
    for (text, a_change) in table {
        let fake = start_fake_llm();
        let bot = bot(&fake).await;
        bot.task(json!({"title": "Pay rent"})).await;
        bot.task(json!({"title": "Dentist appointment"})).await;
        let thread = bot.free_thread().await;
        fake.push_for(
            "route",
            out(json!({"intent": "chat", "confidence": 0.9,
                       "reply_to_user": "Yes, I'll take care of it."})),
        );
        fake.push_for(
            "chat",
            out(json!({"reply_to_user": "Which task do you mean?", "actions": []})),
        );
        let result = bot.say(&thread, text).await;
        assert_eq!(result["path"], "chat", "{text}: {result}");
        assert_eq!(fake.count("chat"), usize::from(a_change), "{text}");
        assert_eq!(
            fake.count("route"),
            usize::from(!a_change),
            "{text}: one call"
        );
        if a_change {
            assert_eq!(result["reply"], "Which task do you mean?", "{text}");
            let prompt = fake.messages_of("chat", 0);
            assert!(
                prompt
                    .iter()
                    .any(|(_, content)| content.contains("Open tasks:")
                        && content.contains("Dentist appointment")),
                "task talk shows the open tasks: {text}: {prompt:?}"
            );
        } else {
            assert_eq!(result["reply"], "Yes, I'll take care of it.", "{text}");
        }
    }
}

/// (what the person wrote, route's answer, the path, the tasks afterwards with whether each has
/// a time, parse_task calls)
type Row = (
    &'static str,
    Value,
    &'static str,
    Vec<(&'static str, bool)>,
    usize,
);

#[actix_rt::test]
async fn a_task_that_route_named_is_captured_without_parse_task_and_checked_the_same() {
    let table: Vec<Row> = vec![
        // Named with its time: captured from route's answer alone.
        (
            "I have to call the dentist tomorrow at 9",
            json!({"intent": "capture", "confidence": 0.9, "title": "Call the dentist",
                   "when": "tomorrow at 9"}),
            "task_created",
            vec![("Call the dentist", true)],
            0,
        ),
        // A title sharing no word with the message is the model's invention: nothing created.
        (
            "what a day honestly",
            json!({"intent": "capture", "confidence": 0.9, "title": "Water the plants"}),
            "clarify",
            vec![],
            0,
        ),
        // A time route made up (the message has none) is not used: the task has no time.
        (
            "I need to renew my passport",
            json!({"intent": "capture", "confidence": 0.9, "title": "Renew my passport",
                   "when": "friday at 5"}),
            "task_created",
            vec![("Renew my passport", false)],
            0,
        ),
        // No title: parse_task reads the task, as before.
        (
            "oh and the car needs new tyres",
            json!({"intent": "capture", "confidence": 0.9}),
            "task_created",
            vec![("Car needs new tyres", false)],
            1,
        ),
    ];
    for (text, route, path, expected, parse_calls) in table {
        let fake = start_fake_llm();
        let bot = bot(&fake).await;
        let thread = bot.free_thread().await;
        fake.push_for("route", out(route));
        fake.push_for(
            "parse_task",
            out(json!({"title": "Car needs new tyres", "confidence": 0.9})),
        );
        let result = bot.say(&thread, text).await;
        assert_eq!(result["path"], path, "{text}: {result}");
        let expected: Vec<(String, bool)> = expected
            .into_iter()
            .map(|(title, timed)| (title.to_string(), timed))
            .collect();
        assert_eq!(tasks(&bot).await, expected, "{text}: {result}");
        assert_eq!(fake.count("parse_task"), parse_calls, "{text}");
    }
}

#[actix_rt::test]
async fn a_chat_about_a_pinned_task_is_answered_by_the_chat_room_which_shows_the_task() {
    let fake = start_fake_llm();
    let bot = bot(&fake).await;
    let task = bot
        .task(json!({"title": "Renew passport", "deadline": "2026-11-27T09:00:00Z"}))
        .await;
    let (_, body) = bot.post("/api/threads", json!({"task_id": task})).await;
    let pinned = body["thread_id"].text().to_string();
    fake.push_for(
        "route",
        out(json!({"intent": "chat", "confidence": 0.9, "reply_to_user": "Hang in there."})),
    );
    fake.push_for(
        "chat",
        out(json!({"reply_to_user": "The photo booth is the first step.", "actions": []})),
    );
    let result = bot.say(&pinned, "I keep putting this off").await;
    assert_eq!(
        result["reply"], "The photo booth is the first step.",
        "{result}"
    );
    assert_eq!(fake.titles(), vec!["route", "chat"]);
    assert!(
        fake.messages_of("chat", 0)
            .iter()
            .any(|(_, content)| content.contains("Renew passport")),
        "the chat room's prompt shows the pinned task"
    );
}

#[actix_rt::test]
async fn a_reply_that_only_echoes_the_person_goes_to_the_chat_room() {
    // (what route's reply is, whether it is copied) after one exchange in which the person
    // said "ugh, long night, barely slept" and Donna "Morning! Want to go through your list?".
    let table = [
        ("my cat knocked over the plant", true), // the person's own words
        ("My cat knocked over the plant!", true), // the same, other case
        ("Ugh, long night, barely slept.", true), // their earlier message
        ("Oh no! Is the plant all right?", false), // written for this message
        // Donna's earlier line, which route is not shown: its own words, used as they are.
        ("Morning! Want to go through your list?", false),
        // One of route's examples: an answer we wrote for such a message, used as it is.
        ("Oh no, I hope she feels better soon.", false),
    ];
    for (reply, copied) in table {
        let fake = start_fake_llm();
        let bot = bot(&fake).await;
        let thread = bot.free_thread().await;
        fake.push_for(
            "route",
            out(json!({"intent": "chat", "confidence": 0.9,
                       "reply_to_user": "Morning! Want to go through your list?"})),
        );
        let first = bot.say(&thread, "ugh, long night, barely slept").await;
        assert_eq!(
            first["reply"], "Morning! Want to go through your list?",
            "{first}"
        );
        fake.push_for(
            "route",
            out(json!({"intent": "chat", "confidence": 0.9, "reply_to_user": reply})),
        );
        fake.push_for(
            "chat",
            out(json!({"reply_to_user": "Oh no, what happened?", "actions": []})),
        );
        let result = bot.say(&thread, "my cat knocked over the plant").await;
        let expected = if copied {
            "Oh no, what happened?"
        } else {
            reply
        };
        assert_eq!(result["reply"], expected, "{reply}: {result}");
        assert_eq!(fake.count("chat"), usize::from(copied), "{reply}");
    }
}
