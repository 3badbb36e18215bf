//! The ChatSessions actor: closes chat sessions idle past `chat.session_ttl`, each with its
//! summary (seed 002).
//!
//! Owns: the sweep (every `memory.prune_interval`, the retention prune's interval; at most
//! [`SWEEP_BATCH`] sessions a sweep, the longest idle first). Takes: `Sweep` (also its own
//! timer). With `chat.summary_on_close` and a model, a closing session gets one `summarize`
//! call over its messages (the newest that fit `chat.context_budget_tokens`); without a model,
//! or when the call fails, it closes with no summary (logged).
//! Invariants: a session is closed only if no chat turn slid it meanwhile (the close checks
//! `last_at` again inside its write); sweeps never overlap (the mailbox waits for each); the
//! summary is written with the close, in one store write, after the model call (no transaction
//! is open across it).

use std::time::Duration;

use actors::{Behaviour, CellCtx, ChildRef, Handled, Reply};
use chrono::{DateTime, Utc};

use crate::clock::SharedClock;
use crate::config::ChatConfig;
use crate::conversation::chat_sessions::{self, Session};
use crate::conversation::memory::Role;
use crate::live::Live;
use crate::llm::chat_prompt::{ChatLine, SummaryContext};
use crate::store::{Store, StoreError};
use crate::subsystems::llm_classifier::LlmMsg;

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

/// The chat keys one sweep works with.
#[derive(Debug, Clone)]
struct SweepRules {
    ttl: Duration,
    summary_on_close: bool,
    budget_tokens: usize,
}

pub struct ChatSessions {
    store: Store,
    clock: SharedClock,
    llm: Option<ChildRef<LlmMsg>>,
    settings: SweepSettings,
}

impl ChatSessions {
    pub fn new(
        store: Store,
        clock: SharedClock,
        llm: Option<ChildRef<LlmMsg>>,
        settings: SweepSettings,
    ) -> Self {
        Self {
            store,
            clock,
            llm,
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
        let chat = self.settings.chat.get();
        let settings = SweepRules {
            ttl: chat.session_ttl.get(),
            summary_on_close: chat.summary_on_close,
            budget_tokens: chat.context_budget_tokens,
        };
        let sweep = Sweep {
            store: self.store.clone(),
            llm: self.llm.clone().filter(|_| settings.summary_on_close),
            settings,
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
    /// The model for summaries: None without one or with `chat.summary_on_close` off.
    llm: Option<ChildRef<LlmMsg>>,
    settings: SweepRules,
    now: DateTime<Utc>,
}

impl Sweep {
    async fn run(self) -> Result<usize, StoreError> {
        let ttl = chrono::Duration::from_std(self.settings.ttl).unwrap_or(chrono::Duration::MAX);
        let cutoff = self.now.checked_sub_signed(ttl).unwrap_or_default();
        let idle = self
            .store
            .read(move |conn| chat_sessions::idle(conn, cutoff, SWEEP_BATCH))
            .await?;
        let mut closed = 0;
        for session in idle {
            let summary = self.summary(&session).await?;
            let (id, now) = (session.id, self.now);
            if self
                .store
                .write(move |conn| chat_sessions::close(conn, id, summary.as_deref(), cutoff, now))
                .await?
            {
                closed += 1;
            }
        }
        Ok(closed)
    }

    /// The session's summary, or None (no model, summaries off, nothing said, or the call
    /// failed: logged).
    async fn summary(&self, session: &Session) -> Result<Option<String>, StoreError> {
        let Some(llm) = &self.llm else {
            return Ok(None);
        };
        let (thread_id, from, to) = (
            session.thread_id.clone(),
            session.started_at,
            session.last_at,
        );
        let max_chars = self.settings.budget_tokens.saturating_mul(4);
        let entries = self
            .store
            .read(move |conn| chat_sessions::messages(conn, &thread_id, from, Some(to), max_chars))
            .await?;
        if entries.is_empty() {
            return Ok(None);
        }
        let context = SummaryContext {
            lines: entries
                .into_iter()
                .map(|entry| ChatLine {
                    from_person: entry.role == Role::User,
                    text: entry.content,
                })
                .collect(),
            budget_tokens: self.settings.budget_tokens,
        };
        Ok(
            match llm
                .ask(|reply| LlmMsg::Summarize {
                    context: Box::new(context),
                    reply,
                })
                .await
            {
                Ok(Ok(summary)) => Some(summary),
                Ok(Err(error)) => {
                    tracing::warn!(session = session.id, %error, "no summary for a closing chat session");
                    None
                }
                Err(error) => {
                    tracing::warn!(session = session.id, %error, "no summary for a closing chat session: the model actor is unavailable");
                    None
                }
            },
        )
    }
}
