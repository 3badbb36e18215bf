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
use crate::conversation::memory::Role;
use crate::conversation::ContextType;
use crate::llm::gate::{GateContext, GateDecision};
use crate::llm::prompts::{ClassifyContext, HistoryLine, TaskFacts};
use crate::metrics::TurnMetrics;
use crate::store::{Store, StoreError};
use crate::subsystems::action_executor::ExecutorMsg;
use crate::subsystems::fast_path::FastPathMsg;
use crate::subsystems::llm_classifier::LlmMsg;
use crate::subsystems::rate_cap::{GateMetrics, RateCapMsg, ReserveError};
use crate::subsystems::thread_memory::MemoryMsg;

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
    /// Messages of history given to the model.
    pub window_size: usize,
    /// The group-chat reply gate; None when `reply_decision.enabled` is false.
    pub gate: Option<GateSettings>,
}

#[derive(Debug, Clone, Copy)]
pub struct GateSettings {
    /// Gate only group chats (a 1:1 chat always gets a reply).
    pub group_only: bool,
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
    pub memory: ChildRef<MemoryMsg>,
    /// The model layer; None when `llm.provider` is none.
    pub llm: Option<ChildRef<LlmMsg>>,
    pub rate_cap: ChildRef<RateCapMsg>,
    pub gate_metrics: Arc<GateMetrics>,
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
        if self.gate_applies(&context.thread) && !self.gate_says_reply(&inbound).await? {
            let turn = TurnWork {
                task_id: None,
                cancel_plan: None,
                work: Work::Silent {
                    path: TurnPath::Skipped,
                },
                env: ActionEnv {
                    now: self.clock.now(),
                    timezone: self.settings.timezone,
                    later: self.settings.later,
                },
                undo_window: chrono_duration(self.settings.undo_window),
                plan_expiry: chrono_duration(self.settings.plan_expiry),
                inbound,
            };
            return Ok(self
                .store
                .write(move |conn| apply::commit(conn, turn))
                .await?);
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
                let bind_context_for_model = bind_context.clone();
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
                let unusable_time = bound
                    .as_ref()
                    .ok()
                    .and_then(|(action, _)| self.unusable_time(action, context.task.as_ref(), now));
                match bound {
                    // "move it to tomorrow and today": the keywords found an intent but not a
                    // time; the model may make sense of it.
                    Ok(_) if unusable_time.is_some() && self.llm.is_some() => {
                        let llm = self.llm.clone();
                        match llm {
                            Some(llm) => {
                                self.ask_model(
                                    &llm,
                                    &context,
                                    &inbound,
                                    bind_context_for_model,
                                    now,
                                )
                                .await?
                            }
                            None => Work::Say {
                                path: TurnPath::Unhandled,
                                text: texts::not_understood(&title),
                            },
                        }
                    }
                    Ok((action, true)) => Work::Propose {
                        actions: vec![action],
                        preamble: None,
                        path: TurnPath::Fast,
                    },
                    Ok((action, false)) => Work::Execute(vec![action]),
                    Err(reason) => Work::Say {
                        path: TurnPath::Unhandled,
                        text: format!("I couldn't do that: {reason}."),
                    },
                }
            }
            Next::NextLayer => match &self.llm {
                Some(llm) => {
                    self.ask_model(llm, &context, &inbound, bind_context, now)
                        .await?
                }
                None => Work::Say {
                    path: TurnPath::Unhandled,
                    text: texts::not_understood(&title),
                },
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

    /// The model layer: classify, validate every proposed action, and turn the valid ones into
    /// a plan the person must confirm.
    async fn ask_model(
        &self,
        llm: &ChildRef<LlmMsg>,
        context: &super::context::TurnContext,
        inbound: &Inbound,
        bind_context: BindContext,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Work, TurnError> {
        let Some(task) = &context.task else {
            return Ok(Work::Say {
                path: TurnPath::Unhandled,
                text: texts::FREE_THREAD.to_string(),
            });
        };
        let history = self.recent_history(&inbound.thread_id).await??;
        let tz = self.settings.timezone;
        let show = |at: chrono::DateTime<chrono::Utc>| {
            at.with_timezone(&tz)
                .format("%a %d %b %Y %H:%M")
                .to_string()
        };
        let classify = ClassifyContext {
            task: TaskFacts {
                title: task.title.clone(),
                status: task.status.as_str().replace('_', " "),
                domain: task.domain.clone(),
                priority: task.priority,
                scheduled_start: task.scheduled_start.map(show),
                deadline: task.deadline.map(show),
                estimated_duration_minutes: task.estimated_duration_minutes,
            },
            context: match context.thread.context_type {
                Some(ContextType::Overdue) => "the task is overdue".into(),
                Some(ContextType::CheckIn) => "a check-in: the task's time has come".into(),
                Some(ContextType::Completion) => "asking whether the task is finished".into(),
                None => "a conversation about the task".into(),
            },
            now: show(now),
            timezone: tz.name().to_string(),
            history: history
                .into_iter()
                .map(|entry| HistoryLine {
                    who: match entry.role {
                        Role::Donna => "Donna".into(),
                        Role::User => "User".into(),
                    },
                    text: entry.content,
                })
                .collect(),
            reply: inbound.text.clone(),
        };
        let answer = llm
            .ask(|reply| LlmMsg::Classify {
                context: Box::new(classify),
                reply,
            })
            .await;
        let classification = match answer {
            Ok(Ok(classification)) => classification,
            Ok(Err(error)) => {
                tracing::warn!(%error, "model layer unavailable for this turn");
                return Ok(Work::Say {
                    path: TurnPath::LlmUnavailable,
                    text: texts::LLM_APOLOGY.to_string(),
                });
            }
            Err(error) => {
                tracing::warn!(%error, "model actor unavailable for this turn");
                return Ok(Work::Say {
                    path: TurnPath::LlmUnavailable,
                    text: texts::LLM_APOLOGY.to_string(),
                });
            }
        };
        tracing::debug!(reasoning = %classification.reasoning, "model reasoning (never shown)");
        if classification.actions.is_empty() {
            let text = if classification.reply_to_user.is_empty() {
                texts::LLM_EMPTY.to_string()
            } else {
                classification.reply_to_user
            };
            return Ok(Work::Say {
                path: TurnPath::Llm,
                text,
            });
        }
        let requests = classification.actions;
        let bound = self
            .executor
            .ask(|reply| ExecutorMsg::Bind {
                requests,
                context: bind_context,
                reply,
            })
            .await?;
        let mut valid = Vec::new();
        for outcome in bound {
            match outcome {
                Ok(action) => valid.push(action),
                Err(reason) => {
                    static DROPPED: crate::log_limit::WarnLimiter =
                        crate::log_limit::WarnLimiter::new(20);
                    crate::limited_warn!(DROPPED, %reason, "dropped an invalid action proposed by the model");
                }
            }
        }
        if valid.is_empty() {
            return Ok(Work::Say {
                path: TurnPath::Clarify,
                text: texts::CLARIFY.to_string(),
            });
        }
        Ok(Work::Propose {
            actions: valid,
            preamble: Some(classification.reply_to_user),
            path: TurnPath::Llm,
        })
    }

    /// Step 3 of a turn applies to group chats (or every chat, if not `group_only`) outside
    /// nudge threads: those are the owner's own conversation.
    fn gate_applies(&self, thread: &crate::conversation::Thread) -> bool {
        match self.settings.gate {
            Some(gate) => thread.task_id.is_none() && (thread.is_group || !gate.group_only),
            None => false,
        }
    }

    /// Reserves a reply slot, then asks the gate. False: stay quiet (the cap is reached, or the
    /// gate said SKIP and the slot was given back).
    async fn gate_says_reply(&self, inbound: &Inbound) -> Result<bool, TurnError> {
        let thread_id = inbound.thread_id.clone();
        let chat_id = self
            .store
            .read(move |conn| crate::conversation::threads::get(conn, &thread_id))
            .await?
            .map_or_else(|| inbound.thread_id.clone(), |thread| thread.chat_id);
        let channel = inbound.channel.as_str().to_string();
        let reservation = self
            .rate_cap
            .ask(|reply| RateCapMsg::Reserve {
                channel,
                chat_id,
                reply,
            })
            .await?;
        let reservation = match reservation {
            Ok(reservation) => reservation,
            Err(ReserveError::CapReached) => {
                tracing::info!("reply cap reached for this chat; staying quiet");
                return Ok(false);
            }
            Err(error) => {
                // Fail open, as the gate does: a store hiccup must not silence a real question.
                tracing::warn!(%error, "rate cap unavailable; replying");
                self.gate_metrics
                    .failed_open
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                return Ok(true);
            }
        };
        let Some(llm) = &self.llm else {
            self.gate_metrics
                .failed_open
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return Ok(true);
        };
        let history = self
            .recent_history(&inbound.thread_id)
            .await?
            .unwrap_or_default();
        let context = GateContext {
            history: history
                .into_iter()
                .map(|entry| HistoryLine {
                    who: match entry.role {
                        Role::Donna => "Donna".into(),
                        Role::User => entry.author_id.unwrap_or_else(|| "someone".into()),
                    },
                    text: entry.content,
                })
                .collect(),
            author: inbound.user_id.clone(),
            message: inbound.text.clone(),
        };
        let decision = llm
            .ask(|reply| LlmMsg::Gate {
                context: Box::new(context),
                reply,
            })
            .await
            .unwrap_or_else(|error| GateDecision::FailOpen(error.to_string()));
        let counter = match &decision {
            GateDecision::Reply => &self.gate_metrics.replied,
            GateDecision::Skip => &self.gate_metrics.skipped,
            GateDecision::FailOpen(reason) => {
                tracing::info!(%reason, "reply gate failed open");
                &self.gate_metrics.failed_open
            }
        };
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if decision == GateDecision::Skip {
            let _ = self.rate_cap.tell(RateCapMsg::Release { reservation });
            return Ok(false);
        }
        Ok(true)
    }

    /// Why a keyword-matched action's `when` cannot be used, if it cannot.
    fn unusable_time(
        &self,
        action: &crate::actions::BoundAction,
        task: Option<&crate::tasks::Task>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<String> {
        let words = action
            .params
            .get("when")
            .and_then(serde_json::Value::as_str)?;
        let context = crate::tasks::when::WhenContext {
            now,
            timezone: self.settings.timezone,
            current_start: task.and_then(|task| task.scheduled_start),
            later: self.settings.later,
        };
        crate::tasks::when::find_when(words, &context)
            .err()
            .map(|error| error.to_string())
    }

    /// The thread's last `memory.window_size` messages, oldest first (ThreadMemory's read).
    fn recent_history(
        &self,
        thread_id: &str,
    ) -> impl std::future::Future<
        Output = Result<
            Result<Vec<crate::conversation::memory::MemoryEntry>, StoreError>,
            AskError,
        >,
    > {
        let (thread_id, limit) = (thread_id.to_string(), Some(self.settings.window_size));
        self.memory.ask(move |reply| MemoryMsg::Recent {
            thread_id,
            limit,
            reply,
        })
    }
}
