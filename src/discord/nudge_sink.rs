//! `DiscordNudges`: the Discord gateway as the Nudger's `NudgeSink`.
//!
//! Owns: nothing but the gateway's address. Sends `DiscordMsg::OpenNudge` to the gateway and
//! hands back its answer; `DiscordMsg::Deliver` for a nudge recorded in a Discord chat.
//! Invariant: a gateway that cannot take the request (queue full, not running, failed before
//! answering) is `NudgeFailure::Unavailable`, never a Discord or store failure.

use actors::ChildRef;

use super::gateway::DiscordMsg;
use crate::conversation::ContextType;
use crate::nudges::{NudgeFailure, NudgeSink, PendingNudge};

/// Opens nudges as Discord threads through the gateway actor.
#[derive(Debug, Clone)]
pub struct DiscordNudges {
    gateway: ChildRef<DiscordMsg>,
}

impl DiscordNudges {
    pub fn new(gateway: ChildRef<DiscordMsg>) -> Self {
        Self { gateway }
    }
}

impl NudgeSink for DiscordNudges {
    fn open_nudge(&self, task_id: String, context: Option<ContextType>) -> PendingNudge {
        // Queued now (not when first polled), so nudges keep the order they were asked in.
        let answer = self.gateway.ask(move |reply| DiscordMsg::OpenNudge {
            task_id,
            context,
            reply,
        });
        Box::pin(async move { answer.await.map_err(NudgeFailure::Unavailable)? })
    }

    fn deliver_now(&self) {
        // A gateway that cannot take it delivers on its next round anyway.
        let _ = self.gateway.tell(DiscordMsg::Deliver);
    }
}
