//! `POST /api/web/act`, the page's changes to a task, over HTTP: an act the page could not mean
//! is refused with a reason before anything is recorded, a chosen time is read in the page's
//! person's zone, and a time already behind us is said, never used.

use crate::common;

use common::page::NEW_YORK;
use common::{start_bot, Bot, Fields};
use serde_json::{json, Value};

#[actix_rt::test]
async fn an_act_the_page_could_not_mean_is_refused_and_changes_nothing() {
    let bot = start_bot(NEW_YORK).await;
    let rent = bot.task(json!({ "title": "Pay rent" })).await;
    let closed = bot.task(json!({ "title": "Old chore" })).await;
    bot.patch(&format!("/api/tasks/{closed}"), json!({ "status": "done" }))
        .await;
    let before = bot.task_json(&rent).await;
    // (the body, its status, words the error must say)
    let table = [
        (
            json!({ "task_id": rent, "intent": "launch" }),
            400,
            "unknown variant",
        ),
        (json!({ "intent": "done" }), 400, "done needs task_id"),
        (
            json!({ "task_id": rent, "intent": "reschedule" }),
            400,
            "reschedule needs when",
        ),
        (
            json!({ "task_id": rent, "intent": "rename" }),
            400,
            "rename needs title",
        ),
        (
            json!({ "task_id": rent, "intent": "done", "when": "2026-12-01T09:00" }),
            400,
            "when is not taken by done",
        ),
        (
            json!({ "task_id": rent, "intent": "snooze", "title": "x" }),
            400,
            "title is not taken by snooze",
        ),
        (
            json!({ "task_id": rent, "intent": "reschedule", "when": "next blursday" }),
            400,
            "when",
        ),
        (
            json!({ "task_id": rent, "intent": "reschedule", "when": "2026-03-08T02:30" }),
            400,
            "clock change",
        ),
        (
            json!({ "task_id": rent, "intent": "rename", "title": "   " }),
            400,
            "title must not be empty",
        ),
        (
            json!({ "task_id": rent, "intent": "rename", "title": "x".repeat(201) }),
            400,
            "at most 200",
        ),
        (
            json!({ "task_id": rent, "intent": "undo" }),
            400,
            "undo takes back the page's last change",
        ),
        (
            json!({ "task_id": rent, "intent": "done", "plan_id": "pln_1" }),
            400,
            "unknown field",
        ),
        (
            json!({ "task_id": "tsk_nope", "intent": "done" }),
            404,
            "no task tsk_nope",
        ),
        (
            json!({ "task_id": closed, "intent": "snooze" }),
            409,
            "done already",
        ),
    ];
    for (body, status, says) in table {
        let (got, answer) = bot.post("/api/web/act", body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
        let error = answer["error"].text();
        assert!(
            error.contains(says),
            "{body}: {error:?} should say {says:?}"
        );
    }
    assert_eq!(bot.task_json(&rent).await, before, "nothing changed");
    let (status, _) = bot.get("/api/threads/web/messages").await;
    assert_eq!(status, 404, "not even the page's chat was opened");
}

/// The page moves `task` to `when` (`POST /api/web/act`): (status, answer).
async fn reschedule(bot: &Bot, task: &str, when: &str) -> (u16, Value) {
    bot.post(
        "/api/web/act",
        json!({ "task_id": task, "intent": "reschedule", "when": when }),
    )
    .await
}

#[actix_rt::test]
async fn a_chosen_time_is_read_in_the_persons_zone_and_one_behind_us_is_said_not_used() {
    let bot = start_bot(NEW_YORK).await;
    let rent = bot.task(json!({ "title": "Pay rent" })).await;
    // Now is Monday 05:00 in New York: 04:00 today has passed.
    let (status, passed) = reschedule(&bot, &rent, "2026-11-23T04:00").await;
    assert_eq!(status, 200, "{passed}");
    assert_eq!(passed["path"], "clarify", "{passed}");
    assert!(
        passed["reply"]
            .as_str()
            .is_some_and(|reply| reply.contains("already passed") && reply.contains("stays")),
        "{passed}"
    );
    assert!(bot.task_json(&rent).await["scheduled_start"].is_null());
    // A local time is the person's wall time; an instant with an offset is that instant.
    for (when, shown) in [
        ("2026-12-01T15:00", "2026-12-01T15:00:00-05:00"),
        ("2026-12-02T09:30:00+01:00", "2026-12-02T03:30:00-05:00"),
    ] {
        let (status, moved) = reschedule(&bot, &rent, when).await;
        assert_eq!(status, 200, "{moved}");
        assert_eq!(moved["path"], "fast", "{moved}");
        assert_eq!(bot.task_json(&rent).await["scheduled_start"], shown);
    }
    // Set to another zone, the same wall time is another instant.
    let (status, _) = bot
        .put_person("web", json!({ "timezone": "Europe/Paris" }))
        .await;
    assert_eq!(status, 200);
    let (status, moved) = reschedule(&bot, &rent, "2026-12-01T15:00").await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(
        bot.task_json(&rent).await["scheduled_start"],
        "2026-12-01T09:00:00-05:00"
    );
    assert_eq!(
        bot.said_in("web", "user").await,
        [
            "move it to 2026-11-23 04:00",
            "move it to 2026-12-01 15:00",
            "move it to 2026-12-02 03:30",
            "move it to 2026-12-01 15:00"
        ]
    );
}
