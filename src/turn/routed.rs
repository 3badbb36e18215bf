//! `route`'s own chat answer (one model call for a chat turn instead of two): the
//! reply `route` wrote for a message it calls chat is the chat room's answer, in the chat's
//! live session (opened or slid by the commit like any chat turn, `Work::Chat`).
//!
//! Unless the chat remembers more than `route` was shown: a chat pinned to a task, or one with
//! summaries of earlier sessions, is answered by the chat room (`turn::chat`), whose prompt
//! holds them, as before. `route` shows the last `planner.history_exchanges` exchanges.
//! Nor when the reply only echoes the person (a small model copies what it reads): a reply that
//! is word for word their message or one of their earlier ones goes to the chat room too.
//! `route` is not shown Donna's earlier lines (with them in view, Gemma 3 270M repeated one line
//! for a whole conversation), so a reply that happens to say what Donna said before ("Glad to
//! hear it.") is its own and is used; so is one of `route`'s example replies ("Glad to hear it."
//! to "thanks for keeping me on track"): written by us as answers to such messages, they are
//! answers, and the chat room's second call cost the person seconds and gave Gemma 3 270M's
//! "actions" or "cat" instead (BENCHMARKS.md section 11).
//! A message that asks for a change to one of the person's tasks never gets here: it is task
//! talk before `route` is asked (`turn::task_change`).
//!
//! Reaches (of `TurnDeps`): the chat config, the store; and what `chat`, `chat_memory`, `history`
//! reach.
//!
//! Invariant: the reply is text for the person and nothing else: no action, no plan, no
//! escalation comes from `route`.

use chrono::{DateTime, Utc};

use crate::conversation::{chat_sessions, pins};

use super::apply::Work;
use super::chat::chat;
use super::chat_memory::Talk;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::history::{history, Speakers};
use super::settings::chrono_duration;
use super::Inbound;
use crate::sentence::Sentence;

/// `reply` (from `route`) as the chat room's answer; the chat room itself when the chat
/// remembers more than `route` saw.
pub(super) async fn routed_chat(
    deps: &TurnDeps,
    turn: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    now: DateTime<Utc>,
    reply: String,
) -> Result<(Work, DraftStep), TurnError> {
    let ttl = chrono_duration(deps.actors.chat.get().session_ttl.get());
    let thread_id = inbound.thread_id.clone();
    let (live, remembers_more) = deps
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
    if remembers_more || copied(deps, inbound, &reply).await? {
        return chat(deps, turn, inbound, said, now, Talk::Chat).await;
    }
    Ok((
        Work::Chat {
            text: reply,
            session: live,
        },
        DraftStep::Keep,
    ))
}

/// Whether `reply` only echoes the person's words (see the module header).
async fn copied(deps: &TurnDeps, inbound: &Inbound, reply: &str) -> Result<bool, TurnError> {
    let said = plain(reply);
    if plain(&inbound.text) == said {
        return Ok(true);
    }
    let history = history(deps, &inbound.thread_id, Speakers::Roles).await?;
    Ok(history
        .iter()
        .any(|line| !line.is_donnas() && plain(&line.text) == said))
}

/// A text without case, surrounding spaces or closing punctuation, to compare copies.
fn plain(text: &str) -> String {
    text.trim()
        .trim_end_matches(['.', '!', '?'])
        .trim()
        .to_lowercase()
}
