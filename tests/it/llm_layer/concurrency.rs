//! Isolation and the concurrency cap: a slow call delays no other thread, calls in flight peak
//! at the cap, and a yes or an expiry racing a new plan.

use super::*;
use crate::common::Fields;
use crate::common::TestConfig;
use donna::config::LlmProvider;

#[actix_rt::test]
async fn a_thirty_second_model_call_does_not_delay_a_fast_reply_on_another_thread() {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 60, 2)
        .start()
        .await;
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
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 30, 3)
        .start()
        .await;
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
async fn a_yes_sent_while_donna_was_thinking_up_a_new_plan_does_not_confirm_it() {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
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
    let newer = second["pending_plan_id"].text().to_string();
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
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
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
    let id = proposed["pending_plan_id"].text().to_string();
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
