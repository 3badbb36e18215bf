//! The planner room (docs/contract.md "Free text" step 8 and "Planner"): a message `route`
//! calls a question is answered by a bounded loop of `plan_step` calls over the read-only tools
//! (`crate::planner`); the step that has what it needs answers (a question with no look-up is
//! two model calls with `route`, with one look-up three). Only when the steps run out, or a
//! step says `done` without an answer, does one more `chat` call compose the answer from what
//! the tools returned: path `answer`, the tool calls in the result's `steps`.
//!
//! Reaches (of `TurnDeps`): the bigger model, the calendars, the model, the settings, the store;
//! and what `chat_actions`, `chat_memory`, `chat_prompt`, `escalation`, `history`, `model_call`
//! reach.
//!
//! Invariants:
//! - At most `planner.max_tool_calls` tool calls, hard: an unknown tool, invalid arguments or a
//!   failing tool is an error observation and counts; a model that always wants another tool
//!   is stopped at the cap and the answer is composed from what was gathered.
//! - Tools run on the read pool (read-only connections): a planner turn changes nothing but
//!   its own memory rows and result, committed by the pipeline in one transaction.
//! - Each result enters the later prompts cut to `planner.tool_result_chars`, as quoted data in
//!   a user-role message (`llm::planner`), never in the system message.
//! - Writes are not tools: actions in the composed answer go to `turn::chat_actions`, which
//!   makes them ONE plan whenever a tool ran (docs/contract.md "Consent").
//! - Any model call failing (timeout, refused, garbage after one retry): `llm_unavailable`,
//!   the tool results dropped (docs/contract.md's failure contract).
//! - A composed answer that says `needs_escalation`, with the bigger model configured, is an
//!   escalation offer like the chat room's (`turn::escalation`); the answer's prompt describes
//!   the flag only then.

use chrono::{DateTime, Utc};

use crate::llm::journal;
use crate::llm::planner::{ChatAnswer, PlanStep, PlannerContext};
use crate::planner::{self, Observation, ToolCall, ToolEnv};
use crate::subsystems::llm_classifier::LlmMsg;
use actors::ChildRef;

use super::apply::Work;
use super::chat_actions::{chat_actions, Proposed};
use super::chat_memory::Talk;
use super::chat_prompt::{chat_prompt, ChatPrompt};
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::escalation::offer_escalation;
use super::history::free_text_context;
use super::model_call::{ask_model, model_down, Called};
use super::result::PlannerStep;
use super::Inbound;
use crate::conversation::participation::Viewer;
use crate::sentence::Sentence;

pub(super) async fn planner(
    deps: &TurnDeps,
    turn: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let Some(llm) = &deps.actors.llm else {
        return Ok(model_down());
    };
    let question = free_text_context(deps, inbound, &inbound.text, now).await?;
    let cap = deps.settings.max_tool_calls;
    let mut context = PlannerContext {
        question,
        observations: Vec::new(),
        calls_left: cap,
    };
    let mut answered = None;
    while context.observations.len() < cap {
        context.calls_left = cap - context.observations.len();
        let asked = Box::new(context.clone());
        let call = |reply| LlmMsg::PlanStep {
            context: asked,
            reply,
        };
        let step = match ask_model(llm, "plan_step", call).await? {
            Called::Answered(step) => step,
            // The gathered results are dropped with the failed turn.
            Called::Settled(answer) => return Ok(*answer),
        };
        let (tool, args) = match step {
            PlanStep::CallTool { tool, args } => (tool, args),
            PlanStep::Answer(answer) => {
                answered = Some(answer);
                break;
            }
            PlanStep::Done => break,
        };
        let viewer = Viewer {
            person: inbound.user_id.clone(),
            here: inbound.thread_id.clone(),
        };
        let observation = run_tool(deps, ToolCall { tool, args }, &viewer, now).await?;
        context
            .observations
            .push(observation.cut(deps.settings.tool_result_chars));
    }
    if context.observations.len() >= cap {
        tracing::debug!(cap, "planner stopped at its tool budget");
    }
    let answer = match answered {
        Some(answer) => answer,
        None => match compose(llm, &mut context).await? {
            Called::Answered(answer) => answer,
            Called::Settled(answer) => return Ok(*answer),
        },
    };
    if answer.needs_escalation && deps.actors.escalation.is_some() {
        // The local model says the question is beyond it: offer the bigger one, asked
        // with the chat's prompt for this question (its look-ups stay here).
        let ChatPrompt { context, .. } =
            chat_prompt(deps, inbound, &inbound.text, now, Talk::Chat).await?;
        return offer_escalation(deps, inbound, answer, context, None, now).await;
    }
    let steps: Vec<PlannerStep> = context
        .observations
        .iter()
        .map(|observation| PlannerStep {
            tool: observation.tool.clone(),
            args: observation.args.clone(),
            ok: observation.ok,
        })
        .collect();
    if !answer.actions.is_empty() {
        // Writes are not tools: after tools, the answer's actions are one plan (consent).
        let proposed = Proposed {
            actions: answer.actions,
            planner: Some((answer.reply_to_user, steps)),
            session: None,
            pinned: None,
        };
        return chat_actions(deps, turn, said, proposed, now).await;
    }
    Ok((Work::Answer(answer.reply_to_user, steps), DraftStep::Keep))
}

/// The answer composed from what the look-ups returned (one `chat` call).
async fn compose(
    llm: &ChildRef<LlmMsg>,
    context: &mut PlannerContext,
) -> Result<Called<ChatAnswer>, TurnError> {
    context.calls_left = 0;
    let asked = Box::new(context.clone());
    let call = |reply| LlmMsg::Chat {
        context: asked,
        reply,
    };
    ask_model(llm, "planner chat", call).await
}

/// One tool call on a read connection, journaled with its whole output. A tool's own
/// failure is an error observation; only the read pool itself failing fails the turn (the
/// message stays in the inbox). Replaying, the recorded output answers a call of the same
/// tool with the same arguments (`llm::journal`).
async fn run_tool(
    deps: &TurnDeps,
    call: ToolCall,
    viewer: &Viewer,
    now: DateTime<Utc>,
) -> Result<Observation, TurnError> {
    let journal = journal::current();
    let recorded = journal
        .as_ref()
        .and_then(|journal| journal.replayed_tool(&call.tool, &call.args));
    let observation = match recorded {
        Some(observation) => observation,
        None => {
            let env = ToolEnv {
                now,
                timezone: deps.settings.timezone,
                viewer: Some(viewer.clone()),
                calendars: Some(deps.actors.calendars.clone()),
            };
            deps.store
                .read(move |conn| Ok(planner::run(conn, &call, &env)))
                .await?
        }
    };
    if let Some(journal) = &journal {
        journal.record_tool(&observation);
    }
    Ok(observation)
}
