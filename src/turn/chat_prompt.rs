//! The chat prompt of a turn: what the chat room, the planner's escalation and the bigger
//! model are asked with (the persona in force, the live session, the pinned task, summaries of
//! earlier sessions, the chat actions; for task talk the open tasks the asker may see), built
//! from what `chat_memory` reads, times shown in the sender's zone.
//!
//! Reaches (of `TurnDeps`): the chat config, the settings; and what `chat_memory` reaches.
//!
//! Invariant: nothing here writes but `chat_memory`'s close of an expired session; the prompt
//! holds earlier sessions only as summaries.

use chrono::{DateTime, Utc};

use crate::conversation::participation::Viewer;
use crate::llm::chat_prompt::ChatContext;
use crate::llm::prompts::TaskFacts;

use super::chat_memory::{remembered_now, Talk};
use super::deps::TurnDeps;
use super::error::TurnError;
use super::Inbound;

/// A chat prompt's context, with the live session and the pinned task's id.
pub(super) struct ChatPrompt {
    pub context: ChatContext,
    pub session: Option<i64>,
    pub pinned: Option<String>,
}

/// The chat prompt's context for `message` in `inbound`'s chat (the persona in force, the
/// session, the pinned task, summaries, the actions; for task talk, the open tasks its
/// author may see), the live session and the pinned task's id. Also what the bigger model
/// is asked with.
pub(super) async fn chat_prompt(
    deps: &TurnDeps,
    inbound: &Inbound,
    message: &str,
    now: DateTime<Utc>,
    talk: Talk,
) -> Result<ChatPrompt, TurnError> {
    // The chat config in force when the turn started (a reload meanwhile waits its turn).
    let chat = deps.actors.chat.get();
    let asker = Viewer {
        person: inbound.user_id.clone(),
        here: inbound.thread_id.clone(),
    };
    let remembered = remembered_now(deps, &asker, now, talk, &chat).await?;
    let pinned_id = remembered.pinned.as_ref().map(|task| task.id.clone());
    let tz = deps.settings.timezone;
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
