//! The command line (`donna run | chat | check-config | backup | config default`), logging setup, and the process's
//! life: start, serve, stop on SIGINT/SIGTERM with exit 0, or exit non-zero when a critical
//! actor fails for good (so a service manager restarts the process).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};

use crate::app::{self, App, StartOptions};
use crate::config::{LoadedConfig, ProcessEnv};

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
    },
    /// Talk to Donna in this terminal (same runtime, the console as its channel).
    Chat {
        #[command(flatten)]
        file: ConfigFile,
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

fn init_logging(default_level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::CheckConfig { file } => check_config(file.config),
        Command::Run { file } => {
            init_logging("info");
            run(file.config)
        }
        Command::Chat { file } => {
            init_logging("warn");
            crate::console::chat(file.config.as_deref())
        }
        Command::Backup { file, out } => {
            init_logging("warn");
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
        tracing::info!(%address, "donna is running; GET /health to check");
        crate::service_manager::ready(&address.to_string());
        crate::service_manager::spawn_watchdog();
        let reason = wait_for_stop(&app).await;
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

async fn wait_for_stop(app: &App) -> Stop {
    let critical = app.supervisor.critical_failure();
    let signals = async {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            match (
                signal(SignalKind::terminate()),
                signal(SignalKind::interrupt()),
            ) {
                (Ok(mut term), Ok(mut int)) => {
                    tokio::select! {
                        _ = term.recv() => "SIGTERM",
                        _ = int.recv() => "SIGINT",
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                    "SIGINT"
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "SIGINT"
        }
    };
    tokio::select! {
        name = signals => Stop::Signal(name),
        reason = critical => Stop::Critical(reason),
    }
}
