//! The turn's shared handles: everything a room may reach outside its own file (the store, the
//! clock, the actors, the model, the live configs, the event bus). One value, built once by the
//! app and shared by all conversations; a turn works with its copy in the sender's time zone
//! (`for_sender`).
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
    pub fast_path: ChildRef<FastPathMsg>,
    pub executor: ChildRef<ExecutorMsg>,
    pub memory: ChildRef<MemoryMsg>,
    /// The model layer; None when `llm.provider` is none.
    pub llm: Option<ChildRef<LlmMsg>>,
    pub rate_cap: ChildRef<RateCapMsg>,
    /// Whether the model is there (the model room does not call one known not to answer).
    pub model: Arc<ModelStatus>,
    pub gate_metrics: Arc<GateMetrics>,
    pub settings: TurnSettings,
    pub metrics: Arc<TurnMetrics>,
    /// Where a committed turn's reply and task changes are published.
    pub events: EventBus,
    /// Told when a turn is about to wait for the model (a channel shows "typing").
    pub thinking: super::thinking::Thinking,
    /// Recordings a turn answers its model and tool calls from (`donna replay` only).
    pub replays: Replays,
    /// The chat's actions and their safety levels (config/chat_actions.yaml), hot reloaded.
    pub chat_actions: crate::live::Live<crate::chat_actions::ChatActions>,
    /// The chat config in force (`chat.*`), hot reloaded: a turn reads it once.
    pub chat: crate::live::Live<crate::config::ChatConfig>,
    /// The bigger model (`escalation.*`); None when it is off.
    pub escalation: Option<Arc<crate::llm::escalation::Escalation>>,
    /// What every model call's prefix is made of (here for the bigger model's prompt).
    pub system: crate::llm::system_prompt::SystemSource,
    /// Closes an expired chat session with its summary (the sweeper's close).
    pub session_closer: crate::subsystems::session_closer::SessionCloser,
    /// The calendars Donna reads: a person's own events (the planner's `calendar_events`).
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
        self.executor
            .ask(|reply| message(bind_context, reply))
            .await
    }
}
