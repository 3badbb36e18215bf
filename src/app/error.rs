//! Why Donna could not start: the config, the reply rules, the model clients or prompts, the
//! store (a data dir in use, a migration refused), or the calendars' HTTP clients.

use crate::config::ConfigError;
use crate::llm::prompts::PromptError;
use crate::llm::LlmError;
use crate::store::StoreError;

/// Why the bot could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("config error: {0}")]
    Config(#[from] ConfigError),
    #[error("{file}: {reason}")]
    Rules { file: String, reason: String },
    #[error("llm: {0}")]
    Model(LlmError),
    #[error("prompts: {0}")]
    Prompts(PromptError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The calendars' HTTP clients could not be built.
    #[error("calendars: {0}")]
    Calendars(#[from] crate::calendar::fetch::FetchError),
}

/// Why `donna run` or `donna chat` could not get going.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error("config error: {0}")]
    Config(#[from] ConfigError),
    #[error("cannot start: {0}")]
    Start(#[from] StartError),
}
