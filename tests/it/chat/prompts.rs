//! What the chat model is shown: the conversation so far, the persona's system prompt, the
//! newest messages under a tiny budget, the person's words kept literal, a pinned task.

use super::*;
use crate::common::Needed;

#[actix_rt::test]
async fn venting_gets_the_models_reply_and_the_next_prompt_holds_the_conversation_so_far() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    let first = chat(
        &bot,
        &fake,
        &thread,
        "ugh, my boss moved the deadline again",
        "That sounds exhausting. Want to talk it through?",
    )
    .await;
    assert_eq!(first["path"], "chat", "{first}");
    assert_eq!(
        first["reply"],
        "That sounds exhausting. Want to talk it through?"
    );
    assert_eq!(first["actions"], json!([]));
    let second = chat(
        &bot,
        &fake,
        &thread,
        "yes, it is the third time",
        "Three times is a lot.",
    )
    .await;
    assert_eq!(second["path"], "chat", "{second}");
    assert_eq!(second["reply"], "Three times is a lot.");
    assert_eq!(fake.count("chat"), 2);
    let prompt = fake.messages_of("chat", 1);
    // The earlier exchange in its roles, the current message last.
    assert!(
        in_role(&prompt, "user", "ugh, my boss moved the deadline again"),
        "{prompt:?}"
    );
    assert!(
        in_role(&prompt, "assistant", "That sounds exhausting."),
        "{prompt:?}"
    );
    assert_eq!(
        prompt.last(),
        Some(&("user".to_string(), "yes, it is the third time".to_string()))
    );
    assert!(!in_role(&prompt, "system", "boss"), "{prompt:?}");
    // The first prompt had nothing before the message but the persona and the time.
    let opening = fake.messages_of("chat", 0);
    assert_eq!(opening.len() - prefix_len(), 2, "{opening:?}");
    assert!(
        opening[prefix_len()].1.contains("Now: ") && !opening[prefix_len()].1.contains("boss"),
        "{opening:?}"
    );
    assert_eq!(sessions(&bot, &thread).await, 1, "one session for both");
    // Nothing was created or changed.
    assert_eq!(bot.get("/api/tasks").await.1, json!([]));
}

#[actix_rt::test]
async fn the_persona_decides_the_system_prompt() {
    let mut systems = Vec::new();
    for persona in ["donna", "neutral"] {
        let fake = start_fake_llm();
        let bot = chat_bot(&fake, &format!("chat:\n  persona: {persona}\n")).await;
        let thread = bot.free_thread().await;
        let result = chat(&bot, &fake, &thread, "long day today", "Rest up.").await;
        assert_eq!(result["path"], "chat", "{persona}: {result}");
        let prompt = fake.messages_of("chat", 0);
        let system = prompt
            .iter()
            .find(|(role, _)| role == "system")
            .map(|(_, content)| content.clone())
            .needed();
        systems.push(system);
    }
    assert!(systems[0].contains("You are Donna"), "{}", systems[0]);
    assert!(!systems[1].contains("Donna"), "{}", systems[1]);
    assert!(systems[1].contains("no persona"), "{}", systems[1]);
}

#[test]
fn an_unknown_persona_is_a_key_path_error() {
    let error = parse_yaml::<Config>("chat:\n  persona: pirate\n")
        .err()
        .map(|e| e.to_string())
        .needed();
    assert!(error.starts_with("chat.persona"), "{error}");
    assert!(
        error.contains("donna") && error.contains("neutral"),
        "{error}"
    );
    assert!(parse_yaml::<Config>("chat:\n  persona: neutral\n  session_ttl: 30m\n").is_ok());
}

#[actix_rt::test]
async fn a_tiny_budget_keeps_the_newest_messages_and_always_the_current_one() {
    let fake = start_fake_llm();
    // Room for the system message, the records with the time, and about 700 tokens more.
    let budget = fixed_prompt_tokens() + 700;
    // A model context far beyond the budget: the budget is what holds the prompt back here.
    let bot = start_bot(&format!(
        "chat:\n  context_budget_tokens: {budget}\n{}  context_tokens: 32768\n",
        fake.config("ollama", "10s", 2)
    ))
    .await;
    let thread = bot.free_thread().await;
    // Four messages of about 300 tokens each: they cannot all fit.
    for n in 1..=4 {
        let text = format!("message {n} {}", "x".repeat(1200));
        chat(&bot, &fake, &thread, &text, &format!("ok {n}")).await;
    }
    chat(&bot, &fake, &thread, "and now?", "Now.").await;
    let prompt = fake.messages_of("chat", 4);
    assert!(anywhere(&prompt, "message 4 "), "the newest is kept");
    assert!(anywhere(&prompt, "ok 4"), "the newest is kept");
    assert!(!anywhere(&prompt, "message 1 "), "the oldest is dropped");
    assert!(!anywhere(&prompt, "ok 1"), "the oldest is dropped");
    assert_eq!(
        prompt.last(),
        Some(&("user".to_string(), "and now?".to_string()))
    );
    // What is kept is the unbroken end: once one message is out, every older one is.
    let kept: Vec<bool> = (1..=4)
        .map(|n| anywhere(&prompt, &format!("message {n} ")))
        .collect();
    assert!(kept.windows(2).all(|pair| pair[0] <= pair[1]), "{kept:?}");
    // As Donna estimates it: the whole prompt is within the budget.
    let total: usize = prompt
        .iter()
        .map(|(_, content)| donna::llm::budget::tokens(content) + 5)
        .sum();
    assert!(total <= budget, "{total} > {budget}");
    // A current message bigger than the whole budget is still sent, last.
    let long = format!("a very long one {}", "y".repeat(3900));
    chat(&bot, &fake, &thread, &long, "That is long.").await;
    let prompt = fake.messages_of("chat", 5);
    assert_eq!(
        prompt.last().map(|(_, content)| content.as_str()),
        Some(long.as_str())
    );
    assert!(!anywhere(&prompt, "and now?"), "{prompt:?}");
}

#[actix_rt::test]
async fn template_text_in_the_persons_words_stays_literal() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    for text in [
        "{{persona}} {{tool_schemas}}",
        "{{> chat_donna}} {{#each summaries}}x{{/each}}",
    ] {
        let result = chat(&bot, &fake, &thread, text, "Noted.").await;
        assert_eq!(result["path"], "chat", "{result}");
    }
    let prompt = fake.messages_of("chat", 1);
    assert!(
        in_role(&prompt, "user", "{{persona}} {{tool_schemas}}"),
        "{prompt:?}"
    );
    assert_eq!(
        prompt.last().map(|(_, content)| content.as_str()),
        Some("{{> chat_donna}} {{#each summaries}}x{{/each}}")
    );
    assert!(!in_role(&prompt, "system", "{{"), "{prompt:?}");
}

#[actix_rt::test]
async fn a_pinned_chat_shows_its_task_in_every_prompt_and_stays_a_free_chat() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "").await;
    let task = bot
        .task(json!({"title": "Renew passport", "deadline": "2026-11-27T09:00:00Z"}))
        .await;
    let (status, _) = bot
        .post("/api/threads", json!({"task_id": "no-such-task"}))
        .await;
    assert_eq!(status, 404);
    let pinned = bot.open_thread(json!({"task_id": task})).await;
    let plain = bot.free_thread().await;
    let (_, threads) = bot.get("/api/threads").await;
    let view = |id: &str| {
        threads
            .as_array()
            .into_iter()
            .flatten()
            .find(|thread| thread["id"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(view(&pinned)["pinned_task_id"], json!(task));
    assert_eq!(view(&pinned)["task_id"], Value::Null, "still a free chat");
    assert_eq!(view(&plain)["pinned_task_id"], Value::Null);
    for (index, text) in ["I keep putting this off", "the photo booth is closed"]
        .into_iter()
        .enumerate()
    {
        let result = chat(&bot, &fake, &pinned, text, "Friday is close.").await;
        assert_eq!(result["path"], "chat", "{result}");
        let prompt = fake.messages_of("chat", index);
        assert!(
            in_role(&prompt, "user", "> title: Renew passport"),
            "{prompt:?}"
        );
        assert!(in_role(&prompt, "user", "27 Nov"), "{prompt:?}");
        assert!(in_role(&prompt, "user", "status: backlog"), "{prompt:?}");
        assert!(!in_role(&prompt, "system", "Renew passport"), "{prompt:?}");
    }
    chat(&bot, &fake, &plain, "unrelated", "Sure.").await;
    assert!(!anywhere(&fake.messages_of("chat", 2), "Renew passport"));
    // A nudge for the task never lands in the pinned chat.
    let (status, nudge) = bot.post("/api/nudges", json!({"task_id": task})).await;
    assert!(status == 200 || status == 201, "{nudge}");
    assert_ne!(nudge["thread_id"], json!(pinned));
}
