//! The turn pipeline: one message through docs/contract.md's "A turn", ending in one commit.
//!
//! Owns: the order of the steps (load the context, a message already handled, the entry: a
//! click's intent, or the message's one reading (`crate::sentence`, made in `entry` and nowhere
//! else) and the FastPath analysis of it, the decision, then the group gate, which needs the
//! decision: the answer to a proposal and a rule command are never put to it). Runs inside the thread's Conversation, so
//! turns of one thread never overlap; different threads run concurrently.
//!
//! The rooms and their entry points (what `run_loaded` calls; other methods are helpers):
//! - `Next::FreeText` → `free_text` (free_text.rs): rules first (`capture_words`, capture.rs;
//!   `list_answer`/`next_page`/`agenda_answer`, lists.rs; `timezone_sentence`, timezone.rs;
//!   `answer_which`), then `free_model`, which routes to `planner`, `chat` and its writes
//!   (`chat_actions`, settled by `settle_waiting_actions`), or `parse_and_capture`.
//! - `Next::Intent` / `Next::AnswerNudge` → `intent_layer` (intent.rs); `Next::Clicked` (a
//!   button's change to one task) → `click_layer` (intent.rs).
//! - `Next::NextLayer` → `model_layer` (model.rs).
//! - `Next::ConfirmPlan` of an escalation offer → `escalation_confirmed` (escalation.rs);
//!   a restart that found one cut off → `escalation_interrupted`.
//! - a keyword answering a grouped nudge without a number → `nudge_group::which_one`.
//! - the others (confirm, reject, undo, not yours) are `Work` values (rooms.rs: `room` picks
//!   the room for a decision, with the words read once or a click's intent).
//!
//! Helpers: the group gate (gate.rs), the model call and its failure answers (model_call.rs),
//! `history`, `for_sender` (the sender's zone). Each room returns a `Work`; what a kind commits
//! and answers is said once, in its own file under `src/turn/work/`.
//!
//! Invariants: no transaction is open while the turn awaits an actor or a model; all effects
//! are committed at the end in one unit of work, built in one place (`Pipeline::commit`), and
//! published on the event bus only after that commit.

use std::{sync::Arc, time::Instant};

use actors::ChildRef;
use tracing::Instrument;

use crate::actions::ActionEnv;
use crate::clock::SharedClock;
use crate::conversation::inbox::Accepted;
use crate::events::EventBus;
use crate::llm::journal::{self, Replays};
use crate::llm::probe::ModelStatus;
use crate::metrics::TurnMetrics;
use crate::store::Store;
use crate::subsystems::action_executor::ExecutorMsg;
use crate::subsystems::fast_path::FastPathMsg;
use crate::subsystems::llm_classifier::LlmMsg;
use crate::subsystems::rate_cap::{GateMetrics, RateCapMsg};
use crate::subsystems::thread_memory::MemoryMsg;

use super::apply::{self, TurnWork, Work};
use super::changes;
use super::context::{self, TurnContext};
use super::decide::{Decided, Next, PlanStep};
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::parking;
use super::receipt::{self, LateReceipt};
use super::result::{TurnPath, TurnResult};
use super::settings::{chrono_duration, TurnSettings};
use super::Inbound;

/// Handles to everything a turn talks to. Shared by all conversations.
#[derive(Debug, Clone)]
pub struct Pipeline {
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

impl Pipeline {
    /// Runs one turn, in a span carrying the thread id.
    pub async fn run(
        &self,
        inbound: Inbound,
        late: Option<Arc<LateReceipt>>,
    ) -> Result<TurnResult, TurnError> {
        let span = tracing::info_span!("turn", thread_id = %inbound.thread_id, message_id = %inbound.message_id);
        let started = Instant::now();
        // Every model and tool call of the turn goes into its journal, committed with it.
        let journal = self
            .replays
            .journal_for(&inbound.thread_id, &inbound.message_id);
        let steps = async {
            let message = inbound.clone();
            let outcome = self.run_steps(inbound).await;
            if let Err(error) = &outcome {
                parking::after_error(&self.store, &self.metrics, &message, error).await;
            }
            outcome
        };
        // The writes made for this message, counted apart from whatever else runs meanwhile.
        let writes = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let outcome = receipt::within(late, journal::within(Some(journal), steps));
        let outcome = crate::store::write_count::counting(writes.clone(), outcome)
            .instrument(span.clone())
            .await;
        self.metrics.store_writes.fetch_add(
            writes.load(std::sync::atomic::Ordering::Relaxed),
            std::sync::atomic::Ordering::Relaxed,
        );
        match &outcome {
            Ok(result) => {
                let took = started.elapsed();
                self.metrics.record(result.path, took);
                span.in_scope(|| self.log_turn(result, took));
            }
            Err(error) => {
                self.metrics
                    .errors
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                static FAILED: crate::log_limit::WarnLimiter =
                    crate::log_limit::WarnLimiter::new(20);
                span.in_scope(|| {
                    crate::limited_warn!(FAILED, %error, "turn failed; the message stays in the inbox")
                });
            }
        }
        outcome
    }

    async fn run_steps(&self, inbound: Inbound) -> Result<TurnResult, TurnError> {
        let (message, default_timezone) = (inbound.clone(), self.settings.default_timezone);
        let context = self
            .store
            .read(move |conn| Ok(context::load(conn, &message, default_timezone)))
            .await??;
        match &context.inbox {
            // The same message again: the first result, and nothing applied twice.
            Some(Accepted::Done(json)) => {
                return serde_json::from_str(json).map_err(TurnError::BadStoredResult)
            }
            Some(Accepted::Parked) => return Err(TurnError::Parked),
            _ => {}
        }
        if context.stale_click {
            // A click on a nudge that can no longer be answered (the channel told the person
            // why): nothing changes, nothing is said.
            let stale = Work::Silent {
                path: TurnPath::Unhandled,
            };
            return self
                .commit(inbound, &context, PlanStep::Keep, stale, DraftStep::Keep)
                .await;
        }
        self.for_sender(context.timezone)
            .run_loaded(inbound, context)
            .await
    }

    async fn run_loaded(
        &self,
        inbound: Inbound,
        context: TurnContext,
    ) -> Result<TurnResult, TurnError> {
        let Decided {
            context,
            words,
            plan_step,
            next,
            now,
        } = self.enter(&inbound, context).await?;
        if self.gate_applies(&context.thread) {
            // A click is never chatter: it takes a slot but is not put to the model gate.
            let readings = words.as_ref().and_then(|words| words.readings.as_ref());
            let heard = if inbound.intent.is_some() || self.bypasses_gate(&next, readings) {
                self.takes_reply_slot(&context, &inbound).await?
            } else {
                self.gate_says_reply(&context, &inbound).await?
            };
            if !heard {
                // Skipped: recorded in memory, nothing else changes (a live plan stays).
                let skipped = Work::Silent {
                    path: TurnPath::Skipped,
                };
                return self
                    .commit(inbound, &context, PlanStep::Keep, skipped, DraftStep::Keep)
                    .await;
            }
        }
        // The answer to a nudge delivered into this free thread acts on the nudged task.
        let context = match next {
            Next::AnswerNudge(_) | Next::Clicked(_) => TurnContext {
                answering_nudge: true,
                ..context
            },
            _ => context,
        };
        let (work, draft) = self.room(&context, &inbound, words, next, now).await?;
        self.commit(inbound, &context, plan_step, work, draft).await
    }

    /// Commits the turn's work in one unit of work on the store writer. The turn's effects are
    /// stamped with the time of the commit, not of the decision: a plan proposed after a slow
    /// model call expires `plans.expiry` after the person could first see it.
    async fn commit(
        &self,
        inbound: Inbound,
        context: &TurnContext,
        plan_step: PlanStep,
        work: Work,
        draft: DraftStep,
    ) -> Result<TurnResult, TurnError> {
        let now = self.clock.now();
        let turn = TurnWork {
            task_id: context.task_id(),
            cancel_plan: match plan_step {
                PlanStep::Cancel(plan) => Some(plan),
                PlanStep::Keep => None,
            },
            work,
            draft,
            env: ActionEnv {
                now,
                timezone: self.settings.timezone,
                later: self.settings.later,
                author_id: Some(inbound.user_id.clone()),
            },
            undo_window: chrono_duration(self.settings.undo_window),
            plan_expiry: chrono_duration(self.settings.plan_expiry),
            journal: journal::current()
                .map(|journal| journal.calls())
                .unwrap_or_default(),
            write_inbox_row: receipt::still_to_write(),
            inbound,
        };
        let committed = self
            .store
            .write(move |conn| apply::commit(conn, turn))
            .await?;
        // Durable now (the writer answers after COMMIT): the stream may say so. A failed commit
        // returned above and published nothing.
        changes::publish(&self.events, &committed.result, committed.tasks);
        Ok(committed.result)
    }
}
