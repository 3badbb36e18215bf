//! Configuration: loading config/donna.yaml-shaped files and checking them.
//!
//! Owns: the one place that knows the file format (serde_yaml is archived upstream; swapping it
//! touches only `parse_yaml` here), key-path error messages, and cross-key rules.
//! Invariants: every key is optional; an unknown key or a bad value is an error naming its key
//! path; secrets are read only from environment variables named in the file.

mod calendars;
mod chat;
mod duration;
mod env;
mod escalation;
mod file;
mod limits;
mod messages;
mod provider;
mod quiet_hours;
mod scheduling;
mod schema;
mod zone;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

pub use calendars::{
    is_url as is_calendar_url, name_problem as calendar_name_problem, CalendarSourceConfig,
    CalendarsConfig,
};
pub use chat::{ChatConfig, Persona};
pub use duration::ConfigDuration;
pub use env::{Env, ProcessEnv};
pub use escalation::EscalationConfig;
pub use file::{read_text, read_text_within, FileError, Limit, MAX_FILE_BYTES};
pub use limits::DURATION_KEYS;
pub use quiet_hours::QuietHours;
pub use scheduling::{SchedulingConfig, WorkingHours};
pub use schema::*;
pub use zone::{ZoneSetting, ZoneSource, LOCALTIME};

/// What `llm.context_tokens` may be: below 1,024 not even Donna's own instructions fit; the top
/// is far beyond any local model.
pub const CONTEXT_TOKENS: std::ops::RangeInclusive<usize> = 1_024..=1_048_576;

/// Why a config could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read (not a regular file, too large, not text, an I/O error).
    #[error("config file: {0}")]
    Read(#[from] FileError),
    /// A value or key is wrong; `key` is the dotted path ("llm.timeout").
    #[error("{key}: {reason}")]
    Invalid { key: String, reason: String },
}

impl ConfigError {
    fn invalid(key: &str, reason: impl Into<String>) -> Self {
        ConfigError::Invalid {
            key: key.to_string(),
            reason: reason.into(),
        }
    }
}

/// Parses a YAML document into `T`, naming the key path of the first error.
pub fn parse_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ConfigError> {
    let document = if text.trim().is_empty() { "{}" } else { text };
    let deserializer = serde_yaml::Deserializer::from_str(document);
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let top_level = error.path().iter().next().is_none();
        let key = if top_level {
            "(top level)".to_string()
        } else {
            shown_path(error.path())
        };
        // serde_yaml prefixes its own (shorter) path; drop it, keep " at line L column C".
        let message = error.into_inner().to_string();
        let message = match message.split_once(": ") {
            Some((prefix, rest)) if !prefix.contains(' ') => rest.to_string(),
            _ => message,
        };
        let reason = messages::tab_hint(text, &message)
            .unwrap_or_else(|| messages::plain_reason(&message, top_level));
        ConfigError::invalid(&key, reason)
    })
}

/// A key path as shown in a message: names a person may have typed as keys, and "(a key)" for
/// one that is not written like a key (it may be anything the file holds).
fn shown_path(path: &serde_path_to_error::Path) -> String {
    let mut shown = String::new();
    for segment in path.iter() {
        let name = match segment {
            serde_path_to_error::Segment::Seq { index } => {
                shown.push_str(&format!("[{index}]"));
                continue;
            }
            serde_path_to_error::Segment::Map { key } if messages::shown_key(key) => key.clone(),
            serde_path_to_error::Segment::Enum { variant } if messages::shown_key(variant) => {
                variant.clone()
            }
            _ => "(a key)".to_string(),
        };
        if !shown.is_empty() {
            shown.push('.');
        }
        shown.push_str(&name);
    }
    shown
}

/// A loaded config and the folder its relative paths are read from.
#[derive(Debug, Clone)]
pub struct LoadedConfig {
    pub config: Config,
    pub base_dir: PathBuf,
}

impl LoadedConfig {
    /// Reads `path`, or uses every default when there is none.
    pub fn load(path: Option<&Path>) -> Result<Self, ConfigError> {
        let Some(path) = path else {
            return Ok(Self {
                config: Config::default(),
                base_dir: PathBuf::from("."),
            });
        };
        let text = read_text(path)?;
        let config = parse_yaml(&text)?;
        let base_dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        Ok(Self { config, base_dir })
    }

    /// A path from the config, relative to the config file's folder.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        // No config file (base "."): the path as written, not "././data".
        if path.is_absolute() || self.base_dir == Path::new(".") {
            path.to_path_buf()
        } else {
            self.base_dir.join(path)
        }
    }

    pub fn data_dir(&self) -> PathBuf {
        self.resolve(&self.config.data_dir)
    }
}

/// Model families known to have no system role in their chat template (the system prompt is
/// dropped, or folded by the server in ways that differ between servers).
fn model_without_system_role(model: &str) -> bool {
    model.to_ascii_lowercase().contains("gemma")
}

impl Config {
    /// Puts the machine's zone in force when the file names none (`zone`: `TZ` from `env`,
    /// then the zone `localtime` links to, then UTC); a named zone stays.
    pub fn settle_zone(&mut self, env: &dyn Env, localtime: &Path) {
        if !self.timezone.is_named() {
            self.timezone = ZoneSetting::of_machine(env, localtime);
        }
    }

    /// `http.bind` is an address, and one other machines reach only with an API token.
    fn check_bind(&self, env: &dyn Env) -> Result<(), ConfigError> {
        let bind: SocketAddr = self.http.bind.parse().map_err(|_| {
            ConfigError::invalid(
                "http.bind",
                format!(
                    "invalid address {:?}: write it like 127.0.0.1:8080",
                    self.http.bind
                ),
            )
        })?;
        if !bind.ip().is_loopback() && env.var(&self.http.api_token_env).is_none() {
            return Err(ConfigError::invalid(
                "http.bind",
                format!(
                    "{bind} is reachable from other machines; set {} to an API token first",
                    self.http.api_token_env
                ),
            ));
        }
        Ok(())
    }

    /// `http.web_user_id` is an id a person could write with.
    fn check_web_user(&self) -> Result<(), ConfigError> {
        crate::ids::check(&self.http.web_user_id).map_err(|error| {
            ConfigError::invalid(
                "http.web_user_id",
                format!("{error} (a user id, e.g. \"web\" or a Discord user id)"),
            )
        })
    }

    /// Rules that span keys or need the environment.
    pub fn validate(&self, env: &dyn Env) -> Result<(), ConfigError> {
        self.check_bind(env)?;
        self.check_web_user()?;
        if let Some((key, reason)) = self.escalation.problem() {
            return Err(ConfigError::invalid(key, reason));
        }
        if let Some((key, reason)) = self.calendars.problem() {
            return Err(ConfigError::invalid(&key, reason));
        }
        if !(0.0..=1.0).contains(&self.capture.min_confidence) {
            return Err(ConfigError::invalid(
                "capture.min_confidence",
                format!("{} is not between 0 and 1", self.capture.min_confidence),
            ));
        }
        self.check_model()?;
        let positive = [
            ("llm.max_concurrency", self.llm.max_concurrency),
            ("memory.window_size", self.memory.window_size),
            (
                "reply_decision.max_replies_per_window",
                self.reply_decision.max_replies_per_window,
            ),
            ("runtime.thread_queue", self.runtime.thread_queue),
            ("runtime.actor_queue", self.runtime.actor_queue),
            ("runtime.store_batch", self.runtime.store_batch),
            (
                "chat.context_budget_tokens",
                self.chat.context_budget_tokens,
            ),
            (
                "runtime.max_turns_in_flight",
                self.runtime.max_turns_in_flight,
            ),
            ("http.max_event_streams", self.http.max_event_streams),
        ];
        for (key, value) in positive {
            if value == 0 {
                return Err(ConfigError::invalid(key, "must be at least 1"));
            }
        }
        limits::check_durations(self).map_err(|(key, reason)| ConfigError::invalid(key, reason))?;
        if self.runtime.backoff_min > self.runtime.backoff_max {
            return Err(ConfigError::invalid(
                "runtime.backoff_min",
                "must not be longer than runtime.backoff_max",
            ));
        }
        if self.discord_token(env).is_some() && self.discord.allowed_user_ids.is_empty() {
            return Err(ConfigError::invalid(
                "discord.allowed_user_ids",
                format!(
                    "Discord is on ({} is set) but nobody is allowed: list your Discord user id",
                    self.discord.token_env
                ),
            ));
        }
        if let Some(url) = &self.discord.gateway_url {
            if !(url.starts_with("ws://") || url.starts_with("wss://")) {
                return Err(ConfigError::invalid(
                    "discord.gateway_url",
                    format!("{url:?} is not a ws:// or wss:// URL"),
                ));
            }
        }
        Ok(())
    }

    /// The model's keys: an http(s) address, a context in range, a temperature in range.
    fn check_model(&self) -> Result<(), ConfigError> {
        let llm = &self.llm;
        if !(llm.base_url.starts_with("http://") || llm.base_url.starts_with("https://")) {
            return Err(ConfigError::invalid(
                "llm.base_url",
                format!("{:?} is not an http(s) URL", llm.base_url),
            ));
        }
        if !CONTEXT_TOKENS.contains(&llm.context_tokens) {
            return Err(ConfigError::invalid(
                "llm.context_tokens",
                format!(
                    "must be between {} and {}",
                    CONTEXT_TOKENS.start(),
                    CONTEXT_TOKENS.end()
                ),
            ));
        }
        if !(0.0..=2.0).contains(&llm.temperature) {
            return Err(ConfigError::invalid(
                "llm.temperature",
                "must be between 0 and 2",
            ));
        }
        Ok(())
    }

    /// Settings that are valid but probably not what the person wants, one line each, naming
    /// the key: `check-config` prints them and `donna run` logs them at startup.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.llm.provider != LlmProvider::None
            && self.llm.system_role == SystemRole::System
            && model_without_system_role(&self.llm.model)
        {
            warnings.push(format!(
                "llm.system_role: {:?} is a Gemma model, which has no system role: its chat \
                 format drops system messages silently and the model never sees Donna's rules; \
                 set llm.system_role: user",
                self.llm.model
            ));
        }
        warnings
    }

    /// The Discord token, when Discord is on.
    pub fn discord_token(&self, env: &dyn Env) -> Option<String> {
        env.var(&self.discord.token_env)
    }

    /// The HTTP API token, when one is required.
    pub fn api_token(&self, env: &dyn Env) -> Option<String> {
        env.var(&self.http.api_token_env)
    }

    /// The calendar feed's token, when the feed is on (an empty value keeps it off).
    pub fn calendar_token(&self, env: &dyn Env) -> Option<String> {
        env.var(&self.http.calendar_token_env)
            .filter(|token| !token.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct FakeEnv(HashMap<&'static str, &'static str>);
    impl Env for FakeEnv {
        fn var(&self, name: &str) -> Option<String> {
            self.0.get(name).map(|v| v.to_string())
        }
    }

    fn error_of(yaml: &str) -> String {
        match parse_yaml::<Config>(yaml) {
            Ok(config) => match config.validate(&FakeEnv(HashMap::new())) {
                Ok(()) => "ok".into(),
                Err(error) => error.to_string(),
            },
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn the_shipped_file_holds_exactly_the_defaults() {
        let shipped: Result<Config, _> = parse_yaml(include_str!("../../config/donna.yaml"));
        assert_eq!(shipped.ok(), Some(Config::default()));
    }

    #[test]
    fn a_gemma_model_with_a_system_role_is_warned_about_and_folding_silences_it() {
        let warnings = |yaml: &str| {
            parse_yaml::<Config>(yaml)
                .map(|config| config.warnings())
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let gemma = "llm:\n  provider: openai\n  base_url: http://127.0.0.1:8000/v1\n  model: gemma-3-270m\n";
        let warned = warnings(gemma);
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(warned[0].starts_with("llm.system_role:"), "{warned:?}");
        assert!(warnings(&format!("{gemma}  system_role: user\n")).is_empty());
        assert!(warnings("llm:\n  model: qwen2.5:7b-instruct\n").is_empty());
        assert!(warnings("llm:\n  provider: none\n  model: gemma3\n").is_empty());
    }

    #[test]
    fn an_empty_file_means_every_default() {
        assert_eq!(parse_yaml::<Config>("").ok(), Some(Config::default()));
    }

    #[test]
    fn a_typo_in_a_key_names_its_path() {
        let error = error_of("llm:\n  modle: x\n");
        assert!(
            error.starts_with("llm.modle: unknown key \"modle\""),
            "{error}"
        );
        let error = error_of("memroy:\n  window_size: 3\n");
        assert!(error.contains("unknown key \"memroy\""), "{error}");
    }

    #[test]
    fn a_bad_duration_names_its_path_and_the_expected_form() {
        let error = error_of("plans:\n  expiry: soon\n");
        assert!(
            error.starts_with("plans.expiry: invalid duration \"soon\""),
            "{error}"
        );
        let error = error_of("llm:\n  timeout: 30\n");
        assert!(
            error.starts_with("llm.timeout: invalid duration 30"),
            "{error}"
        );
    }

    #[test]
    fn ids_may_be_strings_or_numbers_but_must_be_positive_numbers() {
        let config: Result<Config, _> =
            parse_yaml("discord:\n  allowed_user_ids: [\"123\", 456]\n  nudge_channel_id: 789\n");
        let config = config.ok();
        assert_eq!(
            config.as_ref().map(|c| c.discord.allowed_user_ids.clone()),
            Some(vec!["123".to_string(), "456".to_string()])
        );
        assert_eq!(
            config.and_then(|c| c.discord.nudge_channel_id),
            Some("789".to_string())
        );
        let error = error_of("discord:\n  allowed_user_ids: [\"me\"]\n");
        assert!(error.starts_with("discord.allowed_user_ids"), "{error}");
    }

    #[test]
    fn cross_key_rules_name_the_key() {
        assert!(error_of("timezone: Mars/Olympus\n").starts_with("timezone: unknown timezone"));
        assert!(error_of("http:\n  bind: 0.0.0.0:8080\n").starts_with("http.bind:"));
        assert!(error_of("llm:\n  max_concurrency: 0\n").starts_with("llm.max_concurrency:"));
        assert!(error_of("nudges:\n  quiet_hours: late\n").starts_with("nudges.quiet_hours:"));
        assert_eq!(error_of("timezone: Europe/Berlin\n"), "ok");
    }

    #[test]
    fn discord_on_without_allowed_users_is_refused() {
        let config = Config::default();
        let env = FakeEnv(HashMap::from([("DISCORD_TOKEN", "abc")]));
        let error = config.validate(&env).map_err(|e| e.to_string());
        assert!(matches!(error, Err(ref e) if e.starts_with("discord.allowed_user_ids")));
    }

    #[test]
    fn sources_bounds_and_working_hours_are_read_and_checked_naming_the_key() {
        let ok = "calendars:\n  sources:\n    - {name: Work, source: https://example.com/a.ics, for_user_id: 42}\n    - {name: Home, source: home.ics, for_user_id: web, refresh: 1m}\n  max_events: 10\n";
        assert_eq!(error_of(ok), "ok");
        let config = parse_yaml::<Config>(ok).ok();
        assert_eq!(
            config
                .as_ref()
                .map(|c| c.calendars.sources[0].for_user_id.as_str()),
            Some("42")
        );
        assert_eq!(
            config.map(|c| c.calendars.sources[0].refresh.get().as_secs()),
            Some(900)
        );
        let cases = [
            ("calendars:\n  - {name: a, source: a.ics, for_user_id: x}\n", "calendars: the list of calendars goes under `sources:`"),
            ("calendars:\n  sources:\n    - {name: a, source: a.ics, for_user_id: x, refresh: 30s}\n", "calendars.sources[0].refresh: must be at least 1m"),
            ("calendars:\n  sources:\n    - {name: a, source: ftp://x/a.ics, for_user_id: x}\n", "calendars.sources[0].source: only http(s)"),
            ("calendars:\n  sources:\n    - {name: a, source: a.ics, for_user_id: x}\n    - {name: a, source: b.ics, for_user_id: x}\n", "calendars.sources[1].name: \"a\" is named twice"),
            ("calendars:\n  sources:\n    - {name: a, source: a.ics, for_user_id: x, colour: red}\n", "calendars.sources[0].colour: unknown key"),
            ("calendars:\n  max_byte: 3\n", "calendars.max_byte: unknown key"),
            ("calendars:\n  max_events: 0\n", "calendars.max_events: must be at least 1"),
            ("scheduling:\n  working_hours: 9-5\n", "scheduling.working_hours: invalid time \"9\" in working hours"),
            ("scheduling:\n  working_hours: nine to five\n", "scheduling.working_hours: invalid working hours"),
            ("scheduling:\n  working_hours: \"09:00-09:00\"\n", "scheduling.working_hours: working hours \"09:00-09:00\" are empty"),
        ];
        for (yaml, expected) in cases {
            let found = error_of(yaml);
            assert!(found.starts_with(expected), "{yaml}: {found}");
        }
    }
}
