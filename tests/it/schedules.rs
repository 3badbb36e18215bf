//! Retention and plan expiry run on their own schedules; the tests move the clock and wait for
//! the schedule to act (no call into the actors).

use crate::common;
use crate::common::health::actor_in;
use crate::common::Fields;

use std::time::Duration as StdDuration;

use chrono::Duration;
use common::{eventually, start_bot, start_bot_in, TestEnv};

const FAST_SCHEDULES: &str = "memory:\n  prune_interval: 50ms\nplans:\n  sweep_interval: 50ms\n";

async fn count(bot: &common::Bot, path: &str) -> usize {
    bot.get(path).await.1.as_array().map_or(0, Vec::len)
}

/// How many messages the actor `name` has handled, from `/health`.
async fn processed(bot: &common::Bot, name: &str) -> u64 {
    let (_, health) = bot.get("/health").await;
    actor_in(&health, name)["processed"]
        .as_u64()
        .unwrap_or_else(|| panic!("no processed count for {name}: {health}"))
}

/// Waits until `name` has finished a whole scheduled run that started after this call: the
/// actor handles one message at a time and counts a message when it is done, so the run in
/// flight now (which may have read the clock before the test moved it) is at most the first
/// increment, and the second is a run that began afterwards and has committed. Nothing else
/// sends these actors messages while the tests wait.
async fn a_whole_run_of(bot: &common::Bot, name: &str) {
    let before = processed(bot, name).await;
    assert!(
        eventually(StdDuration::from_secs(5), || async {
            processed(bot, name).await >= before + 2
        })
        .await,
        "{name} did not run on its schedule"
    );
}

#[actix_rt::test]
async fn the_retention_prune_deletes_old_messages_but_keeps_the_thread_and_its_task() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let bot = start_bot_in(dir, FAST_SCHEDULES, TestEnv(Vec::new())).await;
    let (task, thread) = bot.nudged_task("Pay rent").await;
    bot.say(&thread, "busy").await;
    let path = format!("/api/threads/{thread}/messages");
    assert_eq!(count(&bot, &path).await, 3);
    bot.clock.advance(Duration::days(6));
    // A whole prune with the moved clock has run: the messages are still there because they
    // are within the retention, not because no prune ran yet.
    a_whole_run_of(&bot, "thread_memory").await;
    assert_eq!(
        count(&bot, &path).await,
        3,
        "six days old is within the 7-day retention"
    );
    bot.clock.advance(Duration::days(2));
    assert!(
        eventually(StdDuration::from_secs(5), || async {
            count(&bot, &path).await == 0
        })
        .await,
        "old messages were not pruned"
    );
    // The thread still knows its task: a reply still acts on it.
    let result = bot.say(&thread, "done").await;
    assert_eq!(result["path"], "fast");
    assert_eq!(bot.task_json(&task).await["status"], "done");
}

#[actix_rt::test]
async fn the_expiry_sweep_marks_old_plans_expired() {
    // The shipped intents propose cancel_task for "drop it" (cancel is plan-only).
    let bot = start_bot(FAST_SCHEDULES).await;
    let (_, thread) = bot.nudged_task("Old project").await;
    let proposed = bot.say(&thread, "drop it").await;
    let plan_id = proposed["pending_plan_id"].text().to_string();
    assert!(!plan_id.is_empty(), "{proposed}");
    let status = |bot: &common::Bot| {
        let store = bot.app.store.clone();
        let id = plan_id.clone();
        async move {
            store
                .read(move |conn| donna::conversation::plans::get(conn, &id))
                .await
                .ok()
                .flatten()
                .map(|plan| plan.status)
        }
    };
    // A whole sweep has run since the plan was made, and left it pending.
    a_whole_run_of(&bot, "pending_plans").await;
    assert_eq!(
        status(&bot).await,
        Some(donna::conversation::plans::PlanStatus::Pending)
    );
    bot.clock.advance(Duration::minutes(61));
    assert!(
        eventually(StdDuration::from_secs(5), || async {
            status(&bot).await == Some(donna::conversation::plans::PlanStatus::Expired)
        })
        .await,
        "the sweep did not expire the plan"
    );
    let late = bot.say(&thread, "yes").await;
    assert_eq!(late["path"], "plan_expired");
}
