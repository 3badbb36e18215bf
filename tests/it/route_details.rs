//! A task the model names keeps its details: `route`'s capture answer carries `parse_task`'s
//! optional fields (priority, estimated minutes, description, tags, domain), and what the
//! person said of them reaches the created task, with no second model call. The real bot and
//! store against the fake model on loopback, one sentence a row, the way people write to a
//! reminder bot. What a person notices: "urgent: ..., it takes an hour, bring the old one"
//! becomes a task with priority 1, an hour's estimate (so the completion check-in can come)
//! and the note; a detail the model got wrong or made up is left out, and the task is still
//! the one they asked for; a detail on a message that is not a task changes nothing.

use crate::common;
use crate::common::Fields;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use common::fake_llm::{out, start_fake_llm};
use serde_json::{json, Value};

/// What the created task holds: (priority, estimate, description, tags, domain, has a time).
type Held = (
    i64,
    Option<i64>,
    Option<&'static str>,
    Vec<&'static str>,
    &'static str,
    bool,
);

/// (the person's message, `route`'s answer, the task's title and what it holds; None: no task)
type Row = (&'static str, Value, Option<(&'static str, Held)>);

fn said() -> Vec<Row> {
    vec![
        (
            "urgent: renew the passport by friday, it takes an hour, bring the old one",
            json!({"intent": "capture", "confidence": 0.9, "title": "Renew the passport",
                   "when": "by friday", "priority": 1, "estimated_minutes": 60,
                   "description": "Bring the old one"}),
            Some((
                "Renew the passport",
                (
                    1,
                    Some(60),
                    Some("Bring the old one"),
                    vec![],
                    "personal",
                    true,
                ),
            )),
        ),
        (
            "gotta finish the quarterly slides for work tomorrow, 2 hours probably",
            json!({"intent": "capture", "confidence": 0.9, "title": "Finish the quarterly slides",
                   "when": "tomorrow", "domain": "work", "estimated_minutes": 120}),
            Some((
                "Finish the quarterly slides",
                (2, Some(120), None, vec![], "work", true),
            )),
        ),
        (
            "the garage needs tidying, half an hour tops",
            json!({"intent": "capture", "confidence": 0.9, "title": "Tidy the garage",
                   "estimated_minutes": 30}),
            Some((
                "Tidy the garage",
                (2, Some(30), None, vec![], "personal", false),
            )),
        ),
        (
            "asap: patch the bike tyre, 45 min, #errands",
            json!({"intent": "capture", "confidence": 0.9, "title": "Patch the bike tyre",
                   "priority": 1, "estimated_minutes": 45, "tags": ["errands"]}),
            Some((
                "Patch the bike tyre",
                (1, Some(45), None, vec!["errands"], "personal", false),
            )),
        ),
        (
            "thesis chapter 3 edits, 1h15, important",
            json!({"intent": "capture", "confidence": 0.9, "title": "Thesis chapter 3 edits",
                   "priority": 2, "estimated_minutes": 75}),
            Some((
                "Thesis chapter 3 edits",
                (2, Some(75), None, vec![], "personal", false),
            )),
        ),
    ]
}

/// Details out of bounds or of the wrong kind: left out, the task still made right (a length
/// the person said is read from their words, as a capture's rules read it).
fn nonsense() -> Vec<Row> {
    vec![
        (
            "sort out the car insurance by friday, it'll take about an hour",
            json!({"intent": "capture", "confidence": 0.9, "title": "Sort out the car insurance",
                   "when": "by friday", "priority": 9, "estimated_minutes": 100_000_000,
                   "tags": "insurance"}),
            // The model's estimate is out of bounds; the hour the person said is theirs.
            Some((
                "Sort out the car insurance",
                (2, Some(60), None, vec![], "personal", true),
            )),
        ),
        (
            "book the vet for the dog, 20 minutes on the phone",
            json!({"intent": "capture", "confidence": 0.9, "title": "Book the vet for the dog",
                   "priority": -1, "estimated_minutes": "twenty", "description": 42,
                   "domain": "pets"}),
            // The model's "twenty" is no number; the 20 minutes the person said are theirs.
            Some((
                "Book the vet for the dog",
                (2, Some(20), None, vec![], "personal", false),
            )),
        ),
        (
            "defrost the freezer, 1.5 hours",
            json!({"intent": "capture", "confidence": 0.9, "title": "Defrost the freezer",
                   "estimated_minutes": 1.5, "tags": vec!["freezer"; 11],
                   "description": "defrost \u{7} the freezer ".repeat(400)}),
            Some((
                "Defrost the freezer",
                (2, Some(90), None, vec![], "personal", false),
            )),
        ),
        (
            "return the library books, 10 min",
            json!({"intent": "capture", "confidence": 0.9, "title": "Return the library books",
                   "estimated_minutes": 0, "priority": null, "tags": [7, "books"],
                   "description": "<optional note>"}),
            Some((
                "Return the library books",
                (2, Some(10), None, vec![], "personal", false),
            )),
        ),
    ]
}

/// Details the person never said: left out (a default priority, no estimate, no note).
fn invented() -> Vec<Row> {
    vec![
        (
            "pick up the dry cleaning",
            json!({"intent": "capture", "confidence": 0.9, "title": "Pick up the dry cleaning",
                   "priority": 1, "estimated_minutes": 30, "domain": "work",
                   "description": "Ask for the receipt", "tags": ["chores"]}),
            Some((
                "Pick up the dry cleaning",
                (2, None, None, vec![], "personal", false),
            )),
        ),
        (
            "call the plumber tomorrow, it takes an hour",
            json!({"intent": "capture", "confidence": 0.9, "title": "Call the plumber",
                   "when": "tomorrow", "estimated_minutes": 600}),
            // The model's 600 is not what the person said; their hour is.
            Some((
                "Call the plumber",
                (2, Some(60), None, vec![], "personal", true),
            )),
        ),
        (
            "ping the landlord in 2 hours",
            json!({"intent": "capture", "confidence": 0.9, "title": "Ping the landlord",
                   "when": "in 2 hours", "estimated_minutes": 120}),
            Some((
                "Ping the landlord",
                (2, None, None, vec![], "personal", true),
            )),
        ),
        (
            "water the ficus, use the blue can",
            json!({"intent": "capture", "confidence": 0.9, "title": "Water the ficus",
                   "description": "Use the blue can and add fertiliser", "tags": ["ficus", "plants"]}),
            Some((
                "Water the ficus",
                (2, None, None, vec!["ficus"], "personal", false),
            )),
        ),
        (
            "feed the neighbour's cat, use the green bowl",
            json!({"intent": "capture", "confidence": 0.9, "title": "Feed the neighbour's cat",
                   "description": "Use the green bowl"}),
            Some((
                "Feed the neighbour's cat",
                (
                    2,
                    None,
                    Some("Use the green bowl"),
                    vec![],
                    "personal",
                    false,
                ),
            )),
        ),
    ]
}

/// Details on a message that is not a task: nothing is created.
fn not_tasks() -> Vec<Row> {
    vec![
        (
            "ugh, the commute took 2 hours today",
            json!({"intent": "chat", "confidence": 0.9, "reply_to_user": "That sounds draining.",
                   "priority": 1, "estimated_minutes": 120}),
            None,
        ),
        (
            "how long did I say the slides would take?",
            json!({"intent": "question", "confidence": 0.9, "title": "Slides",
                   "estimated_minutes": 120}),
            None,
        ),
    ]
}

/// What `task` holds, in the row's terms.
fn held(task: &Value) -> (i64, Option<i64>, Option<String>, Vec<String>, String, bool) {
    let tags = task["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|tag| tag.as_str().map(String::from))
        .collect();
    (
        task["priority"].as_i64().unwrap_or(-100),
        task["estimated_duration_minutes"].as_i64(),
        task["description"].as_str().map(String::from),
        tags,
        task["domain"].text().to_string(),
        !task["scheduled_start"].is_null() || !task["deadline"].is_null(),
    )
}

async fn check(rows: Vec<Row>) {
    check_reading(rows.into_iter().map(|row| (row, None)).collect()).await;
}

/// Each row with, where `route` names no task, `parse_task`'s answer (its one call).
async fn check_reading(rows: Vec<(Row, Option<Value>)>) {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    let mut parsed = 0;
    for (turn, ((text, route, expected), parse_task)) in rows.into_iter().enumerate() {
        let thread = bot.free_thread().await;
        let (_, before) = bot.get("/api/tasks").await;
        fake.push_for("route", out(route));
        if let Some(answer) = parse_task {
            fake.push_for("parse_task", out(answer));
            parsed += 1;
        }
        // A question's planner ends at once; a chat's reply came with `route`.
        fake.push_for(
            "plan_step",
            out(json!({"action": "answer", "reply_to_user": "Not sure."})),
        );
        let result = bot.say(&thread, text).await;
        assert_eq!(
            fake.count("route"),
            turn + 1,
            "{text}: the model read it: {result}"
        );
        assert_eq!(
            fake.count("parse_task"),
            parsed,
            "{text}: parse_task only where route named no task"
        );
        fake.clear_for("plan_step");
        let (_, after) = bot.get("/api/tasks").await;
        let made: Vec<&Value> = after
            .as_array()
            .into_iter()
            .flatten()
            .filter(|task| {
                !before
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|old| old["id"] == task["id"])
            })
            .collect();
        let Some((title, (priority, minutes, description, tags, domain, timed))) = expected else {
            assert!(made.is_empty(), "{text}: nothing is created: {made:?}");
            assert_ne!(result["path"], "task_created", "{text}: {result}");
            continue;
        };
        assert_eq!(result["path"], "task_created", "{text}: {result}");
        assert_eq!(made.len(), 1, "{text}: {made:?}");
        assert_eq!(made[0]["title"], title, "{text}");
        let expected = (
            priority,
            minutes,
            description.map(String::from),
            tags.into_iter().map(String::from).collect::<Vec<_>>(),
            domain.to_string(),
            timed,
        );
        assert_eq!(held(made[0]), expected, "{text}: {}", made[0]);
    }
    bot.stop().await;
}

#[actix_rt::test]
async fn details_the_person_said_reach_the_task_route_named() {
    check(said()).await;
}

#[actix_rt::test]
async fn details_out_of_bounds_or_of_the_wrong_kind_are_left_out_and_the_task_stands() {
    check(nonsense()).await;
}

#[actix_rt::test]
async fn details_the_person_never_said_are_left_out() {
    check(invented()).await;
}

#[actix_rt::test]
async fn details_on_a_message_that_is_no_task_create_nothing() {
    check(not_tasks()).await;
}

#[actix_rt::test]
async fn parse_task_s_details_are_held_to_the_same_words() {
    let unnamed = || json!({"intent": "capture", "confidence": 0.9});
    check_reading(vec![
        (
            (
                "so the boiler wants servicing, it's a 90 min job, important",
                unnamed(),
                Some((
                    "Service the boiler",
                    (1, Some(90), None, vec![], "personal", false),
                )),
            ),
            Some(
                json!({"title": "Service the boiler", "confidence": 0.9, "priority": 1,
                        "estimated_minutes": 90}),
            ),
        ),
        (
            (
                "oh and the hedge could do with a trim",
                unnamed(),
                Some(("Trim the hedge", (2, None, None, vec![], "personal", false))),
            ),
            Some(
                json!({"title": "Trim the hedge", "confidence": 0.9, "priority": 1,
                        "estimated_minutes": 45, "description": "Use the electric trimmer",
                        "tags": ["garden"]}),
            ),
        ),
    ])
    .await;
}
