//! `GET /api/events` through the real HTTP server: what a person watching the stream sees when
//! tasks are created, nudged and answered, a turn waiting for the model (`thinking`), resuming with `Last-Event-ID` after a disconnect, the
//! `reset` after an unknown id, the bearer token, and the stream's end when Donna stops.

use crate::common;
use crate::common::TestConfig;
use crate::common::{Fields, Needed};
use donna::config::LlmProvider;

use std::time::Duration;

use common::fake_llm::{out, start_fake_llm};
use common::{start_bot, start_bot_with, Bot, TestEnv};
use serde_json::{json, Value};

/// One SSE event as a client reads it.
#[derive(Debug, Clone, PartialEq)]
struct Sse {
    id: Option<String>,
    event: String,
    data: Value,
}

/// A connection to /api/events, read frame by frame.
struct Stream {
    response: reqwest::Response,
    buffer: String,
}

impl Stream {
    async fn open(bot: &Bot, last_event_id: Option<&str>) -> Stream {
        let mut request = bot.client.get(format!("{}/api/events", bot.base));
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id);
        }
        let response = request.send().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(response.status().as_u16(), 200);
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .needed()
            .to_string();
        assert_eq!(content_type, "text/event-stream");
        Stream {
            response,
            buffer: String::new(),
        }
    }

    /// The next event (comments skipped); None when the stream ended. Panics after 10 s.
    async fn next(&mut self) -> Option<Sse> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame: String = self.buffer.drain(..end + 2).collect();
                let mut sse = Sse {
                    id: None,
                    event: "message".into(),
                    data: Value::Null,
                };
                let mut comment_only = true;
                for line in frame.lines() {
                    if let Some(id) = line.strip_prefix("id: ") {
                        sse.id = Some(id.to_string());
                    } else if let Some(event) = line.strip_prefix("event: ") {
                        sse.event = event.to_string();
                        comment_only = false;
                    } else if let Some(data) = line.strip_prefix("data: ") {
                        sse.data = serde_json::from_str(data)
                            .unwrap_or_else(|e| panic!("data is not JSON: {e}: {data}"));
                        comment_only = false;
                    }
                }
                if comment_only {
                    continue;
                }
                return Some(sse);
            }
            let chunk = actix_rt::time::timeout(Duration::from_secs(10), self.response.chunk())
                .await
                .unwrap_or_else(|_| panic!("no event within 10 s; read so far: {:?}", self.buffer))
                .unwrap_or_else(|e| panic!("{e}"))?;
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    async fn take(&mut self, n: usize) -> Vec<Sse> {
        let mut out = Vec::new();
        for _ in 0..n {
            match self.next().await {
                Some(event) => out.push(event),
                None => panic!("the stream ended after {out:?}"),
            }
        }
        out
    }
}

fn kinds(events: &[Sse]) -> Vec<&str> {
    events.iter().map(|e| e.event.as_str()).collect()
}

/// The sequence part of an id `<run>-<seq>`.
fn seq(event: &Sse) -> u64 {
    event
        .id
        .as_deref()
        .and_then(|id| id.rsplit_once('-'))
        .and_then(|(_, seq)| seq.parse().ok())
        .unwrap_or_else(|| panic!("not an id: {event:?}"))
}

#[actix_rt::test]
async fn a_task_its_nudge_and_the_answer_appear_on_the_stream_in_order() {
    let bot = start_bot("").await;
    let mut stream = Stream::open(&bot, None).await;
    let task = bot.task(json!({"title": "Pay rent"})).await;
    let thread = bot.nudge(&task).await;
    let events = stream.take(3).await;
    assert_eq!(kinds(&events), ["task", "nudge", "message"]);
    assert_eq!(
        events[0].data,
        json!({"task_id": task, "change": "created", "status": "backlog", "title": "Pay rent"})
    );
    assert_eq!(
        events[1].data,
        json!({"task_id": task, "thread_id": thread, "text": "Time for 'Pay rent'. How is it going: done, later, or busy?", "channel": "local"})
    );
    assert_eq!(
        events[2].data,
        json!({"thread_id": thread, "text": events[1].data["text"]})
    );

    let result = bot.say(&thread, "done").await;
    let reply = result["reply"].text().to_string();
    assert!(!reply.is_empty(), "{result}");
    let answered = stream.take(2).await;
    assert_eq!(kinds(&answered), ["task", "message"]);
    assert_eq!(
        answered[0].data,
        json!({"task_id": task, "change": "status", "status": "done", "title": "Pay rent"})
    );
    assert_eq!(
        answered[1].data,
        json!({"thread_id": thread, "text": reply})
    );
    let all: Vec<u64> = events.iter().chain(&answered).map(seq).collect();
    assert!(all.windows(2).all(|w| w[0] < w[1]), "ids increase: {all:?}");
}

#[actix_rt::test]
async fn a_turn_that_waits_for_the_model_says_thinking_first_and_a_rule_turn_does_not() {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 1)
        .start()
        .await;
    let thread = bot.free_thread().await;
    let mut stream = Stream::open(&bot, None).await;
    // A rule takes it: the task and the answer, nothing before them.
    let result = bot.say(&thread, "add buy milk").await;
    assert_eq!(result["path"], "task_created", "{result}");
    assert_eq!(kinds(&stream.take(2).await), ["task", "message"]);
    // The model takes it: "thinking" in this thread first, then the answer.
    fake.push_for(
        "route",
        out(json!({"intent": "chat", "confidence": 0.9,
                   "reply_to_user": "Sounds like a long one."})),
    );
    let result = bot.say(&thread, "ugh, what a week").await;
    assert_eq!(result["path"], "chat", "{result}");
    let events = stream.take(2).await;
    assert_eq!(kinds(&events), ["thinking", "message"], "{events:?}");
    assert_eq!(events[0].data, json!({"thread_id": thread}));
    assert_eq!(
        events[1].data,
        json!({"thread_id": thread, "text": "Sounds like a long one."})
    );
    assert_eq!(fake.titles(), vec!["route"]);
}

#[actix_rt::test]
async fn a_scheduled_nudge_and_an_api_edit_appear_on_the_stream() {
    let bot = start_bot("nudges:\n  interval: 1h\n  quiet_hours: \"00:00-00:00\"\n").await;
    let task = bot
        .task(json!({"title": "Call mum", "deadline": "2026-11-22T09:00:00Z"}))
        .await;
    let mut stream = Stream::open(&bot, None).await;
    let nudged = bot.tick_nudger().await;
    assert_eq!(nudged.len(), 1);
    let events = stream.take(2).await;
    assert_eq!(kinds(&events), ["nudge", "message"]);
    assert_eq!(
        events[0].data["text"],
        "'Call mum' is overdue (due yesterday at 09:00). Done?"
    );
    assert_eq!(events[0].data["task_id"], json!(task));
    bot.patch(
        &format!("/api/tasks/{task}"),
        json!({"title": "Call mum back"}),
    )
    .await;
    let edited = stream.take(1).await;
    assert_eq!(
        edited[0].data,
        json!({"task_id": task, "change": "updated", "status": "backlog", "title": "Call mum back"})
    );
}

#[actix_rt::test]
async fn a_client_that_reconnects_with_its_last_id_gets_exactly_what_it_missed() {
    let bot = start_bot("").await;
    let mut stream = Stream::open(&bot, None).await;
    bot.nudged_task("Pay rent").await;
    let seen = stream.take(3).await;
    let last = seen[2].id.clone().needed();
    drop(stream);

    // While disconnected: a task, its nudge, and an answer in that thread.
    let (missed_task, missed_thread) = bot.nudged_task("Water plants").await;
    bot.say(&missed_thread, "done").await;

    let mut resumed = Stream::open(&bot, Some(&last)).await;
    let missed = resumed.take(5).await;
    assert_eq!(
        kinds(&missed),
        ["task", "nudge", "message", "task", "message"]
    );
    assert_eq!(missed[0].data["task_id"], json!(missed_task));
    assert_eq!(missed[3].data["status"], "done");
    assert_eq!(seq(&missed[0]), seq(&seen[2]) + 1, "none lost");
    // Then live events, with no repeat of the missed ones in between.
    let live = bot.task(json!({"title": "Live one"})).await;
    let next = resumed.take(1).await;
    assert_eq!(next[0].data["task_id"], json!(live));
    assert_eq!(seq(&next[0]), seq(&missed[4]) + 1, "no duplicates");
}

#[actix_rt::test]
async fn an_unknown_last_event_id_gets_a_reset_then_everything_kept() {
    let bot = start_bot("").await;
    bot.nudged_task("Pay rent").await;
    let mut stream = Stream::open(&bot, Some("0badc0de-7")).await;
    let events = stream.take(4).await;
    assert_eq!(kinds(&events), ["reset", "task", "nudge", "message"]);
    assert_eq!(
        events[0].id, None,
        "a reset does not move the client's last id"
    );
    assert_eq!(
        events[0].data,
        json!({"reason": "unknown_id", "last_event_id": "0badc0de-7"})
    );
    assert_eq!(
        events[2].data["text"],
        "Time for 'Pay rent'. How is it going: done, later, or busy?"
    );
}

#[actix_rt::test]
async fn the_stream_needs_the_bearer_token_when_one_is_configured() {
    let bot = start_bot_with("", TestEnv(vec![("DONNA_API_TOKEN", "s3cret")])).await;
    let refused = bot
        .client
        .get(format!("{}/api/events", bot.base))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(refused.status().as_u16(), 401);
    let allowed = bot
        .client
        .get(format!("{}/api/events", bot.base))
        .bearer_auth("s3cret")
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(allowed.status().as_u16(), 200);
}

#[actix_rt::test]
async fn the_stream_ends_when_donna_begins_to_stop() {
    let bot = start_bot("").await;
    let mut stream = Stream::open(&bot, None).await;
    bot.app.begin_draining();
    let ended = actix_rt::time::timeout(Duration::from_secs(10), stream.next()).await;
    assert_eq!(ended.ok(), Some(None), "the stream ended cleanly");
    let (status, _) = bot.get("/api/events").await;
    assert_eq!(status, 503, "no new subscriber while stopping");
}
