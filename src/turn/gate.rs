//! The group gate (step 3 of a turn, seed 004): in a group chat outside nudge threads, reserve
//! a reply slot with the RateCap, then ask the REPLY/SKIP gate; a SKIP gives the slot back.
//!
//! Invariants: the slot is reserved before the model is asked, so a burst cannot pass the cap;
//! at the cap no model is asked; the gate fails open (a store hiccup or a model failure means
//! Donna replies); nudge threads are the owner's own conversation and are never gated.

use std::sync::atomic::Ordering;

use crate::conversation::Thread;
use crate::llm::gate::GateDecision;
use crate::llm::prompts::GateContext;
use crate::subsystems::llm_classifier::LlmMsg;
use crate::subsystems::rate_cap::{RateCapMsg, ReserveError};

use super::context::TurnContext;
use super::error::TurnError;
use super::history::Speakers;
use super::pipeline::Pipeline;
use super::Inbound;

impl Pipeline {
    /// The gate applies to group chats (or every chat, if not `group_only`) outside nudge
    /// threads.
    pub(super) fn gate_applies(&self, thread: &Thread) -> bool {
        match self.settings.gate {
            Some(gate) => thread.task_id.is_none() && (thread.is_group || !gate.group_only),
            None => false,
        }
    }

    /// Reserves a reply slot, then asks the gate. False: stay quiet (the cap is reached, or the
    /// gate said SKIP and the slot was given back).
    pub(super) async fn gate_says_reply(
        &self,
        context: &TurnContext,
        inbound: &Inbound,
    ) -> Result<bool, TurnError> {
        let (channel, chat_id) = (
            inbound.channel.as_str().to_string(),
            context.thread.chat_id.clone(),
        );
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
                    .fetch_add(1, Ordering::Relaxed);
                return Ok(true);
            }
        };
        let Some(llm) = &self.llm else {
            self.gate_metrics
                .failed_open
                .fetch_add(1, Ordering::Relaxed);
            return Ok(true);
        };
        let history = self
            .history(&inbound.thread_id, Speakers::Authors)
            .await
            .unwrap_or_default();
        let gate_context = GateContext {
            history,
            author: inbound.user_id.clone(),
            message: inbound.text.clone(),
        };
        let decision = llm
            .ask(|reply| LlmMsg::Gate {
                context: Box::new(gate_context),
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
        counter.fetch_add(1, Ordering::Relaxed);
        if decision == GateDecision::Skip {
            let _ = self.rate_cap.tell(RateCapMsg::Release { reservation });
            return Ok(false);
        }
        Ok(true)
    }
}
