//! The nudge-reply model room: a reply no keyword took goes to the LLMClassifier with the task,
//! the nudge's context and the history window; every action it proposes is validated and the
//! proposal reviewed as a whole by the ActionExecutor (evidence in the reply, titles,
//! contradictions), and what the review kept becomes a plan the person must confirm; a new
//! task in it gets the duplicate check and the learned preferences (`proposed_task`).
//!
//! Reaches (of `TurnDeps`): "thinking", the ActionExecutor, the model, the model's state, the
//! settings; and what `history`, `model_call`, `proposed_task` reach.
//!
//! Invariants: nothing the model proposes runs in this turn (it is proposed, never executed);
//! a model known not to answer (unreachable, or missing from its server) is not called, and a
//! call that cannot connect or finds no such model gets the same honest answer: what works
//! without the model (path `llm_unavailable`); a model that times out or answers garbage gets
//! the apology; neither changes anything; a
//! model that proposes only invalid or ungrounded actions gets a request to rephrase, and a
//! self-contradicting plan a question about what the person means (both `clarify`); without a
//! model the reply gets an honest "I didn't catch that".

use std::sync::Arc;

use actors::ChildRef;
use chrono::{DateTime, Utc};

use crate::conversation::ContextType;
use crate::llm::output::Classification;
use crate::llm::prompts::{ClassifyContext, TaskFacts};
use crate::llm::LlmError;
use crate::sentence::Sentence;
use crate::subsystems::action_executor::{ExecutorMsg, Proposal, ProposalFacts};
use crate::subsystems::llm_classifier::{journaled, LlmMsg};
use crate::tasks::Task;

use super::apply::Work;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::history::{history, Speakers};
use super::model_call::Called;
use super::proposed_task::{proposed_tasks, GivenFields};
use super::receipt;
use super::result::TurnPath;
use super::settings::TurnSettings;
use super::texts;
use super::Inbound;

pub(super) async fn model_layer(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    let Some(task) = &context.task else {
        // The thread's task is gone (a captured task taken back by undo).
        return Ok(Work::Say {
            path: TurnPath::Unhandled,
            text: texts::FREE_THREAD.to_string(),
        });
    };
    let Some(llm) = &deps.actors.llm else {
        return Ok(Work::Say {
            path: TurnPath::Unhandled,
            text: texts::not_understood(said, &task.title),
        });
    };
    if deps.actors.model.skips_calls() {
        tracing::debug!(
            state = deps.actors.model.state().as_str(),
            "the model is not there; not asking it"
        );
        return Ok(model_not_there());
    }
    let classification = match classify(deps, llm, context, task, inbound, now).await? {
        Called::Answered(classification) => classification,
        Called::Settled(answer) => return Ok(answer.0),
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
    propose(deps, context, said, task, classification, now).await
}

/// The classification of the reply, or the honest answer when the model is not there, times
/// out or answers garbage (the LLMClassifier has logged the failure, one line).
async fn classify(
    deps: &TurnDeps,
    llm: &ChildRef<LlmMsg>,
    context: &TurnContext,
    task: &Task,
    inbound: &Inbound,
    now: DateTime<Utc>,
) -> Result<Called<Classification>, TurnError> {
    let history = history(deps, &inbound.thread_id, Speakers::Roles).await?;
    let classify = classify_context(&deps.settings, context, task, history, inbound, now);
    deps.actors.thinking.notify(inbound);
    receipt::before_waiting().await?;
    let answer = llm
        .ask(|reply| {
            journaled(LlmMsg::Classify {
                context: Box::new(classify),
                reply,
            })
        })
        .await;
    let failed = match answer {
        Ok(Ok(classification)) => return Ok(Called::Answered(classification)),
        Ok(Err(LlmError::Connect(_) | LlmError::Http { status: 404, .. })) => model_not_there(),
        Ok(Err(error)) => {
            tracing::debug!(%error, "model layer unavailable for this turn");
            apology()
        }
        Err(error) => {
            tracing::warn!(%error, "model actor unavailable for this turn");
            apology()
        }
    };
    Ok(Called::settled((failed, DraftStep::Keep)))
}

/// The classification's actions validated and reviewed as one proposal; what the review kept
/// becomes a plan (a new task with the duplicate check and the learned preferences).
async fn propose(
    deps: &TurnDeps,
    context: &TurnContext,
    said: &Sentence,
    task: &Task,
    classification: Classification,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    let given = GivenFields::of(&classification.actions);
    let requests = classification.actions;
    let facts = proposal_facts(&deps.settings, said, task);
    let proposal = deps
        .bind_and_ask(context, now, |context, reply| ExecutorMsg::Propose {
            requests,
            context,
            facts,
            reply,
        })
        .await?;
    log_left_out(&proposal);
    let review = proposal.review;
    if let Some(contradiction) = &review.contradiction {
        return Ok(Work::Say {
            path: TurnPath::Clarify,
            text: texts::contradictory_plan(contradiction, &task.title),
        });
    }
    if review.kept.is_empty() {
        return Ok(Work::Say {
            path: TurnPath::Clarify,
            text: texts::CLARIFY.to_string(),
        });
    }
    // The model's words may describe what was left out; then the plan speaks for itself.
    let everything_kept = review.dropped.is_empty() && proposal.invalid.is_empty();
    // A new task goes through the duplicate check and the learned preferences.
    let (actions, duplicates) = proposed_tasks(deps, review.kept, &given).await?;
    let preamble: Vec<String> = everything_kept
        .then_some(classification.reply_to_user)
        .into_iter()
        .chain(duplicates)
        .filter(|text| !text.trim().is_empty())
        .collect();
    Ok(Work::Propose {
        actions,
        preamble: (!preamble.is_empty()).then(|| preamble.join(" ")),
        path: TurnPath::Llm,
        steps: Vec::new(),
    })
}

/// What the review of a proposal is told: the reply, read once, and the task's title.
fn proposal_facts(settings: &TurnSettings, said: &Sentence, task: &Task) -> ProposalFacts {
    ProposalFacts {
        reply: Arc::new(said.clone()),
        task_title: Some(task.title.clone()),
        require_evidence: settings.require_evidence,
    }
}

/// What the classification prompt shows: the task, why Donna asked, the time, the history
/// window and the reply.
fn classify_context(
    settings: &TurnSettings,
    context: &TurnContext,
    task: &Task,
    history: Vec<crate::llm::prompts::HistoryLine>,
    inbound: &Inbound,
    now: DateTime<Utc>,
) -> ClassifyContext {
    let tz = settings.timezone;
    let show = |at: DateTime<Utc>| {
        at.with_timezone(&tz)
            .format("%a %d %b %Y %H:%M")
            .to_string()
    };
    ClassifyContext {
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
        history,
        reply: inbound.text.clone(),
    }
}

/// Logs (rate-limited) every proposed action left out of the plan, and why.
fn log_left_out(proposal: &Proposal) {
    static DROPPED: crate::log_limit::WarnLimiter = crate::log_limit::WarnLimiter::new(20);
    for reason in &proposal.invalid {
        crate::limited_warn!(DROPPED, %reason, "dropped an invalid action proposed by the model");
    }
    for reason in &proposal.review.dropped {
        tracing::info!(%reason, "left a proposed action out of the plan");
    }
    if let Some(reason) = &proposal.review.contradiction {
        tracing::info!(%reason, "refused a self-contradicting plan");
    }
}

/// When the model is not there: say what works without it instead of inviting a retry.
fn model_not_there() -> Work {
    Work::Say {
        path: TurnPath::LlmUnavailable,
        text: texts::MODEL_UNREACHABLE.to_string(),
    }
}

/// When the model times out or answers garbage.
fn apology() -> Work {
    Work::Say {
        path: TurnPath::LlmUnavailable,
        text: texts::LLM_APOLOGY.to_string(),
    }
}
