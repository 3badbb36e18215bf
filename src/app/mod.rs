//! The running bot: builds the store, the supervisor and every actor from a config, and shuts
//! them down in order. `donna run`, `donna chat` and the integration tests all start it here.
//!
//! Layout: `rules` (the reply rule files), `model` (the model clients and the LLMClassifier),
//! `spawn` (one function per supervised actor), `turns` (pipeline, router, intake), `discord`
//! (the gateway's wiring). This file holds the order of the start and the stop.
//!
//! Invariants:
//! - Everything a later step needs is checked before anything starts (config, intents, actions,
//!   the model clients and prompts, the data-dir lock, migrations), so a bad setup fails with one
//!   clear message.
//! - One TLS crypto provider is installed, once, before any client is built.
//! - Shutdown stops intake first, lets in-flight turns finish up to the grace period, and leaves
//!   the rest in the inbox; the store writer's last step checkpoints the WAL into `donna.db`.

mod database;
mod discord;
mod error;
mod model;
mod nudge_desk;
pub mod reload;
mod rules;
mod spawn;
mod turns;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_rt::Arbiter;
use actors::{ActorState, ChildRef, HealthRegistry, Supervisor};

use crate::automations::AutomationsMsg;
use crate::clock::{SharedClock, SystemClock};
use crate::config::{Config, Env, LoadedConfig, ProcessEnv, LOCALTIME};
use crate::discord::{DiscordMsg, GatewayShared};
use crate::events::EventBus;
use crate::llm::probe::ModelStatus;
use crate::metrics::{LlmMetrics, NudgeMetrics, TurnMetrics};
use crate::nudges::NudgerMsg;
use crate::store::{DataDirLock, Durability, Store, StoreError};
use crate::subsystems::action_executor::ExecutorMsg;
use crate::subsystems::calendars::CalendarParts;
use crate::subsystems::chat_sessions::SessionsMsg;
use crate::subsystems::digest::DigestMsg;
use crate::subsystems::fast_path::FastPathMsg;
use crate::subsystems::llm_classifier::LlmMsg;
use crate::subsystems::pending_plans::PlansMsg;
use crate::subsystems::rate_cap::GateMetrics;
use crate::subsystems::thread_memory::MemoryMsg;
use crate::turn::intake::Intake;

pub use error::{LaunchError, StartError};
pub use model::ModelClients;
pub use rules::{check, Rules};
pub use turns::turn_settings;

use spawn::Spawner;

/// How long `shutdown` waits for the store writer's last commit and checkpoint.
const STORE_STOP_LIMIT: Duration = Duration::from_secs(5);

pub use crate::tls::install_crypto_provider;

/// Loads the config file (or every default) and starts the app inside the current actix
/// system, with the process's environment, watching the file for hot reload (`donna chat`).
pub fn launch(config_file: Option<&Path>) -> Result<Arc<App>, LaunchError> {
    let loaded = LoadedConfig::load(config_file)?;
    match App::start(&loaded, &ProcessEnv, StartOptions::default()) {
        Ok(app) => {
            let app = Arc::new(app);
            if let Some(path) = config_file {
                app.watch_config(path);
            }
            Ok(app)
        }
        // Said once as a config error, not "cannot start: config error: ...".
        Err(StartError::Config(error)) => Err(LaunchError::Config(error)),
        Err(error) => Err(LaunchError::Start(error)),
    }
}

/// The config as it will run: the machine's zone put in force when the file names none (said
/// in the log), validated, its warnings logged.
fn checked_config(loaded: &LoadedConfig, env: &dyn Env) -> Result<Config, StartError> {
    let mut config = loaded.config.clone();
    config.settle_zone(env, Path::new(LOCALTIME));
    let zone = config.timezone;
    tracing::info!(
        timezone = zone.zone().name(),
        from = zone.source().as_str(),
        "times are read and shown in {}",
        zone.zone().name()
    );
    config.validate(env)?;
    for warning in config.warnings() {
        tracing::warn!("{warning}");
    }
    Ok(config)
}

/// Knobs tests turn; the binary uses the defaults.
#[derive(Debug, Clone)]
pub struct StartOptions {
    pub clock: SharedClock,
    pub durability: Durability,
}

impl Default for StartOptions {
    fn default() -> Self {
        Self {
            clock: Arc::new(SystemClock),
            durability: Durability::Full,
        }
    }
}

/// The running bot's handles.
#[derive(Debug)]
pub struct App {
    /// The config file's hot reload (`reload`).
    reloader: Arc<reload::Reloader>,
    /// The config as started (keys other than `chat.*` and the rule files need a restart).
    pub config: Arc<Config>,
    pub clock: SharedClock,
    pub store: Store,
    pub health: Arc<HealthRegistry>,
    pub supervisor: Supervisor,
    pub intake: Intake,
    pub memory: ChildRef<MemoryMsg>,
    /// Closes idle chat sessions with their summaries.
    pub chat_sessions: ChildRef<SessionsMsg>,
    pub plans: ChildRef<PlansMsg>,
    pub fast_path: ChildRef<FastPathMsg>,
    pub executor: ChildRef<ExecutorMsg>,
    pub nudger: ChildRef<NudgerMsg>,
    /// Turns automations' occurrences into tasks.
    pub automations: ChildRef<AutomationsMsg>,
    /// Sends the daily digests at their occurrences.
    pub digests: ChildRef<DigestMsg>,
    /// The calendars Donna reads: the actor that keeps them current and their events.
    pub calendars: CalendarParts,
    pub llm: Option<ChildRef<LlmMsg>>,
    pub llm_metrics: Arc<LlmMetrics>,
    /// Whether the model is there (probed at start and every `llm.probe_interval`).
    pub model_status: Arc<ModelStatus>,
    pub gate_metrics: Arc<GateMetrics>,
    pub metrics: Arc<TurnMetrics>,
    pub nudge_metrics: Arc<NudgeMetrics>,
    /// The rows the scheduled ticks went past (`skipped_rows`), for /metrics.
    pub skipped_rows: Arc<crate::skipped_rows::SkippedRows>,
    /// Whether Discord is on (a token is set), so nudges can go there.
    pub discord_enabled: bool,
    pub discord: Option<ChildRef<DiscordMsg>>,
    /// The gateway's counters and session facts (None when Discord is off).
    pub discord_shared: Option<Arc<GatewayShared>>,
    pub api_token: Option<String>,
    /// The calendar feed's token (`http.calendar_token_env`); None: the feed is off.
    pub calendar_token: Option<String>,
    /// What Donna did, for `GET /api/events` and the console; closed when the stop begins.
    pub events: EventBus,
    /// Recordings a turn answers from instead of the model (`donna replay`; empty otherwise).
    pub replays: crate::llm::journal::Replays,
    pub started_at: Instant,
    /// Set when the stop begins: new messages and API calls are refused (503) while the turns
    /// in flight finish and answer.
    draining: AtomicBool,
    /// The model prober (None without a model); stopped with the app.
    prober: Option<tokio::task::JoinHandle<()>>,
    arbiters: Vec<Arbiter>,
    _lock: DataDirLock,
}

/// The context figures in force (`App::context_figures`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ContextFigures {
    /// The context the model runs with: `llm.context_tokens`, or the server's smaller figure.
    pub context_tokens: usize,
    /// "config" or "server".
    pub source: &'static str,
    /// Kept for the answer.
    pub answer_tokens: usize,
    /// Kept spare for the token estimate's error.
    pub spare_tokens: usize,
    /// What a whole prompt may hold.
    pub prompt_tokens: usize,
    /// The chat room's budget in force: `chat.context_budget_tokens`, at most `prompt_tokens`.
    pub chat_budget_tokens: usize,
}

/// The bigger model the chat may escalate to, when the config names one.
fn bigger_model(
    config: &Config,
    env: &dyn Env,
) -> Result<Option<Arc<crate::llm::escalation::Escalation>>, StartError> {
    Ok(crate::llm::escalation::Escalation::build(config, env)
        .map_err(StartError::Model)?
        .map(Arc::new))
}

impl App {
    /// Starts every actor. Must run inside an actix `System`.
    pub fn start(
        loaded: &LoadedConfig,
        env: &dyn Env,
        options: StartOptions,
    ) -> Result<Self, StartError> {
        let config = checked_config(loaded, env)?;
        install_crypto_provider();
        let rules = Rules::load(loaded)?;
        let models = ModelClients::build(&config, env, &rules.actions)?;
        let escalation = bigger_model(&config, env)?;
        let (lock, database) = database::locked_and_prepared(&loaded.data_dir())?;
        let health = HealthRegistry::new();
        let supervisor = Supervisor::new(health.clone());
        let spawner = Spawner::new(&supervisor, &config.runtime);
        let store_arbiter = Arbiter::new();
        let store = spawner.store(
            database,
            options.durability,
            config.runtime.store_batch,
            store_arbiter.handle(),
        );
        let clock = options.clock.clone();
        let memory = spawner.thread_memory(&store, &clock, &config);
        let plans = spawner.pending_plans(&store, &clock, &config);
        let lives = reload::Lives::new(rules, &config, models.as_ref());
        let fast_path = spawner.fast_path(lives.matcher.clone());
        let system = lives.system_source(escalation.is_some());
        let model = spawner.model_side(&config, models, system, &health, &clock);
        let conversations = turns::ConversationInputs {
            spawner: &spawner,
            config: &config,
            store: &store,
            clock: &clock,
            lives: &lives,
            fast_path: fast_path.clone(),
            memory: memory.clone(),
            llm: model.llm.clone(),
            model: model.status.clone(),
            escalation,
            health: health.clone(),
        }
        .start();
        let discord =
            spawner.discord_if_configured(&config, env, &store, &clock, &conversations)?;
        let events = &conversations.events;
        let nudge_metrics = Arc::new(NudgeMetrics::default());
        let nudger = spawner.nudger(
            &store,
            &clock,
            &config,
            discord.as_ref().map(discord::DiscordParts::nudge_sink),
            &nudge_metrics,
            events,
        );
        let automations = spawner.automations(&store, &clock, &config, events);
        let digests = spawner.digests(&store, &clock, &config, events);
        let reloader = Arc::new(reload::Reloader::new(lives, config.clone(), clock.clone()));
        Ok(Self {
            reloader,
            api_token: config.api_token(env),
            calendar_token: config.calendar_token(env),
            calendars: spawner.calendars(loaded, config.timezone.zone(), &store, &clock)?,
            config: Arc::new(config),
            clock,
            store,
            health,
            skipped_rows: spawner.skipped.clone(),
            supervisor,
            intake: conversations.intake,
            memory,
            chat_sessions: conversations.chat_sessions,
            plans,
            fast_path,
            executor: conversations.executor,
            nudger,
            automations,
            digests,
            llm: model.llm,
            llm_metrics: model.metrics,
            model_status: model.status,
            gate_metrics: conversations.gate_metrics,
            metrics: conversations.metrics,
            nudge_metrics,
            discord_enabled: discord.is_some(),
            discord_shared: discord.as_ref().map(|parts| parts.shared.clone()),
            discord: discord.map(|parts| parts.gateway),
            events: conversations.events,
            replays: conversations.replays,
            started_at: Instant::now(),
            draining: AtomicBool::new(false),
            prober: model.prober,
            arbiters: Vec::from_iter(conversations.arbiters.into_iter().chain([store_arbiter])),
            _lock: lock,
        })
    }

    /// Watches the config file `donna` started with (and the rule files it names): an edit is
    /// checked and put in force within `reload::POLL_INTERVAL` (`reload`).
    pub fn watch_config(&self, path: &Path) {
        self.reloader.watch(path);
        actix_rt::spawn(reload::poll(Arc::downgrade(&self.reloader)));
    }

    /// Reads the watched config again now, off the runtime's threads (SIGHUP).
    pub async fn reload_config_in_background(&self) {
        reload::reload_off_runtime(self.reloader.clone()).await;
    }

    /// Reads the watched config again now, or `path` (tests). Blocking: reads files.
    pub fn reload_config(&self, path: Option<&Path>) {
        match path {
            Some(path) => self.reloader.reload_from(path),
            None => self.reloader.reload(),
        }
    }

    /// When the config in force was loaded, and why the last edit was refused (/health).
    pub fn config_status(&self) -> reload::ConfigStatus {
        self.reloader.status()
    }

    /// The context the model runs with and what it leaves a prompt (the chat budget in force
    /// among them): for /health and the startup summary.
    pub fn context_figures(&self) -> ContextFigures {
        let window = self.model_status.window();
        ContextFigures {
            context_tokens: window.tokens(),
            source: window.source().as_str(),
            answer_tokens: window.answer_tokens(),
            spare_tokens: window.spare_tokens(),
            prompt_tokens: window.prompt_tokens(),
            chat_budget_tokens: window.chat_budget(self.reloader.chat().context_budget_tokens),
        }
    }

    /// The first step of a stop: no new message is taken (and the HTTP API answers 503), while
    /// the turns already queued or in flight go on.
    pub fn begin_draining(&self) {
        self.draining.store(true, Ordering::Release);
        self.intake.router().close();
        // Event streams end now, so the HTTP server's stop does not wait on them.
        self.events.close();
    }

    /// Stops asking the model server whether it is there (`donna replay`, where no model
    /// server is needed: called before the first await, the prober never asks at all).
    pub fn stop_probing_the_model(&self) {
        if let Some(prober) = &self.prober {
            prober.abort();
        }
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    /// Stops intake, waits for in-flight turns up to `grace`, then stops the actors.
    /// Returns how many messages were still queued or in flight (they stay in the inbox).
    pub async fn shutdown(&self, grace: Duration) -> usize {
        self.begin_draining();
        let router = self.intake.router();
        let deadline = Instant::now() + grace;
        while router.pending() > 0 && Instant::now() < deadline {
            actix_rt::time::sleep(Duration::from_millis(20)).await;
        }
        let left = router.pending();
        // Let the store writer commit what the finished turns handed it.
        let writer = self.store.writer().clone();
        while writer.queue_depth() > 0 && Instant::now() < deadline {
            actix_rt::time::sleep(Duration::from_millis(10)).await;
        }
        self.supervisor.begin_shutdown();
        if let Some(prober) = &self.prober {
            prober.abort();
        }
        // The store writer commits what is still queued, checkpoints the WAL into the database
        // file (its last step) and ends: wait for that before stopping its thread, within a
        // bound of its own (the checkpoint gives up on a stuck reader well before it).
        let stop_deadline = Instant::now() + STORE_STOP_LIMIT;
        while !matches!(
            writer.health().state(),
            ActorState::Stopped | ActorState::Failed
        ) && Instant::now() < stop_deadline
        {
            actix_rt::time::sleep(Duration::from_millis(5)).await;
        }
        for arbiter in &self.arbiters {
            arbiter.stop();
        }
        left
    }

    /// Routes every message accepted but not finished before the last stop, in arrival order,
    /// ahead of new traffic (call it before intake opens). Returns how many.
    pub async fn recover(&self) -> Result<usize, StoreError> {
        // Parked messages (failed every try) are not unfinished: they are counted, not re-run.
        let parked = self
            .store
            .read(crate::conversation::inbox::parked_count)
            .await?;
        self.metrics.parked.store(parked, Ordering::Relaxed);
        if parked > 0 {
            tracing::warn!(
                parked,
                "messages parked after failing every try are not run again"
            );
        }
        let unfinished = self
            .store
            .read(crate::conversation::inbox::unfinished)
            .await?;
        let count = unfinished.len();
        for inbound in unfinished {
            // Route now (queue order is what matters); the answers are awaited in the
            // background because nobody is waiting for them.
            let turn = self.intake.route(inbound, false);
            actix_rt::spawn(async move {
                if let Err(error) = turn.await {
                    tracing::warn!(%error, "recovered message failed");
                }
            });
        }
        Ok(count)
    }
}
