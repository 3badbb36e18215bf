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
//! - **Interactions** (`interactions`): button clicks and slash commands as INTERACTION_CREATE,
//!   their callback and webhook routes, command registration, message edits and typing.
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

#![allow(dead_code)]

// A path relative to this file: benches include `tests/common` by path too.
#[path = "fake_discord/interactions.rs"]
mod interactions;

// Not every test binary that includes `common` clicks or types a command.
#[allow(unused_imports)]
pub use interactions::{Click, SentInteraction, SlashCommand};

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderName, HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::AbortHandle;
use tokio_websockets::{CloseCode, Message as WsMessage, ServerBuilder};

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

/// Milliseconds between the Unix epoch and Discord's epoch (2015-01-01), for snowflakes.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

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

    // ---- gateway: observations -------------------------------------------------------------

    /// WebSocket handshakes accepted so far.
    pub fn connections(&self) -> usize {
        self.shared.lock().gateway_paths.len()
    }

    /// Request path and query of every accepted handshake, e.g. `/?v=10&encoding=json` or
    /// `/resume/?v=10&encoding=json`.
    pub fn gateway_paths(&self) -> Vec<String> {
        self.shared.lock().gateway_paths.clone()
    }

    pub fn identify_count(&self) -> usize {
        self.shared.lock().identifies.len()
    }

    pub fn identifies(&self) -> Vec<IdentifyRecord> {
        self.shared.lock().identifies.clone()
    }

    pub fn resume_count(&self) -> usize {
        self.shared.lock().resumes.len()
    }

    pub fn resumes(&self) -> Vec<ResumeRecord> {
        self.shared.lock().resumes.clone()
    }

    pub fn heartbeat_count(&self) -> usize {
        self.shared.lock().heartbeats
    }

    /// Close codes the client sent (`None`: a close frame without a code).
    pub fn client_close_codes(&self) -> Vec<Option<u16>> {
        self.shared.lock().client_closes.clone()
    }

    /// Whether a connection currently holds an identified (READY or RESUMED) session.
    pub fn has_live_session(&self) -> bool {
        self.shared.lock().live.is_some()
    }

    /// Current session id, if the client identified.
    pub fn session_id(&self) -> Option<String> {
        self.shared.lock().session.as_ref().map(|s| s.id.clone())
    }

    /// Events withheld because the session's intents did not cover them.
    pub fn dropped_by_intents(&self) -> usize {
        self.shared.lock().dropped_by_intents
    }

    // ---- gateway: controls -----------------------------------------------------------------

    /// Sends a MESSAGE_CREATE (and stores the message for `GET .../messages`). Returns its id.
    /// Without a live session the event waits for the next READY / is replayed on RESUME.
    pub fn dispatch_message_create(&self, message: IncomingMessage) -> u64 {
        let mut inner = self.shared.lock();
        let value = inner.store_incoming(&message);
        let id = message_id_of(&value);
        inner.dispatch(&self.shared.options, "MESSAGE_CREATE", value);
        id
    }

    /// Stores a message without dispatching it: one posted while the bot was offline, for a
    /// catch-up through `GET /channels/{id}/messages?after=`. Returns its id.
    pub fn insert_message(&self, message: IncomingMessage) -> u64 {
        let value = self.shared.lock().store_incoming(&message);
        message_id_of(&value)
    }

    /// Sends any dispatch event (`t`, `d`), e.g. THREAD_UPDATE. Intents are not checked.
    pub fn dispatch_raw(&self, event_type: &str, data: Value) {
        let mut inner = self.shared.lock();
        inner.queue_dispatch(event_type, data);
    }

    /// Sends op 7 RECONNECT on the live connection. Events dispatched from now on are held and
    /// replayed when the client resumes. Panics if no connection holds a session.
    #[track_caller]
    pub fn send_reconnect(&self) {
        let mut inner = self.shared.lock();
        let Some(live) = inner.live.take() else {
            panic!("fake discord: send_reconnect without an identified gateway connection");
        };
        let frame = json!({"op": 7, "d": null, "s": null, "t": null});
        let _ = live.tx.send(Control::Frame(frame.to_string()));
    }

    /// Sends op 9 INVALID SESSION (`resumable` as given) on the live connection.
    #[track_caller]
    pub fn send_invalid_session(&self, resumable: bool) {
        let mut inner = self.shared.lock();
        let Some(live) = inner.live.take() else {
            panic!("fake discord: send_invalid_session without an identified connection");
        };
        if !resumable {
            inner.session = None;
        }
        let frame = json!({"op": 9, "d": resumable, "s": null, "t": null});
        let _ = live.tx.send(Control::Frame(frame.to_string()));
    }

    /// Closes every open gateway connection with `code` (e.g. 4000 unknown error: the client
    /// resumes; 4004 authentication failed or 4014 disallowed intents: it must give up).
    pub fn close_with(&self, code: u16) {
        let mut inner = self.shared.lock();
        inner.live = None;
        for tx in inner.open.values() {
            let _ = tx.send(Control::Close(code, close_reason(code).to_owned()));
        }
    }

    /// Answers the next IDENTIFY by closing with `code` instead of READY (e.g. 4004 for a bad
    /// token, which Discord reports right after IDENTIFY).
    pub fn reject_next_identify(&self, code: u16) {
        self.shared.lock().reject_identify = Some(code);
    }

    /// Closes with 4014 any IDENTIFY asking for one of these (privileged) intents, as Discord
    /// does when they are not enabled for the application.
    pub fn set_disallowed_intents(&self, mask: u64) {
        self.shared.lock().disallowed_intents = mask;
    }

    /// Drops every open gateway TCP connection without a close frame (a network cut).
    pub fn drop_connections(&self) {
        let mut inner = self.shared.lock();
        inner.live = None;
        for tx in inner.open.values() {
            let _ = tx.send(Control::Drop);
        }
    }

    /// Whether to answer heartbeats; off makes the connection look "zombied" to the client.
    pub fn set_heartbeat_ack(&self, ack: bool) {
        self.shared.lock().no_heartbeat_ack = !ack;
    }

    /// While down, new gateway TCP connections are closed right after they are accepted.
    pub fn set_gateway_down(&self, down: bool) {
        self.shared.lock().gateway_down = down;
    }

    // ---- REST: observations ----------------------------------------------------------------

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// Requests with this method whose path (without `/api/v10`) starts with `path_prefix`.
    pub fn requests_to(&self, method: &str, path_prefix: &str) -> Vec<RecordedRequest> {
        self.shared
            .lock()
            .requests
            .iter()
            .filter(|r| {
                r.method == method
                    && r.path
                        .strip_prefix("/api/v10")
                        .is_some_and(|p| p.starts_with(path_prefix))
            })
            .cloned()
            .collect()
    }

    /// `(channel_id, content)` of every message the bot created successfully, in order.
    pub fn sent_messages(&self) -> Vec<(u64, String)> {
        self.shared.lock().sent.clone()
    }

    /// Every message the fake knows in a channel (dispatched, inserted or sent), oldest first;
    /// not the answers to interactions (`FakeDiscord::message` finds those).
    pub fn channel_messages(&self, channel_id: u64) -> Vec<Value> {
        self.shared
            .lock()
            .messages
            .iter()
            .filter(|m| id_field(m, "channel_id") == Some(channel_id))
            .filter(|m| m.get("interaction_response").is_none())
            .cloned()
            .collect()
    }

    /// The thread channel JSON, if the fake knows it.
    pub fn thread(&self, thread_id: u64) -> Option<Value> {
        self.shared.lock().threads.get(&thread_id).cloned()
    }

    // ---- REST: controls --------------------------------------------------------------------

    /// Answers the next `n` requests with `status` and a Discord error body.
    pub fn fail_next(&self, n: usize, status: u16) {
        let mut inner = self.shared.lock();
        inner.faults.extend((0..n).map(|_| Fault::Status(status)));
    }

    /// Answers the next request with a per-route 429 (`x-ratelimit-scope: user`,
    /// `x-ratelimit-remaining: 0`, `x-ratelimit-reset-after`, `retry-after`, bucket).
    pub fn rate_limit_next(&self, retry_after: Duration) {
        self.shared.lock().faults.push_back(Fault::RateLimited {
            retry_after,
            global: false,
        });
    }

    /// Answers the next request with a global 429 (`x-ratelimit-global: true`,
    /// `x-ratelimit-scope: global`, `retry-after`).
    pub fn rate_limit_global_next(&self, retry_after: Duration) {
        self.shared.lock().faults.push_back(Fault::RateLimited {
            retry_after,
            global: true,
        });
    }

    /// While down, REST connections are dropped without an answer (new ones right after
    /// accept, kept-alive ones on their next request): the client sees a transport error. For a
    /// "soft" outage answer with 503s via [`FakeDiscord::fail_next`] instead.
    pub fn set_down(&self, down: bool) {
        self.shared.lock().rest_down = down;
    }

    /// While on, every request is answered 401 (a revoked token).
    pub fn set_unauthorized(&self, unauthorized: bool) {
        self.shared.lock().unauthorized = unauthorized;
    }

    /// Registers a thread (e.g. an archived one created before the test) so PATCH / GET on it
    /// work.
    pub fn add_thread(&self, thread_id: u64, parent_id: u64, guild_id: u64, archived: bool) {
        let mut inner = self.shared.lock();
        let thread = thread_json(
            thread_id,
            parent_id,
            Some(guild_id),
            "thread",
            1440,
            archived,
        );
        inner.channel_guilds.insert(thread_id, guild_id);
        inner.channel_guilds.insert(parent_id, guild_id);
        inner.threads.insert(thread_id, thread);
    }
}

// ---- shared state ----------------------------------------------------------------------------

struct Shared {
    options: FakeOptions,
    gateway_url: String,
    inner: Mutex<Inner>,
}

impl Shared {
    /// A panic while the lock is held poisons it; the state is still good for assertions.
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn resume_url(&self) -> String {
        format!("{}/resume", self.gateway_url)
    }
}

/// What a connection task is told to do by the test side.
enum Control {
    /// Write this text frame.
    Frame(String),
    /// Send a close frame with this code, then wait for the client's answer.
    Close(u16, String),
    /// Drop the TCP connection without a close frame.
    Drop,
}

struct LiveConnection {
    conn_id: u64,
    tx: mpsc::UnboundedSender<Control>,
}

struct Session {
    id: String,
    intents: u64,
    seq: u64,
    /// Every dispatch frame of the session with its sequence number, for replay on RESUME.
    log: Vec<(u64, String)>,
}

#[derive(Clone, Copy)]
enum Fault {
    Status(u16),
    RateLimited { retry_after: Duration, global: bool },
}

#[derive(Default)]
struct Inner {
    tasks: Vec<AbortHandle>,
    next_conn_id: u64,
    last_snowflake: u64,
    session_counter: u64,
    // gateway
    gateway_paths: Vec<String>,
    open: HashMap<u64, mpsc::UnboundedSender<Control>>,
    live: Option<LiveConnection>,
    session: Option<Session>,
    /// Dispatches made before any session existed: sent after the next READY.
    before_ready: Vec<(String, Value)>,
    identifies: Vec<IdentifyRecord>,
    resumes: Vec<ResumeRecord>,
    heartbeats: usize,
    client_closes: Vec<Option<u16>>,
    dropped_by_intents: usize,
    reject_identify: Option<u16>,
    disallowed_intents: u64,
    no_heartbeat_ack: bool,
    gateway_down: bool,
    // rest
    requests: Vec<RecordedRequest>,
    faults: VecDeque<Fault>,
    rest_down: bool,
    unauthorized: bool,
    messages: Vec<Value>,
    sent: Vec<(u64, String)>,
    threads: HashMap<u64, Value>,
    channel_guilds: HashMap<u64, u64>,
    // interactions
    interactions: Vec<interactions::InteractionState>,
    /// Every INTERACTION_CREATE dispatched, by interaction id (for a redelivery).
    interaction_events: Vec<(u64, Value)>,
}

impl Inner {
    /// A fresh snowflake: Discord's layout (ms since 2015 << 22), strictly increasing.
    fn snowflake(&mut self) -> u64 {
        let now_ms = u64::try_from(unix_micros() / 1000).unwrap_or(0);
        let candidate = now_ms.saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.last_snowflake = candidate.max(self.last_snowflake + 1);
        self.last_snowflake
    }

    fn store_incoming(&mut self, message: &IncomingMessage) -> Value {
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
    fn dispatch(&mut self, options: &FakeOptions, event_type: &str, data: Value) {
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
    fn queue_dispatch(&mut self, event_type: &str, data: Value) {
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

    fn guild_of(&self, channel_id: u64) -> Option<u64> {
        self.channel_guilds.get(&channel_id).copied()
    }
}

/// Discord's intent rules for the events the fake sends (THREAD_* need GUILDS; MESSAGE_CREATE
/// as described in the module docs); `None` means "not delivered".
fn filter_for_intents(intents: u64, event_type: &str, mut data: Value) -> Option<Value> {
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

// ---- gateway server ----------------------------------------------------------------------------

async fn accept_gateway(shared: Arc<Shared>, listener: TcpListener) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // E.g. out of file descriptors: back off rather than spin the test's runtime.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        if shared.lock().gateway_down {
            drop(stream);
            continue;
        }
        let task = tokio::spawn(serve_gateway(Arc::clone(&shared), stream));
        let mut inner = shared.lock();
        inner.tasks.retain(|t| !t.is_finished());
        inner.tasks.push(task.abort_handle());
    }
}

async fn serve_gateway(shared: Arc<Shared>, stream: TcpStream) {
    let Ok((request, mut ws)) = ServerBuilder::new().accept(stream).await else {
        return;
    };
    let path = request
        .uri()
        .path_and_query()
        .map_or_else(|| request.uri().to_string(), ToString::to_string);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let conn_id = {
        let mut inner = shared.lock();
        inner.gateway_paths.push(path);
        inner.next_conn_id += 1;
        let id = inner.next_conn_id;
        inner.open.insert(id, tx.clone());
        id
    };
    let heartbeat_ms =
        u64::try_from(shared.options.heartbeat_interval.as_millis()).unwrap_or(u64::MAX);
    let hello = json!({
        "op": 10,
        "d": {
            "heartbeat_interval": heartbeat_ms,
            "_trace": ["[\"fake-discord-gateway\"]"],
        },
        "s": null,
        "t": null,
    });
    let mut closing = false;
    if ws.send(WsMessage::text(hello.to_string())).await.is_ok() {
        loop {
            tokio::select! {
                incoming = ws.next() => {
                    let Some(Ok(message)) = incoming else { break };
                    if let Some(text) = message.as_text() {
                        let replies = on_client_frame(&shared, conn_id, &tx, text);
                        let mut failed = false;
                        for reply in replies {
                            let outcome = match reply {
                                Reply::Frame(frame) => ws.send(WsMessage::text(frame)).await,
                                Reply::Close(code, reason) => {
                                    closing = true;
                                    let code = CloseCode::try_from(code).ok();
                                    ws.send(WsMessage::close(code, &reason)).await
                                }
                            };
                            failed |= outcome.is_err();
                        }
                        if failed {
                            break;
                        }
                    } else if let Some((code, _reason)) = message.as_close() {
                        let code = u16::from(code);
                        // tokio-websockets answers the close itself; 1005 means "no code sent".
                        shared.lock().client_closes.push((code != 1005).then_some(code));
                        closing = true;
                    }
                }
                control = rx.recv(), if !closing => {
                    let outcome = match control {
                        Some(Control::Frame(frame)) => ws.send(WsMessage::text(frame)).await,
                        Some(Control::Close(code, reason)) => {
                            closing = true;
                            let code = CloseCode::try_from(code).ok();
                            ws.send(WsMessage::close(code, &reason)).await
                        }
                        Some(Control::Drop) | None => break,
                    };
                    if outcome.is_err() {
                        break;
                    }
                }
            }
        }
    }
    let mut inner = shared.lock();
    inner.open.remove(&conn_id);
    if inner.live.as_ref().is_some_and(|l| l.conn_id == conn_id) {
        inner.live = None;
    }
}

/// What the connection task writes in answer to a client frame.
enum Reply {
    Frame(String),
    Close(u16, String),
}

/// Handles one client payload under the lock and returns the frames to write, in order. Frames
/// that carry a sequence number are numbered here, so they can never overtake later dispatches.
fn on_client_frame(
    shared: &Shared,
    conn_id: u64,
    tx: &mpsc::UnboundedSender<Control>,
    text: &str,
) -> Vec<Reply> {
    let Ok(payload) = serde_json::from_str::<Value>(text) else {
        return vec![Reply::Close(4002, close_reason(4002).to_owned())];
    };
    let data = &payload["d"];
    let mut inner = shared.lock();
    match payload["op"].as_u64() {
        Some(1) => {
            inner.heartbeats += 1;
            if inner.no_heartbeat_ack {
                Vec::new()
            } else {
                vec![Reply::Frame(
                    json!({"op": 11, "d": null, "s": null, "t": null}).to_string(),
                )]
            }
        }
        Some(2) => {
            let record = IdentifyRecord {
                token: data["token"].as_str().unwrap_or_default().to_owned(),
                intents: data["intents"].as_u64().unwrap_or(0),
                shard: data["shard"]
                    .as_array()
                    .and_then(|s| Some([s.first()?.as_u64()?, s.get(1)?.as_u64()?])),
                compress: data["compress"].as_bool().unwrap_or(false),
                raw: data.clone(),
            };
            let intents = record.intents;
            let shard = record.shard;
            inner.identifies.push(record);
            if let Some(code) = inner.reject_identify.take() {
                return vec![Reply::Close(code, close_reason(code).to_owned())];
            }
            if intents & inner.disallowed_intents != 0 {
                return vec![Reply::Close(4014, close_reason(4014).to_owned())];
            }
            inner.session_counter += 1;
            let session_id = format!("fake-session-{}", inner.session_counter);
            let ready = json!({
                "v": 10,
                "user": current_user_json(),
                "guilds": [],
                "session_id": session_id,
                "session_type": "normal",
                "resume_gateway_url": shared.resume_url(),
                "shard": shard,
                "application": {"id": APPLICATION_ID.to_string(), "flags": 0},
                "_trace": ["[\"fake-discord-session\"]"],
            });
            let ready_frame = json!({"op": 0, "t": "READY", "s": 1, "d": ready}).to_string();
            inner.session = Some(Session {
                id: session_id,
                intents,
                seq: 1,
                log: vec![(1, ready_frame.clone())],
            });
            inner.live = Some(LiveConnection {
                conn_id,
                tx: tx.clone(),
            });
            // Events dispatched before any session go to this connection's queue, which the
            // task drains only after it has written READY.
            for (event_type, data) in std::mem::take(&mut inner.before_ready) {
                inner.dispatch(&shared.options, &event_type, data);
            }
            vec![Reply::Frame(ready_frame)]
        }
        Some(6) => {
            let record = ResumeRecord {
                token: data["token"].as_str().unwrap_or_default().to_owned(),
                session_id: data["session_id"].as_str().unwrap_or_default().to_owned(),
                seq: data["seq"].as_u64().unwrap_or(0),
            };
            let resumable = inner
                .session
                .as_ref()
                .is_some_and(|s| s.id == record.session_id);
            let from_seq = record.seq;
            inner.resumes.push(record);
            if !resumable {
                return vec![Reply::Frame(
                    json!({"op": 9, "d": false, "s": null, "t": null}).to_string(),
                )];
            }
            // Replay what the client had not seen, then RESUMED, as Discord does.
            let mut replies: Vec<Reply> = inner
                .session
                .as_ref()
                .map(|s| {
                    s.log
                        .iter()
                        .filter(|(seq, _)| *seq > from_seq)
                        .map(|(_, frame)| Reply::Frame(frame.clone()))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(session) = inner.session.as_mut() {
                session.seq += 1;
                let resumed = json!({
                    "op": 0,
                    "t": "RESUMED",
                    "s": session.seq,
                    "d": {"_trace": ["[\"fake-discord-resume\"]"]},
                })
                .to_string();
                session.log.push((session.seq, resumed.clone()));
                replies.push(Reply::Frame(resumed));
            }
            inner.live = Some(LiveConnection {
                conn_id,
                tx: tx.clone(),
            });
            replies
        }
        // Presence, voice state, request guild members...: accepted and ignored.
        Some(3 | 4 | 8 | 31) => Vec::new(),
        _ => vec![Reply::Close(4001, close_reason(4001).to_owned())],
    }
}

/// Discord's reasons for its gateway close codes.
fn close_reason(code: u16) -> &'static str {
    match code {
        4000 => "Unknown error.",
        4001 => "Unknown opcode.",
        4002 => "Decode error.",
        4003 => "Not authenticated.",
        4004 => "Authentication failed.",
        4005 => "Already authenticated.",
        4007 => "Invalid seq.",
        4008 => "Rate limited.",
        4009 => "Session timed out.",
        4010 => "Invalid shard.",
        4011 => "Sharding required.",
        4012 => "Invalid API version.",
        4013 => "Invalid intent(s).",
        4014 => "Disallowed intent(s).",
        _ => "",
    }
}

// ---- REST server -------------------------------------------------------------------------------

async fn accept_rest(shared: Arc<Shared>, listener: TcpListener) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // E.g. out of file descriptors: back off rather than spin the test's runtime.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        if shared.lock().rest_down {
            drop(stream);
            continue;
        }
        let conn_shared = Arc::clone(&shared);
        let task = tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                handle_rest(Arc::clone(&conn_shared), request)
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
        let mut inner = shared.lock();
        inner.tasks.retain(|t| !t.is_finished());
        inner.tasks.push(task.abort_handle());
    }
}

/// A fully decided answer.
struct Answer {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Value,
}

impl Answer {
    fn json(status: u16, body: Value) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body,
        }
    }

    /// Discord's error body shape, which twilight parses into `ApiError::General`.
    fn error(status: u16, code: u64, message: &str) -> Self {
        Self::json(status, json!({"message": message, "code": code}))
    }
}

async fn handle_rest(
    shared: Arc<Shared>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, std::io::Error> {
    let at = Instant::now();
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let query = request.uri().query().map(str::to_owned);
    let authorization = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let bytes = request
        .into_body()
        .collect()
        .await
        .map(|collected| collected.to_bytes())
        .unwrap_or_default();
    let body = serde_json::from_slice::<Value>(&bytes).ok();

    let mut inner = shared.lock();
    let mut record = RecordedRequest {
        method: method.clone(),
        path: path.clone(),
        query: query.clone(),
        body: body.clone(),
        authorization,
        status: None,
        at,
    };
    if inner.rest_down {
        inner.requests.push(record);
        // An error from the service makes hyper drop the connection without an answer.
        return Err(std::io::Error::other("fake discord is down"));
    }
    let answer = if inner.unauthorized {
        Answer::error(401, 0, "401: Unauthorized")
    } else if let Some(fault) = inner.faults.pop_front() {
        fault_answer(fault)
    } else {
        route(
            &shared,
            &mut inner,
            &method,
            &path,
            query.as_deref(),
            body.as_ref(),
        )
    };
    record.status = Some(answer.status);
    inner.requests.push(record);
    drop(inner);

    // 204 No Content has no body at all.
    let bytes = if answer.status == 204 {
        Bytes::new()
    } else {
        Bytes::from(answer.body.to_string())
    };
    let mut response = Response::new(Full::new(bytes));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    for (name, value) in answer.headers {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), value);
        }
    }
    Ok(response)
}

fn fault_answer(fault: Fault) -> Answer {
    match fault {
        Fault::Status(status) => {
            let reason = StatusCode::from_u16(status)
                .ok()
                .and_then(|s| s.canonical_reason())
                .unwrap_or("Error");
            Answer::error(status, 0, &format!("{status}: {reason}"))
        }
        Fault::RateLimited {
            retry_after,
            global,
        } => {
            let secs = retry_after.as_secs_f64();
            let reset_at = unix_micros() as f64 / 1e6 + secs;
            let mut headers = vec![
                ("retry-after", retry_after.as_secs_f64().ceil().to_string()),
                ("x-ratelimit-limit", "5".to_owned()),
                ("x-ratelimit-remaining", "0".to_owned()),
                ("x-ratelimit-reset", format!("{reset_at:.3}")),
                ("x-ratelimit-reset-after", format!("{secs:.3}")),
                ("x-ratelimit-bucket", "fake0bucket0hash".to_owned()),
            ];
            if global {
                headers.push(("x-ratelimit-global", "true".to_owned()));
                headers.push(("x-ratelimit-scope", "global".to_owned()));
            } else {
                headers.push(("x-ratelimit-scope", "user".to_owned()));
            }
            Answer {
                status: 429,
                headers,
                body: json!({
                    "message": "You are being rate limited.",
                    "retry_after": secs,
                    "global": global,
                    "code": 0,
                }),
            }
        }
    }
}

fn route(
    shared: &Shared,
    inner: &mut Inner,
    method: &str,
    path: &str,
    query: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    let Some(rest) = path.strip_prefix("/api/v10/") else {
        return Answer::error(404, 0, "404: Not Found");
    };
    let segments: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let id = |s: &str| s.parse::<u64>().ok();
    if let Some(answer) = interactions::route(inner, method, &segments, body) {
        return answer;
    }
    match (method, segments.as_slice()) {
        ("POST", ["channels", channel, "messages"]) => match id(channel) {
            Some(channel_id) => create_message(shared, inner, channel_id, body),
            None => Answer::error(404, 10003, "Unknown Channel"),
        },
        ("GET", ["channels", channel, "messages"]) => match id(channel) {
            Some(channel_id) => list_messages(inner, channel_id, query),
            None => Answer::error(404, 10003, "Unknown Channel"),
        },
        ("POST", ["channels", channel, "messages", message, "threads"]) => {
            match (id(channel), id(message)) {
                (Some(channel_id), Some(message_id)) => {
                    start_thread(shared, inner, channel_id, message_id, body)
                }
                _ => Answer::error(404, 10008, "Unknown Message"),
            }
        }
        ("PATCH", ["channels", channel]) => {
            match id(channel).and_then(|c| inner.threads.get_mut(&c)) {
                Some(thread) => {
                    patch_thread(thread, body);
                    Answer::json(200, thread.clone())
                }
                None => Answer::error(404, 10003, "Unknown Channel"),
            }
        }
        ("GET", ["channels", channel]) => match id(channel).and_then(|c| inner.threads.get(&c)) {
            Some(thread) => Answer::json(200, thread.clone()),
            None => Answer::error(404, 10003, "Unknown Channel"),
        },
        ("GET", ["users", "@me"]) => Answer::json(200, current_user_json()),
        ("GET", ["gateway"]) => Answer::json(200, json!({"url": shared.gateway_url})),
        ("GET", ["gateway", "bot"]) => Answer::json(
            200,
            json!({
                "url": shared.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14_400_000,
                    "max_concurrency": 1,
                },
            }),
        ),
        _ => Answer::error(404, 0, "404: Not Found"),
    }
}

fn create_message(
    shared: &Shared,
    inner: &mut Inner,
    channel_id: u64,
    body: Option<&Value>,
) -> Answer {
    let content = body
        .and_then(|b| b["content"].as_str())
        .unwrap_or_default()
        .to_owned();
    let has_embeds = body
        .and_then(|b| b["embeds"].as_array())
        .is_some_and(|e| !e.is_empty());
    if content.is_empty() && !has_embeds {
        return Answer::error(400, 50006, "Cannot send an empty message");
    }
    let id = inner.snowflake();
    let reply_to = body.and_then(|b| id_field(&b["message_reference"], "message_id"));
    let mut message = message_json(MessageParts {
        id,
        channel_id,
        guild_id: inner.guild_of(channel_id),
        author: user_json(BOT_USER_ID, BOT_USERNAME, true),
        content: &content,
        mentions: Vec::new(),
        reply_to,
    });
    if let Some(components) = body.and_then(|b| b.get("components")) {
        message["components"] = components.clone();
    }
    inner.messages.push(message.clone());
    inner.sent.push((channel_id, content));
    if shared.options.echo_rest_events {
        inner.dispatch(&shared.options, "MESSAGE_CREATE", message.clone());
    }
    Answer::json(200, message)
}

fn list_messages(inner: &Inner, channel_id: u64, query: Option<&str>) -> Answer {
    let param = |name: &str| {
        query?.split('&').find_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            (key == name).then(|| value.parse::<u64>().ok()).flatten()
        })
    };
    let limit = usize::try_from(param("limit").unwrap_or(50).clamp(1, 100)).unwrap_or(50);
    let mut in_channel: Vec<&Value> = inner
        .messages
        .iter()
        .filter(|m| id_field(m, "channel_id") == Some(channel_id))
        .filter(|m| m.get("interaction_response").is_none())
        .collect();
    in_channel.sort_by_key(|m| message_id_of(m));
    let mut page: Vec<Value> = if let Some(after) = param("after") {
        // The oldest `limit` messages after `after`...
        in_channel
            .into_iter()
            .filter(|m| message_id_of(m) > after)
            .take(limit)
            .cloned()
            .collect()
    } else {
        let before = param("before").unwrap_or(u64::MAX);
        let older: Vec<&Value> = in_channel
            .into_iter()
            .filter(|m| message_id_of(m) < before)
            .collect();
        let skip = older.len().saturating_sub(limit);
        older.into_iter().skip(skip).cloned().collect()
    };
    // ...but, as on Discord, always newest first.
    page.reverse();
    Answer::json(200, Value::Array(page))
}

fn start_thread(
    shared: &Shared,
    inner: &mut Inner,
    channel_id: u64,
    message_id: u64,
    body: Option<&Value>,
) -> Answer {
    if inner.threads.contains_key(&message_id) {
        return Answer::error(
            400,
            160_004,
            "A thread has already been created for this message",
        );
    }
    let name = body
        .and_then(|b| b["name"].as_str())
        .unwrap_or("thread")
        .to_owned();
    let auto_archive = body
        .and_then(|b| b["auto_archive_duration"].as_u64())
        .unwrap_or(4320);
    let guild_id = inner.guild_of(channel_id);
    let mut thread = thread_json(message_id, channel_id, guild_id, &name, auto_archive, false);
    if let Some(guild_id) = guild_id {
        inner.channel_guilds.insert(message_id, guild_id);
    }
    inner.threads.insert(message_id, thread.clone());
    if shared.options.echo_rest_events {
        if let Some(object) = thread.as_object_mut() {
            object.insert("newly_created".into(), json!(true));
        }
        inner.dispatch(&shared.options, "THREAD_CREATE", thread.clone());
    }
    Answer::json(201, thread)
}

/// Applies the thread fields of a PATCH body (`archived`, `locked`, `name`, ...).
fn patch_thread(thread: &mut Value, body: Option<&Value>) {
    let Some(body) = body.and_then(Value::as_object) else {
        return;
    };
    for (key, value) in body {
        match key.as_str() {
            "archived" | "locked" | "auto_archive_duration" | "invitable" => {
                thread["thread_metadata"][key] = value.clone();
                if key == "archived" {
                    thread["thread_metadata"]["archive_timestamp"] = json!(iso_now());
                }
            }
            _ => thread[key] = value.clone(),
        }
    }
}

// ---- JSON builders -----------------------------------------------------------------------------

fn user_json(id: u64, username: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(),
        "username": username,
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": bot,
        "public_flags": 0,
    })
}

/// The bot as `users/@me` and READY describe it.
fn current_user_json() -> Value {
    json!({
        "id": BOT_USER_ID.to_string(),
        "username": BOT_USERNAME,
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": true,
        "verified": true,
        "mfa_enabled": false,
        "flags": 0,
        "public_flags": 0,
    })
}

struct MessageParts<'a> {
    id: u64,
    channel_id: u64,
    guild_id: Option<u64>,
    author: Value,
    content: &'a str,
    mentions: Vec<Value>,
    reply_to: Option<u64>,
}

/// A message as Discord sends it (the fields twilight-model's `Message` requires, plus the
/// usual nulls).
fn message_json(parts: MessageParts<'_>) -> Value {
    let mut message = json!({
        "id": parts.id.to_string(),
        "channel_id": parts.channel_id.to_string(),
        "author": parts.author,
        "content": parts.content,
        "timestamp": iso_from_snowflake(parts.id),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": parts.mentions,
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "components": [],
        "pinned": false,
        "type": 0,
        "flags": 0,
    });
    if let Some(object) = message.as_object_mut() {
        if let Some(guild_id) = parts.guild_id {
            object.insert("guild_id".into(), json!(guild_id.to_string()));
        }
        if let Some(reply_to) = parts.reply_to {
            object.insert("type".into(), json!(19));
            let mut reference = json!({
                "type": 0,
                "message_id": reply_to.to_string(),
                "channel_id": parts.channel_id.to_string(),
            });
            if let Some(guild_id) = parts.guild_id {
                reference["guild_id"] = json!(guild_id.to_string());
            }
            object.insert("message_reference".into(), reference);
        }
    }
    message
}

fn thread_json(
    id: u64,
    parent_id: u64,
    guild_id: Option<u64>,
    name: &str,
    auto_archive_duration: u64,
    archived: bool,
) -> Value {
    let now = iso_now();
    let mut thread = json!({
        "id": id.to_string(),
        "type": 11,
        "parent_id": parent_id.to_string(),
        "name": name,
        "owner_id": BOT_USER_ID.to_string(),
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": archived,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": now,
            "locked": false,
            "create_timestamp": now,
        },
    });
    if let (Some(guild_id), Some(object)) = (guild_id, thread.as_object_mut()) {
        object.insert("guild_id".into(), json!(guild_id.to_string()));
    }
    thread
}

fn id_field(value: &Value, field: &str) -> Option<u64> {
    match &value[field] {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn message_id_of(message: &Value) -> u64 {
    id_field(message, "id").unwrap_or(0)
}

// ---- time --------------------------------------------------------------------------------------

fn unix_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

fn iso_now() -> String {
    iso_8601(unix_micros())
}

/// The creation time encoded in a snowflake, as Discord's `timestamp` field shows it.
fn iso_from_snowflake(id: u64) -> String {
    let ms = (id >> 22) + DISCORD_EPOCH_MS;
    iso_8601(i64::try_from(ms).unwrap_or(0) * 1000)
}

/// `2026-11-22T18:57:40.123000+00:00`, Discord's format.
fn iso_8601(unix_micros: i64) -> String {
    let secs = unix_micros.div_euclid(1_000_000);
    let micros = unix_micros.rem_euclid(1_000_000);
    let days = secs.div_euclid(86_400);
    let second_of_day = secs.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{micros:06}+00:00",
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    )
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}
