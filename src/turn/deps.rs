//! The turn's shared handles: everything a room may reach outside its own file (the store, the
//! clock, the settings, and `TurnActors`: the actors, the model, the live configs, the event bus).
//! One value, built once by the app and shared by all conversations; a turn works with its copy in
//! the sender's time zone (`for_sender`).
//!
//! A room is a function of these handles, the loaded `TurnContext` and the message's reading;
//! its signature says which handles it takes (the narrow ones where one or two suffice).
//!
//! Invariant: nothing here holds a turn's state: a handle is an actor, the store, or a config
//! read once per turn; the per-turn state lives in the `TurnContext` and the room's arguments.

use std::sync::Arc;

use actors::{AskError, ChildRef, Reply};
use chrono::{DateTime, Utc};

use crate::actions::BindContext;
use crate::clock::SharedClock;
use crate::events::EventBus;
use crate::llm::journal::Replays;
use crate::llm::probe::ModelStatus;
use crate::metrics::TurnMetrics;
use crate::store::Store;
use crate::subsystems::action_executor::ExecutorMsg;
use crate::subsystems::fast_path::FastPathMsg;
use crate::subsystems::llm_classifier::LlmMsg;
use crate::subsystems::rate_cap::{GateMetrics, RateCapMsg};
use crate::subsystems::thread_memory::MemoryMsg;
use crate::tasks::when::WhenContext;

use super::context::TurnContext;
use super::settings::TurnSettings;

/// Handles to everything a turn talks to. Shared by all conversations.
#[derive(Debug, Clone)]
pub struct TurnDeps {
    pub store: Store,
    pub clock: SharedClock,
    pub gate_metrics: Arc<GateMetrics>,
    pub settings: TurnSettings,
    pub metrics: Arc<TurnMetrics>,
    /// The actors, the model and the live configs.
    pub actors: TurnActors,
}

/// The actors a turn talks to, the model's state and the live configs it reads, as the app
/// started them.
#[derive(Debug, Clone)]
pub struct TurnActors {
    pub fast_path: ChildRef<FastPathMsg>,
    pub executor: ChildRef<ExecutorMsg>,
    pub memory: ChildRef<MemoryMsg>,
    pub llm: Option<ChildRef<LlmMsg>>,
    pub rate_cap: ChildRef<RateCapMsg>,
    /// Whether the model is there: a turn does not wait for a model known not to answer.
    pub model: Arc<ModelStatus>,
    pub events: EventBus,
    /// Told when a turn waits for the model (set once a channel that shows it is on).
    pub thinking: super::thinking::Thinking,
    /// Recordings turns answer from (`donna replay`; empty in the bot).
    pub replays: Replays,
    /// The chat's actions and their safety levels (hot reloaded).
    pub chat_actions: crate::live::Live<crate::chat_actions::ChatActions>,
    /// The chat config in force (hot reloaded).
    pub chat: crate::live::Live<crate::config::ChatConfig>,
    /// The bigger model, when escalation is on.
    pub escalation: Option<Arc<crate::llm::escalation::Escalation>>,
    /// What the prefix of every model call is made of (the bigger model's prompt too).
    pub system: crate::llm::system_prompt::SystemSource,
    /// Closes an expired chat session (shared with the sweeper).
    pub session_closer: crate::subsystems::session_closer::SessionCloser,
    /// The calendars Donna reads (the planner's `calendar_events`).
    pub calendars: Arc<crate::calendar::book::CalendarBook>,
}

impl TurnDeps {
    /// These handles for one sender: every time the turn reads or shows is in their zone.
    pub fn for_sender(&self, timezone: chrono_tz::Tz) -> TurnDeps {
        let mut deps = self.clone();
        deps.settings.timezone = timezone;
        deps
    }

    /// What binding an action in this thread needs: its task, and how to read times.
    pub fn bind_context(&self, context: &TurnContext, now: DateTime<Utc>) -> BindContext {
        BindContext {
            task_id: context.task_id(),
            thread_id: context.thread.id.clone(),
            when: WhenContext {
                now,
                timezone: self.settings.timezone,
                // The task's own time: its start, else its deadline ("friday" keeps its time).
                current_start: context
                    .acting_task()
                    .and_then(|task| task.scheduled_start.or(task.deadline)),
                later: self.settings.later,
            },
        }
    }

    /// Asks the ActionExecutor `message`, which binds with this thread's `bind_context`.
    pub async fn bind_and_ask<T: Send + 'static>(
        &self,
        context: &TurnContext,
        now: DateTime<Utc>,
        message: impl FnOnce(BindContext, Reply<T>) -> ExecutorMsg,
    ) -> Result<T, AskError> {
        let bind_context = self.bind_context(context, now);
        self.actors
            .executor
            .ask(|reply| message(bind_context, reply))
            .await
    }
}
