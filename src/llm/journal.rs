//! A turn's journal while the turn runs: every model request and answer (retries included) and
//! every planner tool call, in call order, collected here and handed to the turn's commit
//! (`conversation::turn_journal` stores it). In `donna replay` the same journal also answers:
//! each model call from the recording, each tool call from the recorded output.
//!
//! How it travels: the turn runs inside [`within`] (a tokio task-local), the planner's tool
//! calls read it from there; a model call crosses into the LLMClassifier's own task, so the
//! message carries it (`LlmMsg::Journaled`) and the actor runs the call inside [`within`] too;
//! `LlmClient::complete` records every request it makes (and, replaying, makes none).
//!
//! Invariants:
//! - Entries are in the order the calls were made (one turn awaits one call at a time).
//! - Replaying, a model call is answered by the recorded call with the same schema title at
//!   the same position among the calls with that title; a call the recording does not have is
//!   answered as a model failure (and shows as a difference). A tool call is answered from the
//!   recording only when the recorded call at that position is the same tool with the same
//!   arguments; otherwise it runs live (on the replay's copy of the database).
//! - Replays are registered per (thread, message id) and taken by that turn only; the bot
//!   itself never registers one, so a live turn always records and never replays.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use parking_lot::Mutex;
use serde_json::Value;

use super::{ChatMessage, LlmError};
use crate::conversation::turn_journal::{cut, EntryKind, JournalEntry, TurnCalls};
use crate::planner::Observation;

tokio::task_local! {
    static CURRENT: TurnJournal;
}

/// The journal of the turn running in this task, if any.
pub fn current() -> Option<TurnJournal> {
    CURRENT.try_with(Clone::clone).ok()
}

/// Runs `future` with `journal` as the current one (or as it is, without one).
pub async fn within<F: Future>(journal: Option<TurnJournal>, future: F) -> F::Output {
    match journal {
        Some(journal) => CURRENT.scope(journal, future).await,
        None => future.await,
    }
}

/// The title a call is journaled under: its output schema's `title`, or `gate` for the
/// REPLY/SKIP gate (the one call without a schema).
pub fn call_title(schema: Option<&Value>) -> String {
    schema
        .and_then(|schema| schema.get("title"))
        .and_then(Value::as_str)
        .unwrap_or("gate")
        .to_string()
}

/// One turn's journal; clones share it.
#[derive(Debug, Clone, Default)]
pub struct TurnJournal(Arc<Mutex<Inner>>);

#[derive(Debug, Default)]
struct Inner {
    decided_at: Option<DateTime<Utc>>,
    entries: Vec<JournalEntry>,
    replay: Option<Replay>,
}

#[derive(Debug)]
struct Replay {
    recorded: Vec<JournalEntry>,
    /// How many model calls of each title were answered so far.
    asked: HashMap<String, usize>,
    /// How many tool calls were made so far.
    tools: usize,
}

impl TurnJournal {
    /// A journal that records a live turn.
    pub fn recording() -> Self {
        Self::default()
    }

    /// A journal that answers from `recorded` (and records the new run too).
    pub fn replaying(recorded: Vec<JournalEntry>) -> Self {
        let journal = Self::default();
        journal.0.lock().replay = Some(Replay {
            recorded,
            asked: HashMap::new(),
            tools: 0,
        });
        journal
    }

    pub fn is_replaying(&self) -> bool {
        self.0.lock().replay.is_some()
    }

    /// Replaying: the recorded answer to the next call titled `title` (a model failure when
    /// the recording has none). None when not replaying.
    pub fn replayed_answer(&self, title: &str) -> Option<Result<String, LlmError>> {
        let mut inner = self.0.lock();
        let replay = inner.replay.as_mut()?;
        let index = replay.asked.entry(title.to_string()).or_insert(0);
        let found = replay
            .recorded
            .iter()
            .filter(|entry| entry.kind == EntryKind::Model && entry.name == title)
            .nth(*index)
            .cloned();
        *index += 1;
        Some(match found {
            Some(JournalEntry {
                response: Some(answer),
                ok: true,
                ..
            }) => Ok(answer),
            Some(entry) => Err(LlmError::BadResponse(format!(
                "recorded failure: {}",
                entry.error.unwrap_or_default()
            ))),
            None => Err(LlmError::BadResponse(format!(
                "the recording has no {title} call here"
            ))),
        })
    }

    /// Records one model call: the messages sent and the answer, or why there was none.
    pub fn record_model(
        &self,
        title: &str,
        messages: &[ChatMessage],
        outcome: &Result<String, LlmError>,
    ) {
        let sent: Vec<ChatMessage> = messages
            .iter()
            .map(|message| ChatMessage {
                role: message.role.clone(),
                content: cut(&message.content),
            })
            .collect();
        let request = serde_json::to_string(&sent).unwrap_or_default();
        let (response, error) = match outcome {
            Ok(answer) => (Some(cut(answer)), None),
            Err(error) => (None, Some(error.to_string())),
        };
        self.0.lock().entries.push(JournalEntry {
            kind: EntryKind::Model,
            name: title.to_string(),
            request,
            ok: outcome.is_ok(),
            response,
            error,
        });
    }

    /// Replaying: the recorded observation for this tool call, when the recorded call at this
    /// position is the same tool with the same arguments. None otherwise (run it live).
    pub fn replayed_tool(&self, tool: &str, args: &Value) -> Option<Observation> {
        let mut inner = self.0.lock();
        let replay = inner.replay.as_mut()?;
        let position = replay.tools;
        replay.tools += 1;
        let recorded = replay
            .recorded
            .iter()
            .filter(|entry| entry.kind == EntryKind::Tool)
            .nth(position)?;
        let recorded_args: Value = serde_json::from_str(&recorded.request).ok()?;
        (recorded.name == tool && &recorded_args == args).then(|| Observation {
            tool: tool.to_string(),
            args: args.clone(),
            ok: recorded.ok,
            text: recorded.response.clone().unwrap_or_default(),
        })
    }

    /// Records one tool call with its whole output (cut at the journal's bound).
    pub fn record_tool(&self, observation: &Observation) {
        self.0.lock().entries.push(JournalEntry {
            kind: EntryKind::Tool,
            name: observation.tool.clone(),
            request: observation.args.to_string(),
            response: Some(cut(&observation.text)),
            ok: observation.ok,
            error: None,
        });
    }

    /// The turn's clock when it decided (its prompts' "now"; a replay runs at that time).
    pub fn decided(&self, at: DateTime<Utc>) {
        self.0.lock().decided_at = Some(at);
    }

    /// Whether the turn has already asked the model (or run a tool): its next call is a later
    /// one, served before other turns' first calls (`llm::slots`).
    pub fn has_calls(&self) -> bool {
        !self.0.lock().entries.is_empty()
    }

    /// The calls so far (the turn's commit stores them).
    pub fn calls(&self) -> TurnCalls {
        let inner = self.0.lock();
        TurnCalls {
            decided_at: inner.decided_at,
            entries: inner.entries.clone(),
        }
    }
}

/// A message: (thread id, message id).
type MessageKey = (String, String);

/// Recordings registered for replay, by message. Empty in the running bot.
#[derive(Debug, Clone, Default)]
pub struct Replays(Arc<Mutex<HashMap<MessageKey, Vec<JournalEntry>>>>);

impl Replays {
    /// The next turn of `message_id` in `thread_id` answers from `recorded`.
    pub fn register(&self, thread_id: &str, message_id: &str, recorded: Vec<JournalEntry>) {
        self.0
            .lock()
            .insert((thread_id.to_string(), message_id.to_string()), recorded);
    }

    /// The journal for a turn starting now: replaying when one was registered for it,
    /// recording otherwise.
    pub fn journal_for(&self, thread_id: &str, message_id: &str) -> TurnJournal {
        let key = (thread_id.to_string(), message_id.to_string());
        match self.0.lock().remove(&key) {
            Some(recorded) => TurnJournal::replaying(recorded),
            None => TurnJournal::recording(),
        }
    }
}
