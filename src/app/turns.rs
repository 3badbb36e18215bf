//! Wiring the turn: the pipeline's handles (`TurnDeps`, with the `TurnActors` the app starts)
//! and settings, the keyed router that gives every thread its own Conversation (on two arbiters
//! of their own), and the intake in front of it.
//!
//! Invariant: one pipeline, shared by every conversation; the router's per-thread queue bound
//! and idle passivation come from `runtime.*`, the global bound on turns in flight too.

use std::sync::Arc;

use actix_rt::{Arbiter, ArbiterHandle};
use actors::{ChildRef, HealthRegistry, KeyedConfig, KeyedRouter};

use crate::clock::SharedClock;
use crate::config::Config;
use crate::events::EventBus;
use crate::llm::escalation::Escalation;
use crate::llm::journal::Replays;
use crate::llm::probe::ModelStatus;
use crate::metrics::TurnMetrics;
use crate::store::Store;
use crate::subsystems::action_executor::ExecutorMsg;
use crate::subsystems::chat_sessions::SessionsMsg;
use crate::subsystems::fast_path::FastPathMsg;
use crate::subsystems::llm_classifier::LlmMsg;
use crate::subsystems::rate_cap::GateMetrics;
use crate::subsystems::session_closer::SessionCloser;
use crate::subsystems::thread_memory::MemoryMsg;
use crate::turn::conversation::Conversation;
pub use crate::turn::deps::TurnActors;
use crate::turn::deps::TurnDeps;
use crate::turn::intake::Intake;
use crate::turn::pipeline::Pipeline;
use crate::turn::settings::{GateSettings, TurnSettings};
use crate::turn::thinking::Thinking;

use super::reload::Lives;
use super::spawn::Spawner;

/// What a turn reads from the config.
pub fn turn_settings(config: &Config) -> TurnSettings {
    TurnSettings {
        timezone: config.timezone.zone(),
        default_timezone: config.timezone.zone(),
        quiet_hours: config.nudges.quiet_hours,
        later: config.reschedule.later.get(),
        undo_window: config.undo.window.get(),
        plan_expiry: config.plans.expiry.get(),
        window_size: config.memory.window_size,
        require_evidence: config.llm.require_evidence,
        log_turns: config.log.turns,
        min_confidence: config.capture.min_confidence,
        history_exchanges: config.planner.history_exchanges,
        max_tool_calls: config.planner.max_tool_calls,
        tool_result_chars: config.planner.tool_result_chars,
        working_hours: config.scheduling.working_hours,
        gate: config.reply_decision.enabled.then_some(GateSettings {
            group_only: config.reply_decision.group_only,
        }),
    }
}

/// Starts the conversations' router on `arbiters` and returns the intake in front of it.
#[allow(clippy::too_many_arguments)]
pub fn start_conversations(
    config: &Config,
    store: &Store,
    clock: &SharedClock,
    actors: TurnActors,
    gate_metrics: Arc<GateMetrics>,
    metrics: Arc<TurnMetrics>,
    health: Arc<HealthRegistry>,
    arbiters: Vec<ArbiterHandle>,
) -> Intake {
    let pipeline = Arc::new(Pipeline::new(TurnDeps {
        store: store.clone(),
        clock: clock.clone(),
        gate_metrics,
        settings: turn_settings(config),
        metrics: metrics.clone(),
        actors,
    }));
    let runtime = &config.runtime;
    let router = KeyedRouter::new(
        "router",
        health,
        KeyedConfig {
            capacity_per_key: runtime.thread_queue,
            idle: runtime.passivate_after.get(),
        },
        arbiters,
        move |_thread: &String| Conversation::new(pipeline.clone()),
    );
    Intake::new(
        store.clone(),
        clock.clone(),
        router,
        metrics,
        runtime.max_turns_in_flight,
    )
}

/// What the conversation side is started from: the handles and actors already running.
pub struct ConversationInputs<'a> {
    pub spawner: &'a Spawner<'a>,
    pub config: &'a Config,
    pub store: &'a Store,
    pub clock: &'a SharedClock,
    pub lives: &'a Lives,
    pub fast_path: ChildRef<FastPathMsg>,
    pub memory: ChildRef<MemoryMsg>,
    pub llm: Option<ChildRef<LlmMsg>>,
    pub model: Arc<ModelStatus>,
    pub escalation: Option<Arc<Escalation>>,
    pub health: Arc<HealthRegistry>,
}

/// The conversation side, started: the intake and what the app keeps beside it.
pub struct Conversations {
    pub intake: Intake,
    /// Closes idle chat sessions with their summaries.
    pub chat_sessions: ChildRef<SessionsMsg>,
    pub executor: ChildRef<ExecutorMsg>,
    pub gate_metrics: Arc<GateMetrics>,
    pub metrics: Arc<TurnMetrics>,
    pub events: EventBus,
    /// Told when a turn waits for the model; a channel that shows it adds itself.
    pub thinking: Thinking,
    pub replays: Replays,
    /// The conversations' own threads, stopped with the app.
    pub arbiters: Vec<Arbiter>,
}

impl ConversationInputs<'_> {
    /// Starts the chat sessions' sweeper, the action executor, the rate cap and the keyed
    /// conversations behind their intake.
    pub fn start(self) -> Conversations {
        let Self {
            spawner,
            config,
            store,
            clock,
            lives,
            ..
        } = self;
        // One close for the sweeper and the chat turns, so a session is summarised once.
        let session_closer =
            SessionCloser::new(store.clone(), self.llm.clone(), lives.chat.clone());
        let chat_sessions = spawner.chat_sessions(
            store,
            clock,
            session_closer.clone(),
            config,
            lives.chat.clone(),
        );
        let executor = spawner.action_executor(lives.registry.clone());
        let gate_metrics = Arc::new(GateMetrics::default());
        let rate_cap = spawner.rate_cap(store, clock, config, &gate_metrics);
        let metrics = Arc::new(TurnMetrics::default());
        let events = EventBus::default();
        let thinking = Thinking::default();
        thinking.add(Arc::new(events.clone()));
        let replays = Replays::default();
        let system = lives.system_source(self.escalation.is_some());
        let arbiters = vec![Arbiter::new(), Arbiter::new()];
        let actors = TurnActors {
            fast_path: self.fast_path,
            executor: executor.clone(),
            memory: self.memory,
            llm: self.llm,
            rate_cap,
            model: self.model,
            events: events.clone(),
            thinking: thinking.clone(),
            replays: replays.clone(),
            chat_actions: lives.chat_actions.clone(),
            chat: lives.chat.clone(),
            escalation: self.escalation,
            system,
            session_closer,
            calendars: spawner.calendar_book.clone(),
        };
        let intake = start_conversations(
            config,
            store,
            clock,
            actors,
            gate_metrics.clone(),
            metrics.clone(),
            self.health,
            arbiters.iter().map(Arbiter::handle).collect(),
        );
        Conversations {
            intake,
            chat_sessions,
            executor,
            gate_metrics,
            metrics,
            events,
            thinking,
            replays,
            arbiters,
        }
    }
}
