//! `donna run`: the process's life. Start (the port first, then the app, the inbox recovered),
//! serve, say so (one summary line; READY to a service manager), and stop on SIGINT/SIGTERM with
//! exit 0 after draining, or exit non-zero when a critical actor fails for good (so a service
//! manager restarts the process).
//! Invariant: SIGTERM/SIGINT are listened for from the first moment, so a stop asked during the
//! start is a clean stop once Donna is up, never the signal's default kill.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::app::{self, App, StartOptions};
use crate::config::{LoadedConfig, ProcessEnv};
use crate::llm::probe::ModelState;

/// How long the startup summary waits for the first answer of the model server.
const FIRST_PROBE_WAIT: Duration = Duration::from_secs(2);

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

/// The one line that says what this process is: version, config, data dir, the zone times are
/// read in (and where it came from), model (and the context it runs with: what a prompt may hold,
/// the room kept for the answer, the chat budget in force), Discord, address.
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
    let context = app.context_figures();
    tracing::info!(
        version = %env!("CARGO_PKG_VERSION"),
        config = %config.map_or_else(|| "defaults".to_string(), |p| p.display().to_string()),
        data_dir = %data_dir.display(),
        timezone = %app.config.timezone.zone().name(),
        timezone_from = %app.config.timezone.source().as_str(),
        model = %model,
        model_state = %model_state,
        context_tokens = context.context_tokens,
        context_from = context.source,
        answer_tokens = context.answer_tokens,
        prompt_tokens = context.prompt_tokens,
        chat_budget_tokens = context.chat_budget_tokens,
        discord = %if app.discord_enabled { "on" } else { "off" },
        bind = %address,
        "donna is running; GET /health to check"
    );
}

pub(super) fn run(path: Option<PathBuf>) -> ExitCode {
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
        if let Some(path) = path.as_deref() {
            // Hot reload: the chat config and the rule files, on change and on SIGHUP.
            app.watch_config(path);
            spawn_reload_on_sighup(app.clone());
        }
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
/// SIGHUP: read the config again now (`app::reload`).
fn spawn_reload_on_sighup(app: Arc<App>) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut hangups) = signal(SignalKind::hangup()) else {
            tracing::warn!("cannot listen for SIGHUP; the config is still re-read on change");
            return;
        };
        actix_rt::spawn(async move {
            while hangups.recv().await.is_some() {
                tracing::info!("SIGHUP: reading the config again");
                app.reload_config_in_background().await;
            }
        });
    }
    #[cfg(not(unix))]
    let _ = app;
}

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
