//! The turn journal (issue 15): every model request and answer of a turn (retries and failures
//! included) and every planner tool call is stored with the turn, in call order, and pruned
//! with `memory.retention`. What a person debugging a surprising answer would look for: which
//! calls were made, what was sent, what came back, in which order.

use crate::common;
use crate::common::TestConfig;
use crate::common::{Fields, Needed};
use donna::config::LlmProvider;

use std::time::Duration;

use common::fake_llm::planner::{call, done, question};
use common::fake_llm::{out, start_fake_llm, FakeLlm, Script};
use common::{eventually, Bot};
use donna::conversation::turn_journal::{self, EntryKind, JournalEntry};
use serde_json::{json, Value};

async fn planner_bot(fake: &FakeLlm, extra: &str) -> Bot {
    TestConfig::yaml(extra)
        .with_llm(fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await
}

async fn journal_of(bot: &Bot, thread: &str, message: &str) -> Vec<JournalEntry> {
    let (thread, message) = (thread.to_string(), message.to_string());
    bot.app
        .store
        .read(move |conn| turn_journal::read(conn, &thread, &message))
        .await
        .unwrap_or_else(|e| panic!("read the journal: {e}"))
}

/// (kind, name) of each entry, in order.
fn calls(journal: &[JournalEntry]) -> Vec<(&'static str, String)> {
    journal
        .iter()
        .map(|entry| (entry.kind.as_str(), entry.name.clone()))
        .collect()
}

fn owned(list: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    list.iter()
        .map(|(kind, name)| (*kind, (*name).to_string()))
        .collect()
}

/// The texts of the messages a model entry sent.
fn sent(entry: &JournalEntry) -> Vec<String> {
    serde_json::from_str::<Vec<Value>>(&entry.request)
        .needed()
        .iter()
        .map(|message| message["content"].text().to_string())
        .collect()
}

#[actix_rt::test]
async fn a_planner_turn_with_two_tool_calls_stores_every_exchange_and_tool_output_in_order() {
    let fake = start_fake_llm();
    let bot = planner_bot(&fake, "").await;
    bot.task(json!({"title": "Dentist appointment", "deadline": "2026-11-27T09:00:00Z"}))
        .await;
    let thread = bot.free_thread().await;
    fake.push_for("route", question());
    fake.push_for("plan_step", call("get_task", json!({"task": "dentist"})));
    fake.push_for("plan_step", call("list_tasks", json!({"status": "open"})));
    fake.push_for("plan_step", done());
    fake.push_for("chat", out(json!({"reply_to_user": "Friday at 09:00."})));
    let (status, result) = bot
        .say_with_id(
            &thread,
            "What do I need to bring to the dentist?",
            "m-dentist",
        )
        .await;
    assert_eq!(status, 200, "{result}");
    assert_eq!(result["path"], "answer", "{result}");
    // The HTTP result is as before: the steps, no journal.
    assert_eq!(
        result["steps"].as_array().map(Vec::len),
        Some(2),
        "{result}"
    );
    assert!(result.get("journal").is_none(), "{result}");

    let journal = journal_of(&bot, &thread, "m-dentist").await;
    assert_eq!(
        calls(&journal),
        owned(&[
            ("model", "route"),
            ("model", "plan_step"),
            ("tool", "get_task"),
            ("model", "plan_step"),
            ("tool", "list_tasks"),
            ("model", "plan_step"),
            ("model", "chat"),
        ])
    );
    assert!(journal.iter().all(|entry| entry.ok), "{journal:?}");
    // What was sent: the question in every request; the first tool's output in the later ones.
    for entry in journal.iter().filter(|e| e.kind == EntryKind::Model) {
        assert!(
            sent(entry)
                .iter()
                .any(|text| text.contains("What do I need to bring to the dentist?")),
            "{entry:?}"
        );
    }
    let tool = &journal[2];
    assert_eq!(tool.request, json!({"task": "dentist"}).to_string());
    assert!(
        tool.response
            .as_deref()
            .is_some_and(|output| output.contains("Dentist appointment")),
        "{tool:?}"
    );
    assert!(
        sent(&journal[3])
            .iter()
            .any(|text| text.contains("Dentist appointment")),
        "the second step saw the first tool's output"
    );
    // What came back: the model's raw answers.
    assert_eq!(
        journal[1].response.as_deref(),
        Some(
            json!({"action": "call_tool", "tool": "get_task", "args": {"task": "dentist"}})
                .to_string()
                .as_str()
        )
    );
    assert_eq!(
        journal[6].response.as_deref(),
        Some(
            json!({"reply_to_user": "Friday at 09:00."})
                .to_string()
                .as_str()
        )
    );

    // A turn without a model (a rule command) stores no journal; the message is still handled.
    let (_, added) = bot.say_with_id(&thread, "add buy milk", "m-rule").await;
    assert_eq!(added["path"], "task_created", "{added}");
    assert!(journal_of(&bot, &thread, "m-rule").await.is_empty());
}

/// (kind, name, ok) of a journal entry.
type Call<'a> = (&'a str, &'a str, bool);

#[actix_rt::test]
async fn failed_model_calls_and_their_retries_are_stored_too() {
    let fake = start_fake_llm();
    let bot = planner_bot(&fake, "").await;
    let thread = bot.free_thread().await;
    // (message id, plan_step answers, the journal expected)
    let table: Vec<(&str, Vec<Script>, Vec<Call>)> = vec![
        (
            "server-error",
            vec![call("list_tasks", json!({})), Script::Status(500)],
            vec![
                ("model", "route", true),
                ("model", "plan_step", true),
                ("tool", "list_tasks", true),
                ("model", "plan_step", false),
            ],
        ),
        (
            "garbage-twice",
            vec![
                Script::Output("let me think".into()),
                Script::Output("{}".into()),
            ],
            // The model answered twice (the retry), with garbage both times.
            vec![
                ("model", "route", true),
                ("model", "plan_step", true),
                ("model", "plan_step", true),
            ],
        ),
    ];
    for (message, steps, expected) in table {
        fake.push_for("route", question());
        steps
            .into_iter()
            .for_each(|script| fake.push_for("plan_step", script));
        let (_, result) = bot
            .say_with_id(&thread, &format!("what is due? ({message})"), message)
            .await;
        assert_eq!(result["path"], "llm_unavailable", "{message}: {result}");
        let journal = journal_of(&bot, &thread, message).await;
        let found: Vec<Call> = journal
            .iter()
            .map(|e| (e.kind.as_str(), e.name.as_str(), e.ok))
            .collect();
        assert_eq!(found, expected, "{message}");
        let last = journal.last().unwrap_or_else(|| panic!("{message}: empty"));
        match message {
            "server-error" => {
                assert_eq!(last.response, None, "{last:?}");
                assert!(
                    last.error.as_deref().is_some_and(|e| e.contains("500")),
                    "{last:?}"
                );
            }
            _ => {
                assert_eq!(journal[1].response.as_deref(), Some("let me think"));
                assert_eq!(last.response.as_deref(), Some("{}"));
                // The retry shows the model its invalid answer.
                assert!(
                    sent(last).iter().any(|text| text.contains("let me think")),
                    "{last:?}"
                );
            }
        }
    }
}

#[actix_rt::test]
async fn a_turns_journal_is_pruned_with_its_memory_and_a_recent_one_stays() {
    let fake = start_fake_llm();
    let bot = planner_bot(&fake, "memory:\n  retention: 1d\n  prune_interval: 50ms\n").await;
    let thread = bot.free_thread().await;
    for message in ["old", "new"] {
        if message == "new" {
            bot.clock.advance(chrono::Duration::hours(36));
        }
        fake.push_for("route", question());
        fake.push_for("plan_step", done());
        fake.push_for("chat", out(json!({"reply_to_user": "Nothing is due."})));
        let (_, result) = bot
            .say_with_id(&thread, &format!("what is due? ({message})"), message)
            .await;
        assert_eq!(result["path"], "answer", "{result}");
        assert_eq!(journal_of(&bot, &thread, message).await.len(), 3);
    }
    // "old" is 36 hours old now, past the one-day retention; "new" is not.
    assert!(
        eventually(Duration::from_secs(5), || async {
            journal_of(&bot, &thread, "old").await.is_empty()
        })
        .await,
        "the old turn's journal was not pruned"
    );
    let path = format!("/api/threads/{thread}/messages");
    let left = bot.get(&path).await.1;
    assert_eq!(left.as_array().map(Vec::len), Some(2), "{left}");
    let kept = journal_of(&bot, &thread, "new").await;
    assert_eq!(kept.len(), 3);
    assert!(
        sent(&kept[0]).iter().any(|text| text.contains("(new)")),
        "the kept turn's request reads back whole: {kept:?}"
    );
    // The message texts are stored once each (`journal_texts`): those only the pruned turn
    // sent go with it (none is left that no entry refers to); the kept turn's stay.
    let unused_texts = || {
        bot.app.store.read(|conn| {
            Ok(conn.query_row(
                "SELECT COUNT(*) FROM journal_text WHERE hash NOT IN \
                 (SELECT json_extract(value, '$.text') FROM turn_journal, json_each(turn_journal.request) \
                  WHERE request_refs = 1)",
                [],
                |row| row.get::<_, i64>(0),
            )?)
        })
    };
    assert!(
        eventually(Duration::from_secs(5), || async {
            unused_texts().await.ok() == Some(0)
        })
        .await,
        "the pruned turn's own texts stayed"
    );
}
