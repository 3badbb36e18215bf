//! The DiscordGateway actor: Donna's presence in Discord.
//!
//! Owns: the twilight HTTP client, the task that polls the gateway shard, and the delivery of
//! Discord replies from the outbox.
//! Takes: `Ready`, `Inbound` and `ShardEnded` (from its shard task), `Deliver` (its timer, and
//! after every turn), `OpenNudge` (the API and the Nudger).
//! Invariants:
//! - Inbound messages are queued into their thread in the order the gateway delivered them:
//!   this actor handles them one at a time up to the point where the turn is queued.
//! - Replies leave only through the outbox, in order, each send bounded by
//!   `discord.http_timeout` as a whole (twilight's own timeout is per attempt); a send that
//!   fails stays in the outbox, is counted, and is retried on the next delivery round.
//! - A fatal gateway close (bad token, disallowed intents) marks this actor failed in /health
//!   with the reason and does not reconnect; the rest of Donna keeps serving.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use actors::{
    ActorHealth, ActorState, Behaviour, CellCtx, ChildRef, Handled, HealthRegistry, KeyedConfig,
    KeyedRouter, Reply,
};
use futures_util::StreamExt as _;
use parking_lot::Mutex;
use twilight_gateway::{
    CloseFrame, ConfigBuilder, Event, EventTypeFlags, Intents, Shard, ShardId, ShardState,
    StreamExt as _,
};
use twilight_http::Client;
use twilight_model::channel::Message;
use twilight_model::id::Id;

use super::hearing::{hear, strip_mentions, Facts, Hearing};
use super::split::{split, MAX_CHARS};
use crate::clock::SharedClock;
use crate::conversation::{outbox, threads, Channel, ContextType};
use crate::nudges::{self, NudgeFailure, NudgeOpened};
use crate::store::Store;
use crate::turn::intake::{Incoming, Intake};

/// Discord's "thread is archived" error code.
const THREAD_ARCHIVED: u64 = 50083;
/// How often undelivered replies are retried.
const DELIVERY_INTERVAL: Duration = Duration::from_secs(1);

/// What the gateway needs from the config.
#[derive(Debug, Clone)]
pub struct DiscordSettings {
    pub token: String,
    pub allowed_user_ids: Vec<u64>,
    pub nudge_channel_id: Option<u64>,
    pub ignore_bots: bool,
    pub gateway_url: Option<String>,
    pub api_proxy: Option<String>,
    pub http_timeout: Duration,
    /// After downtime, threads active within this window are caught up.
    pub catch_up_window: Duration,
}

/// State that outlives a restart of the actor: who Donna is, whether the gateway closed for
/// good, counters.
#[derive(Debug, Default)]
pub struct GatewayShared {
    pub bot_user_id: AtomicU64,
    pub fatal: Mutex<Option<String>>,
    pub delivered: AtomicU64,
    pub send_failures: AtomicU64,
    pub ignored: AtomicU64,
    pub received: AtomicU64,
    /// A delivery round is already queued: finishing turns need not queue another.
    pub delivery_requested: std::sync::atomic::AtomicBool,
    /// Held by the delivery round in progress (one at a time keeps each thread's order).
    pub delivery_lock: tokio::sync::Mutex<()>,
}

pub enum DiscordMsg {
    Ready {
        bot_user_id: u64,
    },
    Inbound(Box<Message>),
    ShardEnded {
        fatal: String,
    },
    Deliver,
    OpenNudge {
        task_id: String,
        context: Option<ContextType>,
        reply: Reply<Result<NudgeOpened, NudgeFailure>>,
    },
}

pub struct DiscordGateway {
    settings: Arc<DiscordSettings>,
    http: Arc<Client>,
    store: Store,
    clock: SharedClock,
    shared: Arc<GatewayShared>,
    health: Arc<ActorHealth>,
    me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
    channels: KeyedRouter<u64, ChannelWorker>,
    shard_task: Option<tokio::task::JoinHandle<()>>,
}

/// Everything the factory needs to build the actor again after a restart.
#[derive(Clone)]
pub struct GatewayParts {
    pub settings: Arc<DiscordSettings>,
    pub store: Store,
    pub intake: Intake,
    pub clock: SharedClock,
    pub shared: Arc<GatewayShared>,
    pub health: Arc<ActorHealth>,
    pub me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
    /// One ordered queue per Discord channel for inbound messages (outlives restarts).
    pub channels: KeyedRouter<u64, ChannelWorker>,
}

/// Builds the per-channel inbound queues: messages of one channel are taken in the order the
/// gateway delivered them, different channels concurrently.
#[allow(clippy::too_many_arguments)]
pub fn channel_router(
    registry: Arc<HealthRegistry>,
    settings: Arc<DiscordSettings>,
    store: Store,
    intake: Intake,
    clock: SharedClock,
    shared: Arc<GatewayShared>,
    me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
) -> KeyedRouter<u64, ChannelWorker> {
    let work = InboundWork {
        settings,
        store,
        intake,
        clock,
        shared,
        me,
    };
    KeyedRouter::new(
        "discord_inbound",
        registry,
        KeyedConfig {
            capacity_per_key: 256,
            idle: Duration::from_secs(300),
        },
        Vec::new(),
        move |_channel: &u64| ChannelWorker { work: work.clone() },
    )
}

/// The worker of one channel's inbound queue.
pub struct ChannelWorker {
    work: InboundWork,
}

impl Behaviour for ChannelWorker {
    type Msg = Box<Message>;

    fn handle(&mut self, message: Box<Message>, _ctx: &mut CellCtx<Self>) -> Handled {
        Handled::wait(self.work.clone().run(message))
    }
}

fn route_inbound(channels: &KeyedRouter<u64, ChannelWorker>, message: Box<Message>) {
    let channel = message.channel_id.get();
    static FULL: crate::log_limit::WarnLimiter = crate::log_limit::WarnLimiter::new(10);
    if channels.route(channel, message).is_err() {
        crate::limited_warn!(
            FULL,
            channel,
            "inbound queue of a Discord channel is full; catch-up will fetch the message later"
        );
    }
}

/// The HTTP client for `settings` (the REST proxy is a test seam).
pub fn http_client(settings: &DiscordSettings) -> Client {
    let mut builder = Client::builder()
        .token(settings.token.clone())
        .timeout(settings.http_timeout);
    if let Some(proxy) = &settings.api_proxy {
        builder = builder.proxy(proxy.clone(), true);
    }
    builder.build()
}

impl DiscordGateway {
    pub fn new(parts: GatewayParts) -> Self {
        Self {
            http: Arc::new(http_client(&parts.settings)),
            settings: parts.settings,
            store: parts.store,
            clock: parts.clock,
            shared: parts.shared,
            health: parts.health,
            me: parts.me,
            channels: parts.channels,
            shard_task: None,
        }
    }

    fn mark_fatal(&self, reason: &str) {
        self.health.record_failure(reason.to_string());
        self.health.set_state(ActorState::Failed);
    }
}

impl Drop for DiscordGateway {
    fn drop(&mut self) {
        if let Some(task) = self.shard_task.take() {
            task.abort();
        }
    }
}

impl Behaviour for DiscordGateway {
    type Msg = DiscordMsg;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(DELIVERY_INTERVAL, || DiscordMsg::Deliver);
        if let Some(reason) = self.shared.fatal.lock().clone() {
            // Closed for good before a restart: do not reconnect into the same refusal.
            self.mark_fatal(&reason);
            return;
        }
        let Some(me) = self.me.get().cloned() else {
            tracing::error!("discord gateway started without its own address");
            return;
        };
        let mut config = ConfigBuilder::new(
            self.settings.token.clone(),
            Intents::GUILD_MESSAGES | Intents::DIRECT_MESSAGES | Intents::MESSAGE_CONTENT,
        );
        if let Some(url) = &self.settings.gateway_url {
            config =
                config
                    .proxy_url(url.clone())
                    .queue(twilight_gateway::queue::InMemoryQueue::new(
                        0,
                        0,
                        Duration::ZERO,
                        0,
                    ));
        }
        let shard = Shard::with_config(ShardId::ONE, config.build());
        self.shard_task = Some(tokio::spawn(poll_shard(shard, me)));
    }

    fn handle(&mut self, message: DiscordMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            DiscordMsg::Ready { bot_user_id } => {
                self.shared
                    .bot_user_id
                    .store(bot_user_id, Ordering::Release);
                tracing::info!(bot_user_id, "connected to Discord");
                // Catch up before any live message is taken (they wait in the mailbox), so a
                // thread's missed messages are queued ahead of its new ones.
                let catch_up = CatchUp {
                    http: self.http.clone(),
                    store: self.store.clone(),
                    clock: self.clock.clone(),
                    window: self.settings.catch_up_window,
                    deadline: self.settings.http_timeout,
                    channels: self.channels.clone(),
                };
                Handled::wait(catch_up.run())
            }
            DiscordMsg::ShardEnded { fatal } => {
                tracing::error!(reason = %fatal, "Discord gateway closed for good; not reconnecting");
                *self.shared.fatal.lock() = Some(fatal.clone());
                self.mark_fatal(&fatal);
                Handled::Done
            }
            DiscordMsg::Inbound(message) => {
                self.shared.received.fetch_add(1, Ordering::Relaxed);
                route_inbound(&self.channels, message);
                Handled::Done
            }
            DiscordMsg::Deliver => {
                let delivery = Delivery {
                    http: self.http.clone(),
                    store: self.store.clone(),
                    clock: self.clock.clone(),
                    shared: self.shared.clone(),
                    deadline: self.settings.http_timeout,
                };
                // Rounds run one at a time (the lock), beside this mailbox, so sending (which
                // Discord paces at 50 requests/s) never holds up inbound messages.
                let shared = self.shared.clone();
                actix_rt::spawn(async move {
                    let _round = shared.delivery_lock.lock().await;
                    delivery.run().await;
                });
                Handled::Done
            }
            DiscordMsg::OpenNudge {
                task_id,
                context,
                reply,
            } => {
                let opening = NudgeOpening {
                    http: self.http.clone(),
                    store: self.store.clone(),
                    clock: self.clock.clone(),
                    settings: self.settings.clone(),
                    me: self.me.clone(),
                };
                Handled::wait(async move { reply.send(opening.run(task_id, context).await) })
            }
        }
    }
}

/// Polls the shard for as long as it lives and forwards what matters to the actor.
async fn poll_shard(mut shard: Shard, me: ChildRef<DiscordMsg>) {
    // Close frames always come through, whatever the flags.
    let wanted = EventTypeFlags::READY | EventTypeFlags::MESSAGE_CREATE;
    while let Some(item) = shard.next_event(wanted).await {
        match item {
            Ok(Event::Ready(ready)) => {
                let _ = me.tell(DiscordMsg::Ready {
                    bot_user_id: ready.user.id.get(),
                });
            }
            Ok(Event::MessageCreate(message)) => {
                if me
                    .tell(DiscordMsg::Inbound(Box::new(message.message)))
                    .is_err()
                {
                    tracing::warn!("discord gateway mailbox full; a message was not taken (catch-up finds it later)");
                }
            }
            Ok(Event::GatewayClose(frame)) if shard.state() == ShardState::FatallyClosed => {
                let _ = me.tell(DiscordMsg::ShardEnded {
                    fatal: fatal_reason(frame.as_ref()),
                });
                // Polling a fatally closed shard again panics in twilight: stop here.
                return;
            }
            Ok(Event::GatewayClose(frame)) => {
                tracing::info!(
                    code = frame.map(|f| f.code),
                    "gateway connection closed; twilight reconnects"
                );
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "gateway receive error; twilight reconnects"),
        }
    }
    let _ = me.tell(DiscordMsg::ShardEnded {
        fatal: "the gateway connection ended".into(),
    });
}

fn fatal_reason(frame: Option<&CloseFrame<'_>>) -> String {
    match frame.map(|f| f.code) {
        Some(4004) => "Discord refused the token (close code 4004): check the variable named by discord.token_env".into(),
        Some(4014) => "Discord refused a privileged intent (close code 4014): enable MESSAGE CONTENT INTENT for the bot in the Discord developer portal (Bot > Privileged Gateway Intents)".into(),
        Some(code) => format!(
            "Discord closed the gateway for good (close code {code}: {})",
            frame.map(|f| f.reason.to_string()).unwrap_or_default()
        ),
        None => "Discord closed the gateway for good".into(),
    }
}

/// One inbound message, up to the point where its turn is queued.
#[derive(Clone)]
struct InboundWork {
    settings: Arc<DiscordSettings>,
    store: Store,
    intake: Intake,
    clock: SharedClock,
    shared: Arc<GatewayShared>,
    me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
}

impl InboundWork {
    async fn run(self, message: Box<Message>) {
        let donna = self.shared.bot_user_id.load(Ordering::Acquire);
        let channel_id = message.channel_id.get().to_string();
        let lookup = channel_id.clone();
        let known = match self
            .store
            .read(move |conn| threads::get(conn, &lookup))
            .await
        {
            Ok(known) => known,
            Err(error) => {
                tracing::warn!(%error, "cannot look up the thread of a Discord message");
                return;
            }
        };
        let facts = Facts {
            author_id: message.author.id.get(),
            author_is_bot: message.author.bot,
            from_webhook: message.webhook_id.is_some(),
            in_guild: message.guild_id.is_some(),
            mentions_donna: message.mentions.iter().any(|m| m.id.get() == donna),
            known_thread: known.is_some(),
            nudge_thread: known.as_ref().is_some_and(|t| t.task_id.is_some()),
        };
        let is_group = match hear(
            &facts,
            donna,
            &self.settings.allowed_user_ids,
            self.settings.ignore_bots,
        ) {
            Hearing::Ignore(reason) => {
                self.shared.ignored.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(%reason, channel = %channel_id, "not for Donna");
                return;
            }
            Hearing::Heard { is_group } => is_group,
        };
        let text = strip_mentions(&message.content, donna);
        if text.is_empty() {
            return;
        }
        if known.is_none() {
            // A DM or a channel where she was mentioned: a free conversation, recorded as such.
            let now = self.clock.now();
            let id = channel_id.clone();
            let created = self
                .store
                .write(move |conn| {
                    if threads::get(conn, &id)?.is_none() {
                        nudges::open_free_thread(
                            conn,
                            id.clone(),
                            Some(id),
                            is_group,
                            Channel::Discord,
                            now,
                        )?;
                    }
                    Ok(())
                })
                .await;
            if let Err(error) = created {
                tracing::warn!(%error, "cannot record a Discord conversation");
                return;
            }
        }
        let queued = self
            .intake
            .enqueue(Incoming {
                channel: Channel::Discord,
                thread_id: channel_id,
                user_id: message.author.id.get().to_string(),
                text,
                message_id: Some(message.id.get().to_string()),
            })
            .await;
        match queued {
            Ok(pending) => {
                let me = self.me.clone();
                let shared = self.shared.clone();
                actix_rt::spawn(async move {
                    if let Err(error) = pending.await {
                        tracing::warn!(%error, "a Discord message's turn failed");
                    }
                    // One queued round delivers every reply written so far.
                    if !shared.delivery_requested.swap(true, Ordering::AcqRel) {
                        if let Some(me) = me.get() {
                            let _ = me.tell(DiscordMsg::Deliver);
                        }
                    }
                });
            }
            Err(error) => {
                static REFUSED: crate::log_limit::WarnLimiter =
                    crate::log_limit::WarnLimiter::new(10);
                crate::limited_warn!(REFUSED, %error, "a Discord message was refused");
            }
        }
    }
}

/// Catch-up after downtime: for each Discord thread with a live plan or activity within
/// `discord.catch_up_window`, the messages after the last one seen are fetched and fed through
/// the same path as live ones, oldest first. The inbox drops any it already has.
struct CatchUp {
    http: Arc<Client>,
    store: Store,
    clock: SharedClock,
    window: Duration,
    deadline: Duration,
    channels: KeyedRouter<u64, ChannelWorker>,
}

impl CatchUp {
    async fn run(self) {
        let window = chrono::Duration::from_std(self.window).unwrap_or(chrono::Duration::MAX);
        let cutoff = self
            .clock
            .now()
            .checked_sub_signed(window)
            .unwrap_or_default();
        let threads = self
            .store
            .read(move |conn| threads::discord_threads_to_catch_up(conn, cutoff))
            .await;
        let threads = match threads {
            Ok(threads) => threads,
            Err(error) => {
                tracing::warn!(%error, "cannot list threads to catch up");
                return;
            }
        };
        let mut caught_up = 0usize;
        for threads::DiscordThreadToCatchUp {
            thread_id: thread,
            newest_message_id: last_seen,
        } in threads
        {
            let (Some(channel), Some(after)) = (
                thread.parse::<u64>().ok().and_then(Id::new_checked),
                last_seen
                    .or_else(|| thread.parse().ok())
                    .and_then(Id::new_checked),
            ) else {
                continue;
            };
            let fetched = tokio::time::timeout(self.deadline, async {
                self.http
                    .channel_messages(channel)
                    .after(after)
                    .limit(100)
                    .await
                    .map_err(|e| e.to_string())?
                    .models()
                    .await
                    .map_err(|e| e.to_string())
            })
            .await;
            let mut missed = match fetched {
                Ok(Ok(messages)) => messages,
                Ok(Err(error)) => {
                    tracing::warn!(%thread, %error, "cannot fetch missed messages");
                    continue;
                }
                Err(_) => {
                    tracing::warn!(%thread, "fetching missed messages timed out");
                    continue;
                }
            };
            missed.sort_by_key(|message| message.id.get());
            for message in missed {
                caught_up += 1;
                route_inbound(&self.channels, Box::new(message));
            }
        }
        if caught_up > 0 {
            tracing::info!(
                caught_up,
                "fed messages missed while offline through the inbox"
            );
        }
    }
}

/// What delivering one thread's replies did: the outbox ids delivered, and the first failure.
type ThreadOutcome = (Vec<i64>, Option<(i64, String)>);

/// Threads delivered to at once in a round (each thread's replies stay in order).
const DELIVERY_FAN_OUT: usize = 16;
/// Outbox entries read per batch.
const DELIVERY_BATCH: usize = 256;

/// One delivery round: undelivered Discord replies, oldest first. Replies of one thread go out
/// one after another (a failure stops that thread's queue until the next round); different
/// threads are delivered concurrently. Outcomes are written back in one unit of work per batch.
struct Delivery {
    http: Arc<Client>,
    store: Store,
    clock: SharedClock,
    shared: Arc<GatewayShared>,
    deadline: Duration,
}

impl Delivery {
    async fn run(self) {
        self.shared
            .delivery_requested
            .store(false, Ordering::Release);
        loop {
            let pending = match self
                .store
                .read(|conn| outbox::undelivered(conn, "discord", DELIVERY_BATCH))
                .await
            {
                Ok(pending) => pending,
                Err(error) => {
                    tracing::warn!(%error, "cannot read the outbox");
                    return;
                }
            };
            if pending.is_empty() {
                return;
            }
            let full_batch = pending.len() == DELIVERY_BATCH;
            // Per thread, in outbox order.
            let mut by_thread: Vec<(String, Vec<outbox::OutboxEntry>)> = Vec::new();
            for entry in pending {
                match by_thread
                    .iter_mut()
                    .find(|(thread, _)| *thread == entry.thread_id)
                {
                    Some((_, entries)) => entries.push(entry),
                    None => by_thread.push((entry.thread_id.clone(), vec![entry])),
                }
            }
            let outcomes: Vec<ThreadOutcome> = futures_util::stream::iter(by_thread)
                .map(|(thread, entries)| self.deliver_thread(thread, entries))
                .buffer_unordered(DELIVERY_FAN_OUT)
                .collect()
                .await;
            let delivered: Vec<i64> = outcomes.iter().flat_map(|(ids, _)| ids.clone()).collect();
            let failed: Vec<(i64, String)> = outcomes
                .into_iter()
                .filter_map(|(_, failure)| failure)
                .collect();
            self.shared
                .delivered
                .fetch_add(delivered.len() as u64, Ordering::Relaxed);
            self.shared
                .send_failures
                .fetch_add(failed.len() as u64, Ordering::Relaxed);
            let now = self.clock.now();
            let any_failed = !failed.is_empty();
            let recorded = self
                .store
                .write(move |conn| {
                    for id in &delivered {
                        outbox::mark_delivered(conn, *id, now)?;
                    }
                    for (id, reason) in &failed {
                        outbox::record_failure(conn, *id, reason)?;
                    }
                    Ok(())
                })
                .await;
            if let Err(error) = recorded {
                tracing::warn!(%error, "could not record delivery outcomes; they will be retried");
                return;
            }
            if any_failed || !full_batch {
                return;
            }
        }
    }

    /// Sends one thread's replies in order; stops at the first failure.
    async fn deliver_thread(
        &self,
        thread: String,
        entries: Vec<outbox::OutboxEntry>,
    ) -> ThreadOutcome {
        let mut delivered = Vec::new();
        let Some(channel) = thread.parse::<u64>().ok().and_then(Id::new_checked) else {
            let first = entries.first().map_or(0, |e| e.id);
            return (delivered, Some((first, "not a Discord channel id".into())));
        };
        for entry in entries {
            let sent =
                tokio::time::timeout(self.deadline, send_all(&self.http, channel, &entry.text))
                    .await;
            match sent {
                Ok(Ok(())) => delivered.push(entry.id),
                Ok(Err(reason)) => {
                    tracing::warn!(%thread, %reason, attempts = entry.attempts + 1, "reply not delivered; it stays in the outbox");
                    return (delivered, Some((entry.id, reason)));
                }
                Err(_) => {
                    let reason = format!("not delivered within {:?}", self.deadline);
                    tracing::warn!(%thread, %reason, attempts = entry.attempts + 1, "reply not delivered; it stays in the outbox");
                    return (delivered, Some((entry.id, reason)));
                }
            }
        }
        (delivered, None)
    }
}

/// Sends a reply as one or more messages, in order; an archived thread is unarchived once.
async fn send_all(
    http: &Client,
    channel: Id<twilight_model::id::marker::ChannelMarker>,
    text: &str,
) -> Result<(), String> {
    for part in split(text, MAX_CHARS) {
        match http.create_message(channel).content(&part).await {
            Ok(_) => {}
            Err(error) if is_archived(&error) => {
                http.update_thread(channel)
                    .archived(false)
                    .await
                    .map_err(|e| format!("cannot unarchive the thread: {e}"))?;
                http.create_message(channel)
                    .content(&part)
                    .await
                    .map_err(|e| e.to_string())?;
            }
            Err(error) => return Err(error.to_string()),
        }
    }
    Ok(())
}

fn is_archived(error: &twilight_http::Error) -> bool {
    match error.kind() {
        twilight_http::error::ErrorType::Response { error, .. } => {
            matches!(error, twilight_http::api_error::ApiError::General(general) if general.code == THREAD_ARCHIVED)
        }
        _ => false,
    }
}

/// Opening a nudge in Discord: the nudge is posted in the nudge channel and a thread is
/// started on it; the Discord thread id becomes the thread id. A task whose thread is open
/// gets the nudge in that thread instead.
struct NudgeOpening {
    http: Arc<Client>,
    store: Store,
    clock: SharedClock,
    settings: Arc<DiscordSettings>,
    me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
}

impl NudgeOpening {
    async fn run(
        self,
        task_id: String,
        context: Option<ContextType>,
    ) -> Result<NudgeOpened, NudgeFailure> {
        let lookup = task_id.clone();
        let (task, open_thread) = self
            .store
            .read(move |conn| {
                Ok((
                    crate::tasks::repo::get(conn, &lookup)?,
                    threads::open_for_task(conn, &lookup)?,
                ))
            })
            .await?;
        let task = task.ok_or_else(|| NudgeFailure::NoTask(task_id.clone()))?;
        if !task.status.is_open() {
            return Err(NudgeFailure::Conflict(format!(
                "'{}' is {}; there is nothing to nudge about",
                task.title, task.status
            )));
        }
        let now = self.clock.now();
        if open_thread.is_some() {
            let opened = self
                .store
                .write(move |conn| {
                    Ok(nudges::open(
                        conn,
                        &task_id,
                        context,
                        Channel::Discord,
                        String::new,
                        now,
                    ))
                })
                .await??;
            if let Some(me) = self.me.get() {
                let _ = me.tell(DiscordMsg::Deliver);
            }
            return Ok(opened);
        }
        let channel = self
            .settings
            .nudge_channel_id
            .and_then(Id::new_checked)
            .ok_or_else(|| NudgeFailure::Conflict("discord.nudge_channel_id is not set".into()))?;
        let context = context.unwrap_or_else(|| nudges::default_context(&task, now));
        let text = nudges::nudge_text(&task.title, context);
        let deadline = self.settings.http_timeout;
        let posted = tokio::time::timeout(deadline, async {
            let message = self
                .http
                .create_message(channel)
                .content(&text)
                .await
                .map_err(|e| e.to_string())?
                .model()
                .await
                .map_err(|e| e.to_string())?;
            let name: String = format!("Donna: {}", task.title).chars().take(100).collect();
            let thread = self
                .http
                .create_thread_from_message(channel, message.id, &name)
                .await
                .map_err(|e| e.to_string())?
                .model()
                .await
                .map_err(|e| e.to_string())?;
            Ok::<_, String>(thread.id.get().to_string())
        })
        .await
        .map_err(|_| NudgeFailure::Discord(format!("Discord did not answer within {deadline:?}")))?
        .map_err(NudgeFailure::Discord)?;
        self.store
            .write(move |conn| {
                Ok(nudges::open_on(
                    conn,
                    &task_id,
                    Some(context),
                    Channel::Discord,
                    || posted,
                    true,
                    now,
                ))
            })
            .await?
            .map_err(NudgeFailure::from)
    }
}
