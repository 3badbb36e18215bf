//! The chat room (seed 002; DESIGN.md "Free text" step 8, "Chat engine"): a message `route`
//! calls chat (small talk, venting, a greeting the rules did not take) gets one `chat` call
//! whose prompt is the persona, the pinned task, the summaries of the chat's last
//! [`SUMMARIES_SHOWN`] earlier sessions and the newest messages of the current session that fit
//! `chat.context_budget_tokens` (`llm::chat_prompt`); path `chat`, the reply the model's
//! `reply_to_user`.
//!
//! Sessions (`conversation::chat_sessions`): the thread's newest session is live while its last
//! chat turn is at most `chat.session_ttl` old; otherwise this turn opens a new one. The commit
//! slides the live session or opens the new one in the turn's transaction (`Work::Chat`).
//! Invariants:
//! - The answer's `actions` are logged and dropped, as the planner does: chat actions with
//!   their safety levels and consent are another slice of issue 14, not built here.
//! - Any model call failing: `llm_unavailable` (the failure contract), and the turn stores
//!   nothing but its memory rows: no session is opened or slid.
//! - Earlier sessions reach the prompt only as summaries, never as their messages.

use chrono::{DateTime, Utc};

use crate::conversation::chat_sessions;
use crate::conversation::memory::Role;
use crate::conversation::pins;
use crate::llm::chat_prompt::{ChatContext, ChatLine};
use crate::llm::prompts::TaskFacts;
use crate::subsystems::llm_classifier::LlmMsg;
use crate::tasks::repo;

use super::apply::Work;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::free_model::{ask_model, model_down};
use super::pipeline::Pipeline;
use super::settings::chrono_duration;
use super::Inbound;

/// How many earlier sessions' summaries a chat prompt shows (the newest ones).
pub const SUMMARIES_SHOWN: usize = 3;

/// What the chat room reads from the store, in one read.
struct Remembered {
    /// The live session, if the thread has one.
    live: Option<i64>,
    pinned: Option<crate::tasks::Task>,
    summaries: Vec<String>,
    history: Vec<ChatLine>,
}

impl Pipeline {
    pub(super) async fn chat(
        &self,
        inbound: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        let Some(llm) = &self.llm else {
            return Ok(model_down());
        };
        let remembered = self.remembered(&inbound.thread_id, now).await?;
        let tz = self.settings.timezone;
        let show = |at: DateTime<Utc>| {
            at.with_timezone(&tz)
                .format("%a %d %b %Y %H:%M")
                .to_string()
        };
        let context = ChatContext {
            pinned: remembered.pinned.map(|task| TaskFacts {
                title: task.title,
                status: task.status.as_str().replace('_', " "),
                domain: task.domain,
                priority: task.priority,
                scheduled_start: task.scheduled_start.map(show),
                deadline: task.deadline.map(show),
                estimated_duration_minutes: task.estimated_duration_minutes,
            }),
            summaries: remembered.summaries,
            history: remembered.history,
            message: inbound.text.clone(),
            now: show(now),
            timezone: tz.name().to_string(),
            budget_tokens: self.settings.context_budget_tokens,
        };
        self.thinking.notify(inbound);
        let call = |reply| LlmMsg::Converse {
            context: Box::new(context),
            reply,
        };
        let answer = match ask_model(llm, "chat", call).await {
            Ok(answer) => answer,
            Err(answer) => return Ok(answer),
        };
        if !answer.actions.is_empty() {
            // Chat actions (safety levels, consent) are another slice of issue 14: not run.
            tracing::info!(
                actions = answer.actions.len(),
                "the chat answer proposed actions; not run (chat actions are not built)"
            );
        }
        Ok((
            Work::Chat {
                text: answer.reply_to_user,
                session: remembered.live,
            },
            DraftStep::Keep,
        ))
    }

    /// The live session's messages (bounded by the budget), the pinned task and the summaries
    /// of earlier sessions, in one read.
    async fn remembered(
        &self,
        thread_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Remembered, TurnError> {
        let thread_id = thread_id.to_string();
        let ttl = chrono_duration(self.settings.session_ttl);
        // Characters are at least tokens: no more text than this can fit the budget.
        let max_chars = self.settings.context_budget_tokens.saturating_mul(4);
        Ok(self
            .store
            .read(move |conn| {
                let live = chat_sessions::latest(conn, &thread_id)?
                    .filter(|session| session.is_live(now, ttl));
                let history = match &live {
                    Some(session) => chat_sessions::messages(
                        conn,
                        &thread_id,
                        session.started_at,
                        None,
                        max_chars,
                    )?,
                    None => Vec::new(),
                };
                let pinned = match pins::pinned(conn, &thread_id)? {
                    Some(task_id) => repo::get(conn, &task_id)?,
                    None => None,
                };
                let summaries = chat_sessions::summaries(
                    conn,
                    &thread_id,
                    live.as_ref().map(|session| session.id),
                    SUMMARIES_SHOWN,
                )?;
                Ok(Remembered {
                    live: live.map(|session| session.id),
                    pinned,
                    summaries,
                    history: history
                        .into_iter()
                        .map(|entry| ChatLine {
                            from_person: entry.role == Role::User,
                            text: entry.content,
                        })
                        .collect(),
                })
            })
            .await?)
    }
}
