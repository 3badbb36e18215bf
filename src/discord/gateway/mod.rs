//! The DiscordGateway actor: Donna's presence in Discord.
//!
//! Owns: the twilight HTTP client, the task that polls the gateway shard (`shard`), and the
//! handles of the work it starts: catch-up (`catch_up`), delivery rounds (`delivery`), nudge
//! threads (`nudge_threads`). Inbound messages, button clicks (`clicks`, `nudge_clicks`,
//! `list_pages`) and slash commands (`commands`) wait in per-channel queues (`inbound`) that
//! outlive the actor; proposals and nudges carry buttons, disabled once they can no longer
//! apply (`proposals`, `stale_nudges`).
//! Takes: `Ready`, `Inbound`, `Interaction` and `ShardEnded` (from its shard task), `Deliver` (its timer, and
//! after every turn), `OpenNudge` (`DiscordNudges`: the API and the Nudger).
//! Invariants:
//! - Inbound messages are queued into their thread in the order the gateway delivered them:
//!   this actor handles them one at a time up to the point where the turn is queued.
//! - Replies leave only through the outbox, in order, each send bounded by
//!   `discord.http_timeout` as a whole (twilight's own timeout is per attempt); a send that
//!   fails stays in the outbox, is counted, and is retried on the next delivery round.
//! - A fatal gateway close (bad token, disallowed intents) marks this actor failed in /health
//!   with the reason and does not reconnect; the rest of Donna keeps serving.

mod catch_up;
mod clicks;
mod commands;
mod delivery;
mod disabled_buttons;
mod inbound;
mod list_pages;
mod messages;
mod nudge_clicks;
mod nudge_threads;
mod post;
mod proposals;
mod settings;
mod shard;
mod shared;
mod stale_nudges;
mod timezone;

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use actors::{ActorHealth, ActorState, Behaviour, CellCtx, ChildRef, Handled, KeyedRouter};
use twilight_http::Client;

use self::catch_up::CatchUp;
use self::delivery::Delivery;
use self::inbound::{route_inbound, route_interaction};
use self::nudge_threads::NudgeOpening;
use crate::clock::SharedClock;
use crate::store::Store;
use crate::turn::intake::Intake;

pub use self::inbound::{channel_router, ChannelWorker};
pub use self::messages::DiscordMsg;
pub use self::settings::{http_client, DiscordSettings};
pub use self::shared::GatewayShared;

/// How often undelivered replies are retried.
const DELIVERY_INTERVAL: Duration = Duration::from_secs(1);

/// The gateway actor; rebuilt from `GatewayParts` after a restart.
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
    /// The one Discord HTTP client (its rate limits are Discord's, shared by every request).
    pub http: Arc<Client>,
    pub store: Store,
    pub intake: Intake,
    pub clock: SharedClock,
    pub shared: Arc<GatewayShared>,
    pub health: Arc<ActorHealth>,
    pub me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
    /// One ordered queue per Discord channel for inbound messages (outlives restarts).
    pub channels: KeyedRouter<u64, ChannelWorker>,
}

impl DiscordGateway {
    pub fn new(parts: GatewayParts) -> Self {
        Self {
            http: parts.http,
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
        self.shard_task = Some(shard::spawn_shard(&self.settings, me, self.shared.clone()));
    }

    fn handle(&mut self, message: DiscordMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            DiscordMsg::Ready {
                bot_user_id,
                application_id,
            } => {
                self.shared
                    .bot_user_id
                    .store(bot_user_id, Ordering::Release);
                self.shared
                    .application_id
                    .store(application_id, Ordering::Release);
                tracing::info!(bot_user_id, application_id, "connected to Discord");
                let (http, shared) = (self.http.clone(), self.shared.clone());
                let guild = self.settings.command_guild_id;
                actix_rt::spawn(async move { commands::register(&http, &shared, guild).await });
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
            DiscordMsg::Interaction(interaction) => {
                route_interaction(&self.channels, interaction);
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
