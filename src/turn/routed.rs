//! `route`'s own chat answer (issue 34: one model call for a chat turn instead of two): the
//! reply `route` wrote for a message it calls chat is the chat room's answer, in the chat's
//! live session (opened or slid by the commit like any chat turn, `Work::Chat`).
//!
//! Unless the chat remembers more than `route` was shown: a chat pinned to a task, or one with
//! summaries of earlier sessions, is answered by the chat room (`turn::chat`), whose prompt
//! holds them, as before. `route` shows the last `planner.history_exchanges` exchanges.
//!
//! Invariant: the reply is text for the person and nothing else: no action, no plan, no
//! escalation comes from `route`.

use chrono::{DateTime, Utc};

use crate::conversation::{chat_sessions, pins};

use super::apply::Work;
use super::context::TurnContext;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::pipeline::Pipeline;
use super::settings::chrono_duration;
use super::Inbound;

impl Pipeline {
    /// `reply` (from `route`) as the chat room's answer; the chat room itself when the chat
    /// remembers more than `route` saw.
    pub(super) async fn routed_chat(
        &self,
        turn: &TurnContext,
        inbound: &Inbound,
        now: DateTime<Utc>,
        reply: String,
    ) -> Result<(Work, DraftStep), TurnError> {
        let ttl = chrono_duration(self.chat.get().session_ttl.get());
        let thread_id = inbound.thread_id.clone();
        let (live, remembers_more) = self
            .store
            .read(move |conn| {
                let live = chat_sessions::latest(conn, &thread_id)?
                    .filter(|session| session.is_live(now, ttl))
                    .map(|session| session.id);
                let pinned = pins::pinned(conn, &thread_id)?.is_some();
                let summarized = !chat_sessions::summaries(conn, &thread_id, live, 1)?.is_empty();
                Ok((live, pinned || summarized))
            })
            .await?;
        if remembers_more {
            return self.chat(turn, inbound, now).await;
        }
        Ok((
            Work::Chat {
                text: reply,
                session: live,
            },
            DraftStep::Keep,
        ))
    }
}
