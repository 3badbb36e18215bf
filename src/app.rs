//! The running bot: builds the store, the supervisor and every actor from a config, and shuts
//! them down in order. `donna run`, `donna chat` and the integration tests all start it here.
//!
//! Invariants:
//! - Everything a later step needs is checked before anything starts (config, intents, actions,
//!   the data-dir lock, migrations), so a bad setup fails with one clear message.
//! - Shutdown stops intake first, lets in-flight turns finish up to the grace period, and leaves
//!   the rest in the inbox.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_rt::Arbiter;
use actors::{
    ChildRef, ChildSpec, HealthRegistry, KeyedConfig, KeyedRouter, RestartLimits, Supervisor,
};

use crate::actions::ActionRegistry;
use crate::clock::{SharedClock, SystemClock};
use crate::config::LlmProvider;
use crate::config::{Config, ConfigError, Env, LoadedConfig};
use crate::discord::{DiscordGateway, DiscordMsg, DiscordSettings, GatewayParts, GatewayShared};
use crate::llm::classify::Classifier;
use crate::llm::client::LlmClient;
use crate::llm::gate::ReplyGate;
use crate::metrics::{LlmMetrics, TurnMetrics};
use crate::replies::intents::IntentsConfig;
use crate::replies::matcher::FastPath;
use crate::store::{self, DataDirLock, Durability, ReadPool, Store, StoreError, StoreWriter};
use crate::subsystems::action_executor::{ActionExecutor, ExecutorMsg};
use crate::subsystems::fast_path::{FastPathActor, FastPathMsg};
use crate::subsystems::llm_classifier::{LlmClassifier, LlmMsg};
use crate::subsystems::nudger::{NudgeRules, Nudger, NudgerMsg};
use crate::subsystems::pending_plans::{PendingPlans, PlansMsg};
use crate::subsystems::rate_cap::{GateMetrics, RateCap};
use crate::subsystems::thread_memory::{MemoryMsg, ThreadMemory};
use crate::turn::conversation::Conversation;
use crate::turn::intake::Intake;
use crate::turn::pipeline::GateSettings;
use crate::turn::pipeline::{Pipeline, TurnSettings};
use tokio::sync::Semaphore;

/// Why the bot could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("config: {0}")]
    Config(#[from] ConfigError),
    #[error("{file}: {reason}")]
    Rules { file: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The reply rules: keyword intents and the action registry, checked against each other.
#[derive(Debug, Clone)]
pub struct Rules {
    pub intents: IntentsConfig,
    pub actions: ActionRegistry,
}

impl Rules {
    /// Loads the files named in the config, or the shipped copies.
    pub fn load(loaded: &LoadedConfig) -> Result<Self, StartError> {
        let read = |path: &Option<PathBuf>,
                    shipped: &'static str,
                    key: &str|
         -> Result<(String, String), StartError> {
            match path {
                Some(path) => {
                    let full = loaded.resolve(path);
                    std::fs::read_to_string(&full)
                        .map(|text| (text, full.display().to_string()))
                        .map_err(|error| StartError::Rules {
                            file: key.to_string(),
                            reason: format!("cannot read {}: {error}", full.display()),
                        })
                }
                None => Ok((shipped.to_string(), format!("{key} (shipped)"))),
            }
        };
        let config = &loaded.config;
        let (intents_text, intents_name) = read(
            &config.intents_file,
            include_str!("../config/reply_intents.yaml"),
            "intents_file",
        )?;
        let (actions_text, actions_name) = read(
            &config.actions_file,
            include_str!("../config/reply_actions.yaml"),
            "actions_file",
        )?;
        let intents =
            IntentsConfig::from_yaml_str(&intents_text).map_err(|error| StartError::Rules {
                file: intents_name.clone(),
                reason: error.to_string(),
            })?;
        let actions =
            ActionRegistry::from_yaml(&actions_text).map_err(|error| StartError::Rules {
                file: actions_name,
                reason: error.to_string(),
            })?;
        for intent in &intents.intents {
            if actions.get(&intent.def.action).is_none() {
                return Err(StartError::Rules {
                    file: intents_name,
                    reason: format!(
                        "intents.{}.action: unknown action {:?}; the actions file has: {}",
                        intent.name,
                        intent.def.action,
                        actions.names().collect::<Vec<_>>().join(", ")
                    ),
                });
            }
        }
        Ok(Self { intents, actions })
    }
}

/// Checks everything `donna run` would check, without starting anything.
pub fn check(loaded: &LoadedConfig, env: &dyn Env) -> Result<(), StartError> {
    loaded.config.validate(env)?;
    Rules::load(loaded)?;
    Ok(())
}

/// Starts the DiscordGateway (non-critical: Donna serves locally whatever Discord does).
fn spawn_discord(
    supervisor: &Supervisor,
    config: &Config,
    token: String,
    store: &Store,
    intake: &Intake,
    clock: &SharedClock,
    limits: RestartLimits,
) -> Result<(ChildRef<DiscordMsg>, Arc<GatewayShared>), StartError> {
    crate::discord::install_crypto_provider();
    let id = |key: &str, text: &str| {
        text.parse::<u64>().map_err(|_| {
            StartError::Config(ConfigError::Invalid {
                key: key.into(),
                reason: format!("{text:?} is not a Discord id"),
            })
        })
    };
    let settings = Arc::new(DiscordSettings {
        token,
        allowed_user_ids: config
            .discord
            .allowed_user_ids
            .iter()
            .map(|text| id("discord.allowed_user_ids", text))
            .collect::<Result<_, _>>()?,
        nudge_channel_id: config
            .discord
            .nudge_channel_id
            .as_deref()
            .map(|text| id("discord.nudge_channel_id", text))
            .transpose()?,
        ignore_bots: config.discord.ignore_bots,
        gateway_url: config.discord.gateway_url.clone(),
        api_proxy: config.discord.api_proxy.clone(),
        http_timeout: config.discord.http_timeout.get(),
        catch_up_window: config.discord.catch_up_window.get(),
    });
    let me = Arc::new(std::sync::OnceLock::new());
    let shared = Arc::new(GatewayShared::default());
    let channels = crate::discord::gateway::channel_router(
        supervisor.registry().clone(),
        settings.clone(),
        store.clone(),
        intake.clone(),
        clock.clone(),
        shared.clone(),
        me.clone(),
    );
    let parts = GatewayParts {
        settings,
        channels,
        store: store.clone(),
        intake: intake.clone(),
        clock: clock.clone(),
        shared: shared.clone(),
        health: supervisor.registry().register("discord_gateway", false),
        me: me.clone(),
    };
    let gateway = supervisor.spawn(
        ChildSpec::new("discord_gateway", move || {
            Ok(DiscordGateway::new(parts.clone()))
        })
        .limits(limits)
        .capacity(4096),
    );
    let _ = me.set(gateway.clone());
    Ok((gateway, shared))
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
    pub config: Arc<Config>,
    pub clock: SharedClock,
    pub store: Store,
    pub health: Arc<HealthRegistry>,
    pub supervisor: Supervisor,
    pub intake: Intake,
    pub memory: ChildRef<MemoryMsg>,
    pub plans: ChildRef<PlansMsg>,
    pub fast_path: ChildRef<FastPathMsg>,
    pub executor: ChildRef<ExecutorMsg>,
    pub nudger: ChildRef<NudgerMsg>,
    pub llm: Option<ChildRef<LlmMsg>>,
    pub llm_metrics: Arc<LlmMetrics>,
    pub gate_metrics: Arc<GateMetrics>,
    pub metrics: Arc<TurnMetrics>,
    /// Whether Discord is on (a token is set), so nudges can go there.
    pub discord_enabled: bool,
    pub discord: Option<ChildRef<DiscordMsg>>,
    /// The gateway's counters and session facts (None when Discord is off).
    pub discord_shared: Option<Arc<GatewayShared>>,
    pub api_token: Option<String>,
    pub started_at: Instant,
    arbiters: Vec<Arbiter>,
    _lock: DataDirLock,
}

impl App {
    /// Starts every actor. Must run inside an actix `System`.
    pub fn start(
        loaded: &LoadedConfig,
        env: &dyn Env,
        options: StartOptions,
    ) -> Result<Self, StartError> {
        let config = loaded.config.clone();
        config.validate(env)?;
        // One TLS crypto provider for the whole process (model servers over https, Discord).
        crate::discord::install_crypto_provider();
        let rules = Rules::load(loaded)?;
        let data_dir = loaded.data_dir();
        let lock = DataDirLock::acquire(&data_dir)?;
        let database = store::prepare(&data_dir)?;
        tracing::info!(path = %database.display(), "database ready");

        let health = HealthRegistry::new();
        let supervisor = Supervisor::new(health.clone());
        let runtime = &config.runtime;
        let limits = RestartLimits {
            max_restarts: runtime.restart_max,
            within: runtime.restart_within.get(),
            backoff_min: runtime.backoff_min.get(),
            backoff_max: runtime.backoff_max.get(),
        };
        let store_arbiter = Arbiter::new();
        let conversation_arbiters = vec![Arbiter::new(), Arbiter::new()];

        let (durability, batch) = (options.durability, runtime.store_batch);
        let writer_path = database.clone();
        let writer = supervisor.spawn(
            ChildSpec::new("store_writer", move || {
                StoreWriter::open(&writer_path, durability, batch).map_err(|e| e.to_string())
            })
            .critical(true)
            .limits(limits)
            .capacity(runtime.actor_queue)
            .arbiter(store_arbiter.handle()),
        );
        let store = Store::new(writer, ReadPool::new(database, 8));
        let clock = options.clock.clone();

        let memory = {
            let (store, clock) = (store.clone(), clock.clone());
            let (retention, interval) = (
                config.memory.retention.get(),
                config.memory.prune_interval.get(),
            );
            supervisor.spawn(
                ChildSpec::new("thread_memory", move || {
                    Ok(ThreadMemory::new(
                        store.clone(),
                        clock.clone(),
                        retention,
                        interval,
                    ))
                })
                .limits(limits)
                .capacity(runtime.actor_queue),
            )
        };
        let plans = {
            let (store, clock) = (store.clone(), clock.clone());
            let interval = config.plans.sweep_interval.get();
            supervisor.spawn(
                ChildSpec::new("pending_plans", move || {
                    Ok(PendingPlans::new(store.clone(), clock.clone(), interval))
                })
                .limits(limits)
                .capacity(runtime.actor_queue),
            )
        };
        let matcher = Arc::new(FastPath::new(&rules.intents));
        let fast_path: ChildRef<FastPathMsg> = supervisor.spawn(
            ChildSpec::new("fast_path", move || Ok(FastPathActor::new(matcher.clone())))
                .limits(limits)
                .capacity(runtime.actor_queue),
        );
        let registry = Arc::new(rules.actions);
        let llm_metrics = Arc::new(LlmMetrics::default());
        let llm = if config.llm.provider == LlmProvider::None {
            supervisor.disabled::<LlmMsg>("llm_classifier");
            None
        } else {
            let api_key = config
                .llm
                .api_key_env
                .as_deref()
                .and_then(|name| env.var(name));
            let client =
                LlmClient::new(&config.llm, None, api_key).map_err(|e| StartError::Rules {
                    file: "llm".into(),
                    reason: e.to_string(),
                })?;
            let classifier =
                Arc::new(
                    Classifier::new(client, &registry).map_err(|e| StartError::Rules {
                        file: "prompts".into(),
                        reason: e.to_string(),
                    })?,
                );
            let gate = if config.reply_decision.enabled {
                let key = config
                    .llm
                    .api_key_env
                    .as_deref()
                    .and_then(|name| env.var(name));
                let client =
                    LlmClient::new(&config.llm, config.reply_decision.model.as_deref(), key)
                        .map_err(|e| StartError::Rules {
                            file: "llm".into(),
                            reason: e.to_string(),
                        })?;
                Some(Arc::new(ReplyGate::new(client)))
            } else {
                None
            };
            let slots = Arc::new(Semaphore::new(config.llm.max_concurrency));
            let record = health.register("llm_classifier", false);
            let metrics = llm_metrics.clone();
            Some(
                supervisor.spawn(
                    ChildSpec::new("llm_classifier", move || {
                        Ok(LlmClassifier::new(
                            classifier.clone(),
                            gate.clone(),
                            slots.clone(),
                            metrics.clone(),
                            record.clone(),
                        ))
                    })
                    .limits(limits)
                    .capacity(runtime.actor_queue),
                ),
            )
        };
        let executor: ChildRef<ExecutorMsg> = supervisor.spawn(
            ChildSpec::new("action_executor", move || {
                Ok(ActionExecutor::new(registry.clone()))
            })
            .limits(limits)
            .capacity(runtime.actor_queue),
        );
        let gate_metrics = Arc::new(GateMetrics::default());
        let rate_cap = {
            let (store, clock, metrics) = (store.clone(), clock.clone(), gate_metrics.clone());
            let (max, window) = (
                config.reply_decision.max_replies_per_window,
                config.reply_decision.window.get(),
            );
            supervisor.spawn(
                ChildSpec::new("rate_cap", move || {
                    Ok(RateCap::new(
                        store.clone(),
                        clock.clone(),
                        max,
                        window,
                        metrics.clone(),
                    ))
                })
                .limits(limits)
                .capacity(runtime.actor_queue),
            )
        };
        let metrics = Arc::new(TurnMetrics::default());
        let pipeline = Arc::new(Pipeline {
            store: store.clone(),
            clock: clock.clone(),
            fast_path: fast_path.clone(),
            executor: executor.clone(),
            memory: memory.clone(),
            llm: llm.clone(),
            rate_cap,
            gate_metrics: gate_metrics.clone(),
            settings: TurnSettings {
                timezone: config.timezone,
                later: config.reschedule.later.get(),
                undo_window: config.undo.window.get(),
                plan_expiry: config.plans.expiry.get(),
                window_size: config.memory.window_size,
                gate: config.reply_decision.enabled.then_some(GateSettings {
                    group_only: config.reply_decision.group_only,
                }),
            },
            metrics: metrics.clone(),
        });
        let router = KeyedRouter::new(
            "router",
            health.clone(),
            KeyedConfig {
                capacity_per_key: runtime.thread_queue,
                idle: runtime.passivate_after.get(),
            },
            conversation_arbiters.iter().map(Arbiter::handle).collect(),
            move |_thread: &String| Conversation::new(pipeline.clone()),
        );
        let intake = Intake::new(
            store.clone(),
            clock.clone(),
            router,
            runtime.max_turns_in_flight,
        );
        let discord = match config.discord_token(env) {
            Some(token) => Some(spawn_discord(
                &supervisor,
                &config,
                token,
                &store,
                &intake,
                &clock,
                limits,
            )?),
            None => {
                supervisor.disabled::<DiscordMsg>("discord_gateway");
                None
            }
        };
        let nudger = {
            let (store, clock) = (store.clone(), clock.clone());
            let sink = discord.as_ref().map(|(gateway, _)| {
                Arc::new(crate::discord::DiscordNudges::new(gateway.clone()))
                    as Arc<dyn crate::nudges::NudgeSink>
            });
            let rules = NudgeRules {
                interval: config.nudges.interval.get(),
                min_gap: config.nudges.min_gap.get(),
                quiet_hours: config.nudges.quiet_hours,
                timezone: config.timezone,
            };
            supervisor.spawn(
                ChildSpec::new("nudger", move || {
                    Ok(Nudger::new(
                        store.clone(),
                        clock.clone(),
                        rules.clone(),
                        sink.clone(),
                    ))
                })
                .limits(limits)
                .capacity(runtime.actor_queue),
            )
        };
        let api_token = config.api_token(env);
        let mut arbiters = conversation_arbiters;
        arbiters.push(store_arbiter);
        Ok(Self {
            config: Arc::new(config),
            clock,
            store,
            health,
            supervisor,
            intake,
            memory,
            plans,
            fast_path,
            executor,
            nudger,
            llm,
            llm_metrics,
            gate_metrics,
            metrics,
            discord_enabled: discord.is_some(),
            discord_shared: discord.as_ref().map(|(_, shared)| shared.clone()),
            discord: discord.map(|(gateway, _)| gateway),
            api_token,
            started_at: Instant::now(),
            arbiters,
            _lock: lock,
        })
    }

    /// Stops intake, waits for in-flight turns up to `grace`, then stops the actors.
    /// Returns how many messages were still queued or in flight (they stay in the inbox).
    pub async fn shutdown(&self, grace: Duration) -> usize {
        let router = self.intake.router();
        router.close();
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
        for arbiter in &self.arbiters {
            arbiter.stop();
        }
        left
    }
}

impl App {
    /// Routes every message accepted but not finished before the last stop, in arrival order,
    /// ahead of new traffic (call it before intake opens). Returns how many.
    pub async fn recover(&self) -> Result<usize, StoreError> {
        let unfinished = self
            .store
            .read(crate::conversation::inbox::unfinished)
            .await?;
        let count = unfinished.len();
        for row in unfinished {
            let Ok(channel) = crate::conversation::Channel::parse(&row.channel) else {
                continue;
            };
            let inbound = crate::turn::Inbound {
                channel,
                message_id: row.message_id,
                thread_id: row.thread_id,
                user_id: row.user_id,
                text: row.text,
            };
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
