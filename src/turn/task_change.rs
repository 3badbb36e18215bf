//! Whether a free-text message asks, in the person's own words, for a change to one of their
//! open tasks: "I finished paying the rent", "can you push the dentist to next week", "scrap
//! the dentist". Such a message is task talk (`turn::chat`, `Talk::Tasks`: the open tasks are
//! shown, and what the answer proposes goes through consent) without asking `route` first.
//!
//! Why not `route`: it would only say what the words already say, at the cost of a call; and a
//! small model calls such a message chat and answers it itself, blind to the tasks and unable to
//! act ("Yes, I'll push the dentist to next week", from Gemma 3 270M, with nothing moved).
//!
//! How: the tasks the message names (`tasks::named::named_by_message`, the person's words only)
//! and, for each, whether the message asks for a change to it (`replies::grounding`: not a
//! question about it, not negated, not someone else's doing). A task merely mentioned ("I'm
//! dreading the dentist") or a new task asked for is not this. However many tasks the
//! message names, it is judged once per distinct set of its own words a title holds
//! (`grounding::asks_for_on_any`), not once per task.
//!
//! Invariant: pure reads; nothing here changes anything or decides what runs.

use crate::replies::grounding::{asks_for_on_any, Ask};
use crate::sentence::tokens::Join;
use crate::sentence::Sentence;
use crate::store::Store;
use crate::tasks::named;

use super::error::TurnError;

/// Whether the message asks for a change to one of the open tasks it names.
pub(super) async fn asks_to_change_a_task(
    store: &Store,
    said: &Sentence,
) -> Result<bool, TurnError> {
    let words: Vec<String> = said
        .pieces(Join::Nothing)
        .into_iter()
        .map(|piece| piece.word)
        .collect();
    let named = store
        .read(move |conn| named::named_by_message(conn, &words))
        .await?;
    let titles: Vec<&str> = named.iter().map(|task| task.title.as_str()).collect();
    Ok(Ask::CHANGES
        .into_iter()
        .any(|ask| asks_for_on_any(said, ask, &titles)))
}
