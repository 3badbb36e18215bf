//! Logging setup for every command: `RUST_LOG` overrides the default levels; `log.format` (or
//! `run --log-format`, which wins) chooses text or JSON lines. `donna run` logs to stderr;
//! `donna chat` logs to `<data dir>/donna-chat.log` (stderr only with `--log-stderr`), so a
//! warning never lands in the middle of the conversation.
//! Invariant: colour codes only for a person's terminal, never in a file or inside JSON.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use tracing_subscriber::fmt::writer::BoxMakeWriter;

use crate::config::{LoadedConfig, LogFormat};

/// The console's log file, in the data dir.
pub const CHAT_LOG_FILE: &str = "donna-chat.log";

/// `--log-format`'s values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum FormatArg {
    Text,
    Json,
}

impl From<FormatArg> for LogFormat {
    fn from(format: FormatArg) -> Self {
        match format {
            FormatArg::Text => LogFormat::Text,
            FormatArg::Json => LogFormat::Json,
        }
    }
}

/// Where log lines go.
pub(super) enum LogTarget {
    Stderr,
    File(std::fs::File),
}

pub(super) fn init_logging(default_level: &str, format: LogFormat, target: LogTarget) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_level));
    let (writer, ansi) = match target {
        LogTarget::Stderr => (
            BoxMakeWriter::new(std::io::stderr),
            std::io::IsTerminal::is_terminal(&std::io::stderr()),
        ),
        LogTarget::File(file) => (BoxMakeWriter::new(std::sync::Mutex::new(file)), false),
    };
    // Colour codes only for a person's terminal, never inside JSON.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(ansi && format == LogFormat::Text);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// The config's log format, or text when the config cannot be read (that error is reported
/// when the command loads it).
pub(super) fn configured_format(path: Option<&Path>) -> LogFormat {
    LoadedConfig::load(path).map_or(LogFormat::Text, |loaded| loaded.config.log.format)
}

/// Opens `<data dir>/donna-chat.log` for appending (making the data dir if needed).
pub(super) fn chat_log(path: Option<&Path>) -> Result<(std::fs::File, PathBuf), String> {
    let loaded = LoadedConfig::load(path).map_err(|e| format!("config error: {e}"))?;
    let dir = loaded.data_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join(CHAT_LOG_FILE);
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
        .map(|opened| (opened, file.clone()))
        .map_err(|e| format!("cannot open {}: {e}", file.display()))
}
