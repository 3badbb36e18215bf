//! Escalation to the bigger model (docs/contract.md "Escalation"): the local model's `chat`
//! answer says `needs_escalation`, so Donna offers the bigger model with a cost estimate in USD.
//!
//! - The offer is a plan holding one internal `escalate` step (so only its requester's yes,
//!   sent after it was committed and while it lives, answers it; "what are you waiting on?"
//!   lists it); path `escalation_proposed`. Over the day's budget: no offer, the local answer
//!   and a sentence saying so (path `chat`). An estimate under `auto_approve_under_usd` is
//!   asked at once.
//! - A yes takes two commits: (1) the offer consumed and the estimate reserved in the same
//!   transaction that checks the day's budget (`conversation::escalation_ledger`); then the
//!   call; (2) the turn's commit settles it from the reported usage (the estimate when none is
//!   reported) and keeps the answer: path `escalated`. No longer affordable at the yes: the
//!   offer is consumed, nothing spent (`chat`).
//! - A call answered with an error is settled at 0; one that got no answer (timeout) stays
//!   reserved; both follow the failure contract (`llm_unavailable`).
//! - A crash between (1) and (2): the yes is still unfinished in the inbox, the next start runs
//!   it again, finds its reservation (`TurnContext::interrupted`), says the answer was
//!   interrupted, marks it so (it stays counted) and never calls again for that offer.
//!
//! Reaches (of `TurnDeps`): the bigger model, the settings, the store, the system prompt; and what
//! `chat_memory`, `chat_prompt`, `escalation_call` reach.
//!
//! Invariant: nothing is sent to the bigger model before a reservation is committed, and never
//! twice for one offer (the ledger's unique `offer_id`). Its actions are not run (its answer is
//! words only, like any reply after a look-up; a later slice may plan them).

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use crate::actions::{BoundAction, HandlerKind};
use crate::conversation::escalation_ledger::{self, Reserved};
use crate::conversation::plans::Plan;
use crate::llm::chat_prompt::ChatContext;
use crate::llm::escalation::{micros, usd};
use crate::llm::planner::ChatAnswer;

use super::apply::Work;
use super::chat_memory::Talk;
use super::chat_prompt::{chat_prompt, ChatPrompt};
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::escalation_call::{day_of, escalate};
use super::result::TurnPath;
use super::texts;
use super::Inbound;

/// The local answer asked for the bigger model: offer it, ask it at once (under the
/// auto-approve threshold), or say the day's budget is spent.
pub(super) async fn offer_escalation(
    deps: &TurnDeps,
    inbound: &Inbound,
    local: ChatAnswer,
    asked: ChatContext,
    session: Option<i64>,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let Some(escalation) = &deps.actors.escalation else {
        return Ok((
            Work::Chat {
                text: local.reply_to_user,
                session,
            },
            DraftStep::Keep,
        ));
    };
    let messages = escalation
        .messages(&deps.actors.system.facts(), &asked)
        .map_err(TurnError::Prompt)?;
    let estimate = escalation.estimate(&messages);
    let settings = &escalation.settings;
    let today = day_of(now, deps.settings.default_timezone);
    let spend = deps
        .store
        .read(move |conn| escalation_ledger::day(conn, &today))
        .await?;
    if spend.spent + spend.reserved + estimate > micros(settings.daily_budget_usd) {
        let text = if local.reply_to_user.trim().is_empty() {
            // The person asked for it (`turn::bigger_model`): there is no answer of our own.
            texts::ESCALATION_BUDGET_SPENT.to_string()
        } else {
            format!(
                "{}\n\n{}",
                local.reply_to_user.trim(),
                texts::ESCALATION_OVER_BUDGET
            )
        };
        return Ok((Work::Chat { text, session }, DraftStep::Keep));
    }
    if estimate < micros(settings.auto_approve_under_usd) {
        // Unique per thread and message: the same client message id in another thread is
        // another message, with its own offer.
        let offer_id = format!("auto-{}-{}", inbound.thread_id, inbound.message_id);
        return escalate(
            deps, inbound, &offer_id, None, estimate, messages, session, now,
        )
        .await;
    }
    let reason = local
        .escalation_reason
        .clone()
        .filter(|reason| !reason.trim().is_empty())
        .unwrap_or_else(|| "it is beyond what I can answer well here".into());
    let step = BoundAction {
        name: "escalate".into(),
        handler: HandlerKind::Escalate,
        params: json!({
            "message": inbound.text,
            "reason": reason,
            "estimate_micros": estimate,
        })
        .as_object()
        .cloned()
        .unwrap_or_default(),
        times: Default::default(),
    };
    Ok((
        Work::Propose {
            actions: vec![step],
            preamble: Some(texts::escalation_offer(&reason, usd(estimate))),
            path: TurnPath::EscalationProposed,
            steps: Vec::new(),
        },
        DraftStep::Keep,
    ))
}

/// The requester's yes to an offer: the two commits around the call.
pub(super) async fn escalation_confirmed(
    deps: &TurnDeps,
    inbound: &Inbound,
    plan: Plan,
    now: DateTime<Utc>,
) -> Result<Work, TurnError> {
    let message = plan
        .actions
        .first()
        .and_then(|step| step.params.get("message"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let ChatPrompt {
        context, session, ..
    } = chat_prompt(deps, inbound, &message, now, Talk::Chat).await?;
    let Some(escalation) = &deps.actors.escalation else {
        return Ok(Work::Say {
            path: TurnPath::Unhandled,
            text: texts::ESCALATION_OFF.to_string(),
        });
    };
    let messages = escalation
        .messages(&deps.actors.system.facts(), &context)
        .map_err(TurnError::Prompt)?;
    // The estimate is taken again: the session may have grown since the offer.
    let estimate = escalation.estimate(&messages);
    let (work, _) = escalate(
        deps,
        inbound,
        &plan.id.clone(),
        Some(plan),
        estimate,
        messages,
        session,
        now,
    )
    .await?;
    Ok(work)
}

/// A restart found this message's reservation open: the call it made was cut off.
pub(super) fn escalation_interrupted(reserved: &Reserved) -> Work {
    Work::Escalation {
        settle: None,
        interrupted: Some(reserved.offer_id.clone()),
        text: texts::ESCALATION_INTERRUPTED.to_string(),
        path: TurnPath::LlmUnavailable,
        session: None,
    }
}
