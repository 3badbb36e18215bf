//! `route`'s own chat answer (issue 34: one model call for a chat turn instead of two): the
//! reply `route` wrote for a message it calls chat is the chat room's answer, in the chat's
//! live session (opened or slid by the commit like any chat turn, `Work::Chat`).
//!
//! Unless the chat remembers more than `route` was shown: a chat pinned to a task, or one with
//! summaries of earlier sessions, is answered by the chat room (`turn::chat`), whose prompt
//! holds them, as before. `route` shows the last `planner.history_exchanges` exchanges.
//! Nor when the reply is copied rather than written (a small model copies what it reads): a
//! reply that is word for word a line `route` was shown, the person's message or one of their
//! earlier ones, or one of `route`'s examples, goes to the chat room too. `route` is not shown
//! Donna's earlier lines (with them in view, Gemma 3 270M repeated one line for a whole
//! conversation), so a reply that happens to say what Donna said before ("Glad to hear it.")
//! is its own and is used: the chat room's second call would cost the person seconds for it.
//!
//! Nor when the message asks for a change to one of the person's open tasks, by their own words
//! (`replies::grounding`: "I finished paying the rent", "can you push the dentist to next
//! week"): `route` cannot act and is shown no tasks, so a reply of its own would only claim
//! what did not happen ("Yes, I'll push it", from Gemma 3 270M). That message is task talk
//! (`turn::chat`, [`Talk::Tasks`](super::chat::Talk)), as if `route` had said task_action: the
//! open tasks are shown, and what the answer proposes goes through consent.
//!
//! Invariant: the reply is text for the person and nothing else: no action, no plan, no
//! escalation comes from `route`.

use chrono::{DateTime, Utc};

use crate::conversation::{chat_sessions, pins};
use crate::llm::route_examples;
use crate::replies::grounding::{asks_for, Ask, Context, Message};
use crate::tasks::named;

use super::apply::Work;
use super::context::TurnContext;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::history::Speakers;
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
        let (thread_id, text) = (inbound.thread_id.clone(), inbound.text.clone());
        let (live, remembers_more, named) = self
            .store
            .read(move |conn| {
                let live = chat_sessions::latest(conn, &thread_id)?
                    .filter(|session| session.is_live(now, ttl))
                    .map(|session| session.id);
                let pinned = pins::pinned(conn, &thread_id)?.is_some();
                let summarized = !chat_sessions::summaries(conn, &thread_id, live, 1)?.is_empty();
                let named = named::named_by_message(conn, &text)?;
                Ok((live, pinned || summarized, named))
            })
            .await?;
        let message = Message::read(&inbound.text);
        if named
            .iter()
            .any(|task| asks_for_a_change(&message, &task.title))
        {
            return self.task_talk(turn, inbound, now).await;
        }
        if remembers_more || self.copied(inbound, &reply).await? {
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

    /// Whether `reply` only repeats text `route` was shown (see the module header).
    async fn copied(&self, inbound: &Inbound, reply: &str) -> Result<bool, TurnError> {
        let said = plain(reply);
        let examples = route_examples::examples();
        let example = examples
            .iter()
            .filter_map(|(_, answer)| answer["reply_to_user"].as_str())
            .any(|shown| plain(shown) == said);
        if example || plain(&inbound.text) == said {
            return Ok(true);
        }
        let history = self.history(&inbound.thread_id, Speakers::Roles).await?;
        Ok(history
            .iter()
            .any(|line| line.who != "Donna" && plain(&line.text) == said))
    }
}

/// The changes to a task a message may ask for (a new task is `route`'s capture, not this).
const CHANGES: [Ask; 6] = [
    Ask::Done,
    Ask::Move,
    Ask::Snooze,
    Ask::Cancel,
    Ask::Rename,
    Ask::Change,
];

/// Whether `message` asks, in its words, for a change to the task titled `title`.
fn asks_for_a_change(message: &Message, title: &str) -> bool {
    let context = Context {
        task_title: Some(title),
        extra: None,
    };
    CHANGES
        .into_iter()
        .any(|ask| asks_for(message, ask, &context, || false))
}

/// A text without case, surrounding spaces or closing punctuation, to compare copies.
fn plain(text: &str) -> String {
    text.trim()
        .trim_end_matches(['.', '!', '?'])
        .trim()
        .to_lowercase()
}
