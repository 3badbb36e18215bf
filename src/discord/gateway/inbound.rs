//! The inbound queues: one ordered queue per Discord channel, from the gateway to the turn.
//!
//! Owns: the per-channel queues (a `KeyedRouter` of `ChannelWorker`s) and the work on one
//! inbound message up to the point where its turn is queued: who is heard, the free thread of a
//! first DM, mention or reply to Donna, the intake.
//! Takes: `ChannelEvent`s per channel: messages (live ones from the gateway actor, missed ones
//! from catch-up) and interactions (button clicks, slash commands: `clicks`, `commands`). Sends: `Incoming` to the intake; `DiscordMsg::Deliver` to the gateway once a turn
//! is done (at most one queued round at a time).
//! Invariants:
//! - Messages of one channel are taken in the order they were routed; different channels run
//!   concurrently.
//! - A full queue drops the message with a (rate-limited) warning: catch-up fetches it later.
//! - Every message a worker takes is counted once in `GatewayShared::inbound_settled` when its
//!   handling is over (ignored, refused, failed, or its turn done), however that ends.

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use actors::{Behaviour, CellCtx, ChildRef, Handled, HealthRegistry, KeyedConfig, KeyedRouter};
use twilight_http::Client;
use twilight_model::application::interaction::Interaction;
use twilight_model::channel::Message;

use super::messages::DiscordMsg;
use super::settings::DiscordSettings;
use super::shared::GatewayShared;
use crate::clock::SharedClock;
use crate::conversation::{threads, Channel};
use crate::discord::hearing::{hear, strip_mentions, Facts, Hearing};
use crate::store::Store;
use crate::turn::intake::{Incoming, Intake, PendingTurn};

/// Builds the per-channel inbound queues: messages of one channel are taken in the order the
/// gateway delivered them, different channels concurrently.
#[allow(clippy::too_many_arguments)]
pub fn channel_router(
    registry: Arc<HealthRegistry>,
    settings: Arc<DiscordSettings>,
    http: Arc<Client>,
    store: Store,
    intake: Intake,
    clock: SharedClock,
    shared: Arc<GatewayShared>,
    me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
) -> KeyedRouter<u64, ChannelWorker> {
    let work = InboundWork {
        settings,
        http,
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

/// What a channel's queue takes, in arrival order: messages, and clicks or slash commands
/// (which go through the same turn as typed answers, so they keep the thread's order).
pub enum ChannelEvent {
    Message(Box<Message>),
    Interaction(Box<Interaction>),
}

impl Behaviour for ChannelWorker {
    type Msg = ChannelEvent;

    fn handle(&mut self, event: ChannelEvent, _ctx: &mut CellCtx<Self>) -> Handled {
        match event {
            ChannelEvent::Message(message) => Handled::wait(self.work.clone().run(message)),
            ChannelEvent::Interaction(interaction) => {
                Handled::wait(self.work.clone().interaction(interaction))
            }
        }
    }
}

/// Queues `message` behind the earlier messages of its channel.
pub(super) fn route_inbound(channels: &KeyedRouter<u64, ChannelWorker>, message: Box<Message>) {
    let channel = message.channel_id.get();
    route_event(channels, channel, ChannelEvent::Message(message));
}

/// Queues a click or a slash command behind the earlier messages of its channel.
pub(super) fn route_interaction(
    channels: &KeyedRouter<u64, ChannelWorker>,
    interaction: Box<Interaction>,
) {
    let Some(channel) = interaction.channel.as_ref().map(|channel| channel.id.get()) else {
        tracing::debug!("an interaction without a channel; ignored");
        return;
    };
    route_event(channels, channel, ChannelEvent::Interaction(interaction));
}

fn route_event(channels: &KeyedRouter<u64, ChannelWorker>, channel: u64, event: ChannelEvent) {
    static FULL: crate::log_limit::WarnLimiter = crate::log_limit::WarnLimiter::new(10);
    if channels.route(channel, event).is_err() {
        crate::limited_warn!(
            FULL,
            channel,
            "inbound queue of a Discord channel is full; catch-up will fetch the message later"
        );
    }
}

/// One inbound message (or interaction, `clicks`), up to the point where its turn is queued.
#[derive(Clone)]
pub(super) struct InboundWork {
    pub(super) settings: Arc<DiscordSettings>,
    pub(super) http: Arc<Client>,
    pub(super) store: Store,
    pub(super) intake: Intake,
    pub(super) clock: SharedClock,
    pub(super) shared: Arc<GatewayShared>,
    pub(super) me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
}

/// Counts one inbound message in `GatewayShared::inbound_settled` when dropped: at the end of
/// its handling, whichever way that ends (an early return, the turn's task, a dropped future).
struct SettlesOnDrop(Arc<GatewayShared>);

impl Drop for SettlesOnDrop {
    fn drop(&mut self) {
        self.0.inbound_settled.fetch_add(1, Ordering::AcqRel);
    }
}

impl InboundWork {
    async fn run(self, message: Box<Message>) {
        let settles = SettlesOnDrop(self.shared.clone());
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
            // Discord sends the message replied to (with its author) along with the reply.
            replies_to_donna: message
                .referenced_message
                .as_ref()
                .is_some_and(|original| original.author.id.get() == donna),
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
                .write(move |conn| threads::ensure_free(conn, &id, is_group, Channel::Discord, now))
                .await;
            if let Err(error) = created {
                tracing::warn!(%error, "cannot record a Discord conversation");
                return;
            }
        }
        let queued = self
            .intake
            .enqueue(
                Incoming::typed(
                    Channel::Discord,
                    channel_id,
                    message.author.id.get().to_string(),
                    text,
                )
                .with_message_id(message.id.get().to_string()),
            )
            .await;
        match queued {
            Ok(pending) => self.deliver_after(pending, settles),
            Err(error) => {
                static REFUSED: crate::log_limit::WarnLimiter =
                    crate::log_limit::WarnLimiter::new(10);
                crate::limited_warn!(REFUSED, %error, "a Discord message was refused");
            }
        }
    }
}

impl InboundWork {
    /// Once the queued turn is done, asks for a delivery round (one queued round delivers every
    /// reply written so far); `settles` is dropped then.
    pub(super) fn deliver_after<S: Send + 'static>(&self, pending: PendingTurn, settles: S) {
        let me = self.me.clone();
        let shared = self.shared.clone();
        actix_rt::spawn(async move {
            let _settles = settles;
            if let Err(error) = pending.await {
                tracing::warn!(%error, "a Discord message's turn failed");
            }
            if !shared.delivery_requested.swap(true, Ordering::AcqRel) {
                if let Some(me) = me.get() {
                    let _ = me.tell(DiscordMsg::Deliver);
                }
            }
        });
    }
}
