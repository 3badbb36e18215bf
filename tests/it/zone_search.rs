//! Work that grows with its input never runs unbounded on the HTTP workers that answer the
//! probes: a zone name longer than any zone's is refused before the nearest-names search (which
//! is linear in the name and runs over every zone), the search itself runs off the workers, and
//! `/health/live` answers promptly while such requests arrive.

use crate::common;
use crate::common::Fields;

use std::time::{Duration, Instant};

use common::start_bot;
use futures_util::future::join_all;
use serde_json::{json, Value};

/// Generous for a loaded machine; before, each 60 KB name cost seconds of CPU on a worker and
/// two at once stalled the probe.
const PROMPTLY: Duration = Duration::from_secs(2);

#[actix_rt::test]
async fn a_long_zone_name_is_refused_at_once_and_the_probes_keep_answering() {
    let bot = start_bot("").await;
    let long = "Europe/Berlinx".repeat(4_300);
    assert!(long.len() > 60_000);
    let puts = (0..8).map(|i| {
        let (client, base, long) = (bot.client.clone(), bot.base.clone(), long.clone());
        async move {
            let started = Instant::now();
            let answer = client
                .put(format!("{base}/api/people/person{i}"))
                .json(&json!({ "timezone": long }))
                .send()
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            let status = answer.status().as_u16();
            let body: Value = answer.json().await.unwrap_or(Value::Null);
            (status, body, started.elapsed())
        }
    });
    let probes = (0..8).map(|_| {
        let (client, base) = (bot.client.clone(), bot.base.clone());
        async move {
            let started = Instant::now();
            let status = client
                .get(format!("{base}/health/live"))
                .send()
                .await
                .map(|answer| answer.status().as_u16())
                .unwrap_or(0);
            (status, started.elapsed())
        }
    });
    let (answers, probed) = futures_util::join!(join_all(puts), join_all(probes));
    for (status, body, took) in answers {
        assert_eq!(status, 400, "{body}");
        let error = body["error"].text();
        assert!(error.contains("at most 64 characters"), "{error}");
        assert!(took < PROMPTLY, "the refusal took {took:?}");
    }
    for (status, took) in probed {
        assert_eq!(status, 200);
        assert!(took < PROMPTLY, "/health/live took {took:?}");
    }
    // A name within the bound is still searched for the nearest names.
    let (status, body) = bot
        .request(
            reqwest::Method::PUT,
            "/api/people/owner",
            Some(json!({"timezone": "Europe/Berlinn"})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let error = body["error"].text();
    assert!(error.contains("Europe/Berlin"), "{error}");
}
