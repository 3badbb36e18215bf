//! A fake Discord on loopback, so integration tests can drive the REAL twilight clients
//! (`twilight-gateway`'s `Shard` and `twilight-http`'s `Client`) without the network.
//!
//! What it fakes:
//! - The **gateway** (v10, JSON text frames, no compression): HELLO, IDENTIFY → READY, RESUME →
//!   (replay of missed dispatches) → RESUMED, heartbeat → ACK, op 7 RECONNECT, op 9 INVALID
//!   SESSION for an unknown session, close codes on demand. One bot session at a time: every
//!   dispatch gets the next sequence number of that session and is kept in a log, so a resume
//!   replays exactly what the client had not yet seen, as Discord does.
//! - **Intents**, because a bot that forgets one works against the fake and fails in
//!   production: guild messages need `GUILD_MESSAGES`, DMs need `DIRECT_MESSAGES`, and guild
//!   message content is blanked without `MESSAGE_CONTENT` unless the bot is mentioned.
//! - The **REST API** (`/api/v10/...`, plain HTTP for `twilight_http::Client::builder()
//!   .proxy(addr, true)`): create message, start a thread from a message, patch a channel
//!   (e.g. unarchive), get a channel, list channel messages (`after`/`before`/`limit`), the
//!   current user, `gateway` and `gateway/bot`. Every request is recorded with its method, path,
//!   query, JSON body, `Authorization` header, the status answered and when it arrived.
//! - **Faults**: 5xx answers, 429 with Discord's rate-limit headers (per-route or global), a 401,
//!   a REST outage (connections dropped without an answer) and a gateway outage.
//!
//! - **Interactions**: button clicks and slash commands as INTERACTION_CREATE, their callback
//!   and webhook routes, command registration, message edits and typing.
//!
//! Limits: one shard and one bot user; no zlib/zstd compression; no guilds in READY (`guilds`
//! is empty and no GUILD_CREATE follows); no permissions, members or roles; message history is
//! whatever the test dispatched, inserted or the bot sent; no rate limiting unless a test asks
//! for it; no archived-thread or permission rules (posting into an archived thread succeeds);
//! no `member` object on guild messages; only the routes listed above (anything else answers
//! 404 `{"message","code"}`). A thread started from a message gets the message's id, as on
//! Discord, and a second thread on the same message is refused (400, code 160004).
//! Without a live session, dispatches are held and delivered on the next READY / replayed on
//! RESUME (a fresh IDENTIFY after a session was lost does not get them, as on Discord).
//!
//! Everything runs on tasks spawned with `tokio::spawn` and never blocks, so it works under
//! `#[tokio::test]` and `#[actix_rt::test]` (current-thread runtime + `LocalSet`) alike.
//! Dropping the [`FakeDiscord`] aborts all of its tasks.
//!
//! One concept per file, like the app's own `discord/`: this one is the facade (the
//! [`FakeDiscord`] handle and its addresses, `start_fake_discord*`, [`FakeOptions`], the records a
//! test reads: [`IdentifyRecord`], [`ResumeRecord`], [`RecordedRequest`], [`IncomingMessage`]);
//! `state.rs` what the fake remembers, and how a dispatch is numbered, held and filtered by
//! intents; `gateway.rs` the WebSocket session and the test's gateway observations and controls;
//! `rest.rs` the HTTP server, its faults and its routing, and the test's REST observations and
//! controls; `channels.rs` the message and thread routes; `interactions.rs` clicks, slash
//! commands and their routes; `json.rs` Discord's JSON shapes and timestamps.

#![allow(dead_code)]

// `mod.rs`, so these resolve next to it whether `tests/common` or a bench (by `#[path]`)
// includes it.
mod channels;
mod gateway;
mod interactions;
mod json;
mod rest;
mod state;

// Not every test binary that includes `common` clicks or types a command.
#[allow(unused_imports)]
pub use interactions::{Click, SentInteraction, SlashCommand};

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::net::TcpListener;

use gateway::accept_gateway;
use rest::accept_rest;
use state::{Inner, Shared};

/// The bot's user id in READY, `users/@me` and as the author of messages it sends.
pub const BOT_USER_ID: u64 = 1000;
/// The application id in READY.
pub const APPLICATION_ID: u64 = 1001;
/// The bot's username.
pub const BOT_USERNAME: &str = "Donna";

/// Gateway intent bits the fake enforces (Discord's values).
pub mod intents {
    pub const GUILDS: u64 = 1 << 0;
    pub const GUILD_MESSAGES: u64 = 1 << 9;
    pub const DIRECT_MESSAGES: u64 = 1 << 12;
    pub const MESSAGE_CONTENT: u64 = 1 << 15;
}

/// How the fake behaves from the start; everything else is switched at run time.
#[derive(Clone, Debug)]
pub struct FakeOptions {
    /// Sent in HELLO. Discord's is 41.25 s; a test of heartbeats wants a few hundred ms.
    pub heartbeat_interval: Duration,
    /// Send MESSAGE_CREATE / THREAD_CREATE over the gateway for what the bot creates over REST,
    /// as Discord does: a bot must not answer its own messages.
    pub echo_rest_events: bool,
    /// Drop or blank events the session's intents do not cover, as Discord does.
    pub enforce_intents: bool,
}

impl Default for FakeOptions {
    fn default() -> Self {
        Self {
            heartbeat_interval: Duration::from_millis(41_250),
            echo_rest_events: true,
            enforce_intents: true,
        }
    }
}

/// What an IDENTIFY carried.
#[derive(Clone, Debug)]
pub struct IdentifyRecord {
    /// Exactly as sent, e.g. `"Bot abc"` (twilight adds the `Bot ` prefix).
    pub token: String,
    pub intents: u64,
    /// `[shard_id, shard_count]` if sent.
    pub shard: Option<[u64; 2]>,
    pub compress: bool,
    /// The whole `d` object.
    pub raw: Value,
}

/// What a RESUME carried.
#[derive(Clone, Debug)]
pub struct ResumeRecord {
    pub token: String,
    pub session_id: String,
    pub seq: u64,
}

/// One REST request as the fake saw it.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    pub method: String,
    /// Full path, e.g. `/api/v10/channels/5/messages`.
    pub path: String,
    pub query: Option<String>,
    /// Parsed JSON body, if the body was JSON.
    pub body: Option<Value>,
    pub authorization: Option<String>,
    /// Status answered; `None` when the fake was down and dropped the connection.
    pub status: Option<u16>,
    /// When the request arrived, to check that a client waited long enough.
    pub at: Instant,
}

/// A user message for [`FakeDiscord::dispatch_message_create`] or
/// [`FakeDiscord::insert_message`].
#[derive(Clone, Debug)]
pub struct IncomingMessage {
    /// Fresh snowflake if `None`.
    pub id: Option<u64>,
    pub channel_id: u64,
    /// `None` for a DM: the field is then absent, as on Discord.
    pub guild_id: Option<u64>,
    pub author_id: u64,
    pub author_name: String,
    pub author_bot: bool,
    pub content: String,
    /// `(user_id, username)` of mentioned users.
    pub mentions: Vec<(u64, String)>,
    pub webhook_id: Option<u64>,
    /// A reply to this message id (type 19 with a `message_reference`).
    pub reply_to: Option<u64>,
}

impl IncomingMessage {
    /// A message from a human in a guild channel.
    pub fn guild(guild_id: u64, channel_id: u64, author_id: u64, content: &str) -> Self {
        Self {
            id: None,
            channel_id,
            guild_id: Some(guild_id),
            author_id,
            author_name: format!("user{author_id}"),
            author_bot: false,
            content: content.to_owned(),
            mentions: Vec::new(),
            webhook_id: None,
            reply_to: None,
        }
    }

    /// A direct message from a human.
    pub fn dm(channel_id: u64, author_id: u64, content: &str) -> Self {
        Self {
            guild_id: None,
            ..Self::guild(0, channel_id, author_id, content)
        }
    }

    pub fn id(mut self, id: u64) -> Self {
        self.id = Some(id);
        self
    }

    pub fn author_name(mut self, name: &str) -> Self {
        self.author_name = name.to_owned();
        self
    }

    /// The author is a bot (another bot, or the bot itself with [`BOT_USER_ID`]).
    pub fn by_bot(mut self) -> Self {
        self.author_bot = true;
        self
    }

    /// Mentions the bot, which also lets the content through without `MESSAGE_CONTENT`.
    pub fn mentioning_bot(mut self) -> Self {
        self.mentions.push((BOT_USER_ID, BOT_USERNAME.to_owned()));
        self
    }

    pub fn mentioning(mut self, user_id: u64, username: &str) -> Self {
        self.mentions.push((user_id, username.to_owned()));
        self
    }

    pub fn webhook(mut self, webhook_id: u64) -> Self {
        self.webhook_id = Some(webhook_id);
        self
    }

    pub fn reply_to(mut self, message_id: u64) -> Self {
        self.reply_to = Some(message_id);
        self
    }
}

/// A running fake. Cheap to query from the test; all state sits behind one mutex that is never
/// held across an `.await`.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    gateway_addr: SocketAddr,
    rest_addr: SocketAddr,
}

/// Starts a fake Discord with [`FakeOptions::default`].
pub async fn start_fake_discord() -> FakeDiscord {
    start_fake_discord_with(FakeOptions::default()).await
}

/// Binds the gateway and the REST server on `127.0.0.1:0` and serves both in spawned tasks.
pub async fn start_fake_discord_with(options: FakeOptions) -> FakeDiscord {
    let gateway = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("fake discord: bind gateway: {e}"));
    let rest = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("fake discord: bind rest: {e}"));
    let gateway_addr = gateway
        .local_addr()
        .unwrap_or_else(|e| panic!("fake discord: gateway addr: {e}"));
    let rest_addr = rest
        .local_addr()
        .unwrap_or_else(|e| panic!("fake discord: rest addr: {e}"));
    let shared = Arc::new(Shared {
        options,
        gateway_url: format!("ws://{gateway_addr}"),
        inner: Mutex::new(Inner::default()),
    });
    let gateway_task = tokio::spawn(accept_gateway(Arc::clone(&shared), gateway));
    let rest_task = tokio::spawn(accept_rest(Arc::clone(&shared), rest));
    {
        let mut inner = shared.lock();
        inner.tasks.push(gateway_task.abort_handle());
        inner.tasks.push(rest_task.abort_handle());
    }
    FakeDiscord {
        shared,
        gateway_addr,
        rest_addr,
    }
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for task in self.shared.lock().tasks.drain(..) {
            task.abort();
        }
    }
}

impl FakeDiscord {
    // ---- addresses -------------------------------------------------------------------------

    /// `ws://127.0.0.1:PORT`, for `ConfigBuilder::proxy_url`.
    pub fn gateway_url(&self) -> String {
        self.shared.gateway_url.clone()
    }

    /// The URL READY hands out as `resume_gateway_url`: the same server, but a distinct path so
    /// a test can see that a client resumed there ([`FakeDiscord::gateway_paths`]).
    pub fn resume_gateway_url(&self) -> String {
        format!("{}/resume", self.shared.gateway_url)
    }

    /// `127.0.0.1:PORT`, for `twilight_http::Client::builder().proxy(addr, true)`.
    pub fn rest_addr(&self) -> String {
        self.rest_addr.to_string()
    }

    pub fn gateway_addr(&self) -> SocketAddr {
        self.gateway_addr
    }

    // ---- waiting ---------------------------------------------------------------------------

    /// Polls `condition` until it holds, panicking with `what` after `timeout`.
    pub async fn wait_until(
        &self,
        what: &str,
        timeout: Duration,
        mut condition: impl FnMut(&FakeDiscord) -> bool,
    ) {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if condition(self) {
                return;
            }
            if tokio::time::Instant::now() >= deadline {
                panic!("fake discord: timed out after {timeout:?} waiting for {what}");
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
