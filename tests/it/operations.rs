//! The operator's view over real HTTP: /metrics parsed by a Prometheus text parser (every
//! family with HELP and TYPE, no counter labelled with a state, the new families with values
//! that follow what happened), the liveness and readiness probes, and the OpenAPI document
//! covering every route the server registers.

use crate::common;

use std::collections::{HashMap, HashSet};

use common::start_bot;
use prometheus_parse::{LineInfo, SampleType, Scrape, Value as Sampled};
use serde_json::{json, Value};

/// One family as the page declares it.
#[derive(Debug, Default)]
struct Family {
    help: bool,
    kind: Option<SampleType>,
    samples: Vec<(String, String, f64)>,
}

/// The family a sample belongs to: its own name, or (OpenMetrics) the name without the suffix
/// its type adds (`_total` for counters, `_bucket`/`_sum`/`_count` for histograms).
fn family_of<'a>(name: &'a str, families: &HashMap<String, Family>) -> Option<&'a str> {
    if families.contains_key(name) {
        return Some(name);
    }
    ["_total", "_bucket", "_sum", "_count", "_created"]
        .iter()
        .filter_map(|suffix| name.strip_suffix(suffix))
        .find(|base| families.contains_key(*base))
}

/// Reads the page line by line with prometheus-parse; panics on a line it cannot read, a
/// sample of no declared family, or a family without HELP or TYPE.
fn families(page: &str) -> HashMap<String, Family> {
    let mut families: HashMap<String, Family> = HashMap::new();
    for line in page.lines() {
        match LineInfo::parse(line) {
            LineInfo::Doc { metric_name, .. } => {
                families.entry(metric_name.to_string()).or_default().help = true;
            }
            LineInfo::Type {
                metric_name,
                metric_alias,
                sample_type,
            } => {
                // The parser names a histogram's type line after its buckets.
                let name = metric_alias.unwrap_or(metric_name);
                families.entry(name).or_default().kind = Some(sample_type);
            }
            LineInfo::Sample {
                metric_name,
                labels,
                value,
                ..
            } => {
                let family = family_of(metric_name, &families)
                    .unwrap_or_else(|| panic!("sample {metric_name} before its HELP/TYPE"))
                    .to_string();
                let value: f64 = value
                    .parse()
                    .unwrap_or_else(|e| panic!("{line}: value: {e}"));
                families.entry(family).or_default().samples.push((
                    metric_name.to_string(),
                    labels.unwrap_or_default().to_string(),
                    value,
                ));
            }
            LineInfo::Empty => {}
            LineInfo::Ignored => assert_eq!(line, "# EOF", "unreadable line"),
        }
    }
    for (name, family) in &families {
        assert!(family.help, "{name} has no HELP");
        assert!(family.kind.is_some(), "{name} has no TYPE");
    }
    families
}

fn value(families: &HashMap<String, Family>, sample: &str, labels: &str) -> f64 {
    let family = family_of(sample, families).unwrap_or_else(|| panic!("no family for {sample}"));
    families[family]
        .samples
        .iter()
        .find(|(name, l, _)| name == sample && l == labels)
        .map(|(_, _, v)| *v)
        .unwrap_or_else(|| panic!("no sample {sample}{{{labels}}}"))
}

#[actix_rt::test]
async fn metrics_parse_with_help_and_type_and_follow_turns_and_nudges() {
    let bot = start_bot("").await;
    let before = families(&bot.metrics_text().await);
    let (task, thread) = bot.nudged_task("Pay rent").await;
    bot.say(&thread, "done").await;
    bot.say(&thread, "hmm").await;
    let _ = task;
    let page = bot.metrics_text().await;
    let families = families(&page);

    // The whole page also reads as a scrape (values, histograms) with the same parser.
    let scrape =
        Scrape::parse(page.lines().map(|l| Ok(l.to_string()))).unwrap_or_else(|e| panic!("{e}"));
    assert!(scrape
        .samples
        .iter()
        .any(|s| s.metric == "donna_turn_duration_seconds"
            && matches!(&s.value, Sampled::Histogram(buckets) if !buckets.is_empty())));

    for (name, family) in &families {
        if family.kind == Some(SampleType::Counter) {
            for (sample, labels, _) in &family.samples {
                assert!(
                    sample.ends_with("_total"),
                    "counter sample {sample} does not end in _total"
                );
                assert!(
                    !labels.contains("state="),
                    "counter {name} is labelled with a state: {labels}"
                );
            }
        }
    }
    let expected = [
        ("donna_build_info", SampleType::Gauge),
        ("donna_up", SampleType::Gauge),
        ("donna_actor_running", SampleType::Gauge),
        ("donna_actor_state", SampleType::Gauge),
        ("donna_actor_restarts", SampleType::Counter),
        ("donna_actor_queue_depth", SampleType::Gauge),
        ("donna_dead_letters", SampleType::Counter),
        ("donna_conversations_live", SampleType::Gauge),
        ("donna_conversations_passivated", SampleType::Counter),
        ("donna_turn_duration_seconds", SampleType::Histogram),
        ("donna_llm_calls", SampleType::Counter),
        ("donna_llm_failures", SampleType::Counter),
        ("donna_llm_call_duration_seconds", SampleType::Histogram),
        ("donna_llm_call_outcomes", SampleType::Counter),
        ("donna_reply_gate_decisions", SampleType::Counter),
        ("donna_discord_messages_received", SampleType::Counter),
        ("donna_discord_messages_ignored", SampleType::Counter),
        ("donna_discord_messages_delivered", SampleType::Counter),
        ("donna_discord_send_failures", SampleType::Counter),
        ("donna_outbox_backlog", SampleType::Gauge),
        ("donna_nudges_sent", SampleType::Counter),
        ("donna_rows_skipped", SampleType::Counter),
        ("process_cpu_seconds", SampleType::Counter),
        ("process_resident_memory_bytes", SampleType::Gauge),
        ("process_open_fds", SampleType::Gauge),
        ("process_start_time_seconds", SampleType::Gauge),
    ];
    for (name, kind) in expected {
        let family = families
            .get(name)
            .unwrap_or_else(|| panic!("no family {name}\n{page}"));
        assert_eq!(family.kind, Some(kind), "{name}");
    }

    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        value(
            &families,
            "donna_build_info",
            &format!("version=\"{version}\"")
        ),
        1.0
    );
    // One turn each took the fast path and fell through to `unhandled`.
    let fast = "path=\"fast\"";
    assert_eq!(
        value(&families, "donna_turn_duration_seconds_count", fast)
            - value(&before, "donna_turn_duration_seconds_count", fast),
        1.0
    );
    assert_eq!(
        value(
            &families,
            "donna_turn_duration_seconds_count",
            "path=\"unhandled\""
        ),
        1.0
    );
    // The nudge opened through the API is counted.
    assert_eq!(
        value(&families, "donna_nudges_sent_total", "trigger=\"api\"")
            - value(&before, "donna_nudges_sent_total", "trigger=\"api\""),
        1.0
    );
    // One-hot state: the fast path runs, and is in no other state.
    assert_eq!(
        value(
            &families,
            "donna_actor_state",
            "actor=\"fast_path\",state=\"running\""
        ),
        1.0
    );
    assert_eq!(
        value(
            &families,
            "donna_actor_state",
            "actor=\"fast_path\",state=\"failed\""
        ),
        0.0
    );
    // Local replies are delivered by the HTTP answer: nothing waits in the outbox.
    assert_eq!(value(&families, "donna_outbox_backlog", ""), 0.0);
    assert!(value(&families, "process_resident_memory_bytes", "") > 1_000_000.0);
    assert!(value(&families, "process_open_fds", "") >= 3.0);
}

#[actix_rt::test]
async fn live_is_always_200_and_ready_fails_with_a_reason_when_the_store_cannot_write_or_donna_stops(
) {
    let bot = start_bot("").await;
    assert_eq!(
        bot.get("/health/live").await,
        (200, json!({"status": "live"}))
    );
    assert_eq!(
        bot.get("/health/ready").await,
        (200, json!({"status": "ready"}))
    );

    // The store writer marks itself degraded when the disk is full; it still runs.
    let writer = bot
        .app
        .health
        .get("store_writer")
        .unwrap_or_else(|| panic!("no store_writer record"));
    writer.set_degraded(Some("disk full: database or disk is full".into()));
    let (status, ready) = bot.get("/health/ready").await;
    assert_eq!(status, 503, "{ready}");
    assert_eq!(ready["status"], "not_ready");
    let reasons = ready["reasons"].to_string();
    assert!(
        reasons.contains("the store cannot write: disk full"),
        "{reasons}"
    );
    assert_eq!(bot.get("/health/live").await.0, 200);
    writer.set_degraded(None);
    assert_eq!(bot.get("/health/ready").await.0, 200);

    bot.app.begin_draining();
    let (status, ready) = bot.get("/health/ready").await;
    assert_eq!(status, 503, "{ready}");
    assert_eq!(ready["reasons"], json!(["shutting down"]));
    assert_eq!(
        bot.get("/health/live").await,
        (200, json!({"status": "live"}))
    );
}

#[actix_rt::test]
async fn the_probes_need_no_token_but_the_openapi_document_does() {
    let bot = start_bot_token().await;
    assert_eq!(bot.get("/health/live").await.0, 200);
    assert_eq!(bot.get("/health/ready").await.0, 200);
    assert_eq!(bot.get("/api/openapi.json").await.0, 401);
}

async fn start_bot_token() -> common::Bot {
    common::start_bot_with("", common::TestEnv(vec![("DONNA_API_TOKEN", "s3cret")])).await
}

/// Every route the server registers, as the document lists it, answers as a route: no 404
/// "not found" and no 405, with a made-up id where the path has one.
#[actix_rt::test]
async fn the_openapi_document_covers_every_route_and_every_documented_route_exists() {
    let bot = start_bot("").await;
    let (status, document) = bot.get("/api/openapi.json").await;
    assert_eq!(status, 200);
    assert!(
        document["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.")),
        "{document}"
    );
    assert_eq!(
        document["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    let paths = document["paths"]
        .as_object()
        .unwrap_or_else(|| panic!("no paths: {document}"));
    let mut documented = HashSet::new();
    for (path, item) in paths {
        let item = item.as_object().unwrap_or_else(|| panic!("{path}"));
        for (method, operation) in item {
            documented.insert(format!("{} {path}", method.to_uppercase()));
            if path == "/api/calendar.ics" {
                // A calendar app cannot send a header: the feed's own token is in the query.
                assert_ne!(operation["security"], json!([{"bearer": []}]), "{path}");
            } else if path.starts_with("/api/") {
                assert_eq!(
                    operation["security"],
                    json!([{"bearer": []}]),
                    "{method} {path}"
                );
            }
            let concrete = path.replace("{id}", "nonexistent");
            let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes())
                .unwrap_or_else(|e| panic!("{method}: {e}"));
            if operation["responses"]["200"]["content"]
                .get("text/event-stream")
                .is_some()
            {
                // A stream never ends: its headers say it is routed; the body is not awaited.
                let response = bot
                    .client
                    .get(format!("{}{concrete}", bot.base))
                    .send()
                    .await
                    .unwrap_or_else(|e| panic!("{concrete}: {e}"));
                assert_eq!(response.status().as_u16(), 200, "{concrete}");
                assert!(
                    response
                        .headers()
                        .get("content-type")
                        .and_then(|v| v.to_str().ok())
                        .is_some_and(|v| v.starts_with("text/event-stream")),
                    "{concrete}: {:?}",
                    response.headers()
                );
                continue;
            }
            let body = matches!(
                method,
                reqwest::Method::POST | reqwest::Method::PATCH | reqwest::Method::PUT
            )
            .then(|| json!({}));
            let (status, answer) = bot.request(method.clone(), &concrete, body).await;
            assert_ne!(status, 405, "{method} {concrete}: {answer}");
            assert!(
                status != 404 || answer != json!({"error": "not found"}),
                "{method} {concrete} is documented but not routed"
            );
        }
    }
    // The routes of docs/contract.md's contract and the additions (probes, this document).
    let expected: HashSet<String> = [
        "GET /health",
        "GET /health/live",
        "GET /health/ready",
        "GET /metrics",
        "GET /api/openapi.json",
        "POST /api/tasks",
        "GET /api/tasks",
        "GET /api/tasks/{id}",
        "PATCH /api/tasks/{id}",
        "POST /api/nudges",
        "POST /api/threads",
        "GET /api/threads",
        "GET /api/threads/{id}/messages",
        "POST /api/messages",
        "GET /api/events",
        "GET /api/automations",
        "POST /api/automations",
        "DELETE /api/automations/{id}",
        "GET /api/spend",
        "GET /api/proposals",
        "POST /api/web/chat",
        "POST /api/web/done",
        "POST /api/web/answers",
        "POST /api/web/act",
        "GET /",
        "GET /web/app.js",
        "GET /web/app.css",
        "POST /web/session",
        "GET /api/people/{user_id}",
        "PUT /api/people/{user_id}",
        "GET /api/calendar.ics",
        "GET /api/calendar/events",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(documented, expected);
    let _: Value = document;
}

/// Routes are registered only through `http::routes`, where registering is documenting: no
/// `.route(` / `web::resource(` elsewhere in src/http could add an undocumented one.
#[test]
fn no_route_is_registered_around_the_documented_list() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http");
    let mut handlers = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        for forbidden in [".route(", "web::resource(", "web::scope("] {
            assert!(
                !text.contains(forbidden),
                "{} registers a route with {forbidden}: register it in http::routes with \
                 .service(handler) and #[utoipa::path] so it is documented",
                path.display()
            );
        }
        handlers += text.matches("#[utoipa::path(").count();
        let routed = ["#[get(", "#[post(", "#[patch(", "#[put(", "#[delete("]
            .iter()
            .map(|attr| text.matches(attr).count())
            .sum::<usize>();
        assert_eq!(
            routed,
            text.matches("#[utoipa::path(").count(),
            "{}: every routed handler needs #[utoipa::path]",
            path.display()
        );
    }
    assert_eq!(
        handlers, 32,
        "a new handler: add it to the expected list above too"
    );
}

/// Issue 29 item 9: prometheus-client ends every HELP text with a full stop of its own, so a
/// text written with one shows "..". Every HELP line of the page ends in exactly one.
#[actix_rt::test]
async fn no_help_text_on_the_metrics_page_ends_in_two_full_stops() {
    let bot = start_bot("").await;
    let page = bot.metrics_text().await;
    let helps: Vec<&str> = page.lines().filter(|l| l.starts_with("# HELP ")).collect();
    assert!(helps.len() > 20, "{page}");
    let doubled: Vec<&&str> = helps.iter().filter(|l| l.ends_with("..")).collect();
    assert!(
        doubled.is_empty(),
        "HELP texts ending in '..': {doubled:#?}"
    );
    let unfinished: Vec<&&str> = helps.iter().filter(|l| !l.ends_with('.')).collect();
    assert!(
        unfinished.is_empty(),
        "HELP texts without a full stop: {unfinished:#?}"
    );
}
