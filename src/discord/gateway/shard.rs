//! The gateway shard: the twilight connection to Discord's gateway, polled by its own task.
//!
//! Owns: the `Shard` (connection, heartbeats, resume and reconnect are twilight's) and the task
//! that polls it.
//! Sends to the gateway actor: `Ready` (Donna's user and application ids, each time a session
//! starts), `Inbound` (every MESSAGE_CREATE, in the order Discord sent them), `Interaction`
//! (every INTERACTION_CREATE: button clicks, slash commands), `ShardEnded` (a fatal close, or the
//! connection ending for good).
//! Invariants:
//! - A fatal close (bad token, disallowed intents) ends the task with its reason and never
//!   polls the shard again (twilight panics when a fatally closed shard is polled).
//! - `GatewayShared::shard_tasks_running` counts the task from its spawn until it is over,
//!   whether it returned or was aborted.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use actors::ChildRef;
use twilight_gateway::{
    CloseFrame, ConfigBuilder, Event, EventTypeFlags, Intents, Shard, ShardId, ShardState,
    StreamExt as _,
};

use super::messages::DiscordMsg;
use super::settings::DiscordSettings;
use super::shared::GatewayShared;

/// Connects to the gateway of `settings` and spawns the task that polls it; what it hears goes
/// to `me`.
pub(super) fn spawn_shard(
    settings: &DiscordSettings,
    me: ChildRef<DiscordMsg>,
    shared: Arc<GatewayShared>,
) -> tokio::task::JoinHandle<()> {
    let mut config = ConfigBuilder::new(
        settings.token.clone(),
        Intents::GUILD_MESSAGES | Intents::DIRECT_MESSAGES | Intents::MESSAGE_CONTENT,
    );
    if let Some(url) = &settings.gateway_url {
        // Another gateway (a proxy, the tests' fake Discord) is not Discord's session budget:
        // a max_concurrency of 0 turns twilight's identify pacing off.
        config = config
            .proxy_url(url.clone())
            .queue(twilight_gateway::queue::InMemoryQueue::new(
                0,
                0,
                Duration::ZERO,
                0,
            ));
    }
    let shard = Shard::with_config(ShardId::ONE, config.build());
    // Counted before the task starts, so nobody sees zero while it is about to run.
    let running = ShardTaskRunning::start(shared);
    tokio::spawn(async move {
        let _running = running;
        poll_shard(shard, me).await;
    })
}

/// Counts one shard task in `GatewayShared::shard_tasks_running` while it lives; dropped when
/// the task returns or is aborted (even before it was first polled).
struct ShardTaskRunning(Arc<GatewayShared>);

impl ShardTaskRunning {
    fn start(shared: Arc<GatewayShared>) -> Self {
        shared.shard_tasks_running.fetch_add(1, Ordering::AcqRel);
        Self(shared)
    }
}

impl Drop for ShardTaskRunning {
    fn drop(&mut self) {
        self.0.shard_tasks_running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Polls the shard for as long as it lives and forwards what matters to the actor.
async fn poll_shard(mut shard: Shard, me: ChildRef<DiscordMsg>) {
    // Close frames always come through, whatever the flags.
    let wanted =
        EventTypeFlags::READY | EventTypeFlags::MESSAGE_CREATE | EventTypeFlags::INTERACTION_CREATE;
    while let Some(item) = shard.next_event(wanted).await {
        match item {
            Ok(Event::Ready(ready)) => {
                let _ = me.tell(DiscordMsg::Ready {
                    bot_user_id: ready.user.id.get(),
                    application_id: ready.application.id.get(),
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
            Ok(Event::InteractionCreate(interaction)) => {
                if me
                    .tell(DiscordMsg::Interaction(Box::new(interaction.0)))
                    .is_err()
                {
                    tracing::warn!(
                        "discord gateway mailbox full; a click or command was not taken"
                    );
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

/// What /health says about a fatal close: for the codes an operator can fix, how.
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
