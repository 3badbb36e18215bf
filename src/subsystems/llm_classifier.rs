//! The LLMClassifier actor: the model layer for replies the FastPath cannot take.
//!
//! Owns: the model client, the prompts and the output schema (`llm::classify::Classifier`), the
//! one prefix every call starts with (`llm::system_prompt`, rendered from Donna's config in
//! force at each call, and fitted to the context the model runs with: `llm::budget`), and the
//! cap on calls in flight (`llm.max_concurrency`).
//! Takes: `Classify` (a reply with its task and history) and answers with the parsed
//! classification or the error.
//! Invariants: every call's messages start with the one prefix (the turns send what a call is
//! about, never a prompt); each call runs as its own task behind the model slots (`llm::slots`), so at most
//! `max_concurrency` calls are in flight and a slow call never holds up this actor's mailbox
//! (waiting turns queue for a slot, a turn's later call before any turn's first call, and
//! FastPath turns never come here at all); every
//! failure is counted in the metrics and recorded as this actor's last failure in /health;
//! every call's latency and outcome is recorded by call kind (`classify`, `gate`, `route`,
//! `parse_task`, `plan_step`, `chat`, `summarize`), and every
//! classification's outcome tells the model's status (`llm::probe::ModelStatus`) whether the
//! model answered, or could not be reached.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use actors::{ActorHealth, Behaviour, CellCtx, Handled, Reply};

use crate::live::Live;
use crate::llm::budget::ContextWindow;
use crate::llm::chat::ChatModel;
use crate::llm::chat_prompt::{ChatContext, SummaryContext};
use crate::llm::classify::Classifier;
use crate::llm::free_text::{FreeTextContext, FreeTextModel, ParsedTask, Route};
use crate::llm::gate::{GateDecision, ReplyGate};
use crate::llm::journal::{self, TurnJournal};
use crate::llm::output::Classification;
use crate::llm::planner::{ChatAnswer, PlanStep, PlannerContext, PlannerModel};
use crate::llm::probe::ModelStatus;
use crate::llm::prompts::ClassifyContext;
use crate::llm::prompts::GateContext;
use crate::llm::slots::{ModelSlots, Turn};
use crate::llm::system_prompt::{Prefix, SystemPrompt, SystemSource};
use crate::llm::LlmError;
use crate::metrics::{CallKind, LlmMetrics};

pub enum LlmMsg {
    Classify {
        context: Box<ClassifyContext>,
        reply: Reply<Result<Classification, LlmError>>,
    },
    /// Free text: what is this message? (`route`)
    Route {
        context: Box<FreeTextContext>,
        reply: Reply<Result<Route, LlmError>>,
    },
    /// Free text: the task the message asks for (`parse_task`).
    ParseTask {
        context: Box<FreeTextContext>,
        reply: Reply<Result<ParsedTask, LlmError>>,
    },
    /// The planner: the next read-only tool to call, or done (`plan_step`).
    PlanStep {
        context: Box<PlannerContext>,
        reply: Reply<Result<PlanStep, LlmError>>,
    },
    /// The planner's answer, composed from the tools' results (`chat`).
    Chat {
        context: Box<PlannerContext>,
        reply: Reply<Result<ChatAnswer, LlmError>>,
    },
    /// The chat room's answer in the conversation (`chat`).
    Converse {
        context: Box<ChatContext>,
        reply: Reply<Result<ChatAnswer, LlmError>>,
    },
    /// A closed chat session's summary (`summarize`).
    Summarize {
        context: Box<SummaryContext>,
        reply: Reply<Result<String, LlmError>>,
    },
    /// The group-chat reply gate (REPLY/SKIP); never fails, it fails open.
    Gate {
        context: Box<GateContext>,
        reply: Reply<GateDecision>,
    },
    /// Another message, asked for a turn: its model calls go into (or, replaying, are answered
    /// from) that turn's journal.
    Journaled {
        journal: TurnJournal,
        message: Box<LlmMsg>,
    },
}

/// `message` carrying the journal of the turn asking, if it runs inside one.
pub fn journaled(message: LlmMsg) -> LlmMsg {
    match journal::current() {
        Some(journal) => LlmMsg::Journaled {
            journal,
            message: Box::new(message),
        },
        None => message,
    }
}

/// What every call starts with: how to render it, from what, and the context it must fit.
#[derive(Debug, Clone)]
pub struct PrefixSource {
    pub prompt: Arc<SystemPrompt>,
    pub facts: SystemSource,
    pub window: Arc<ContextWindow>,
}

impl PrefixSource {
    /// The prefix of Donna's config in force, with the room the context leaves a call.
    pub fn prefix(&self) -> Result<Prefix, LlmError> {
        let messages = self.prompt.prefix(&self.facts.facts())?;
        Ok(Prefix::new(messages, self.window.prompt_tokens()))
    }
}

pub struct LlmClassifier {
    /// The classifier in force (replaced by a hot reload of the reply actions file).
    classifier: Live<Classifier>,
    prefix: PrefixSource,
    free_text: Arc<FreeTextModel>,
    planner: Arc<PlannerModel>,
    chat: Arc<ChatModel>,
    gate: Option<Arc<ReplyGate>>,
    /// Shared across restarts, so a restart cannot lift the cap.
    slots: ModelSlots,
    metrics: Arc<LlmMetrics>,
    health: Arc<ActorHealth>,
    status: Arc<ModelStatus>,
}

impl LlmClassifier {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        classifier: Live<Classifier>,
        prefix: PrefixSource,
        free_text: Arc<FreeTextModel>,
        planner: Arc<PlannerModel>,
        chat: Arc<ChatModel>,
        gate: Option<Arc<ReplyGate>>,
        slots: ModelSlots,
        metrics: Arc<LlmMetrics>,
        health: Arc<ActorHealth>,
        status: Arc<ModelStatus>,
    ) -> Self {
        Self {
            classifier,
            prefix,
            free_text,
            planner,
            chat,
            gate,
            slots,
            metrics,
            health,
            status,
        }
    }
}

impl Behaviour for LlmClassifier {
    type Msg = LlmMsg;

    fn handle(&mut self, message: LlmMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        self.dispatch(message, None);
        Handled::Done
    }
}

impl LlmClassifier {
    /// Starts the call `message` asks for, inside `journal` when a turn sent one.
    fn dispatch(&self, message: LlmMsg, journal: Option<TurnJournal>) {
        if let LlmMsg::Journaled { journal, message } = message {
            return self.dispatch(*message, Some(journal));
        }
        let prefix = match self.prefix.prefix() {
            Ok(prefix) => prefix,
            Err(error) => return refuse(message, error),
        };
        // Each call: its kind, the model that answers it and the model's method, one shape.
        macro_rules! call {
            ($kind:expr, $model:expr, $method:ident, $context:ident, $reply:ident) => {{
                let model = $model;
                self.call($kind, $reply, journal, async move {
                    model.$method(&prefix, &$context).await
                })
            }};
        }
        match message {
            LlmMsg::Journaled { .. } => {}
            LlmMsg::Classify { context, reply } => {
                call!(
                    CallKind::Classify,
                    self.classifier.get(),
                    classify,
                    context,
                    reply
                )
            }
            LlmMsg::Route { context, reply } => {
                call!(
                    CallKind::Route,
                    self.free_text.clone(),
                    route,
                    context,
                    reply
                )
            }
            LlmMsg::ParseTask { context, reply } => {
                call!(
                    CallKind::ParseTask,
                    self.free_text.clone(),
                    parse_task,
                    context,
                    reply
                )
            }
            LlmMsg::PlanStep { context, reply } => {
                call!(
                    CallKind::PlanStep,
                    self.planner.clone(),
                    plan_step,
                    context,
                    reply
                )
            }
            LlmMsg::Chat { context, reply } => {
                call!(CallKind::Chat, self.planner.clone(), answer, context, reply)
            }
            LlmMsg::Converse { context, reply } => {
                call!(CallKind::Chat, self.chat.clone(), converse, context, reply)
            }
            LlmMsg::Summarize { context, reply } => {
                call!(
                    CallKind::Summarize,
                    self.chat.clone(),
                    summarize,
                    context,
                    reply
                )
            }
            LlmMsg::Gate { context, reply } => self.gate_call(prefix, *context, reply, journal),
        }
    }
}

/// Answers `message` with `error` without calling the model (its prefix could not be built):
/// the gate fails open, every other call fails with the error.
fn refuse(message: LlmMsg, error: LlmError) {
    tracing::warn!(%error, "a model call's prefix could not be built");
    match message {
        LlmMsg::Journaled { message, .. } => refuse(*message, error),
        LlmMsg::Classify { reply, .. } => reply.send(Err(error)),
        LlmMsg::Route { reply, .. } => reply.send(Err(error)),
        LlmMsg::ParseTask { reply, .. } => reply.send(Err(error)),
        LlmMsg::PlanStep { reply, .. } => reply.send(Err(error)),
        LlmMsg::Chat { reply, .. } | LlmMsg::Converse { reply, .. } => reply.send(Err(error)),
        LlmMsg::Summarize { reply, .. } => reply.send(Err(error)),
        LlmMsg::Gate { reply, .. } => reply.send(GateDecision::FailOpen(error.to_string())),
    }
}

impl LlmClassifier {
    /// Runs one model call as its own task behind the concurrency cap, counted and timed by
    /// `kind`, its outcome told to the model's status.
    fn call<T: Send + 'static>(
        &self,
        kind: CallKind,
        reply: Reply<Result<T, LlmError>>,
        journal: Option<TurnJournal>,
        call: impl std::future::Future<Output = Result<T, LlmError>> + 'static,
    ) {
        let (slots, metrics, health, status) = (
            self.slots.clone(),
            self.metrics.clone(),
            self.health.clone(),
            self.status.clone(),
        );
        let turn = if journal.as_ref().is_some_and(TurnJournal::has_calls) {
            Turn::Later
        } else {
            Turn::First
        };
        actix_rt::spawn(async move {
            let Ok(_slot) = slots.acquire(turn).await else {
                reply.send(Err(LlmError::Disabled));
                return;
            };
            let now = metrics.in_flight.fetch_add(1, Ordering::AcqRel) + 1;
            metrics.peak_in_flight.fetch_max(now, Ordering::AcqRel);
            metrics.calls.fetch_add(1, Ordering::Relaxed);
            let started = std::time::Instant::now();
            let result = journal::within(journal, call).await;
            metrics.in_flight.fetch_sub(1, Ordering::AcqRel);
            let outcome = result.as_ref().map_or_else(LlmError::kind, |_| "ok");
            metrics.record_call(kind, started.elapsed(), outcome);
            // Whether the model's status changed, and said so in the log already.
            let announced = match &result {
                Ok(_) | Err(LlmError::InvalidOutput(_)) => {
                    // Garbage means the model answered: the server is there.
                    status.call_succeeded();
                    false
                }
                Err(error) => status.call_failed(error),
            };
            if let Err(error) = &result {
                metrics.record_failure(error);
                health.record_failure(format!("model call failed: {error}"));
                static FAILED: crate::log_limit::WarnLimiter =
                    crate::log_limit::WarnLimiter::new(20);
                if !announced {
                    crate::limited_warn!(FAILED, %error, "model call failed");
                }
            }
            reply.send(result);
        });
    }

    /// Runs the reply gate behind the same cap as classifications.
    fn gate_call(
        &self,
        prefix: Prefix,
        context: GateContext,
        reply: Reply<GateDecision>,
        journal: Option<TurnJournal>,
    ) {
        let Some(gate) = self.gate.clone() else {
            reply.send(GateDecision::FailOpen("no gate model".into()));
            return;
        };
        if self.status.server_away() {
            // Nothing answers there: fail open now instead of after a refused connection.
            reply.send(GateDecision::FailOpen(
                "the model server is not there".into(),
            ));
            return;
        }
        let (classifier, slots, metrics) = (
            self.classifier.get(),
            self.slots.clone(),
            self.metrics.clone(),
        );
        actix_rt::spawn(async move {
            let Ok(_slot) = slots.acquire(Turn::First).await else {
                reply.send(GateDecision::FailOpen("shutting down".into()));
                return;
            };
            let now = metrics.in_flight.fetch_add(1, Ordering::AcqRel) + 1;
            metrics.peak_in_flight.fetch_max(now, Ordering::AcqRel);
            metrics.calls.fetch_add(1, Ordering::Relaxed);
            let started = std::time::Instant::now();
            let decision = journal::within(
                journal,
                gate.decide(classifier.prompts(), &prefix, &context),
            )
            .await;
            metrics.in_flight.fetch_sub(1, Ordering::AcqRel);
            let outcome = match decision {
                GateDecision::FailOpen(_) => "fail_open",
                GateDecision::Reply | GateDecision::Skip => "ok",
            };
            metrics.record_call(CallKind::Gate, started.elapsed(), outcome);
            reply.send(decision);
        });
    }
}
