//! The config a test's bot runs with, built as a typed value instead of patched YAML text.
//!
//! A test names only what it is about: its own sections as YAML (`TestConfig::yaml`), a model
//! (`with_llm`), Discord on the fake (`with_discord`), secrets in the environment (`with_env`).
//! `TestConfig::config` parses the test's sections once and then sets, on the typed `Config`,
//! what every test bot needs: its own data dir, HTTP on a free loopback port, and, for each
//! section the test did not write, the value that keeps the test independent of the machine
//! and of schedules it is not about (UTC, no model, the Nudger and the plan sweeper ticking
//! hourly instead of every minute, so a slow run sees only what the test itself caused).

use std::collections::BTreeMap;
use std::path::Path;

use donna::config::{parse_yaml, Config, ConfigDuration, Env, LlmProvider, ZoneSetting};
use serde::de::IgnoredAny;

use super::fake_discord::FakeDiscord;
use super::fake_llm::FakeLlm;
use super::ids;

/// The environment a test's bot reads: only the variables the test sets.
#[derive(Debug, Clone, Default)]
pub struct TestEnv(pub Vec<(&'static str, &'static str)>);

impl Env for TestEnv {
    fn var(&self, name: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.to_string())
    }
}

/// The model a test points Donna at: the fake model server and the protocol it speaks.
#[derive(Debug, Clone)]
struct Model {
    provider: LlmProvider,
    base_url: String,
    timeout: ConfigDuration,
    max_concurrency: usize,
}

/// Discord on the fake: who may talk to Donna and where nudges go.
#[derive(Debug, Clone)]
struct Discord {
    gateway_url: String,
    api_proxy: String,
    allowed: Vec<u64>,
    nudge_channel: Option<u64>,
    http_timeout: ConfigDuration,
    ignore_bots: bool,
    command_guild: Option<u64>,
}

/// A test bot's config, built step by step; `config` gives the typed `Config`.
#[derive(Debug, Clone, Default)]
pub struct TestConfig {
    /// The test's own YAML sections, parsed as one document (never patched).
    sections: String,
    model: Option<Model>,
    discord: Option<Discord>,
    pub(super) env: TestEnv,
}

impl TestConfig {
    /// Every default a test bot runs with.
    pub fn new() -> Self {
        Self::default()
    }

    /// The test's own sections (`"nudges:\n  min_gap: 4h\n"`), as YAML.
    pub fn yaml(sections: &str) -> Self {
        Self::new().with_yaml(sections)
    }

    /// More of the test's own sections, after the ones given so far.
    pub fn with_yaml(mut self, sections: &str) -> Self {
        self.sections.push_str(sections);
        self
    }

    /// The fake model on `provider`'s protocol ("ollama" or "openai"), each call cut off after
    /// `timeout` seconds, at most `max_concurrency` at once.
    pub fn with_llm(
        mut self,
        fake: &FakeLlm,
        provider: LlmProvider,
        timeout_secs: u64,
        max_concurrency: usize,
    ) -> Self {
        let base_url = match provider {
            LlmProvider::Openai => fake.openai_url(),
            _ => fake.ollama_url(),
        };
        self.model = Some(Model {
            provider,
            base_url,
            timeout: ConfigDuration::secs(timeout_secs),
            max_concurrency,
        });
        self
    }

    /// Discord on `fake`, hearing the users `allowed` (and no other bot), REST calls cut off
    /// after 5 s; the bot token in the environment.
    pub fn with_discord(mut self, fake: &FakeDiscord, allowed: &[u64]) -> Self {
        self.discord = Some(Discord {
            gateway_url: fake.gateway_url(),
            api_proxy: fake.rest_addr().to_string(),
            allowed: allowed.to_vec(),
            nudge_channel: None,
            http_timeout: ConfigDuration::secs(5),
            ignore_bots: true,
            command_guild: None,
        });
        self.with_env("DISCORD_TOKEN", ids::TOKEN)
    }

    /// Discord nudges opened in `channel` (after `with_discord`).
    pub fn nudging_in(self, channel: u64) -> Self {
        self.with_discord_part(|discord| discord.nudge_channel = Some(channel))
    }

    /// Discord REST calls cut off after `secs` seconds (after `with_discord`).
    pub fn with_discord_timeout(self, secs: u64) -> Self {
        self.with_discord_part(|discord| discord.http_timeout = ConfigDuration::secs(secs))
    }

    /// Slash commands registered in `guild` only (after `with_discord`).
    pub fn with_command_guild(self, guild: u64) -> Self {
        self.with_discord_part(|discord| discord.command_guild = Some(guild))
    }

    /// Messages of other bots heard like people's (after `with_discord`).
    pub fn hearing_bots(self) -> Self {
        self.with_discord_part(|discord| discord.ignore_bots = false)
    }

    fn with_discord_part(mut self, change: impl FnOnce(&mut Discord)) -> Self {
        let discord = self
            .discord
            .as_mut()
            .unwrap_or_else(|| panic!("a Discord setting before `with_discord`"));
        change(discord);
        self
    }

    /// `name` set to `value` in the bot's environment.
    pub fn with_env(mut self, name: &'static str, value: &'static str) -> Self {
        self.env.0.push((name, value));
        self
    }

    /// `env` as the whole of the bot's environment.
    pub fn in_env(mut self, env: TestEnv) -> Self {
        self.env = env;
        self
    }

    /// The typed config for a bot whose files live in `dir`; a panic naming the key when the
    /// test's sections do not parse.
    pub fn config(&self, dir: &Path) -> Config {
        let written: BTreeMap<String, IgnoredAny> =
            parse_yaml(&self.sections).unwrap_or_else(|e| panic!("test config: {e}"));
        let wrote = |section: &str| written.contains_key(section);
        let mut config: Config =
            parse_yaml(&self.sections).unwrap_or_else(|e| panic!("test config: {e}"));
        config.data_dir = dir.join("data");
        config.http.bind = "127.0.0.1:0".to_string();
        if !wrote("timezone") {
            config.timezone = ZoneSetting::named(chrono_tz::UTC);
        }
        if !wrote("llm") {
            config.llm.provider = LlmProvider::None;
        }
        if !wrote("nudges") {
            config.nudges.interval = ConfigDuration::secs(3600);
        }
        if !wrote("plans") {
            config.plans.sweep_interval = ConfigDuration::secs(3600);
        }
        if let Some(model) = &self.model {
            config.llm.provider = model.provider;
            config.llm.base_url.clone_from(&model.base_url);
            config.llm.model = "fake-model".to_string();
            config.llm.timeout = model.timeout;
            config.llm.max_concurrency = model.max_concurrency;
        }
        if let Some(discord) = &self.discord {
            config.discord.allowed_user_ids = discord.allowed.iter().map(u64::to_string).collect();
            config.discord.nudge_channel_id = discord.nudge_channel.map(|id| id.to_string());
            config.discord.gateway_url = Some(discord.gateway_url.clone());
            config.discord.api_proxy = Some(discord.api_proxy.clone());
            config.discord.http_timeout = discord.http_timeout;
            config.discord.ignore_bots = discord.ignore_bots;
            config.discord.command_guild_id = discord.command_guild.map(|id| id.to_string());
        }
        config
    }
}
