//! The command line (`donna run | chat | check-config | backup | export | import | replay |
//! config default`): the commands
//! and their options (`-c/--config` or `DONNA_CONFIG` on each), and the one-shot commands.
//! `run` (the process's life) is in `run.rs`, logging setup in `logging.rs`, export and import
//! in `transfer.rs`.

mod logging;
mod replay;
mod replay_diff;
mod run;
mod transfer;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::app;
use crate::config::{LoadedConfig, LogFormat, ProcessEnv};
pub use logging::CHAT_LOG_FILE;
use logging::{chat_log, configured_format, init_logging, FormatArg, LogTarget};

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
    /// Write tasks, automations, learned preferences and people's time zones to OUT as JSON,
    /// also while Donna runs (reads only, takes no lock, never overwrites OUT).
    Export {
        #[command(flatten)]
        file: ConfigFile,
        /// The file to write: a new file.
        #[arg(value_name = "OUT")]
        out: PathBuf,
    },
    /// Read an export into the data dir (Donna stopped): added or updated by id, never
    /// duplicated, all or nothing. Exit 2 (nothing changed) for a newer version or a malformed
    /// file, naming the JSON path and what is wrong.
    Import {
        #[command(flatten)]
        file: ConfigFile,
        /// The export to read.
        #[arg(value_name = "IN")]
        input: PathBuf,
    },
    /// Re-run a stored turn with today's code and its recorded model answers, on a copy of the
    /// database (reads only, takes no lock, needs no model server); print where it differs.
    /// Exit 0: identical; 1: different; 2: error.
    Replay {
        #[command(flatten)]
        file: ConfigFile,
        /// The thread the message was sent in.
        #[arg(value_name = "THREAD")]
        thread: String,
        /// The message id (as `POST /api/messages` answered with it).
        #[arg(value_name = "MESSAGE_ID")]
        message: String,
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
const DEFAULT_CONFIG: &str = include_str!("../../config/donna.yaml");

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::CheckConfig { file } => check_config(file.config),
        Command::Run { file, log_format } => {
            let config = file.config;
            let format =
                log_format.map_or_else(|| configured_format(config.as_deref()), Into::into);
            init_logging("info", format, LogTarget::Stderr);
            run::run(config)
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
        Command::Export { file, out } => {
            init_logging("warn", LogFormat::Text, LogTarget::Stderr);
            transfer::export(file.config, out)
        }
        Command::Import { file, input } => {
            init_logging("warn", LogFormat::Text, LogTarget::Stderr);
            transfer::import(file.config, input)
        }
        Command::Replay {
            file,
            thread,
            message,
        } => {
            init_logging("warn", LogFormat::Text, LogTarget::Stderr);
            replay::replay(file.config, &thread, &message)
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
