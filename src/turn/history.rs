//! The history window: the thread's last `memory.window_size` messages, read through the
//! ThreadMemory actor and written as the prompts show them. The one place history is fetched
//! and formatted, for every model call of a turn; with it, what the free-text calls show
//! (`free_text_context`: the last exchanges and the time).
//!
//! Reaches (of `TurnDeps`): the settings, the thread memory.

use chrono::{DateTime, Utc};

use crate::conversation::memory::{MemoryEntry, Role};
use crate::llm::free_text::FreeTextContext;
use crate::llm::prompts::HistoryLine;
use crate::subsystems::thread_memory::MemoryMsg;

use super::deps::TurnDeps;
use super::error::TurnError;
use super::Inbound;

/// How the person's lines are labelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speakers {
    /// "User": a conversation with one person (a nudge thread).
    Roles,
    /// Each person by their id ("someone" when unknown): a chat with several people.
    Authors,
}

/// The thread's last messages, oldest first, labelled for a prompt.
pub(super) async fn history(
    deps: &TurnDeps,
    thread_id: &str,
    speakers: Speakers,
) -> Result<Vec<HistoryLine>, TurnError> {
    let (thread_id, limit) = (thread_id.to_string(), Some(deps.settings.window_size));
    let entries = deps
        .actors
        .memory
        .ask(move |reply| MemoryMsg::Recent {
            thread_id,
            limit,
            reply,
        })
        .await??;
    Ok(entries
        .into_iter()
        .map(|entry| history_line(entry, speakers))
        .collect())
}

fn history_line(entry: MemoryEntry, speakers: Speakers) -> HistoryLine {
    let who = match (entry.role, speakers) {
        (Role::Donna, _) => HistoryLine::DONNA.to_string(),
        (Role::User, Speakers::Roles) => "User".to_string(),
        (Role::User, Speakers::Authors) => entry.author_id.unwrap_or_else(|| "someone".into()),
    };
    HistoryLine {
        who,
        text: entry.content,
    }
}

/// The last `exchanges` exchanges: from the `exchanges`-th last message of the person on.
fn last_exchanges(history: Vec<HistoryLine>, exchanges: usize) -> Vec<HistoryLine> {
    if exchanges == 0 {
        return Vec::new();
    }
    let people: Vec<usize> = history
        .iter()
        .enumerate()
        .filter(|(_, line)| !line.is_donnas())
        .map(|(index, _)| index)
        .collect();
    let from = people
        .len()
        .checked_sub(exchanges)
        .and_then(|first| people.get(first).copied())
        .unwrap_or(0);
    history.into_iter().skip(from).collect()
}

/// What the free-text prompts show: the last `planner.history_exchanges` exchanges.
pub(super) async fn free_text_context(
    deps: &TurnDeps,
    inbound: &Inbound,
    text: &str,
    now: DateTime<Utc>,
) -> Result<FreeTextContext, TurnError> {
    let history = history(deps, &inbound.thread_id, Speakers::Roles).await?;
    Ok(FreeTextContext {
        history: last_exchanges(history, deps.settings.history_exchanges),
        message: text.to_string(),
        now: now.with_timezone(&deps.settings.timezone).to_rfc3339(),
        timezone: deps.settings.timezone.name().to_string(),
    })
}
