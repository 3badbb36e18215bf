//! Wiring Discord: the settings read from the config (ids checked), the per-channel inbound
//! queues and the DiscordGateway actor, supervised but not critical (Donna serves locally
//! whatever Discord does).

use std::sync::{Arc, OnceLock};

use actors::{ChildRef, ChildSpec};

use crate::clock::SharedClock;
use crate::config::{Config, ConfigError, Env};
use crate::discord::typing::DiscordTyping;
use crate::discord::{
    DiscordGateway, DiscordMsg, DiscordNudges, DiscordSettings, GatewayParts, GatewayShared,
};
use crate::nudges::NudgeSink;
use crate::store::Store;
use crate::turn::intake::Intake;
use crate::turn::thinking::ThinkingSink;

use super::error::StartError;
use super::spawn::Spawner;
use super::turns::Conversations;

/// Discord's gateway mailbox: a burst of events must not be refused.
const GATEWAY_QUEUE: usize = 4096;

/// The running gateway and its counters.
#[derive(Debug, Clone)]
pub struct DiscordParts {
    pub gateway: ChildRef<DiscordMsg>,
    pub shared: Arc<GatewayShared>,
    /// The typing indicator while a Discord turn waits for the model.
    typing: Arc<DiscordTyping>,
}

impl DiscordParts {
    /// Where a turn says it waits for the model: the typing indicator.
    pub fn thinking_sink(&self) -> Arc<dyn ThinkingSink> {
        self.typing.clone()
    }

    /// Where the Nudger sends nudges while Discord is on.
    pub fn nudge_sink(&self) -> Arc<dyn NudgeSink> {
        Arc::new(DiscordNudges::new(self.gateway.clone()))
    }
}

/// What the gateway needs from the config.
fn settings(config: &Config, token: String) -> Result<DiscordSettings, StartError> {
    let id = |key: &str, text: &str| {
        text.parse::<u64>().map_err(|_| {
            StartError::Config(ConfigError::Invalid {
                key: key.into(),
                reason: format!("{text:?} is not a Discord id"),
            })
        })
    };
    Ok(DiscordSettings {
        token,
        allowed_user_ids: config
            .discord
            .allowed_user_ids
            .iter()
            .map(|text| id("discord.allowed_user_ids", text))
            .collect::<Result<_, _>>()?,
        nudge_channel_id: config
            .discord
            .nudge_channel_id
            .as_deref()
            .map(|text| id("discord.nudge_channel_id", text))
            .transpose()?,
        ignore_bots: config.discord.ignore_bots,
        gateway_url: config.discord.gateway_url.clone(),
        api_proxy: config.discord.api_proxy.clone(),
        http_timeout: config.discord.http_timeout.get(),
        catch_up_window: config.discord.catch_up_window.get(),
        command_guild_id: config
            .discord
            .command_guild_id
            .as_deref()
            .map(|text| id("discord.command_guild_id", text))
            .transpose()?,
        timezone: config.timezone.zone(),
        list_expiry: config.plans.expiry.get(),
    })
}

impl Spawner<'_> {
    /// The DiscordGateway when a token is set (it then shows when a turn waits for the model);
    /// `disabled` in /health otherwise.
    pub fn discord_if_configured(
        &self,
        config: &Config,
        env: &dyn Env,
        store: &Store,
        clock: &SharedClock,
        conversations: &Conversations,
    ) -> Result<Option<DiscordParts>, StartError> {
        let Some(token) = config.discord_token(env) else {
            self.supervisor.disabled::<DiscordMsg>("discord_gateway");
            return Ok(None);
        };
        let parts = self.discord(config, token, store, &conversations.intake, clock)?;
        conversations.thinking.add(parts.thinking_sink());
        Ok(Some(parts))
    }

    /// Starts the DiscordGateway with `token`.
    pub fn discord(
        &self,
        config: &Config,
        token: String,
        store: &Store,
        intake: &Intake,
        clock: &SharedClock,
    ) -> Result<DiscordParts, StartError> {
        let settings = Arc::new(settings(config, token)?);
        let me = Arc::new(OnceLock::new());
        let shared = Arc::new(GatewayShared::default());
        let registry = self.supervisor.registry();
        let http = Arc::new(crate::discord::gateway::http_client(&settings));
        let channels = crate::discord::gateway::channel_router(
            registry.clone(),
            settings.clone(),
            http.clone(),
            store.clone(),
            intake.clone(),
            clock.clone(),
            shared.clone(),
            me.clone(),
        );
        let typing = Arc::new(DiscordTyping {
            http: http.clone(),
            deadline: settings.http_timeout,
        });
        let parts = GatewayParts {
            settings,
            http,
            channels,
            store: store.clone(),
            intake: intake.clone(),
            clock: clock.clone(),
            shared: shared.clone(),
            health: registry.register("discord_gateway", false),
            me: me.clone(),
        };
        let gateway = self.supervisor.spawn(
            ChildSpec::new("discord_gateway", move || {
                Ok(DiscordGateway::new(parts.clone()))
            })
            .limits(self.limits())
            .capacity(GATEWAY_QUEUE),
        );
        let _ = me.set(gateway.clone());
        Ok(DiscordParts {
            gateway,
            shared,
            typing,
        })
    }
}
