//! The HTTP contract of docs/contract.md: status codes, the token and Host rules, the body limit, and
//! the shapes of /health and /metrics. Every refused request must change nothing.

use crate::common;
use crate::common::health::{actor_in, assert_every_actor_listed};
use crate::common::{Fields, Needed};

use common::{start_bot, start_bot_with, TestEnv};
use serde_json::{json, Value};

async fn message_count(bot: &common::Bot, thread: &str) -> usize {
    let (_, history) = bot.get(&format!("/api/threads/{thread}/messages")).await;
    history.as_array().map_or(0, Vec::len)
}

#[actix_rt::test]
async fn health_lists_every_actor_and_is_ok_on_a_fresh_start() {
    let bot = start_bot("").await;
    let (status, health) = bot.get("/health").await;
    assert_eq!(status, 200);
    assert_eq!(health["status"], "ok");
    assert_every_actor_listed(&health);
    let gateway = actor_in(&health, "discord_gateway");
    assert_eq!(gateway["state"], "disabled");
    for field in [
        "restarts",
        "last_failure",
        "queue_depth",
        "processed",
        "in_flight_ms",
    ] {
        assert!(gateway.get(field).is_some(), "{field} missing");
    }
    assert_eq!(health["conversations"], json!({"live": 0, "passivated": 0}));
    assert_eq!(health["dead_letters"], 0);
}

#[actix_rt::test]
async fn metrics_count_turns_per_path() {
    let bot = start_bot("").await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    bot.say(&thread, "done").await;
    bot.say(&thread, "hmm").await;
    let response = bot
        .client
        .get(format!("{}/metrics", bot.base))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(response.status().as_u16(), 200);
    let body = response.text().await.needed();
    assert!(
        body.contains("donna_turn_duration_seconds_count{path=\"fast\"} 1"),
        "{body}"
    );
    assert!(
        body.contains("donna_turn_duration_seconds_count{path=\"unhandled\"} 1"),
        "{body}"
    );
    assert!(
        body.contains("donna_actor_running{actor=\"fast_path\"} 1"),
        "{body}"
    );
    assert!(body.contains("donna_up 1"), "{body}");
}

#[actix_rt::test]
async fn bad_message_input_gets_400_and_records_nothing() {
    let bot = start_bot("").await;
    let (_, thread) = bot.nudged_task("Pay rent").await;
    let before = message_count(&bot, &thread).await;
    let long = "a".repeat(4_001);
    let cases = [
        json!({"thread_id": thread, "user_id": "owner", "text": ""}),
        json!({"thread_id": thread, "user_id": "owner", "text": "   \n "}),
        json!({"thread_id": thread, "user_id": "owner", "text": long}),
        json!({"thread_id": thread, "user_id": "owner", "text": "done\u{0007}"}),
        json!({"thread_id": thread, "user_id": "owner", "text": 5}),
        json!({"thread_id": thread, "text": "done"}),
        json!({"thread_id": thread, "user_id": "", "text": "done"}),
        json!({"thread_id": thread, "user_id": "owner", "text": "done", "extra": true}),
        json!([1, 2, 3]),
    ];
    for body in cases {
        let (status, answer) = bot.post("/api/messages", body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{answer}"
        );
    }
    // 4,000 characters exactly is accepted.
    let (status, _) = bot
        .post(
            "/api/messages",
            json!({"thread_id": thread, "user_id": "owner", "text": "a".repeat(4_000)}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(message_count(&bot, &thread).await, before + 2);
}

#[actix_rt::test]
async fn malformed_bodies_get_400_oversized_ones_413() {
    let bot = start_bot("").await;
    let url = format!("{}/api/messages", bot.base);
    let send = |body: Vec<u8>| {
        bot.client
            .post(url.clone())
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let not_json = send(b"{not json".to_vec())
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    assert_eq!(not_json, 400);
    let invalid_utf8 = send(vec![b'{', b'"', 0xff, 0xfe, b'"', b'}'])
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    assert_eq!(invalid_utf8, 400);
    let nested = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep = send(nested.into_bytes())
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    assert_eq!(deep, 400);
    let huge = format!("{{\"text\": \"{}\"}}", "a".repeat(70 * 1024));
    let too_large = send(huge.into_bytes())
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    assert_eq!(too_large, 413);
}

#[actix_rt::test]
async fn unknown_things_get_404() {
    let bot = start_bot("").await;
    let (status, _) = bot
        .post(
            "/api/messages",
            json!({"thread_id": "thr_nope", "user_id": "owner", "text": "done"}),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(bot.get("/api/tasks/tsk_nope").await.0, 404);
    assert_eq!(
        bot.patch("/api/tasks/tsk_nope", json!({"title": "x"}))
            .await
            .0,
        404
    );
    assert_eq!(bot.get("/api/threads/thr_nope/messages").await.0, 404);
    assert_eq!(
        bot.post("/api/nudges", json!({"task_id": "tsk_nope"}))
            .await
            .0,
        404
    );
    assert_eq!(bot.get("/nowhere").await.0, 404);
    // Nothing was recorded for the unknown thread.
    let (_, threads) = bot.get("/api/threads").await;
    assert_eq!(threads, json!([]));
}

#[actix_rt::test]
async fn task_edits_follow_the_state_machine_with_409() {
    let bot = start_bot("").await;
    let task = bot
        .task(json!({"title": "Pay rent", "priority": 1, "domain": "family"}))
        .await;
    let (status, shown) = bot
        .patch(
            &format!("/api/tasks/{task}"),
            json!({"status": "cancelled"}),
        )
        .await;
    assert_eq!(status, 200, "{shown}");
    let (status, refused) = bot
        .patch(&format!("/api/tasks/{task}"), json!({"status": "done"}))
        .await;
    assert_eq!(status, 409, "{refused}");
    assert!(refused["error"].text().contains("cancelled"));
    // A refused edit changes nothing, including fields sent along with it.
    let (status, _) = bot
        .patch(
            &format!("/api/tasks/{task}"),
            json!({"status": "scheduled", "title": "Renamed"}),
        )
        .await;
    assert_eq!(status, 409);
    let task_now = bot.task_json(&task).await;
    assert_eq!(task_now["title"], "Pay rent");
    assert_eq!(task_now["status"], "cancelled");
    let (status, restored) = bot
        .patch(
            &format!("/api/tasks/{task}"),
            json!({"status": "backlog", "description": "monthly"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(restored["description"], "monthly");
    let (status, cleared) = bot
        .patch(&format!("/api/tasks/{task}"), json!({"description": null}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(cleared["description"], Value::Null);
}

#[actix_rt::test]
async fn task_input_is_validated() {
    let bot = start_bot("").await;
    for body in [
        json!({}),
        json!({"title": ""}),
        json!({"title": "x", "priority": 9}),
        json!({"title": "x", "domain": "space"}),
        json!({"title": "x", "deadline": "next tuesday"}),
        json!({"title": "x", "estimated_duration_minutes": -5}),
        json!({"title": 7}),
    ] {
        let (status, answer) = bot.post("/api/tasks", body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
    }
    assert_eq!(bot.get("/api/tasks?status=finished").await.0, 400);
    let (_, tasks) = bot.get("/api/tasks").await;
    assert_eq!(tasks, json!([]));
}

#[actix_rt::test]
async fn tasks_list_and_filter_by_status() {
    let bot = start_bot("").await;
    let a = bot.task(json!({"title": "A"})).await;
    let b = bot
        .task(json!({"title": "B", "scheduled_start": "2026-11-24T09:00:00Z"}))
        .await;
    let (_, scheduled) = bot.get("/api/tasks?status=scheduled").await;
    assert_eq!(scheduled.as_array().map(Vec::len), Some(1));
    assert_eq!(scheduled[0]["id"], b);
    let (_, all) = bot.get("/api/tasks").await;
    let ids: Vec<&str> = all
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert!(ids.contains(&a.as_str()) && ids.contains(&b.as_str()));
}

#[actix_rt::test]
async fn discord_nudges_are_refused_with_409_while_discord_is_off() {
    let bot = start_bot("").await;
    let task = bot.task(json!({"title": "Pay rent"})).await;
    let (status, answer) = bot
        .post(
            "/api/nudges",
            json!({"task_id": task, "channel": "discord"}),
        )
        .await;
    assert_eq!(status, 409, "{answer}");
    let (status, _) = bot
        .post("/api/nudges", json!({"task_id": task, "channel": "pigeon"}))
        .await;
    assert_eq!(status, 400);
    assert_eq!(bot.task_json(&task).await["open_thread_id"], Value::Null);
}

#[actix_rt::test]
async fn with_a_token_set_the_api_needs_it_but_health_does_not() {
    let bot = start_bot_with("", TestEnv(vec![("DONNA_API_TOKEN", "s3cret")])).await;
    assert_eq!(bot.get("/api/tasks").await.0, 401);
    let wrong = bot
        .client
        .get(format!("{}/api/tasks", bot.base))
        .bearer_auth("guess")
        .send()
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    assert_eq!(wrong, 401);
    let right = bot
        .client
        .get(format!("{}/api/tasks", bot.base))
        .bearer_auth("s3cret")
        .send()
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or(0);
    assert_eq!(right, 200);
    assert_eq!(bot.get("/health").await.0, 200);
}

#[actix_rt::test]
async fn a_foreign_host_header_is_refused() {
    let bot = start_bot("").await;
    let status = |host: &'static str| {
        bot.client
            .get(format!("{}/health", bot.base))
            .header("host", host)
            .send()
    };
    assert_eq!(
        status("evil.example")
            .await
            .map(|r| r.status().as_u16())
            .unwrap_or(0),
        403
    );
    assert_eq!(
        status("localhost")
            .await
            .map(|r| r.status().as_u16())
            .unwrap_or(0),
        200
    );
}

#[actix_rt::test]
async fn the_same_message_id_in_another_thread_is_another_message() {
    // A client that numbers its messages per thread ("1", "2", ...).
    let bot = start_bot("").await;
    let (rent, rent_thread) = bot.nudged_task("Pay rent").await;
    let (gym, gym_thread) = bot.nudged_task("Gym").await;
    let (status, first) = bot.say_with_id(&rent_thread, "done", "1").await;
    assert_eq!(status, 200, "{first}");
    let (status, second) = bot.say_with_id(&gym_thread, "busy", "1").await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(second["thread_id"], gym_thread.as_str(), "{second}");
    assert!(second["reply"].text().contains("Snoozed 'Gym'"), "{second}");
    assert_eq!(bot.task_json(&rent).await["status"], "done");
    assert!(bot.task_json(&gym).await["snoozed_until"].is_string());
    // Within a thread the id still means the same message: the first result, nothing applied.
    let (status, again) = bot.say_with_id(&rent_thread, "undo", "1").await;
    assert_eq!(status, 200);
    assert_eq!(again, first);
    assert_eq!(bot.task_json(&rent).await["status"], "done");
}

#[actix_rt::test]
async fn opening_a_thread_needs_a_json_body_of_the_right_shape_and_a_refusal_creates_nothing() {
    let bot = start_bot("").await;
    let url = format!("{}/api/threads", bot.base);
    // (case, content type, body, a word the error must contain)
    let refusals: Vec<(&str, Option<&str>, &str, &str)> = vec![
        // A plain cross-site form or fetch can send these without a CORS preflight.
        (
            "text/plain body",
            Some("text/plain"),
            r#"{"is_group": true}"#,
            "Content-Type",
        ),
        (
            "form body",
            Some("application/x-www-form-urlencoded"),
            "is_group=true",
            "Content-Type",
        ),
        (
            "wrong type",
            Some("application/json"),
            r#"{"is_group": "yes"}"#,
            "boolean",
        ),
        (
            "unknown field",
            Some("application/json"),
            r#"{"bogus": 1}"#,
            "bogus",
        ),
        (
            "chat_id a number",
            Some("application/json"),
            r#"{"chat_id": 7}"#,
            "string",
        ),
        ("not an object", Some("application/json"), "[]", "JSON"),
        ("not JSON", Some("application/json"), "{is_group", "JSON"),
        ("empty body, no content type", None, "", "Content-Type"),
    ];
    for (case, content_type, body, reason) in refusals {
        let mut request = bot.client.post(url.clone()).body(body.to_string());
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let response = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        let status = response.status().as_u16();
        let answer: Value = response.json().await.needed();
        assert_eq!(status, 400, "{case}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| e.contains(reason)),
            "{case}: {answer}"
        );
        let (_, threads) = bot.get("/api/threads").await;
        assert_eq!(threads, json!([]), "{case} created a thread");
    }
    let (status, answer) = bot.post("/api/threads", json!({})).await;
    assert_eq!(status, 201, "{answer}");
    let (status, answer) = bot.post("/api/threads", json!({"is_group": true})).await;
    assert_eq!(status, 201, "{answer}");
    let (_, threads) = bot.get("/api/threads").await;
    assert_eq!(threads.as_array().map(Vec::len), Some(2), "{threads}");
    assert!(threads
        .as_array()
        .into_iter()
        .flatten()
        .any(|t| t["is_group"] == true));
}

#[actix_rt::test]
async fn times_that_would_not_read_back_identically_are_refused_with_400_naming_the_field() {
    // New York: its offset before 1883 was -4:56:02, which RFC 3339 cannot show.
    let bot = start_bot("timezone: America/New_York\n").await;
    let task = bot.task(json!({"title": "Pay rent"})).await;
    let refused = [
        "+10000-01-01T00:00",
        "+10000-01-01T00:00:00Z",
        "-0001-06-01T00:00",
        "9999-12-31T23:59:00-23:59",
        "0000-01-01T00:00:00+23:59",
        "9999-12-31T23:00",
        "1800-01-01T00:00:00Z",
    ];
    for field in ["deadline", "scheduled_start"] {
        for time in refused {
            let (status, answer) = bot
                .post("/api/tasks", json!({"title": "x", field: time}))
                .await;
            assert_eq!(status, 400, "POST {field} {time}: {answer}");
            assert!(
                answer["error"].as_str().is_some_and(|e| e.contains(field)),
                "POST {field} {time}: {answer}"
            );
            let (status, answer) = bot
                .patch(&format!("/api/tasks/{task}"), json!({field: time}))
                .await;
            assert_eq!(status, 400, "PATCH {field} {time}: {answer}");
            assert!(
                answer["error"].as_str().is_some_and(|e| e.contains(field)),
                "PATCH {field} {time}: {answer}"
            );
        }
    }
    // Nothing was stored, and everything still reads.
    let (status, tasks) = bot.get("/api/tasks").await;
    assert_eq!(status, 200, "{tasks}");
    assert_eq!(tasks.as_array().map(Vec::len), Some(1), "{tasks}");
    assert_eq!(tasks[0]["deadline"], Value::Null);
    assert_eq!(tasks[0]["scheduled_start"], Value::Null);
    // What is accepted reads back as the same instant.
    let accepted = [
        ("2026-12-01T09:00:00-23:59", "2026-12-02T08:59:00Z"),
        ("9999-12-31T18:59:59", "9999-12-31T23:59:59Z"),
        ("2026-12-01T09:00:00.123456789Z", "2026-12-01T09:00:00Z"),
        ("1900-01-01T12:00:00Z", "1900-01-01T12:00:00Z"),
    ];
    for field in ["deadline", "scheduled_start"] {
        for (time, instant) in accepted {
            let (status, answer) = bot
                .patch(&format!("/api/tasks/{task}"), json!({field: time}))
                .await;
            assert_eq!(status, 200, "PATCH {field} {time}: {answer}");
            let shown = bot.task_json(&task).await[field].text().to_string();
            let read = chrono::DateTime::parse_from_rfc3339(&shown).map(|at| {
                at.with_timezone(&chrono::Utc)
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            });
            assert_eq!(
                read.as_deref(),
                Ok(instant),
                "{field} {time} shown as {shown}"
            );
            assert_eq!(bot.get("/api/tasks").await.0, 200);
        }
    }
}

#[actix_rt::test]
async fn the_bearer_scheme_is_matched_case_insensitively() {
    let bot = start_bot_with("", TestEnv(vec![("DONNA_API_TOKEN", "s3cret")])).await;
    let status = |authorization: &'static str| {
        bot.client
            .get(format!("{}/api/tasks", bot.base))
            .header("authorization", authorization)
            .send()
    };
    // RFC 7235: the scheme is case-insensitive, followed by one or more spaces.
    for accepted in [
        "Bearer s3cret",
        "bearer s3cret",
        "BEARER s3cret",
        "bEaReR  s3cret",
    ] {
        let got = status(accepted)
            .await
            .map(|r| r.status().as_u16())
            .unwrap_or(0);
        assert_eq!(got, 200, "{accepted:?}");
    }
    // The token itself is compared exactly.
    for refused in [
        "bearer S3CRET",
        "Bearers3cret",
        "Basic s3cret",
        "s3cret",
        "bearer",
    ] {
        let got = status(refused)
            .await
            .map(|r| r.status().as_u16())
            .unwrap_or(0);
        assert_eq!(got, 401, "{refused:?}");
    }
}
