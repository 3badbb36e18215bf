//! The turn pipeline: one inbound message through the layers, ending in one commit.
//!
//! Owns: the order of the steps of DESIGN.md's "A turn" (the decision rules are in `decide`,
//! the commit in `apply`). Runs inside the thread's Conversation, so turns of one thread never
//! overlap; different threads run concurrently.
//! Invariant: no transaction is open while the turn awaits an actor or a model; all effects
//! are committed at the end in one unit of work.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actors::{AskError, ChildRef};
use tracing::Instrument;

use crate::actions::{ActionEnv, BindContext};
use crate::clock::SharedClock;
use crate::metrics::TurnMetrics;
use crate::store::{Store, StoreError};
use crate::subsystems::action_executor::ExecutorMsg;
use crate::subsystems::fast_path::FastPathMsg;

use super::apply::{self, TurnWork, Work};
use super::context::{self, ContextError};
use super::decide::{decide, Next, PlanStep};
use super::result::{TurnPath, TurnResult};
use super::texts;
use super::Inbound;

/// Settings a turn reads.
#[derive(Debug, Clone)]
pub struct TurnSettings {
    pub timezone: chrono_tz::Tz,
    pub later: Duration,
    pub undo_window: Duration,
    pub plan_expiry: Duration,
}

/// Why a turn could not finish. The message stays in the inbox (not done).
#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    #[error("no thread {0}")]
    NoThread(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Actor(#[from] AskError),
    #[error("stored result is unreadable: {0}")]
    BadStoredResult(String),
}

impl From<ContextError> for TurnError {
    fn from(error: ContextError) -> Self {
        match error {
            ContextError::NoThread(id) => TurnError::NoThread(id),
            ContextError::Store(error) => TurnError::Store(error),
        }
    }
}

/// Handles to everything a turn talks to. Shared by all conversations.
#[derive(Debug, Clone)]
pub struct Pipeline {
    pub store: Store,
    pub clock: SharedClock,
    pub fast_path: ChildRef<FastPathMsg>,
    pub executor: ChildRef<ExecutorMsg>,
    pub settings: TurnSettings,
    pub metrics: Arc<TurnMetrics>,
}

fn chrono_duration(duration: Duration) -> chrono::Duration {
    chrono::Duration::from_std(duration).unwrap_or(chrono::Duration::MAX)
}

impl Pipeline {
    /// Runs one turn, in a span carrying the thread id.
    pub async fn run(&self, inbound: Inbound) -> Result<TurnResult, TurnError> {
        let span = tracing::info_span!("turn", thread_id = %inbound.thread_id, message_id = %inbound.message_id);
        let started = Instant::now();
        let outcome = self.run_steps(inbound).instrument(span.clone()).await;
        match &outcome {
            Ok(result) => {
                self.metrics.record(result.path, started.elapsed());
                span.in_scope(|| tracing::debug!(path = result.path.as_str(), "turn done"));
            }
            Err(error) => {
                self.metrics
                    .errors
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                span.in_scope(
                    || tracing::warn!(%error, "turn failed; the message stays in the inbox"),
                );
            }
        }
        outcome
    }

    async fn run_steps(&self, inbound: Inbound) -> Result<TurnResult, TurnError> {
        let (thread_id, channel, message_id) = (
            inbound.thread_id.clone(),
            inbound.channel.as_str(),
            inbound.message_id.clone(),
        );
        let context = self
            .store
            .read(move |conn| Ok(context::load(conn, &thread_id, channel, &message_id)))
            .await??;
        if let Some(crate::conversation::inbox::Accepted::Done(json)) = &context.inbox {
            // The same message again: the first result, and nothing applied twice.
            return serde_json::from_str(json)
                .map_err(|e| TurnError::BadStoredResult(e.to_string()));
        }
        let text = inbound.text.clone();
        let analysis = self
            .fast_path
            .ask(|reply| FastPathMsg::Analyze { text, reply })
            .await?;
        let now = self.clock.now();
        let (plan_step, next) = decide(&context, &analysis, now);
        let bind_context = BindContext {
            task_id: context.thread.task_id.clone(),
            thread_id: context.thread.id.clone(),
        };
        let title = context
            .task
            .as_ref()
            .map_or("", |task| task.title.as_str())
            .to_string();
        let work = match next {
            Next::FreeThread => Work::Say {
                path: TurnPath::Unhandled,
                text: texts::FREE_THREAD.to_string(),
            },
            Next::ConfirmPlan(plan) => Work::ConfirmPlan(plan),
            Next::RejectPlan(plan) => Work::RejectPlan(plan),
            Next::PlanGone { expired } => Work::PlanGone { expired },
            Next::NothingToConfirm => Work::NothingToConfirm,
            Next::Undo => Work::Undo,
            Next::Intent(intent) => {
                let text = inbound.text.clone();
                let bound = self
                    .executor
                    .ask(|reply| ExecutorMsg::BindIntent {
                        intent,
                        text,
                        context: bind_context,
                        reply,
                    })
                    .await?;
                match bound {
                    Ok((action, true)) => Work::Propose(vec![action]),
                    Ok((action, false)) => Work::Execute(vec![action]),
                    Err(reason) => Work::Say {
                        path: TurnPath::Unhandled,
                        text: format!("I couldn't do that: {reason}."),
                    },
                }
            }
            Next::NextLayer => Work::Say {
                path: TurnPath::Unhandled,
                text: texts::not_understood(&title),
            },
        };
        let turn = TurnWork {
            task_id: context.thread.task_id.clone(),
            cancel_plan: match plan_step {
                PlanStep::Cancel(plan) => Some(plan),
                PlanStep::Keep => None,
            },
            work,
            env: ActionEnv {
                now,
                timezone: self.settings.timezone,
                later: self.settings.later,
            },
            undo_window: chrono_duration(self.settings.undo_window),
            plan_expiry: chrono_duration(self.settings.plan_expiry),
            inbound,
        };
        Ok(self
            .store
            .write(move |conn| apply::commit(conn, turn))
            .await?)
    }
}
