//! Closing one chat session with its summary: the one close both the ChatSessions
//! sweeper and a returning person's chat turn use, so the new session's prompt carries the
//! summary of the one that expired while they were away (`turn::chat_memory`).
//!
//! With `chat.summary_on_close` and a model, a closing session gets one `summarize` call over
//! its messages (the newest that fit `chat.context_budget_tokens`); without a model, or when
//! the call fails, it closes with no summary (logged).
//! Invariants:
//! - A session is summarised at most once: closes of one session are serialised by a lock of
//!   this process (only one process uses a data dir), and the second closer finds it closed
//!   and asks nothing. A turn that comes while the sweeper closes the session waits for it.
//! - A session is closed only if it is still open and idle past `chat.session_ttl` when the
//!   close is written (`chat_sessions::close` checks `last_at` again inside its write).
//! - The summary is written with the close, in one store write, after the model call: no
//!   transaction is open across it.

use std::collections::HashMap;
use std::sync::Arc;

use actors::ChildRef;
use chrono::{DateTime, Utc};

use crate::config::ChatConfig;
use crate::conversation::chat_sessions::{self, Session};
use crate::conversation::memory::Role;
use crate::live::Live;
use crate::llm::chat_prompt::{ChatLine, SummaryContext};
use crate::store::{Store, StoreError};
use crate::subsystems::llm_classifier::LlmMsg;

/// Shared by the sweeper and the pipeline (clones share the locks).
#[derive(Clone)]
pub struct SessionCloser {
    store: Store,
    llm: Option<ChildRef<LlmMsg>>,
    chat: Live<ChatConfig>,
    /// The sessions being closed now, each with the lock its closers take in turn.
    closing: Arc<parking_lot::Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>>,
}

impl std::fmt::Debug for SessionCloser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionCloser")
            .field("closing", &self.closing.lock().len())
            .finish_non_exhaustive()
    }
}

impl SessionCloser {
    /// `llm` None: sessions close without summaries.
    pub fn new(store: Store, llm: Option<ChildRef<LlmMsg>>, chat: Live<ChatConfig>) -> Self {
        Self {
            store,
            llm,
            chat,
            closing: Arc::default(),
        }
    }

    /// Closes session `id` with its summary if it is still open and idle past
    /// `chat.session_ttl` at `now`. Returns whether this call closed it.
    pub async fn close_if_idle(&self, id: i64, now: DateTime<Utc>) -> Result<bool, StoreError> {
        let lock = self.closing.lock().entry(id).or_default().clone();
        let closed = {
            let _turn = lock.lock().await;
            self.close_locked(id, now).await
        };
        // Forget the lock once no other closer holds it (clones are made under the map's lock).
        let mut closing = self.closing.lock();
        if closing
            .get(&id)
            .is_some_and(|held| Arc::strong_count(held) <= 2)
        {
            closing.remove(&id);
        }
        closed
    }

    async fn close_locked(&self, id: i64, now: DateTime<Utc>) -> Result<bool, StoreError> {
        let chat = self.chat.get();
        let ttl =
            chrono::Duration::from_std(chat.session_ttl.get()).unwrap_or(chrono::Duration::MAX);
        let cutoff = now.checked_sub_signed(ttl).unwrap_or_default();
        let Some(session) = self
            .store
            .read(move |conn| chat_sessions::get(conn, id))
            .await?
        else {
            return Ok(false);
        };
        if session.closed_at.is_some() || session.last_at >= cutoff {
            return Ok(false);
        }
        let summary = match self.llm.as_ref().filter(|_| chat.summary_on_close) {
            Some(llm) => summary(&self.store, llm, &session, chat.context_budget_tokens).await?,
            None => None,
        };
        self.store
            .write(move |conn| chat_sessions::close(conn, id, summary.as_deref(), cutoff, now))
            .await
    }
}

/// The session's summary, or None (nothing said, or the call failed: logged).
async fn summary(
    store: &Store,
    llm: &ChildRef<LlmMsg>,
    session: &Session,
    budget_tokens: usize,
) -> Result<Option<String>, StoreError> {
    let (thread_id, from, to) = (
        session.thread_id.clone(),
        session.started_at,
        session.last_at,
    );
    let max_chars = budget_tokens.saturating_mul(4);
    let entries = store
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
        budget_tokens,
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
