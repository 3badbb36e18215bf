//! The ChatSessions actor: closes chat sessions idle past `chat.session_ttl`, each with its
//! summary.
//!
//! Owns: the sweep (every `memory.prune_interval`, the retention prune's interval; at most
//! [`SWEEP_BATCH`] sessions a sweep, the longest idle first). Takes: `Sweep` (also its own
//! timer). Each session is closed by the `SessionCloser` it shares with the chat turns: with
//! `chat.summary_on_close` and a model, one `summarize` call; otherwise no summary.
//! Invariants: a session is closed only if no chat turn slid it meanwhile, and summarised at
//! most once even when a returning person's turn closes it at the same moment
//! (`session_closer`); sweeps never overlap (the mailbox waits for each).

use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};
use chrono::{DateTime, Utc};

use crate::clock::SharedClock;
use crate::config::ChatConfig;
use crate::conversation::chat_sessions;
use crate::live::Live;
use crate::store::{Store, StoreError};
use crate::subsystems::session_closer::SessionCloser;

/// Most sessions closed by one sweep; the rest wait for the next.
pub const SWEEP_BATCH: usize = 32;

pub enum SessionsMsg {
    /// Close idle sessions; answers how many closed.
    Sweep {
        reply: Option<Reply<Result<usize, StoreError>>>,
    },
}

/// What the sweeper reads from the config: its interval, and the chat config in force (hot
/// reloaded; each sweep reads it once).
#[derive(Debug, Clone)]
pub struct SweepSettings {
    pub interval: Duration,
    pub chat: Live<ChatConfig>,
}

pub struct ChatSessions {
    store: Store,
    clock: SharedClock,
    closer: SessionCloser,
    settings: SweepSettings,
}

impl ChatSessions {
    pub fn new(
        store: Store,
        clock: SharedClock,
        closer: SessionCloser,
        settings: SweepSettings,
    ) -> Self {
        Self {
            store,
            clock,
            closer,
            settings,
        }
    }
}

impl Behaviour for ChatSessions {
    type Msg = SessionsMsg;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(self.settings.interval, || SessionsMsg::Sweep {
            reply: None,
        });
    }

    fn handle(&mut self, message: SessionsMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        let SessionsMsg::Sweep { reply } = message;
        let sweep = Sweep {
            store: self.store.clone(),
            closer: self.closer.clone(),
            ttl: self.settings.chat.get().session_ttl.get(),
            now: self.clock.now(),
        };
        Handled::wait(async move {
            let result = sweep.run().await;
            match &result {
                Ok(0) => {}
                Ok(count) => tracing::info!(count, "closed idle chat sessions"),
                Err(error) => tracing::warn!(%error, "chat session sweep failed"),
            }
            if let Some(reply) = reply {
                reply.send(result);
            }
        })
    }
}

/// One sweep, owning what it needs.
struct Sweep {
    store: Store,
    closer: SessionCloser,
    ttl: Duration,
    now: DateTime<Utc>,
}

impl Sweep {
    async fn run(self) -> Result<usize, StoreError> {
        let ttl = chrono::Duration::from_std(self.ttl).unwrap_or(chrono::Duration::MAX);
        let cutoff = self.now.checked_sub_signed(ttl).unwrap_or_default();
        let idle = self
            .store
            .read(move |conn| chat_sessions::idle(conn, cutoff, SWEEP_BATCH))
            .await?;
        let mut closed = 0;
        for session in idle {
            // A returning person's turn may be closing it right now: the closer waits for it.
            if self.closer.close_if_idle(session.id, self.now).await? {
                closed += 1;
            }
        }
        Ok(closed)
    }
}
