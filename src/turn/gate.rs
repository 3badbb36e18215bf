//! The group gate (step 3 of a turn): in a group chat outside nudge threads, reserve
//! a reply slot with the RateCap, then ask the REPLY/SKIP gate; a SKIP gives the slot back.
//!
//! The person's own answer to a proposal made for them, and a command the rules read, skip the
//! model gate (docs/contract.md "Free text", steps 4 and 7) but still take a slot.
//!
//! Reaches (of `TurnDeps`): the RateCap, the gate metrics, the model; and what `history` reaches.
//!
//! Invariants: the slot is reserved before the model is asked, so a burst cannot pass the cap;
//! at the cap no model is asked; the gate fails open (a store hiccup or a model failure means
//! Donna replies); nudge threads are the owner's own conversation and are never gated.

use std::sync::atomic::Ordering;

use crate::automations::command::AutomationReading;
use crate::capture::rules::Reading;
use crate::conversation::Thread;
use crate::llm::gate::GateDecision;
use crate::llm::prompts::GateContext;
use crate::subsystems::llm_classifier::{journaled, LlmMsg};
use crate::subsystems::rate_cap::{RateCapMsg, Reservation, ReserveError};

use super::context::TurnContext;
use super::decide::Next;
use super::deps::TurnDeps;
use super::error::TurnError;
use super::history::{history, Speakers};
use super::readings::Readings;
use super::receipt;
use super::settings::TurnSettings;
use super::Inbound;

/// The gate applies to group chats (or every chat, if not `group_only`) outside nudge
/// threads.
pub(super) fn gate_applies(settings: &TurnSettings, thread: &Thread) -> bool {
    match settings.gate {
        Some(gate) => thread.task_id.is_none() && (thread.is_group || !gate.group_only),
        None => false,
    }
}

/// A message the gate is never asked about (docs/contract.md "Free text", steps 4 and 7): the
/// answer of the person a live proposal was made for, and a command the rules read
/// (a capture, an automation, one of the common questions, the sender's time zone). It
/// still takes a reply slot.
pub(super) fn bypasses_gate(next: &Next, readings: Option<&Readings>) -> bool {
    match (next, readings) {
        (Next::ConfirmPlan(_) | Next::RejectPlan(_) | Next::PlanReplaced(_), _) => true,
        (Next::FreeText, Some(readings)) => {
            matches!(
                readings.rules,
                Reading::Capture { .. }
                    | Reading::BareCapture
                    | Reading::Question(_)
                    | Reading::TaskTime { .. }
            ) || readings.calendar.is_some()
                || !matches!(readings.automation, AutomationReading::NotAutomation)
                || is_zone_command(&readings.zone)
                || readings.quiet != crate::people::quiet_sentence::QuietSentence::Nothing
        }
        _ => false,
    }
}

/// Takes a reply slot without asking the gate. False: the cap is reached, stay quiet.
pub(super) async fn takes_reply_slot(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
) -> Result<bool, TurnError> {
    Ok(reserve_slot(deps, context, inbound).await?.is_some())
}

/// Reserves a reply slot, then asks the gate. False: stay quiet (the cap is reached, or the
/// gate said SKIP and the slot was given back).
pub(super) async fn gate_says_reply(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
) -> Result<bool, TurnError> {
    let Some(slot) = reserve_slot(deps, context, inbound).await? else {
        return Ok(false);
    };
    let Slot::Reserved(reservation) = slot else {
        return Ok(true);
    };
    let Some(llm) = &deps.actors.llm else {
        deps.gate_metrics
            .failed_open
            .fetch_add(1, Ordering::Relaxed);
        return Ok(true);
    };
    let history = history(deps, &inbound.thread_id, Speakers::Authors)
        .await
        .unwrap_or_default();
    let gate_context = GateContext {
        history,
        author: inbound.user_id.clone(),
        message: inbound.text.clone(),
    };
    receipt::before_waiting().await?;
    let decision = llm
        .ask(|reply| {
            journaled(LlmMsg::Gate {
                context: Box::new(gate_context),
                reply,
            })
        })
        .await
        .unwrap_or_else(|error| GateDecision::FailOpen(error.to_string()));
    let counter = match &decision {
        GateDecision::Reply => &deps.gate_metrics.replied,
        GateDecision::Skip => &deps.gate_metrics.skipped,
        GateDecision::FailOpen(reason) => {
            tracing::info!(%reason, "reply gate failed open");
            &deps.gate_metrics.failed_open
        }
    };
    counter.fetch_add(1, Ordering::Relaxed);
    if decision == GateDecision::Skip {
        let _ = deps
            .actors
            .rate_cap
            .tell(RateCapMsg::Release { reservation });
        return Ok(false);
    }
    Ok(true)
}

/// A reply slot from the RateCap; None at the cap. A store hiccup fails open (`Unchecked`),
/// as the gate does: it must not silence a real question.
async fn reserve_slot(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
) -> Result<Option<Slot>, TurnError> {
    let (channel, chat_id) = (
        inbound.channel.as_str().to_string(),
        context.thread.chat_id.clone(),
    );
    let reservation = deps
        .actors
        .rate_cap
        .ask(|reply| RateCapMsg::Reserve {
            channel,
            chat_id,
            reply,
        })
        .await?;
    match reservation {
        Ok(reservation) => Ok(Some(Slot::Reserved(reservation))),
        Err(ReserveError::CapReached) => {
            tracing::info!("reply cap reached for this chat; staying quiet");
            Ok(None)
        }
        Err(error) => {
            tracing::warn!(%error, "rate cap unavailable; replying");
            deps.gate_metrics
                .failed_open
                .fetch_add(1, Ordering::Relaxed);
            Ok(Some(Slot::Unchecked))
        }
    }
}

/// What the RateCap gave the turn.
enum Slot {
    Reserved(Reservation),
    /// The cap could not be checked; the turn replies anyway.
    Unchecked,
}

/// "my time zone is Europe/Berlin", "what's my time zone?", "I'm in Tokyo now" (a place that is
/// a zone, or "I'm in Victoria now", asked about): a command the rules read. "I'm in a meeting"
/// and "I'm in the south" are not.
fn is_zone_command(zone: &crate::people::sentence::ZoneSentence) -> bool {
    use crate::people::sentence::ZoneSentence;
    match zone {
        ZoneSentence::Nothing => false,
        ZoneSentence::Set {
            name,
            explicit: false,
        } => crate::people::zones::find_place(name).is_some(),
        _ => true,
    }
}
