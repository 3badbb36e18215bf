//! What the fake Discord remembers, behind one mutex never held across an `.await`: the gateway
//! connections and the session (its sequence numbers and the log a RESUME replays), what the
//! client sent (IDENTIFY, RESUME, heartbeats, closes), the REST requests and the faults queued
//! for them, the messages, threads and interactions it knows. And how an event is dispatched:
//! numbered in the session, written to the live connection or held for the next READY, and
//! dropped or blanked by the session's intents as Discord does.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use super::interactions;
use super::json::{id_field, message_id_of, message_json, unix_micros, user_json, MessageParts};
use super::{
    intents, FakeOptions, IdentifyRecord, IncomingMessage, RecordedRequest, ResumeRecord,
    BOT_USER_ID,
};

/// Milliseconds between the Unix epoch and Discord's epoch (2015-01-01), for snowflakes.
pub(super) const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

pub(super) struct Shared {
    pub(super) options: FakeOptions,
    pub(super) gateway_url: String,
    pub(super) inner: Mutex<Inner>,
}

impl Shared {
    /// A panic while the lock is held poisons it; the state is still good for assertions.
    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn resume_url(&self) -> String {
        format!("{}/resume", self.gateway_url)
    }
}

/// What a connection task is told to do by the test side.
pub(super) enum Control {
    /// Write this text frame.
    Frame(String),
    /// Send a close frame with this code, then wait for the client's answer.
    Close(u16, String),
    /// Drop the TCP connection without a close frame.
    Drop,
}

pub(super) struct LiveConnection {
    pub(super) conn_id: u64,
    pub(super) tx: mpsc::UnboundedSender<Control>,
}

pub(super) struct Session {
    pub(super) id: String,
    pub(super) intents: u64,
    pub(super) seq: u64,
    /// Every dispatch frame of the session with its sequence number, for replay on RESUME.
    pub(super) log: Vec<(u64, String)>,
}

#[derive(Clone, Copy)]
pub(super) enum Fault {
    Status(u16),
    RateLimited { retry_after: Duration, global: bool },
}

#[derive(Default)]
pub(super) struct Inner {
    pub(super) tasks: Vec<AbortHandle>,
    pub(super) next_conn_id: u64,
    pub(super) last_snowflake: u64,
    pub(super) session_counter: u64,
    // gateway
    pub(super) gateway_paths: Vec<String>,
    pub(super) open: HashMap<u64, mpsc::UnboundedSender<Control>>,
    pub(super) live: Option<LiveConnection>,
    pub(super) session: Option<Session>,
    /// Dispatches made before any session existed: sent after the next READY.
    pub(super) before_ready: Vec<(String, Value)>,
    pub(super) identifies: Vec<IdentifyRecord>,
    pub(super) resumes: Vec<ResumeRecord>,
    pub(super) heartbeats: usize,
    pub(super) client_closes: Vec<Option<u16>>,
    pub(super) dropped_by_intents: usize,
    pub(super) reject_identify: Option<u16>,
    pub(super) disallowed_intents: u64,
    pub(super) no_heartbeat_ack: bool,
    pub(super) gateway_down: bool,
    // rest
    pub(super) requests: Vec<RecordedRequest>,
    pub(super) faults: VecDeque<Fault>,
    pub(super) rest_down: bool,
    pub(super) unauthorized: bool,
    pub(super) messages: Vec<Value>,
    pub(super) sent: Vec<(u64, String)>,
    pub(super) threads: HashMap<u64, Value>,
    pub(super) channel_guilds: HashMap<u64, u64>,
    // interactions
    pub(super) interactions: Vec<interactions::InteractionState>,
    /// Every INTERACTION_CREATE dispatched, by interaction id (for a redelivery).
    pub(super) interaction_events: Vec<(u64, Value)>,
}

impl Inner {
    /// A fresh snowflake: Discord's layout (ms since 2015 << 22), strictly increasing.
    pub(super) fn snowflake(&mut self) -> u64 {
        let now_ms = u64::try_from(unix_micros() / 1000).unwrap_or(0);
        let candidate = now_ms.saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.last_snowflake = candidate.max(self.last_snowflake + 1);
        self.last_snowflake
    }

    pub(super) fn store_incoming(&mut self, message: &IncomingMessage) -> Value {
        let id = match message.id {
            Some(id) => id,
            None => self.snowflake(),
        };
        if let Some(guild_id) = message.guild_id {
            self.channel_guilds.insert(message.channel_id, guild_id);
        }
        let author = user_json(message.author_id, &message.author_name, message.author_bot);
        let mentions: Vec<Value> = message
            .mentions
            .iter()
            .map(|(id, name)| user_json(*id, name, *id == BOT_USER_ID))
            .collect();
        let mut value = message_json(MessageParts {
            id,
            channel_id: message.channel_id,
            guild_id: message.guild_id,
            author,
            content: &message.content,
            mentions,
            reply_to: message.reply_to,
        });
        if let (Some(webhook_id), Some(object)) = (message.webhook_id, value.as_object_mut()) {
            object.insert("webhook_id".into(), json!(webhook_id.to_string()));
        }
        // Discord sends a reply with the message it replies to (`referenced_message`, one level
        // deep), so a bot sees who wrote it.
        let referenced = message.reply_to.and_then(|reply_to| {
            self.messages
                .iter()
                .find(|stored| message_id_of(stored) == reply_to)
                .cloned()
        });
        if let (Some(mut referenced), Some(object)) = (referenced, value.as_object_mut()) {
            if let Some(inner) = referenced.as_object_mut() {
                inner.remove("referenced_message");
            }
            object.insert("referenced_message".into(), referenced);
        }
        self.messages.push(value.clone());
        value
    }

    /// Sends an event subject to the session's intents.
    pub(super) fn dispatch(&mut self, options: &FakeOptions, event_type: &str, data: Value) {
        match &self.session {
            Some(session) if options.enforce_intents => {
                match filter_for_intents(session.intents, event_type, data) {
                    Some(data) => self.queue_dispatch(event_type, data),
                    None => self.dropped_by_intents += 1,
                }
            }
            _ => self.queue_dispatch(event_type, data),
        }
    }

    /// Numbers the event in the session and writes it to the live connection, if any; without
    /// a session it waits for the next READY.
    pub(super) fn queue_dispatch(&mut self, event_type: &str, data: Value) {
        let Some(session) = self.session.as_mut() else {
            self.before_ready.push((event_type.to_owned(), data));
            return;
        };
        session.seq += 1;
        let frame = json!({"op": 0, "t": event_type, "s": session.seq, "d": data}).to_string();
        session.log.push((session.seq, frame.clone()));
        if let Some(live) = &self.live {
            let _ = live.tx.send(Control::Frame(frame));
        }
    }

    pub(super) fn guild_of(&self, channel_id: u64) -> Option<u64> {
        self.channel_guilds.get(&channel_id).copied()
    }
}

/// Discord's intent rules for the events the fake sends (THREAD_* need GUILDS; MESSAGE_CREATE
/// as described in the module docs); `None` means "not delivered".
pub(super) fn filter_for_intents(intents: u64, event_type: &str, mut data: Value) -> Option<Value> {
    if event_type.starts_with("THREAD_") {
        return (intents & intents::GUILDS != 0).then_some(data);
    }
    if event_type != "MESSAGE_CREATE" {
        return Some(data);
    }
    let in_guild = data.get("guild_id").is_some();
    let needed = if in_guild {
        intents::GUILD_MESSAGES
    } else {
        intents::DIRECT_MESSAGES
    };
    if intents & needed == 0 {
        return None;
    }
    let author_is_bot = id_field(&data["author"], "id") == Some(BOT_USER_ID);
    let mentions_bot = data["mentions"]
        .as_array()
        .is_some_and(|m| m.iter().any(|u| id_field(u, "id") == Some(BOT_USER_ID)));
    let content_visible =
        !in_guild || author_is_bot || mentions_bot || intents & intents::MESSAGE_CONTENT != 0;
    if !content_visible {
        if let Some(object) = data.as_object_mut() {
            object.insert("content".into(), json!(""));
            object.insert("embeds".into(), json!([]));
            object.insert("attachments".into(), json!([]));
        }
    }
    Some(data)
}
