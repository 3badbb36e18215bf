//! The model layer against a fake model server on loopback (both protocols): prompts, strict
//! validation, plan-and-confirm, the failure contract, isolation and the concurrency cap.

use crate::common;

use std::time::Duration;

use common::fake_llm::{start_fake_llm, FakeLlm, Script};
use common::{eventually, start_bot, Bot};
use serde_json::{json, Value};

async fn bot_with(fake: &FakeLlm, provider: &str) -> Bot {
    start_bot(&fake.config(provider, "5s", 2)).await
}

fn reply(result: &Value) -> &str {
    result["reply"].as_str().unwrap_or_default()
}

/// Everything the model was shown in the last request, as one string.
fn last_prompt(fake: &FakeLlm) -> String {
    fake.requests()
        .last()
        .map(|(_, body)| {
            body["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m["content"].as_str())
                .collect::<Vec<_>>()
                .join("\n---\n")
        })
        .unwrap_or_default()
}

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
    let (path, body) = fake.requests().last().cloned().unwrap_or_default();
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
    let (path, body) = fake.requests().last().cloned().unwrap_or_default();
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
async fn every_failure_mode_apologises_executes_nothing_and_keeps_the_bot_healthy() {
    let fake = start_fake_llm();
    let bot = start_bot(&fake.config("ollama", "300ms", 2)).await;
    let garbage = || Script::Output("{\"actions\": \"all of them\"".into());
    let no_reply = || Script::Output(json!({"actions": [], "reasoning": "x"}).to_string());
    let modes: Vec<(&str, Vec<Script>)> = vec![
        (
            "timeout",
            vec![Script::Delay(
                Duration::from_secs(2),
                Box::new(Script::answer(json!([]), "late")),
            )],
        ),
        ("http 500", vec![Script::Status(500)]),
        ("garbage twice", vec![garbage(), garbage()]),
        ("schema-violating twice", vec![no_reply(), no_reply()]),
        (
            "empty twice",
            vec![Script::Output(String::new()), Script::Output(String::new())],
        ),
        ("ten thousand actions twice", {
            let many = json!({"actions": vec![json!({"name": "mark_done", "params": {}}); 10_000], "reply_to_user": "x", "reasoning": ""}).to_string();
            vec![Script::Output(many.clone()), Script::Output(many)]
        }),
    ];
    for (mode, scripts) in modes {
        let (task, thread) = bot.nudged_task(&format!("Task {mode}")).await;
        for script in scripts {
            fake.push(script);
        }
        let result = bot.say(&thread, "hmm, about that one").await;
        assert_eq!(result["path"], "llm_unavailable", "{mode}: {result}");
        assert!(reply(&result).starts_with("Sorry"), "{mode}");
        assert_eq!(result["actions"], json!([]), "{mode}");
        assert_eq!(bot.task_json(&task).await["status"], "backlog", "{mode}");
        // The thread stays usable and the FastPath works while the model is down.
        let done = bot.say(&thread, "done").await;
        assert_eq!(done["path"], "fast", "{mode}");
    }
    let (status, health) = bot.get("/health").await;
    assert_eq!(status, 200, "{health}");
    let record = health["actors"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| a["name"] == "llm_classifier")
        .cloned()
        .unwrap_or_default();
    assert_eq!(record["state"], "running");
    assert!(
        record["last_failure"]["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("model call failed"),
        "{record}"
    );
    let metrics = bot.metrics_text().await;
    assert!(
        metrics.contains("donna_turn_duration_seconds_count{path=\"llm_unavailable\"} 6"),
        "{metrics}"
    );
    assert!(
        metrics.contains("donna_llm_failures_total{kind=\"timeout\"} 1"),
        "{metrics}"
    );
}

#[actix_rt::test]
async fn a_refused_connection_apologises() {
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"));
    let bot = start_bot(&format!(
        "llm:\n  provider: openai\n  base_url: http://127.0.0.1:{closed_port}/v1\n"
    ))
    .await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    let result = bot.say(&thread, "hmm, about that one").await;
    assert_eq!(result["path"], "llm_unavailable");
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
}

#[actix_rt::test]
async fn a_thirty_second_model_call_does_not_delay_a_fast_reply_on_another_thread() {
    let fake = start_fake_llm();
    let bot = start_bot(&fake.config("ollama", "60s", 2)).await;
    fake.push(Script::Delay(
        Duration::from_secs(30),
        Box::new(Script::answer(json!([]), "finally")),
    ));
    let (_, slow_thread) = bot.nudged_task("Slow").await;
    let (fast_task, fast_thread) = bot.nudged_task("Fast").await;
    let slow_body = json!({"thread_id": slow_thread, "user_id": "owner", "text": "tell me more about this one"});
    let slow = bot
        .client
        .post(format!("{}/api/messages", bot.base))
        .json(&slow_body)
        .send();
    let slow = actix_rt::spawn(slow);
    assert!(eventually(Duration::from_secs(5), || async { fake.in_flight() == 1 }).await);
    let fast = bot.say(&fast_thread, "done").await;
    assert_eq!(fast["path"], "fast");
    assert_eq!(bot.task_json(&fast_task).await["status"], "done");
    // The order of events: the fast reply completed while the slow call is still in flight.
    assert_eq!(fake.in_flight(), 1);
    assert!(!slow.is_finished());
    slow.abort();
}

#[actix_rt::test]
async fn with_a_hundred_model_bound_messages_at_once_the_calls_in_flight_peak_at_the_cap() {
    let fake = start_fake_llm();
    fake.always(Script::Delay(
        Duration::from_millis(40),
        Box::new(Script::answer(json!([]), "ok")),
    ));
    let bot = start_bot(&fake.config("ollama", "30s", 3)).await;
    let mut threads = Vec::new();
    for i in 0..100 {
        threads.push(bot.nudged_task(&format!("Task {i}")).await.1);
    }
    let sends = threads.iter().map(|thread| {
        bot.client
            .post(format!("{}/api/messages", bot.base))
            .json(&json!({"thread_id": thread, "user_id": "owner", "text": "tell me about it"}))
            .send()
    });
    let responses = futures_util::future::join_all(sends).await;
    let ok = responses
        .into_iter()
        .filter(|r| {
            r.as_ref()
                .map(|r| r.status().as_u16() == 200)
                .unwrap_or(false)
        })
        .count();
    assert_eq!(ok, 100);
    assert_eq!(fake.requests().len(), 100);
    assert_eq!(
        fake.peak(),
        3,
        "peak calls in flight must equal llm.max_concurrency"
    );
    assert_eq!(
        bot.app
            .llm_metrics
            .peak_in_flight
            .load(std::sync::atomic::Ordering::Relaxed),
        3
    );
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

#[actix_rt::test]
async fn a_yes_sent_while_donna_was_thinking_up_a_new_plan_does_not_confirm_it() {
    let fake = start_fake_llm();
    let bot = start_bot(&fake.config("ollama", "10s", 2)).await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::answer(
        json!([{"name": "reschedule", "params": {"when": "friday 9am"}}]),
        "Friday then?",
    ));
    let first = bot.say(&thread, "can we do friday instead").await;
    assert!(first["pending_plan_id"].is_string(), "{first}");
    // The next message takes the model 1.5 s; it proposes cancelling the task (replacing the
    // first plan). Meanwhile the person says "yes", meaning the Friday plan.
    fake.push(Script::Delay(
        Duration::from_millis(1_500),
        Box::new(Script::answer(
            json!([{"name": "cancel_task", "params": {}}]),
            "Shall I drop it?",
        )),
    ));
    let slow = bot.say(
        &thread,
        "thinking about it more, this whole thing is obsolete now",
    );
    let yes = async {
        assert!(eventually(Duration::from_secs(5), || async { fake.in_flight() == 1 }).await);
        bot.say(&thread, "yes").await
    };
    let (second, yes) = futures_util::join!(slow, yes);
    let newer = second["pending_plan_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!newer.is_empty(), "{second}");
    assert_eq!(yes["path"], "plan_expired", "{yes}");
    assert_eq!(yes["pending_plan_id"], newer.as_str(), "{yes}");
    assert!(reply(&yes).contains("cancel 'Pay rent'"), "{yes}");
    assert_eq!(yes["actions"], json!([]), "{yes}");
    assert_eq!(
        bot.task_json(&task).await["status"],
        "backlog",
        "nothing ran"
    );
    // The newer plan still waits; a yes sent after it was proposed confirms it.
    let confirmed = bot.say(&thread, "yes").await;
    assert_eq!(confirmed["path"], "plan_confirmed", "{confirmed}");
    assert_eq!(bot.task_json(&task).await["status"], "cancelled");
}

#[actix_rt::test]
async fn a_plan_expires_plans_expiry_after_it_was_proposed_not_after_the_model_was_asked() {
    let fake = start_fake_llm();
    let bot = start_bot(&fake.config("ollama", "10s", 2)).await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::Delay(
        Duration::from_millis(800),
        Box::new(Script::answer(
            json!([{"name": "reschedule", "params": {"when": "friday 9am"}}]),
            "Friday then?",
        )),
    ));
    let proposed = bot.say(&thread, "can we do friday instead");
    let thinking = async {
        assert!(eventually(Duration::from_secs(5), || async { fake.in_flight() == 1 }).await);
        // The model thinks for ten minutes of the clock.
        bot.clock.advance(chrono::Duration::minutes(10));
    };
    let (proposed, ()) = futures_util::join!(proposed, thinking);
    let id = proposed["pending_plan_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let plan = bot
        .app
        .store
        .read(move |conn| donna::conversation::plans::get(conn, &id))
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no plan: {proposed}"));
    let proposed_at = common::monday_10am() + chrono::Duration::minutes(10);
    assert_eq!(plan.created_at, proposed_at);
    assert_eq!(plan.expires_at, proposed_at + chrono::Duration::minutes(60));
}

#[actix_rt::test]
async fn an_endless_model_answer_is_cut_off_at_64_kib_and_the_turn_apologises_at_once() {
    const FULL_BODY: usize = 50 * 1024 * 1024;
    let fake = start_fake_llm();
    // 64 KiB every 20 ms: the whole body would take 16 s, longer than llm.timeout (10 s).
    fake.push(Script::Stream {
        chunk: 64 * 1024,
        every: Duration::from_millis(20),
        total: FULL_BODY,
    });
    let bot = start_bot(&fake.config("ollama", "10s", 2)).await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    let started = std::time::Instant::now();
    let result = bot.say(&thread, "hmm, about that one").await;
    let took = started.elapsed();
    assert_eq!(result["path"], "llm_unavailable", "{result}");
    assert!(reply(&result).starts_with("Sorry"), "{result}");
    assert_eq!(result["actions"], json!([]));
    // Well under llm.timeout (10 s): the turn did not wait for the body to end or time out
    // (the byte count below is the proof that does not depend on the machine's load).
    assert!(
        took < Duration::from_secs(8),
        "the turn took {took:?}: the client read on instead of stopping at 64 KiB"
    );
    // The client hung up: the fake's body ended early, after far less than the whole body
    // (what the kernel's socket buffers took in is all that went out beyond the bound).
    assert!(
        eventually(Duration::from_secs(5), || async {
            !fake.stream_ends().is_empty()
        })
        .await,
        "the stream never ended"
    );
    let end = fake.stream_ends()[0];
    assert!(!end.complete, "{end:?}");
    assert!(end.sent < 8 * 1024 * 1024, "{end:?}");
    // A server that sends too much is not asked again.
    assert_eq!(fake.requests().len(), 1);
    assert_eq!(bot.task_json(&task).await["status"], "backlog");
    let (status, _) = bot.get("/health").await;
    assert_eq!(status, 200);
    let metrics = bot.metrics_text().await;
    assert!(
        metrics.contains("donna_llm_failures_total{kind=\"too_large\"} 1"),
        "{metrics}"
    );
}

/// Issue 29 item 6: fields the model adds beyond the answer's own are ignored (at the top and
/// inside an action), so an answer that is otherwise right costs no retry; a missing required
/// field still does.
#[actix_rt::test]
async fn unknown_fields_in_the_models_answer_are_ignored_and_cost_no_retry() {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama").await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::Output(
        json!({
            "actions": [{"name": "mark_done", "params": {}, "why": "they paid"}],
            "reply_to_user": "Glad it's paid!",
            "reasoning": "the person says they paid",
            "confidence": 0.93,
            "intent": "mark_done"
        })
        .to_string(),
    ));
    let proposed = bot
        .say(
            &thread,
            "I paid it this morning, but the receipt is missing",
        )
        .await;
    assert_eq!(proposed["path"], "llm", "{proposed}");
    assert_eq!(proposed["actions"][0]["name"], "mark_done", "{proposed}");
    assert!(
        reply(&proposed).starts_with("Glad it's paid!"),
        "{proposed}"
    );
    assert_eq!(fake.requests().len(), 1, "an extra field cost a retry");
    assert_eq!(bot.say(&thread, "yes").await["path"], "plan_confirmed");
    assert_eq!(bot.task_json(&task).await["status"], "done");

    // Still invalid: a required field missing (one retry, then the apology).
    fake.push(Script::Output(
        json!({"actions": [], "confidence": 0.9}).to_string(),
    ));
    fake.push(Script::Output(
        json!({"actions": [], "confidence": 0.9}).to_string(),
    ));
    let (_, other) = bot.nudged_task("Call the bank").await;
    let failed = bot.say(&other, "hmm, about the bank thing").await;
    assert_eq!(failed["path"], "llm_unavailable", "{failed}");
    assert_eq!(fake.requests().len(), 3, "one retry for a missing field");
}

/// Issue 29 item 7: a task the model proposes in a nudge thread goes through the same duplicate
/// check and learned preferences as any other new task (all but `POST /api/tasks` and
/// automation instances): the proposal says it looks like an open task, and the task it creates
/// gets the learned domain and priority, listed on it and said.
#[actix_rt::test]
async fn a_task_the_model_proposes_in_a_nudge_thread_gets_the_duplicate_check_and_learned_preferences(
) {
    let fake = start_fake_llm();
    let bot = bot_with(&fake, "ollama").await;
    // Learned: a report is work, priority 1 (corrected within a day of capturing it).
    let free = bot.free_thread().await;
    let first = bot.say(&free, "add send weekly report").await;
    let weekly = first["results"][0]["task_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let (status, _) = bot
        .patch(
            &format!("/api/tasks/{weekly}"),
            json!({"domain": "work", "priority": 1}),
        )
        .await;
    assert_eq!(status, 200);

    let (_, thread) = bot.nudged_task("Pay rent").await;
    fake.push(Script::answer(
        json!([{"name": "create_task", "params": {"title": "Send monthly report"}}]),
        "I'll add it.",
    ));
    let proposed = bot
        .say(
            &thread,
            "not yet, but add a task to send the monthly report",
        )
        .await;
    assert_eq!(proposed["path"], "llm", "{proposed}");
    // The proposal shows the action's own parameters, never Donna's bookkeeping (where the task
    // comes from, which preferences filled it): the person is asked about what they can see.
    let shown: Vec<&str> = proposed["actions"][0]["params"]
        .as_object()
        .map(|params| params.keys().map(String::as_str).collect())
        .unwrap_or_default();
    for own in ["source", "applied_preferences", "origin_thread_id"] {
        assert!(!shown.contains(&own), "{own} shown: {proposed}");
    }
    assert!(shown.contains(&"title"), "{proposed}");
    let confirmed = bot.say(&thread, "yes").await;
    assert_eq!(confirmed["path"], "plan_confirmed", "{confirmed}");
    assert!(
        reply(&confirmed).contains("filed under work"),
        "{confirmed}"
    );
    let id = confirmed["results"][0]["task_id"]
        .as_str()
        .unwrap_or_default();
    let task = bot.task_json(id).await;
    assert_eq!(task["title"], "Send monthly report");
    assert_eq!(task["source"], "chat");
    assert_eq!(task["domain"], "work", "{task}");
    assert_eq!(task["priority"], 1, "{task}");
    assert_eq!(
        task["applied_preferences"].as_array().map(Vec::len),
        Some(2),
        "{task}"
    );

    // A field the model gave is kept as given.
    fake.push(Script::answer(
        json!([{"name": "create_task", "params": {"title": "Send yearly report", "domain": "family"}}]),
        "Adding it.",
    ));
    bot.say(&thread, "also add a task to send the yearly report")
        .await;
    let confirmed = bot.say(&thread, "yes").await;
    let id = confirmed["results"][0]["task_id"]
        .as_str()
        .unwrap_or_default();
    let task = bot.task_json(id).await;
    assert_eq!(
        (task["domain"].as_str(), task["priority"].as_i64()),
        (Some("family"), Some(1))
    );

    // A likely duplicate of an open task is said in the proposal; yes still adds another.
    fake.push(Script::answer(
        json!([{"name": "create_task", "params": {"title": "Send the weekly report"}}]),
        "Adding it.",
    ));
    let (_, other) = bot.nudged_task("Call the bank").await;
    let proposed = bot
        .say(&other, "also add a task to send the weekly report")
        .await;
    assert_eq!(proposed["path"], "llm", "{proposed}");
    assert!(
        reply(&proposed).contains("You already have 'Send weekly report'"),
        "{proposed}"
    );
    assert_eq!(bot.say(&other, "yes").await["path"], "plan_confirmed");
    let (_, all) = bot.get("/api/tasks").await;
    let weekly_reports = all
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| {
            t["title"]
                .as_str()
                .is_some_and(|title| title.to_lowercase().contains("weekly report"))
        })
        .count();
    assert_eq!(weekly_reports, 2, "{all}");
}
