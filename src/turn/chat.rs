//! The chat room (docs/contract.md "Free text" step 8, "Chat engine"): a message `route`
//! calls chat (small talk, venting, a greeting the rules did not take) gets one `chat` call
//! whose prompt is the persona, the pinned task, the summaries of the chat's last
//! [`SUMMARIES_SHOWN`] earlier sessions and the newest messages of the current session that fit
//! `chat.context_budget_tokens` (`llm::chat_prompt`); path `chat`, the reply the model's
//! `reply_to_user`.
//!
//! Sessions (`conversation::chat_sessions`): the thread's newest session is live while its last
//! chat turn is at most `chat.session_ttl` old; otherwise this turn opens a new one, after
//! closing the expired one with its summary if the sweeper has not yet (`chat_memory`). The commit
//! slides the live session or opens the new one in the turn's transaction (`Work::Chat`).
//! The system message lists the chat actions (config/chat_actions.yaml); a message `route`
//! calls task talk (`task_action`, [`Talk::Tasks`]) also shows the open tasks as quoted data.
//! An answer that proposes actions goes to `turn::chat_actions` (consent, tasks named in chat).
//!
//! Invariants:
//! - Any model call failing: `llm_unavailable` (the failure contract), and the turn stores
//!   nothing but its memory rows: no session is opened or slid.
//! - Earlier sessions reach the prompt only as summaries, never as their messages.

use chrono::{DateTime, Utc};

use crate::conversation::participation::Viewer;
use crate::llm::chat_prompt::ChatContext;
use crate::llm::prompts::TaskFacts;
use crate::subsystems::llm_classifier::LlmMsg;

use super::apply::Work;
use super::chat_actions::Proposed;
use super::context::TurnContext;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::model_call::{ask_model, model_down};
use super::pipeline::Pipeline;
use super::Inbound;
use crate::sentence::Sentence;

/// How many earlier sessions' summaries a chat prompt shows (the newest ones).
pub const SUMMARIES_SHOWN: usize = 3;

/// Most open tasks a task-talk prompt lists (soonest first).
pub const OPEN_TASKS_SHOWN: usize = 30;

/// A chat prompt's context, with the live session and the pinned task's id.
pub(super) struct ChatPrompt {
    pub context: ChatContext,
    pub session: Option<i64>,
    pub pinned: Option<String>,
}

/// What the person is talking about, as `route` read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Talk {
    /// Small talk, venting: no task list in the prompt.
    Chat,
    /// Changing tasks in plain words: the open tasks are in the prompt.
    Tasks,
}

impl Pipeline {
    /// Small talk, venting: `route` said chat.
    pub(super) async fn chat(
        &self,
        turn: &TurnContext,
        inbound: &Inbound,
        said: &Sentence,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        self.converse(turn, inbound, said, now, Talk::Chat).await
    }

    /// Changing tasks in plain words: `route` said task_action; the open tasks are shown.
    pub(super) async fn task_talk(
        &self,
        turn: &TurnContext,
        inbound: &Inbound,
        said: &Sentence,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        self.converse(turn, inbound, said, now, Talk::Tasks).await
    }

    async fn converse(
        &self,
        turn: &TurnContext,
        inbound: &Inbound,
        said: &Sentence,
        now: DateTime<Utc>,
        talk: Talk,
    ) -> Result<(Work, DraftStep), TurnError> {
        let Some(llm) = &self.llm else {
            return Ok(model_down());
        };
        let ChatPrompt {
            context,
            session,
            pinned,
        } = self.chat_prompt(inbound, &inbound.text, now, talk).await?;
        self.thinking.notify(inbound);
        let asked = context.clone();
        let call = |reply| LlmMsg::Converse {
            context: Box::new(context),
            reply,
        };
        let answer = match ask_model(llm, "chat", call).await? {
            Ok(answer) => answer,
            Err(answer) => return Ok(answer),
        };
        if answer.needs_escalation && self.escalation.is_some() {
            // The local model says it is out of its depth: offer the bigger one.
            return self
                .offer_escalation(inbound, answer, asked, session, now)
                .await;
        }
        if !answer.actions.is_empty() {
            let proposed = Proposed {
                actions: answer.actions,
                planner: None,
                session,
                pinned,
            };
            return self.chat_actions(turn, said, proposed, now).await;
        }
        Ok((
            Work::Chat {
                text: answer.reply_to_user,
                session,
            },
            DraftStep::Keep,
        ))
    }

    /// The chat prompt's context for `message` in `inbound`'s chat (the persona in force, the
    /// session, the pinned task, summaries, the actions; for task talk, the open tasks its
    /// author may see), the live session and the pinned task's id. Also what the bigger model
    /// is asked with.
    pub(super) async fn chat_prompt(
        &self,
        inbound: &Inbound,
        message: &str,
        now: DateTime<Utc>,
        talk: Talk,
    ) -> Result<ChatPrompt, TurnError> {
        // The chat config in force when the turn started (a reload meanwhile waits its turn).
        let chat = self.chat.get();
        let asker = Viewer {
            person: inbound.user_id.clone(),
            here: inbound.thread_id.clone(),
        };
        let remembered = self.remembered_now(&asker, now, talk, &chat).await?;
        let pinned_id = remembered.pinned.as_ref().map(|task| task.id.clone());
        let tz = self.settings.timezone;
        let show = |at: DateTime<Utc>| {
            at.with_timezone(&tz)
                .format("%a %d %b %Y %H:%M")
                .to_string()
        };
        let context = ChatContext {
            open_tasks: remembered.open_tasks,
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
            message: message.to_string(),
            now: show(now),
            timezone: tz.name().to_string(),
            budget_tokens: chat.context_budget_tokens,
        };
        Ok(ChatPrompt {
            context,
            session: remembered.live,
            pinned: pinned_id,
        })
    }
}
