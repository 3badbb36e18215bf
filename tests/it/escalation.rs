//! Escalation to a bigger model (issue 14 item 4; docs/contract.md "Escalation"), with two fake model
//! servers on loopback: the local one says it needs the bigger one, the bigger one answers
//! and reports its usage. What the person would notice: Donna offers the bigger model with its
//! cost and sends nothing before their yes; the yes is used once and only theirs counts; the
//! day's budget is never passed, not even by 20 yeses at once, and survives a restart; a call
//! that failed costs nothing, and one cut off by a restart is never made again.

use crate::common;
use crate::common::TestConfig;
use crate::common::{Fields, Needed};
use donna::config::LlmProvider;

use std::time::Duration;

use common::fake_llm::{out, start_fake_llm, FakeLlm, Script};
use common::{start_bot, start_bot_in, Bot, TestEnv};
use serde_json::{json, Value};

const QUESTION: &str = "what are the tax rules for a freelancer in France?";

fn config(local: &FakeLlm, big: &FakeLlm, extra: &str) -> String {
    format!(
        "{}escalation:\n  base_url: {}\n  model: big-model\n  max_output_tokens: 1000\n{extra}",
        local.config("ollama", "10s", 8),
        big.openai_url()
    )
}

/// The local model routes to chat and says it needs the bigger one.
pub(crate) fn local_needs_help(local: &FakeLlm) {
    local.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
    local.push_for(
        "chat",
        out(
            json!({"reply_to_user": "That one is beyond me.", "needs_escalation": true,
            "escalation_reason": "it needs current tax law"}),
        ),
    );
}

fn big_answers(big: &FakeLlm, text: &str) {
    big.push_for("chat", out(json!({"reply_to_user": text})));
}

async fn spend(bot: &Bot) -> Value {
    bot.get("/api/spend").await.1
}

fn estimate_of(offer: &Value) -> i64 {
    offer["actions"][0]["params"]["estimate_micros"]
        .as_i64()
        .needed()
}

#[actix_rt::test]
async fn an_offer_names_its_cost_sends_nothing_before_yes_and_is_settled_once_from_usage() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "")).await;
    let thread = bot.free_thread().await;
    local_needs_help(&local);
    let offer = bot.say(&thread, QUESTION).await;
    assert_eq!(offer["path"], "escalation_proposed", "{offer}");
    assert!(offer["pending_plan_id"].is_string(), "{offer}");
    let reply = offer["reply"].text();
    assert!(
        reply.contains("bigger model") && reply.contains("$0.0"),
        "{reply}"
    );
    assert!(reply.contains("current tax law"), "{reply}");
    assert_eq!(big.count("chat"), 0, "nothing sent before the yes");
    let before = spend(&bot).await;
    assert_eq!(
        (before["spent_usd"].as_f64(), before["calls"].as_i64()),
        (Some(0.0), Some(0))
    );
    assert_eq!(before["budget_usd"], 2.0);
    // Someone else in the chat cannot say yes for the person who asked.
    let group = bot.group_thread().await;
    local_needs_help(&local);
    let theirs = bot.say_as(&group, "owner", QUESTION).await;
    assert_eq!(theirs["path"], "escalation_proposed", "{theirs}");
    let other = bot.say_as(&group, "someone-else", "yes").await;
    assert_eq!(other["path"], "unhandled", "{other}");
    assert_eq!(big.count("chat"), 0);

    big.set_usage(1_000, 200);
    big_answers(&big, "Here is what French law says, in short.");
    let answered = bot.say(&thread, "yes").await;
    assert_eq!(answered["path"], "escalated", "{answered}");
    assert_eq!(answered["reply"], "Here is what French law says, in short.");
    assert_eq!(big.count("chat"), 1);
    // The bigger model got the question, as the chat room would have asked it.
    let asked = big.messages_of("chat", 0);
    assert_eq!(asked.last().map(|(_, text)| text.as_str()), Some(QUESTION));
    // Settled from the reported usage: 1,000 x $3 + 200 x $15 per million tokens.
    let after = spend(&bot).await;
    assert_eq!(after["spent_usd"], 0.006, "{after}");
    assert_eq!(after["reserved_usd"], 0.0, "{after}");
    assert_eq!(after["calls"], 1, "{after}");
    // Single use: another yes sends nothing.
    let again = bot.say(&thread, "yes").await;
    assert_ne!(again["path"], "escalated", "{again}");
    assert_eq!(big.count("chat"), 1);

    // The budget survives a restart.
    bot.stop().await;
    let again = bot.restart(&config(&local, &big, "")).await;
    assert_eq!(spend(&again).await["spent_usd"], 0.006);
}

#[actix_rt::test]
async fn over_the_budget_nothing_is_offered_and_a_yes_no_longer_affordable_spends_nothing() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    // Room for one call's estimate (about $0.049 with its retry: the chat prompt with the
    // prefix every call shares), not two.
    let bot = start_bot(&config(&local, &big, "  daily_budget_usd: 0.052\n")).await;
    let (first, second) = (bot.free_thread().await, bot.free_thread().await);
    local_needs_help(&local);
    let offer = bot.say(&first, QUESTION).await;
    let estimate = estimate_of(&offer);
    assert!(estimate <= 52_000 && 2 * estimate > 52_000, "{offer}");
    local_needs_help(&local);
    assert_eq!(
        bot.say(&second, QUESTION).await["path"],
        "escalation_proposed"
    );
    // Both say yes while the first call is still out: the second no longer fits.
    big.set_usage(1_000, 200);
    big.push_for(
        "chat",
        Script::Delay(
            Duration::from_millis(500),
            Box::new(out(json!({"reply_to_user": "Answer one."}))),
        ),
    );
    let one = bot.say(&first, "yes");
    let two = async {
        assert!(
            common::eventually(Duration::from_secs(5), || async { big.in_flight() == 1 }).await
        );
        bot.say(&second, "yes").await
    };
    let (one, two) = futures_util::join!(one, two);
    assert_eq!(one["path"], "escalated", "{one}");
    assert_eq!(two["path"], "chat", "{two}");
    assert!(two["reply"].text().contains("budget"), "{two}");
    assert_eq!(big.count("chat"), 1, "the unaffordable yes sent nothing");
    let day = spend(&bot).await;
    assert_eq!(
        (day["spent_usd"].clone(), day["calls"].clone()),
        (json!(0.006), json!(1)),
        "{day}"
    );
    // $0.006 spent + another estimate > $0.052: no offer, the local answer and why.
    local_needs_help(&local);
    let refused = bot.say(&first, QUESTION).await;
    assert_eq!(refused["path"], "chat", "{refused}");
    assert_eq!(refused["pending_plan_id"], Value::Null);
    let reply = refused["reply"].text();
    assert!(
        reply.contains("That one is beyond me.") && reply.contains("budget"),
        "{reply}"
    );
    assert_eq!(big.count("chat"), 1);
}

#[actix_rt::test]
async fn twenty_yeses_at_once_never_pass_the_budget() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "  daily_budget_usd: 0.1\n")).await;
    let mut offers = Vec::new();
    for n in 0..20 {
        let thread = bot.free_thread().await;
        local_needs_help(&local);
        let offer = bot.say(&thread, &format!("{QUESTION} ({n:02})")).await;
        assert_eq!(offer["path"], "escalation_proposed", "{offer}");
        offers.push((thread, estimate_of(&offer)));
    }
    let estimate = offers[0].1;
    assert!(estimate > 0 && offers.iter().all(|(_, e)| *e == estimate));
    // Slow answers: every reservation is made before any call is settled.
    big.always(Script::Delay(
        Duration::from_millis(400),
        Box::new(out(json!({"reply_to_user": "The bigger answer."}))),
    ));
    let yeses = offers.iter().map(|(thread, _)| bot.say(thread, "yes"));
    let results = futures_util::future::join_all(yeses).await;
    let escalated = results.iter().filter(|r| r["path"] == "escalated").count();
    let fits = (100_000 / estimate) as usize;
    assert_eq!(escalated, fits, "exactly what the budget holds");
    assert!(results
        .iter()
        .filter(|r| r["path"] != "escalated")
        .all(|r| r["path"] == "chat"));
    assert_eq!(big.count("chat"), fits);
    let day = spend(&bot).await;
    let total =
        day["spent_usd"].as_f64().unwrap_or(1.0) + day["reserved_usd"].as_f64().unwrap_or(1.0);
    assert!(total <= 0.1, "{day}");
    assert_eq!(day["calls"], fits as i64);
}

#[actix_rt::test]
async fn under_the_auto_approve_threshold_it_is_asked_at_once_and_an_error_costs_nothing() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "  auto_approve_under_usd: 1.0\n")).await;
    let thread = bot.free_thread().await;
    local_needs_help(&local);
    big_answers(&big, "Straight from the bigger model.");
    let answered = bot.say(&thread, QUESTION).await;
    assert_eq!(answered["path"], "escalated", "{answered}");
    assert_eq!(answered["pending_plan_id"], Value::Null);
    // No usage reported: settled at the estimate, never less.
    let day = spend(&bot).await;
    assert!(day["spent_usd"].as_f64().needed() > 0.015, "{day}");
    // An error answer: the failure contract, settled at 0.
    let before = day["spent_usd"].clone();
    local_needs_help(&local);
    big.push_for("chat", Script::Status(500));
    let failed = bot.say(&thread, QUESTION).await;
    assert_eq!(failed["path"], "llm_unavailable", "{failed}");
    let after = spend(&bot).await;
    assert_eq!(
        (after["spent_usd"].clone(), after["reserved_usd"].clone()),
        (before, json!(0.0))
    );
    assert_eq!(after["calls"], 2);
}

#[actix_rt::test]
async fn a_call_cut_off_by_a_restart_is_never_made_again_and_stays_counted() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let extra = "shutdown:\n  grace: 200ms\n";
    let bot = start_bot(&format!("{extra}{}", config(&local, &big, ""))).await;
    let thread = bot.free_thread().await;
    local_needs_help(&local);
    let offer = bot.say(&thread, QUESTION).await;
    let estimate = estimate_of(&offer);
    big.push_for(
        "chat",
        Script::Delay(
            Duration::from_secs(30),
            Box::new(out(json!({"reply_to_user": "late"}))),
        ),
    );
    let base = bot.base.clone();
    let client = bot.client.clone();
    let body = json!({"thread_id": thread, "user_id": "owner", "text": "yes"});
    let pending = actix_rt::spawn(async move {
        client
            .post(format!("{base}/api/messages"))
            .json(&body)
            .send()
            .await
    });
    assert!(
        common::eventually(Duration::from_secs(5), || async { big.in_flight() == 1 }).await,
        "the call started"
    );
    bot.stop().await;
    pending.abort();
    let Bot { dir, app, .. } = bot;
    drop(app);
    let again = start_bot_in(
        dir,
        &format!("{extra}{}", config(&local, &big, "")),
        TestEnv(Vec::new()),
    )
    .await;
    assert_eq!(again.app.recover().await.needed(), 1);
    let path = format!("/api/threads/{thread}/messages");
    let interrupted = || async {
        again.get(&path).await.1.as_array().is_some_and(|messages| {
            messages
                .iter()
                .any(|m| m["text"].text().contains("interrupted"))
        })
    };
    assert!(common::eventually(Duration::from_secs(5), interrupted).await);
    assert_eq!(big.count("chat"), 1, "never asked again");
    let day = spend(&again).await;
    assert_eq!(
        day["reserved_usd"].as_f64(),
        Some(estimate as f64 / 1_000_000.0),
        "{day}"
    );
    assert_eq!(day["calls"], 1);
}

/// The system message of the `title` call number `index` the fake answered.
fn system_of(fake: &FakeLlm, title: &str, index: usize) -> String {
    fake.messages_of(title, index)
        .into_iter()
        .find(|(role, _)| role == "system")
        .map(|(_, content)| content)
        .needed()
}

/// One chat turn and one planner turn against `local`, each answered plainly.
async fn a_chat_and_a_question(bot: &Bot, local: &FakeLlm) {
    let thread = bot.free_thread().await;
    local.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
    local.push_for("chat", out(json!({"reply_to_user": "Rest up."})));
    assert_eq!(bot.say(&thread, "long day today").await["path"], "chat");
    local.push_for(
        "route",
        out(json!({"intent": "question", "confidence": 0.9})),
    );
    local.push_for("plan_step", out(json!({"action": "done"})));
    local.push_for("chat", out(json!({"reply_to_user": "Nothing is due."})));
    assert_eq!(
        bot.say(&thread, "what did I get done last week?").await["path"],
        "answer"
    );
}

/// Issue 29 item 4: a real model can only ask for the bigger one if its prompt says how. With
/// the bigger model configured, the chat room's and the planner's answer prompts describe
/// `needs_escalation` and `escalation_reason`; without it they do not mention it.
#[actix_rt::test]
async fn the_prompts_the_local_model_receives_describe_the_escalation_flag() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "")).await;
    a_chat_and_a_question(&bot, &local).await;
    for index in [0, 1] {
        let system = system_of(&local, "chat", index);
        for words in ["needs_escalation", "escalation_reason", "bigger model"] {
            assert!(
                system.contains(words),
                "chat call {index}: {words}: {system}"
            );
        }
    }

    let plain = start_fake_llm();
    let without = TestConfig::new()
        .with_llm(&plain, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    a_chat_and_a_question(&without, &plain).await;
    for index in [0, 1] {
        let system = system_of(&plain, "chat", index);
        assert!(!system.contains("needs_escalation"), "{system}");
    }
}

/// Issue 29 item 4: the planner's composed answer is read for the flag too (every path that
/// answers with `chat`): it becomes the same offer, and the bigger model itself is not told it
/// could ask for a bigger one.
#[actix_rt::test]
async fn a_planner_answer_that_needs_the_bigger_model_offers_it() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "")).await;
    let thread = bot.free_thread().await;
    local.push_for(
        "route",
        out(json!({"intent": "question", "confidence": 0.9})),
    );
    local.push_for("plan_step", out(json!({"action": "done"})));
    local.push_for(
        "chat",
        out(
            json!({"reply_to_user": "I'm not sure.", "needs_escalation": true,
            "escalation_reason": "it needs current tax law"}),
        ),
    );
    let offer = bot.say(&thread, QUESTION).await;
    assert_eq!(offer["path"], "escalation_proposed", "{offer}");
    assert!(offer["reply"].text().contains("current tax law"), "{offer}");
    assert_eq!(big.count("chat"), 0, "nothing sent before the yes");
    big_answers(&big, "In France, freelancers ...");
    let answered = bot.say(&thread, "yes").await;
    assert_eq!(answered["path"], "escalated", "{answered}");
    let asked = big.messages_of("chat", 0);
    assert_eq!(asked.last().map(|(_, t)| t.as_str()), Some(QUESTION));
    let system = system_of(&big, "chat", 0);
    assert!(!system.contains("needs_escalation"), "{system}");
}

/// Issue 29 item 4: the person can ask for the bigger model in plain words. One row per
/// sentence: Some(None) asks about their previous message, Some(Some(q)) asks q, None is not a
/// request (it goes on to the rules and the model as before).
#[test]
fn asking_for_the_bigger_model_in_words_is_read_and_nothing_else_is() {
    use donna::capture::bigger_model::BiggerModel;
    let read =
        |text: &str| donna::capture::bigger_model::read(&donna::sentence::Sentence::read(text));
    let previous = Some(None);
    let ask = |q: &str| Some(Some(q.to_string()));
    let table: Vec<(&str, Option<Option<String>>)> = vec![
        ("ask the bigger model", previous.clone()),
        ("Ask the bigger model.", previous.clone()),
        ("please ask the bigger model", previous.clone()),
        ("donna, ask the big model about this", previous.clone()),
        ("can you ask the bigger model?", previous.clone()),
        (
            "could you ask a smarter model about that one",
            previous.clone(),
        ),
        ("use the bigger model", previous.clone()),
        ("use the big model for this please", previous.clone()),
        ("try a bigger model", previous.clone()),
        ("ask the more powerful model", previous.clone()),
        ("check with the bigger AI", previous.clone()),
        ("ask the bigger one", previous.clone()),
        ("escalate", previous.clone()),
        ("escalate this", previous.clone()),
        ("escalate to the bigger model", previous.clone()),
        ("think harder", previous.clone()),
        ("think harder about this", previous.clone()),
        ("Think harder about that!", previous.clone()),
        ("can you think harder about it?", previous.clone()),
        ("think more carefully about this", previous.clone()),
        ("ok think about it harder", previous.clone()),
        (
            "ask the bigger model: what are the tax rules for a freelancer in France?",
            ask("what are the tax rules for a freelancer in France?"),
        ),
        (
            "ask the big model what a Roth IRA is",
            ask("what a Roth IRA is"),
        ),
        (
            "ask the bigger model about Spanish inheritance law",
            ask("Spanish inheritance law"),
        ),
        // Must not: negations, reports, questions about it, other people, other thoughts.
        ("don't ask the bigger model", None),
        ("no need to ask the bigger model", None),
        ("never use the big model", None),
        ("I asked the bigger model yesterday", None),
        ("my brother uses a bigger model", None),
        ("should I ask the bigger model?", None),
        ("what does the bigger model cost?", None),
        ("is the bigger model set up?", None),
        ("the bigger model is too expensive", None),
        ("ask mom about the big party", None),
        ("ask the model", None),
        ("use the one from last week", None),
        ("think harder about the essay", None),
        ("I need to think harder about my budget", None),
        ("think about it", None),
        ("remind me to think harder about the essay", None),
        ("add ask the bigger model to my list", None),
        ("escalate the ticket with support", None),
    ];
    for (sentence, expected) in table {
        let read = read(sentence).map(|asked| match asked {
            BiggerModel::Previous => None,
            BiggerModel::Ask(question) => Some(question),
        });
        assert_eq!(read, expected, "{sentence:?}");
    }
}

/// Issue 29 item 4: asked in words, the bigger model is offered for the person's previous
/// question (or the one they named) like any offer: its cost, nothing sent before their yes;
/// not configured, Donna says so and changes nothing.
#[actix_rt::test]
async fn asking_for_the_bigger_model_offers_it_for_the_previous_question() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "")).await;
    let thread = bot.free_thread().await;
    let nothing_yet = bot.say(&thread, "ask the bigger model").await;
    assert_eq!(nothing_yet["path"], "clarify", "{nothing_yet}");
    local.push_for("route", out(json!({"intent": "chat", "confidence": 0.9})));
    local.push_for(
        "chat",
        out(json!({"reply_to_user": "I think it depends on your status."})),
    );
    assert_eq!(bot.say(&thread, QUESTION).await["path"], "chat");
    let offer = bot.say(&thread, "think harder about this").await;
    assert_eq!(offer["path"], "escalation_proposed", "{offer}");
    assert_eq!(
        offer["actions"][0]["params"]["message"], QUESTION,
        "{offer}"
    );
    assert!(offer["reply"].text().contains("$0.0"), "{offer}");
    assert_eq!(big.count("chat"), 0, "nothing sent before the yes");
    big_answers(&big, "For a French micro-entrepreneur, ...");
    let answered = bot.say(&thread, "yes").await;
    assert_eq!(answered["path"], "escalated", "{answered}");
    let asked = big.messages_of("chat", 0);
    assert_eq!(asked.last().map(|(_, t)| t.as_str()), Some(QUESTION));

    let named = bot
        .say(&thread, "ask the bigger model: what is a Roth IRA?")
        .await;
    assert_eq!(named["path"], "escalation_proposed", "{named}");
    assert_eq!(
        named["actions"][0]["params"]["message"],
        "what is a Roth IRA?"
    );
    assert_eq!(local.count("route"), 1, "the rules took every request");

    let plain = start_fake_llm();
    let without = TestConfig::new()
        .with_llm(&plain, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    let there = without.free_thread().await;
    let refused = without.say(&there, "ask the bigger model").await;
    assert_eq!(refused["path"], "unhandled", "{refused}");
    assert!(
        refused["reply"].text().contains("no bigger model set up"),
        "{refused}"
    );
    assert_eq!(plain.requests().len(), 0, "no model was asked");
}

/// Issue 28 item 5: an answer the server returned is billed even when it is not valid; the
/// estimate covers the retry and counts text that is not ASCII generously; an auto-approved
/// offer is one per thread and message, so a client's repeated message id in another thread is
/// another offer.
#[actix_rt::test]
async fn an_invalid_answer_is_settled_at_its_usage_and_the_estimate_covers_the_retry() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "")).await;
    let thread = bot.free_thread().await;
    local_needs_help(&local);
    let offer = bot.say(&thread, QUESTION).await;
    let estimate = estimate_of(&offer);
    big.set_usage(1_000, 200);
    big.push_for("chat", Script::Output("not json at all".into()));
    big.push_for(
        "chat",
        Script::Output("{\"still\": \"not the schema\"}".into()),
    );
    let failed = bot.say(&thread, "yes").await;
    assert_eq!(failed["path"], "llm_unavailable", "{failed}");
    assert_eq!(big.count("chat"), 2, "the first request and its retry");
    let day = spend(&bot).await;
    // Two requests of 1,000 + 200 tokens: 2 x $0.006.
    assert_eq!(day["spent_usd"], 0.012, "{day}");
    assert_eq!(day["reserved_usd"], 0.0, "{day}");
    // What was reserved covered both requests at the most they could take.
    let max_output = 1000.0 * 15.0 / 1e6;
    assert!(
        estimate as f64 / 1e6 >= 2.0 * max_output,
        "estimate {estimate} µ$ does not cover the retry's output"
    );
}

#[actix_rt::test]
async fn text_that_is_not_ascii_is_estimated_at_a_token_a_byte() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "")).await;
    let (ascii_thread, cjk_thread) = (bot.free_thread().await, bot.free_thread().await);
    let ascii = "a".repeat(3000);
    let cjk = "税".repeat(3000);
    local_needs_help(&local);
    let ascii_offer = bot.say(&ascii_thread, &ascii).await;
    local_needs_help(&local);
    let cjk_offer = bot.say(&cjk_thread, &cjk).await;
    // 3,000 ASCII characters are 750 tokens; 3,000 CJK characters 9,000 (3 bytes each): the
    // difference is 8,250 prompt tokens, counted twice (the retry), at $3 per million.
    let difference = estimate_of(&cjk_offer) - estimate_of(&ascii_offer);
    assert!(difference >= 2 * 8_250 * 3, "{difference} µ$: {cjk_offer}");
}

#[actix_rt::test]
async fn the_same_client_message_id_in_two_threads_is_two_auto_approved_offers() {
    let (local, big) = (start_fake_llm(), start_fake_llm());
    let bot = start_bot(&config(&local, &big, "  auto_approve_under_usd: 1.0\n")).await;
    for _ in 0..2 {
        let thread = bot.free_thread().await;
        local_needs_help(&local);
        big_answers(&big, "Straight from the bigger model.");
        let (status, answered) = bot
            .post(
                "/api/messages",
                json!({"thread_id": thread, "user_id": "owner", "text": QUESTION,
                       "message_id": "client-1"}),
            )
            .await;
        assert_eq!(status, 200, "{answered}");
        assert_eq!(answered["path"], "escalated", "{answered}");
    }
    assert_eq!(spend(&bot).await["calls"], 2);
}
