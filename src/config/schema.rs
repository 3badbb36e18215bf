//! The config schema: every key of config/donna.yaml with its default.
//!
//! Invariant: the defaults here and the values written in config/donna.yaml are the same (a test
//! parses the shipped file and compares it with `Config::default()`).

use std::path::PathBuf;

use serde::{Deserialize, Deserializer, Serialize};

use super::calendars::CalendarsConfig;
use super::chat::ChatConfig;
use super::duration::ConfigDuration;
use super::escalation::EscalationConfig;
pub use super::provider::LlmProvider;
use super::quiet_hours::QuietHours;
use super::scheduling::SchedulingConfig;
use super::zone::ZoneSetting;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub data_dir: PathBuf,
    /// The zone times are read and shown in: the file's, else the machine's (`zone`).
    pub timezone: ZoneSetting,
    pub intents_file: Option<PathBuf>,
    pub actions_file: Option<PathBuf>,
    pub chat_actions_file: Option<PathBuf>,
    pub http: HttpConfig,
    pub llm: LlmConfig,
    pub memory: MemoryConfig,
    pub plans: PlansConfig,
    pub reschedule: RescheduleConfig,
    pub undo: UndoConfig,
    pub capture: CaptureConfig,
    pub planner: PlannerConfig,
    pub chat: ChatConfig,
    pub escalation: EscalationConfig,
    pub discord: DiscordConfig,
    pub nudges: NudgesConfig,
    pub calendars: CalendarsConfig,
    pub scheduling: SchedulingConfig,
    pub reply_decision: ReplyDecisionConfig,
    pub runtime: RuntimeConfig,
    pub shutdown: ShutdownConfig,
    pub log: LogConfig,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("./data"),
            timezone: ZoneSetting::default(),
            intents_file: None,
            actions_file: None,
            chat_actions_file: None,
            http: HttpConfig::default(),
            llm: LlmConfig::default(),
            memory: MemoryConfig::default(),
            plans: PlansConfig::default(),
            reschedule: RescheduleConfig::default(),
            undo: UndoConfig::default(),
            capture: CaptureConfig::default(),
            planner: PlannerConfig::default(),
            chat: ChatConfig::default(),
            escalation: EscalationConfig::default(),
            discord: DiscordConfig::default(),
            nudges: NudgesConfig::default(),
            calendars: CalendarsConfig::default(),
            scheduling: SchedulingConfig::default(),
            reply_decision: ReplyDecisionConfig::default(),
            runtime: RuntimeConfig::default(),
            shutdown: ShutdownConfig::default(),
            log: LogConfig::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HttpConfig {
    pub bind: String,
    pub api_token_env: String,
    /// The variable holding the calendar feed's token (`GET /api/calendar.ics?token=`); the
    /// feed is off (404) while it is unset.
    pub calendar_token_env: String,
    pub max_body: usize,
    /// Most `GET /api/events` streams open at once; one more gets 503.
    pub max_event_streams: usize,
    /// An event stream that carried no event for this long is closed (keepalives do not
    /// count), so a forgotten client cannot hold a descriptor forever.
    pub event_stream_idle: ConfigDuration,
    /// The person the web page speaks as (its chat, its buttons, its zone): `web`, or the id
    /// the owner writes with elsewhere (a Discord user id), so the page is that person.
    pub web_user_id: String,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            bind: "127.0.0.1:8080".into(),
            api_token_env: "DONNA_API_TOKEN".into(),
            calendar_token_env: "DONNA_CALENDAR_TOKEN".into(),
            max_body: 64 * 1024,
            max_event_streams: 64,
            event_stream_idle: ConfigDuration::secs(3600),
            web_user_id: "web".into(),
        }
    }
}

/// How the output schema is sent to an OpenAI-compatible server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormat {
    /// `{"type": "json_schema", "json_schema": {"name", "schema"}}`: OpenAI, vLLM, LM Studio,
    /// Ollama's /v1, llama.cpp's own server.
    JsonSchema,
    /// `{"type": "json_object", "schema": {...}}`: llama-cpp-python's server.
    JsonObject,
}

/// Which role carries the system prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SystemRole {
    /// A `system` message of its own (most chat models and servers).
    System,
    /// Folded into the first user message, clearly delimited: for models without a system role
    /// (Gemma), whose chat formats drop system messages without a word (llama-cpp-python's
    /// `--chat_format gemma`, Gemma's own template).
    User,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmConfig {
    pub provider: LlmProvider,
    pub base_url: String,
    pub model: String,
    pub api_key_env: Option<String>,
    pub timeout: ConfigDuration,
    pub max_concurrency: usize,
    pub temperature: f32,
    pub response_format: ResponseFormat,
    /// Ollama's keep_alive (how long the model stays loaded).
    pub keep_alive: String,
    /// Where the system prompt goes: its own `system` message, or folded into the first user
    /// message for models and chat formats that have no system role (Gemma).
    pub system_role: SystemRole,
    /// Drop every model-proposed action the reply gives no ground for (the words each action
    /// declares in the actions file); when none is left, ask instead.
    pub require_evidence: bool,
    /// How often the model server is asked whether it is up and has the model (`/api/tags`,
    /// `/v1/models`); only changes are logged.
    pub probe_interval: ConfigDuration,
    /// The context the model runs with, in tokens: sent to Ollama (`num_ctx`); an
    /// OpenAI-compatible server that reports a smaller one (llama.cpp's `/props`) is held to
    /// that. Every prompt is fitted to it, with room for the answer.
    pub context_tokens: usize,
}

impl Default for LlmConfig {
    fn default() -> Self {
        Self {
            provider: LlmProvider::Ollama,
            base_url: "http://127.0.0.1:11434".into(),
            model: "qwen2.5:7b-instruct".into(),
            api_key_env: None,
            timeout: ConfigDuration::secs(30),
            max_concurrency: 2,
            temperature: 0.0,
            response_format: ResponseFormat::JsonSchema,
            keep_alive: "30m".into(),
            system_role: SystemRole::System,
            require_evidence: true,
            probe_interval: ConfigDuration::secs(30),
            context_tokens: 4096,
        }
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per line, for log shippers.
    Json,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// text or json (`donna run --log-format` wins over it).
    pub format: LogFormat,
    /// One INFO line per finished turn (thread, path, actions, latency).
    pub turns: bool,
}

impl Default for LogConfig {
    fn default() -> Self {
        Self {
            format: LogFormat::Text,
            turns: true,
        }
    }
}

/// Task capture from free text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CaptureConfig {
    /// Below this confidence a capture the model read asks one clarifying question.
    pub min_confidence: f64,
}

impl Default for CaptureConfig {
    fn default() -> Self {
        Self {
            min_confidence: 0.6,
        }
    }
}

/// The planner: its tool budget, the history `route` sees, how much of a tool's
/// result a prompt quotes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlannerConfig {
    pub max_tool_calls: usize,
    pub history_exchanges: usize,
    pub tool_result_chars: usize,
}

impl Default for PlannerConfig {
    fn default() -> Self {
        Self {
            max_tool_calls: 3,
            history_exchanges: 3,
            tool_result_chars: 2000,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemoryConfig {
    pub window_size: usize,
    pub retention: ConfigDuration,
    pub prune_interval: ConfigDuration,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        Self {
            window_size: 10,
            retention: ConfigDuration::secs(7 * 24 * 3600),
            prune_interval: ConfigDuration::secs(3600),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlansConfig {
    pub expiry: ConfigDuration,
    pub sweep_interval: ConfigDuration,
}

impl Default for PlansConfig {
    fn default() -> Self {
        Self {
            expiry: ConfigDuration::secs(3600),
            sweep_interval: ConfigDuration::secs(60),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RescheduleConfig {
    pub later: ConfigDuration,
}

impl Default for RescheduleConfig {
    fn default() -> Self {
        Self {
            later: ConfigDuration::secs(3 * 3600),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UndoConfig {
    pub window: ConfigDuration,
}

impl Default for UndoConfig {
    fn default() -> Self {
        Self {
            window: ConfigDuration::secs(15 * 60),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    pub token_env: String,
    #[serde(deserialize_with = "ids_serde::many")]
    pub allowed_user_ids: Vec<String>,
    #[serde(deserialize_with = "ids_serde::optional")]
    pub nudge_channel_id: Option<String>,
    pub ignore_bots: bool,
    pub gateway_url: Option<String>,
    pub api_proxy: Option<String>,
    pub http_timeout: ConfigDuration,
    pub catch_up_window: ConfigDuration,
    /// Where slash commands are registered: this guild (at once), or globally when unset.
    #[serde(deserialize_with = "ids_serde::optional")]
    pub command_guild_id: Option<String>,
}

impl Default for DiscordConfig {
    fn default() -> Self {
        Self {
            token_env: "DISCORD_TOKEN".into(),
            allowed_user_ids: Vec::new(),
            nudge_channel_id: None,
            ignore_bots: true,
            gateway_url: None,
            api_proxy: None,
            http_timeout: ConfigDuration::secs(15),
            catch_up_window: ConfigDuration::secs(24 * 3600),
            command_guild_id: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NudgesConfig {
    pub interval: ConfigDuration,
    pub min_gap: ConfigDuration,
    pub quiet_hours: QuietHours,
}

impl Default for NudgesConfig {
    fn default() -> Self {
        Self {
            interval: ConfigDuration::secs(60),
            min_gap: ConfigDuration::secs(4 * 3600),
            quiet_hours: QuietHours {
                start: chrono::NaiveTime::from_hms_opt(22, 0, 0).unwrap_or_default(),
                end: chrono::NaiveTime::from_hms_opt(8, 0, 0).unwrap_or_default(),
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReplyDecisionConfig {
    pub enabled: bool,
    pub group_only: bool,
    pub max_replies_per_window: usize,
    pub window: ConfigDuration,
    pub model: Option<String>,
}

impl Default for ReplyDecisionConfig {
    fn default() -> Self {
        Self {
            enabled: false,
            group_only: true,
            max_replies_per_window: 6,
            window: ConfigDuration::secs(120),
            model: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuntimeConfig {
    pub restart_max: u32,
    pub restart_within: ConfigDuration,
    pub backoff_min: ConfigDuration,
    pub backoff_max: ConfigDuration,
    pub passivate_after: ConfigDuration,
    pub thread_queue: usize,
    pub actor_queue: usize,
    pub store_batch: usize,
    /// Messages accepted and not yet answered, across all threads; more get HTTP 429.
    pub max_turns_in_flight: usize,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        Self {
            restart_max: 5,
            restart_within: ConfigDuration::secs(60),
            backoff_min: ConfigDuration::millis(100),
            backoff_max: ConfigDuration::secs(10),
            passivate_after: ConfigDuration::secs(300),
            thread_queue: 32,
            actor_queue: 4096,
            store_batch: 256,
            max_turns_in_flight: 1024,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShutdownConfig {
    pub grace: ConfigDuration,
}

impl Default for ShutdownConfig {
    fn default() -> Self {
        Self {
            grace: ConfigDuration::secs(10),
        }
    }
}

/// Discord ids may be written as strings or numbers; they are kept as strings.
mod ids_serde {
    use super::*;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Text(String),
        Number(u64),
    }

    /// A Discord id that is not a positive number.
    #[derive(Debug, thiserror::Error)]
    #[error("invalid Discord id {0:?}: expected a positive number")]
    struct InvalidId(String);

    fn check(id: Id) -> Result<String, InvalidId> {
        let text = match id {
            Id::Text(text) => text.trim().to_string(),
            Id::Number(number) => number.to_string(),
        };
        match text.parse::<u64>() {
            Ok(value) if value > 0 => Ok(text),
            _ => Err(InvalidId(text)),
        }
    }

    pub fn many<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
        let ids = Vec::<Id>::deserialize(deserializer)?;
        ids.into_iter()
            .map(check)
            .collect::<Result<_, _>>()
            .map_err(serde::de::Error::custom)
    }

    pub fn optional<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<String>, D::Error> {
        Option::<Id>::deserialize(deserializer)?
            .map(check)
            .transpose()
            .map_err(serde::de::Error::custom)
    }
}
