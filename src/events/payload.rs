//! The events of the stream and their JSON, exactly as `GET /api/events` sends them.
//!
//! Owns: the event types (`nudge`, `message`, `task`, `thinking`), the `reset` notice, and an event's id
//! (`<run>-<seq>`: the run is random per process, the sequence starts at 1).
//! Invariant: the `data` of an event holds only the fields documented in docs/operations.md's HTTP section
//! (a contract addition); a new field is an addition, a renamed one is a break.

use serde::Serialize;
use serde_json::Value;

/// What kind of change a `task` event reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskChange {
    /// The task was created (API, console, a turn's `create_task`).
    Created,
    /// Fields other than the status changed.
    Updated,
    /// The status changed (done, cancelled, ...), maybe with other fields.
    Status,
}

/// What happened. Times are not repeated here: the event is sent as it happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Payload {
    /// Donna nudged about a task (in a new thread or the task's open one).
    Nudge {
        task_id: String,
        thread_id: String,
        text: String,
        /// `local` or `discord`.
        channel: String,
    },
    /// Donna said something in a thread: a turn's reply or a nudge, whatever the channel.
    Message { thread_id: String, text: String },
    /// A task changed; `status` and `title` are the task's after the change.
    Task {
        task_id: String,
        change: TaskChange,
        status: String,
        title: String,
    },
    /// A turn in this thread is waiting for the model: Donna's answer is on its way (a page or
    /// a console shows "Donna is thinking" until her next `message` there). It reports no
    /// change; it is the only event sent before a turn commits.
    Thinking { thread_id: String },
}

impl Payload {
    /// The SSE `event:` name.
    pub fn kind(&self) -> &'static str {
        match self {
            Payload::Nudge { .. } => "nudge",
            Payload::Message { .. } => "message",
            Payload::Task { .. } => "task",
            Payload::Thinking { .. } => "thinking",
        }
    }
}

/// One published event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Position in this run's stream, from 1.
    pub seq: u64,
    /// `<run>-<seq>`: what a client sends back as `Last-Event-ID`.
    pub id: String,
    pub payload: Payload,
}

impl Event {
    /// The JSON of the SSE `data:` line (one line: JSON escapes newlines in strings).
    pub fn data(&self) -> String {
        serde_json::to_string(&self.payload).unwrap_or_else(|_| "{}".to_string())
    }
}

/// Why a subscriber is told it missed events (then it gets the ring's content).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResetReason {
    /// The `Last-Event-ID` is not one of this run's (another run, a typo, from the future).
    UnknownId,
    /// The id is this run's, but events after it have left the ring.
    TooOld,
    /// The subscriber read too slowly and events it had not read left the ring.
    Lagged,
}

impl ResetReason {
    /// The `data:` of a `reset` event.
    pub fn data(&self, last_event_id: Option<&str>) -> String {
        let value = serde_json::json!({ "reason": self, "last_event_id": last_event_id });
        Value::to_string(&value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_serializes_to_its_documented_fields_only() {
        let task = Event {
            seq: 3,
            id: "ab-3".into(),
            payload: Payload::Task {
                task_id: "tsk_1".into(),
                change: TaskChange::Status,
                status: "done".into(),
                title: "Pay rent".into(),
            },
        };
        assert_eq!(task.payload.kind(), "task");
        assert_eq!(
            task.data(),
            r#"{"task_id":"tsk_1","change":"status","status":"done","title":"Pay rent"}"#
        );
        let message = Payload::Message {
            thread_id: "thr_1".into(),
            text: "two\nlines".into(),
        };
        let json = serde_json::to_string(&message).unwrap_or_default();
        assert_eq!(json, r#"{"thread_id":"thr_1","text":"two\nlines"}"#);
        assert!(!json.contains('\n'), "one data line");
        let reset: Value =
            serde_json::from_str(&ResetReason::TooOld.data(Some("ab-1"))).unwrap_or_default();
        assert_eq!(
            reset,
            serde_json::json!({"reason": "too_old", "last_event_id": "ab-1"})
        );
    }
}
