//! The model layer's wiring: the one place the model clients are built (the API key read once,
//! one connection pool for the classifier and the reply gate), the prompts checked, and the
//! LLMClassifier actor spawned behind its concurrency cap.
//!
//! The model's status (`llm::probe::ModelStatus`) is made here too, and its prober started: at
//! once, then every `llm.probe_interval`.
//!
//! Invariant: with `llm.provider: none` nothing is built, the actor is registered as
//! `disabled` in /health and the model's status is `disabled`; otherwise every template renders
//! before anything starts.

use std::sync::Arc;

use actors::{ChildRef, ChildSpec, HealthRegistry};

use crate::actions::ActionRegistry;
use crate::clock::SharedClock;
use crate::config::{Config, Env, LlmProvider};
use crate::live::Live;
use crate::llm::chat::ChatModel;
use crate::llm::chat_prompt::ChatPrompts;
use crate::llm::classify::Classifier;
use crate::llm::client::LlmClient;
use crate::llm::free_text::FreeTextModel;
use crate::llm::gate::ReplyGate;
use crate::llm::planner::PlannerModel;
use crate::llm::probe::{self, ModelStatus};
use crate::llm::slots::ModelSlots;
use crate::llm::system_prompt::{SystemPrompt, SystemSource};
use crate::metrics::LlmMetrics;
use crate::subsystems::llm_classifier::{LlmClassifier, LlmMsg, PrefixSource};

use super::error::StartError;
use super::spawn::Spawner;

/// The model layer, built and checked, not yet running.
#[derive(Debug)]
pub struct ModelClients {
    /// The nudge-reply classifier, whose prompt and schema come from the reply actions file
    /// (replaced by a hot reload of that file).
    classifier: Live<Classifier>,
    /// The free-text calls (`route`, `parse_task`), same client.
    free_text: Arc<FreeTextModel>,
    /// The planner's calls (`plan_step`, `chat`), same client.
    planner: Arc<PlannerModel>,
    /// The chat room's calls (`chat`, `summarize`) in `chat.persona`, same client.
    chat: Arc<ChatModel>,
    /// The REPLY/SKIP gate, when `reply_decision.enabled`.
    gate: Option<Arc<ReplyGate>>,
    /// Renders the one prefix every call starts with.
    system: Arc<SystemPrompt>,
    /// The classifier's client again, for the prober (same pool).
    client: LlmClient,
}

impl ModelClients {
    /// Builds the clients and checks the prompts; None when no model is configured.
    pub fn build(
        config: &Config,
        env: &dyn Env,
        registry: &ActionRegistry,
    ) -> Result<Option<Self>, StartError> {
        if config.llm.provider == LlmProvider::None {
            return Ok(None);
        }
        let api_key = config
            .llm
            .api_key_env
            .as_deref()
            .and_then(|name| env.var(name));
        let client = LlmClient::new(&config.llm, None, api_key).map_err(StartError::Model)?;
        let gate = config.reply_decision.enabled.then(|| {
            let gate_client = match config.reply_decision.model.as_deref() {
                Some(model) => client.for_model(model),
                None => client.clone(),
            };
            Arc::new(ReplyGate::new(gate_client))
        });
        let classifier = Classifier::new(client.clone(), registry).map_err(StartError::Prompts)?;
        let free_text = FreeTextModel::new(client.clone()).map_err(StartError::Prompts)?;
        let planner = PlannerModel::new(client.clone()).map_err(StartError::Prompts)?;
        let chat_prompts = ChatPrompts::new().map_err(StartError::Prompts)?;
        let chat = ChatModel::new(client.clone(), chat_prompts);
        let system = Arc::new(SystemPrompt::new().map_err(StartError::Prompts)?);
        Ok(Some(Self {
            system,
            classifier: Live::new(classifier),
            free_text: Arc::new(free_text),
            planner: Arc::new(planner),
            chat: Arc::new(chat),
            gate,
            client,
        }))
    }
}

impl ModelClients {
    /// Where a hot reload puts a classifier built for the new actions file.
    pub fn classifier(&self) -> Live<Classifier> {
        self.classifier.clone()
    }

    /// The classifier's client (a reloaded classifier uses the same one).
    pub fn client(&self) -> &LlmClient {
        &self.client
    }
}

/// The model's status, and its prober started on the current runtime (none without a model).
/// The prober ends by itself once the status is dropped.
pub fn model_status(
    config: &Config,
    models: Option<&ModelClients>,
    clock: &SharedClock,
) -> (Arc<ModelStatus>, Option<tokio::task::JoinHandle<()>>) {
    let Some(models) = models else {
        return (
            probe::disabled(config.llm.context_tokens, clock.clone()),
            None,
        );
    };
    let status = Arc::new(ModelStatus::new(
        config.llm.provider,
        models.client.model(),
        models.client.base_url(),
        config.llm.context_tokens,
        clock.clone(),
    ));
    let prober = actix_rt::spawn(probe::watch(
        models.client.clone(),
        Arc::downgrade(&status),
        config.llm.timeout.get(),
        config.llm.probe_interval.get(),
    ));
    (status, Some(prober))
}

/// The model side as started: whether the model is there (and its prober), the classifier
/// actor in front of it, and its counters.
pub struct ModelSide {
    pub llm: Option<ChildRef<LlmMsg>>,
    pub metrics: Arc<LlmMetrics>,
    pub status: Arc<ModelStatus>,
    pub prober: Option<tokio::task::JoinHandle<()>>,
}

impl Spawner<'_> {
    /// The model's status and prober, and the LLMClassifier actor (`disabled` in /health
    /// without a model).
    pub fn model_side(
        &self,
        config: &Config,
        models: Option<ModelClients>,
        facts: SystemSource,
        health: &HealthRegistry,
        clock: &SharedClock,
    ) -> ModelSide {
        let metrics = Arc::new(LlmMetrics::default());
        let (status, prober) = model_status(config, models.as_ref(), clock);
        let max_concurrency = config.llm.max_concurrency;
        let llm = self.llm_classifier(models, facts, health, max_concurrency, &metrics, &status);
        ModelSide {
            llm,
            metrics,
            status,
            prober,
        }
    }

    /// The LLMClassifier actor, or `disabled` in /health when there is no model.
    pub fn llm_classifier(
        &self,
        models: Option<ModelClients>,
        facts: SystemSource,
        health: &HealthRegistry,
        max_concurrency: usize,
        metrics: &Arc<LlmMetrics>,
        status: &Arc<ModelStatus>,
    ) -> Option<ChildRef<LlmMsg>> {
        let Some(ModelClients {
            classifier,
            free_text,
            planner,
            chat,
            gate,
            system,
            ..
        }) = models
        else {
            self.supervisor.disabled::<LlmMsg>("llm_classifier");
            return None;
        };
        // Outside the factory, so a restart cannot lift the cap.
        let slots = ModelSlots::new(max_concurrency);
        let record = health.register("llm_classifier", false);
        let metrics = metrics.clone();
        let status = status.clone();
        let prefix = PrefixSource {
            prompt: system,
            facts,
            window: status.window(),
        };
        warn_if_nothing_fits(&prefix);
        Some(self.spawn(ChildSpec::new("llm_classifier", move || {
            Ok(LlmClassifier::new(
                classifier.clone(),
                prefix.clone(),
                free_text.clone(),
                planner.clone(),
                chat.clone(),
                gate.clone(),
                slots.clone(),
                metrics.clone(),
                record.clone(),
                status.clone(),
            ))
        })))
    }
}

/// Says so at start when the context leaves a call no room beyond the prefix (every call would
/// then be refused by the server or lose all its history).
fn warn_if_nothing_fits(prefix: &PrefixSource) {
    match prefix.prefix() {
        Ok(rendered) if rendered.room == 0 => tracing::warn!(
            context_tokens = prefix.window.tokens(),
            prefix_tokens = rendered.tokens,
            "llm.context_tokens leaves no room beyond Donna's own instructions: raise it (and the \
             model server's context) to at least {}",
            (rendered.tokens + prefix.window.answer_tokens()) * 11 / 10
        ),
        Ok(_) => {}
        Err(error) => tracing::warn!(%error, "the prefix of the model calls could not be built"),
    }
}
