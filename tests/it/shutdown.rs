//! Stopping `donna run` (the real binary) while model turns are in flight: every turn that
//! finishes within `shutdown.grace` answers its client, new requests get 503 while Donna
//! drains (never a refused connection), and the process exits 0. A second Donna on a busy port
//! stops before it touches the data directory.

use crate::common;
use crate::common::Fields;

use std::time::Duration;

use common::eventually;
use common::fake_llm::{start_fake_llm, Script};
use common::process::{free_port, run, sigterm, wait_exit_async, write_yaml};
use serde_json::{json, Value};

const MODEL_TURNS: usize = 20;

async fn post(client: &reqwest::Client, base: &str, path: &str, body: Value) -> (u16, Value) {
    let response = client
        .post(format!("{base}{path}"))
        .json(&body)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[actix_rt::test]
async fn sigterm_answers_every_turn_in_flight_and_refuses_new_requests_with_503() {
    let fake = start_fake_llm();
    // Six seconds of thinking: longer than the HTTP server's own stop timeout, shorter than
    // the grace.
    fake.always(Script::Delay(
        Duration::from_secs(6),
        Box::new(Script::answer(json!([]), "Let's look at it tomorrow.")),
    ));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let port = free_port();
    let yaml = format!(
        "data_dir: data\nhttp:\n  bind: 127.0.0.1:{port}\n{}shutdown:\n  grace: 20s\n",
        fake.config("ollama", "30s", MODEL_TURNS)
    );
    let mut running = run(&write_yaml(dir.path(), &yaml), port);
    let base = format!("http://127.0.0.1:{port}");
    // reqwest brings no TLS provider of its own.
    donna::tls::install_crypto_provider();
    let client = reqwest::Client::new();
    let up = eventually(Duration::from_secs(30), || async {
        client
            .get(format!("{base}/health"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
    })
    .await;
    assert!(up, "donna run never became healthy");
    let mut threads = Vec::new();
    for n in 0..MODEL_TURNS {
        let (status, task) = post(
            &client,
            &base,
            "/api/tasks",
            json!({"title": format!("Task {n}")}),
        )
        .await;
        assert_eq!(status, 201, "{task}");
        let (_, nudge) = post(
            &client,
            &base,
            "/api/nudges",
            json!({"task_id": task["id"]}),
        )
        .await;
        threads.push(nudge["thread_id"].text().to_string());
    }
    let turns = threads.iter().map(|thread| {
        post(
            &client,
            &base,
            "/api/messages",
            json!({"thread_id": thread, "user_id": "owner", "text": "tell me more about it"}),
        )
    });
    let turns = futures_util::future::join_all(turns);
    let stop_while_thinking = async {
        assert!(
            eventually(Duration::from_secs(10), || async {
                fake.in_flight() == MODEL_TURNS
            })
            .await,
            "the model turns never were all in flight"
        );
        sigterm(&running.child);
        // Draining: a new request is answered 503, not refused.
        let drained = eventually(Duration::from_secs(5), || async {
            match client.get(format!("{base}/api/tasks")).send().await {
                Ok(response) => response.status().as_u16() == 503,
                Err(error) => panic!("a request while draining was not answered: {error}"),
            }
        })
        .await;
        assert!(drained, "no 503 while draining");
    };
    let (answers, ()) = futures_util::join!(turns, stop_while_thinking);
    for (status, result) in answers {
        assert_eq!(status, 200, "{result}");
        assert_eq!(result["path"], "llm", "{result}");
        assert_eq!(result["reply"], "Let's look at it tomorrow.", "{result}");
    }
    assert_eq!(
        wait_exit_async(&mut running.child, Duration::from_secs(30)).await,
        Some(0)
    );
}

#[actix_rt::test]
async fn a_second_donna_on_a_busy_port_stops_before_touching_the_data_dir() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    let port = taken
        .local_addr()
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = write_yaml(
        dir.path(),
        &format!("data_dir: data\nllm:\n  provider: none\nhttp:\n  bind: 127.0.0.1:{port}\n"),
    );
    let mut running = run(&config, port);
    assert_eq!(
        wait_exit_async(&mut running.child, Duration::from_secs(20)).await,
        Some(1)
    );
    let message = running.stderr();
    let lines: Vec<&str> = message.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one clear line, not a dozen:\n{message}");
    assert!(
        lines[0].contains(&format!("127.0.0.1:{port}")) && lines[0].contains("in use"),
        "{message}"
    );
    assert!(
        !dir.path().join("data").join("donna.db").exists(),
        "nothing was created or migrated"
    );
}
