//! A panic injected into any actor shows in /health as a restart with its message, and the actor
//! keeps serving (the next turn through it succeeds).

use crate::common;
use crate::common::health::actor_in;

use common::{eventually, start_bot, Bot};
use serde_json::Value;
use std::time::Duration;

async fn actor(bot: &Bot, name: &str) -> Value {
    let (_, health) = bot.get("/health").await;
    actor_in(&health, name)
}

async fn restarted_with_message(bot: &Bot, name: &str) {
    let ok = eventually(Duration::from_secs(5), || async {
        let record = actor(bot, name).await;
        record["restarts"].as_u64() == Some(1) && record["state"] == "running"
    })
    .await;
    let record = actor(bot, name).await;
    assert!(ok, "{name}: {record}");
    assert_eq!(
        record["last_failure"]["message"],
        format!("injected fault in {name}"),
        "{record}"
    );
}

#[actix_rt::test]
async fn a_panic_in_any_turn_actor_is_a_restart_in_health_and_the_next_turn_works() {
    let bot = start_bot("").await;
    type Inject = fn(&Bot);
    let actors: [(&str, Inject); 4] = [
        ("fast_path", |bot| bot.app.fast_path.inject_panic_on_nth(1)),
        ("action_executor", |bot| {
            bot.app.executor.inject_panic_on_nth(1)
        }),
        ("store_writer", |bot| {
            bot.app.store.writer().inject_panic_on_nth(1)
        }),
        ("router", |bot| {
            bot.app.intake.router().inject_panic_on_nth(1)
        }),
    ];
    for (name, inject) in actors {
        let (task, thread) = bot.nudged_task(&format!("Task for {name}")).await;
        inject(&bot);
        // The turn that hits the fault fails cleanly (500), and nothing half-happens.
        let (status, _) = bot
            .post(
                "/api/messages",
                serde_json::json!({"thread_id": thread, "user_id": "owner", "text": "done"}),
            )
            .await;
        assert_eq!(status, 500, "{name}");
        restarted_with_message(&bot, name).await;
        assert_eq!(bot.task_json(&task).await["status"], "backlog", "{name}");
        // Same actor, next message: served.
        let result = bot.say(&thread, "done").await;
        assert_eq!(result["path"], "fast", "{name}");
        assert_eq!(bot.task_json(&task).await["status"], "done", "{name}");
    }
    let (status, health) = bot.get("/health").await;
    assert_eq!(status, 200, "{health}");
}

#[actix_rt::test]
async fn a_panic_in_the_schedule_actors_is_a_restart_and_they_keep_answering() {
    let bot = start_bot("").await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    bot.app.memory.inject_panic_on_nth(1);
    // The history read goes through ThreadMemory: the first one fails, the next one works.
    assert_eq!(
        bot.get(&format!("/api/threads/{thread}/messages")).await.0,
        503
    );
    restarted_with_message(&bot, "thread_memory").await;
    let (status, history) = bot.get(&format!("/api/threads/{thread}/messages")).await;
    assert_eq!(status, 200);
    assert_eq!(history.as_array().map(Vec::len), Some(1));

    bot.app.plans.inject_panic_on_nth(1);
    let failed = bot
        .app
        .plans
        .ask(|reply| donna::subsystems::pending_plans::PlansMsg::Sweep { reply: Some(reply) })
        .await;
    assert!(failed.is_err());
    restarted_with_message(&bot, "pending_plans").await;
    let swept = bot
        .app
        .plans
        .ask(|reply| donna::subsystems::pending_plans::PlansMsg::Sweep { reply: Some(reply) })
        .await;
    assert!(matches!(swept, Ok(Ok(0))), "{swept:?}");
}
