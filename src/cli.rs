//! The command line (`donna run | chat | check-config | backup | config default`), logging setup, and the process's
//! life: start, serve, stop on SIGINT/SIGTERM with exit 0, or exit non-zero when a critical
//! actor fails for good (so a service manager restarts the process).
//!
//! Logging: `RUST_LOG` overrides the default levels; `log.format` (or `run --log-format`, which
//! wins) chooses text or JSON lines. `donna run` logs to stderr and starts with one summary
//! line; `donna chat` logs to `<data dir>/donna-chat.log` (stderr only with `--log-stderr`), so a
//! warning never lands in the middle of the conversation.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};
use tracing_subscriber::fmt::writer::BoxMakeWriter;

use crate::app::{self, App, StartOptions};
use crate::config::{LoadedConfig, LogFormat, ProcessEnv};
use crate::llm::probe::ModelState;

/// The console's log file, in the data dir.
pub const CHAT_LOG_FILE: &str = "donna-chat.log";
/// How long the startup summary waits for the first answer of the model server.
const FIRST_PROBE_WAIT: Duration = Duration::from_secs(2);

#[derive(Debug, Parser)]
#[command(
    name = "donna",
    version,
    about = "Donna nudges you about your tasks and turns your replies into task actions.",
    long_about = "Donna nudges you about your tasks and turns your replies into task actions.\n\n\
        With no config file every default applies (`donna config default` prints them, with \
        a comment on each key). Secrets (the Discord token, the API token, an LLM key) are read \
        from environment variables named in the config."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The config file option every subcommand that reads a config takes.
#[derive(Debug, Args)]
struct ConfigFile {
    /// YAML config file; every key is optional (`donna config default` prints them all).
    /// Without it, DONNA_CONFIG names the file; without both, every default applies.
    #[arg(long, short, value_name = "FILE", env = "DONNA_CONFIG")]
    config: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the bot: HTTP server (health, metrics, local API), all actors, Discord if a token is set.
    Run {
        #[command(flatten)]
        file: ConfigFile,
        /// Log lines as text or as JSON objects (wins over log.format).
        #[arg(long, value_enum, value_name = "FORMAT")]
        log_format: Option<FormatArg>,
    },
    /// Talk to Donna in this terminal (same runtime, the console as its channel).
    Chat {
        #[command(flatten)]
        file: ConfigFile,
        /// Write logs to stderr instead of <data dir>/donna-chat.log.
        #[arg(long)]
        log_stderr: bool,
    },
    /// Check a config (and the reply rules it names) without starting anything.
    CheckConfig {
        #[command(flatten)]
        file: ConfigFile,
    },
    /// Write a consistent copy of the database to OUT, also while Donna runs (reads only, takes
    /// no lock, never overwrites OUT).
    Backup {
        #[command(flatten)]
        file: ConfigFile,
        /// The copy to write: a new file.
        #[arg(value_name = "OUT")]
        out: PathBuf,
    },
    /// Show configuration.
    Config {
        #[command(subcommand)]
        show: ConfigCommand,
    },
}

#[derive(Debug, Subcommand)]
enum ConfigCommand {
    /// Print the default config: every key, its default and a comment on each. Redirect it to a
    /// file to start your own (`donna config default > donna.yaml`).
    Default,
}

/// The shipped config file, every key at its default (a unit test keeps the two equal).
const DEFAULT_CONFIG: &str = include_str!("../config/donna.yaml");

/// `--log-format`'s values.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum FormatArg {
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
enum LogTarget {
    Stderr,
    File(std::fs::File),
}

fn init_logging(default_level: &str, format: LogFormat, target: LogTarget) {
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
fn configured_format(path: Option<&Path>) -> LogFormat {
    LoadedConfig::load(path).map_or(LogFormat::Text, |loaded| loaded.config.log.format)
}

/// Opens `<data dir>/donna-chat.log` for appending (making the data dir if needed).
fn chat_log(path: Option<&Path>) -> Result<(std::fs::File, PathBuf), String> {
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

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::CheckConfig { file } => check_config(file.config),
        Command::Run { file, log_format } => {
            let config = file.config;
            let format =
                log_format.map_or_else(|| configured_format(config.as_deref()), Into::into);
            init_logging("info", format, LogTarget::Stderr);
            run(config)
        }
        Command::Chat { file, log_stderr } => {
            let config = file.config;
            let format = configured_format(config.as_deref());
            let log_file = if log_stderr {
                None
            } else {
                match chat_log(config.as_deref()) {
                    Ok(opened) => Some(opened),
                    Err(why) => {
                        eprintln!("donna: {why}; logging to stderr");
                        None
                    }
                }
            };
            match log_file {
                Some((file, path)) => {
                    init_logging("warn", format, LogTarget::File(file));
                    crate::console::chat(config.as_deref(), Some(&path))
                }
                None => {
                    init_logging("warn", format, LogTarget::Stderr);
                    crate::console::chat(config.as_deref(), None)
                }
            }
        }
        Command::Backup { file, out } => {
            init_logging("warn", LogFormat::Text, LogTarget::Stderr);
            backup(file.config, out)
        }
        Command::Config {
            show: ConfigCommand::Default,
        } => {
            print!("{DEFAULT_CONFIG}");
            ExitCode::SUCCESS
        }
    }
}

/// Waits a moment for the model server's first answer, so the summary can say whether the
/// model is there ("checking" when it takes longer).
async fn first_probe(app: &App) -> ModelState {
    let deadline = Instant::now() + FIRST_PROBE_WAIT;
    loop {
        let state = app.model_status.state();
        if state != ModelState::Unknown || Instant::now() >= deadline {
            return state;
        }
        actix_rt::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The one line that says what this process is: version, config, data dir, model, Discord,
/// address.
async fn startup_summary(
    app: &App,
    config: Option<&Path>,
    data_dir: &Path,
    address: std::net::SocketAddr,
) {
    let state = first_probe(app).await;
    let status = &app.model_status;
    let model = match state {
        ModelState::Disabled => "none".to_string(),
        _ => format!(
            "{} {} at {}",
            status.provider(),
            status.model(),
            status.base_url()
        ),
    };
    let model_state = match state {
        ModelState::Unknown => "checking",
        other => other.as_str(),
    };
    tracing::info!(
        version = %env!("CARGO_PKG_VERSION"),
        config = %config.map_or_else(|| "defaults".to_string(), |p| p.display().to_string()),
        data_dir = %data_dir.display(),
        model = %model,
        model_state = %model_state,
        discord = %if app.discord_enabled { "on" } else { "off" },
        bind = %address,
        "donna is running; GET /health to check"
    );
}

fn backup(path: Option<PathBuf>, out: PathBuf) -> ExitCode {
    let loaded = match LoadedConfig::load(path.as_deref()) {
        Ok(loaded) => loaded,
        Err(error) => {
            eprintln!("config error: {error}");
            return ExitCode::from(2);
        }
    };
    match crate::store::backup::backup(&loaded.data_dir(), &out) {
        Ok(report) => {
            println!(
                "backup written: {} ({} bytes, {} pages), a consistent copy of {}",
                report.out.display(),
                report.bytes,
                report.pages,
                report.database.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("donna backup: {error}");
            ExitCode::from(1)
        }
    }
}

fn check_config(path: Option<PathBuf>) -> ExitCode {
    let loaded = match LoadedConfig::load(path.as_deref()) {
        Ok(loaded) => loaded,
        Err(error) => {
            eprintln!("config error: {error}");
            return ExitCode::from(2);
        }
    };
    match app::check(&loaded, &ProcessEnv) {
        Ok(()) => {
            for warning in loaded.config.warnings() {
                println!("warning: {warning}");
            }
            println!(
                "config ok{}",
                path.map(|p| format!(": {}", p.display()))
                    .unwrap_or_else(|| " (all defaults)".into())
            );
            ExitCode::SUCCESS
        }
        // A config error says "config error:" itself; the reply rules and prompts get it here.
        Err(error @ app::StartError::Config(_)) => {
            eprintln!("{error}");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("config error: {error}");
            ExitCode::from(2)
        }
    }
}

fn run(path: Option<PathBuf>) -> ExitCode {
    let system = actix_rt::System::new();
    let outcome = system.block_on(async move {
        let mut signals = StopSignals::listen();
        let loaded =
            LoadedConfig::load(path.as_deref()).map_err(|e| format!("config error: {e}"))?;
        // The port first: a second Donna on a busy port stops here, before it takes the data
        // dir's lock, migrates or re-runs anything.
        let listener = crate::http::listen(&loaded.config.http.bind).map_err(|e| e.to_string())?;
        let app = App::start(&loaded, &ProcessEnv, StartOptions::default())
            .map(Arc::new)
            .map_err(|e| match e {
                app::StartError::Config(_) => e.to_string(),
                e => format!("cannot start: {e}"),
            })?;
        let recovered = app
            .recover()
            .await
            .map_err(|e| format!("cannot read the inbox: {e}"))?;
        if recovered > 0 {
            tracing::info!(
                recovered,
                "re-running messages accepted before the last stop"
            );
        }
        let (server, address) = crate::http::serve_on(app.clone(), listener)
            .map_err(|e| format!("cannot serve on {}: {e}", app.config.http.bind))?;
        let server_handle = server.handle();
        let server_task = actix_rt::spawn(server);
        crate::service_manager::ready(&address.to_string());
        crate::service_manager::spawn_watchdog();
        startup_summary(&app, path.as_deref(), &loaded.data_dir(), address).await;
        let reason = wait_for_stop(&app, &mut signals).await;
        crate::service_manager::stopping();
        let grace = app.config.shutdown.grace.get();
        match reason {
            Stop::Signal(name) => tracing::info!(
                signal = name,
                grace_s = grace.as_secs(),
                "stopping: no new messages; finishing turns in flight"
            ),
            Stop::Critical(ref why) => {
                tracing::error!(reason = %why, "stopping: a critical actor failed for good")
            }
        }
        // Drain first: new requests get 503 while the turns in flight finish and answer their
        // clients over the still-open server; only then does the server stop.
        app.begin_draining();
        let left = app.shutdown(grace).await;
        server_handle.stop(true).await;
        let _ = server_task.await;
        if left > 0 {
            tracing::warn!(
                left,
                "messages left unfinished stay in the inbox for the next start"
            );
        }
        match reason {
            Stop::Signal(_) => Ok(()),
            Stop::Critical(why) => Err(format!("critical actor failed: {why}")),
        }
    });
    match outcome {
        Ok(()) => {
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("donna: {message}");
            ExitCode::from(1)
        }
    }
}

enum Stop {
    Signal(&'static str),
    Critical(String),
}

/// SIGTERM and SIGINT, listened for from the first moment of `run`: a signal that arrives while
/// Donna is still starting (or waiting for the model's first answer) stops her cleanly once she
/// is up, instead of killing the process with the signal's default action.
struct StopSignals {
    #[cfg(unix)]
    streams: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl StopSignals {
    /// Must run inside the runtime.
    fn listen() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let streams = match (
                signal(SignalKind::terminate()),
                signal(SignalKind::interrupt()),
            ) {
                (Ok(term), Ok(int)) => Some((term, int)),
                _ => None,
            };
            Self { streams }
        }
        #[cfg(not(unix))]
        Self {}
    }

    async fn next(&mut self) -> &'static str {
        #[cfg(unix)]
        if let Some((term, int)) = &mut self.streams {
            return tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = int.recv() => "SIGINT",
            };
        }
        let _ = tokio::signal::ctrl_c().await;
        "SIGINT"
    }
}

async fn wait_for_stop(app: &App, signals: &mut StopSignals) -> Stop {
    let critical = app.supervisor.critical_failure();
    tokio::select! {
        name = signals.next() => Stop::Signal(name),
        reason = critical => Stop::Critical(reason),
    }
}
