//! What the gateway needs from the config, and the Discord HTTP client built from it.

use std::time::Duration;

use twilight_http::Client;

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
    /// Where slash commands are registered; `None`: globally.
    pub command_guild_id: Option<u64>,
    /// The person's timezone (answers to `/tasks` name their days).
    pub timezone: chrono_tz::Tz,
    /// How long a `/tasks` answer's More button keeps working (`plans.expiry`, like a draft).
    pub list_expiry: Duration,
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
