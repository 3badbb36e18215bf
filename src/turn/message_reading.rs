//! The message's one reading in a turn: `Sentence::read` is called here, once per turn, and
//! nowhere else in a turn (`crate::sentence`); a grouped nudge's number is set aside from its
//! core (`nudge_group::pick`), and the keyword layer (the FastPath actor) analyses the reading.
//!
//! Called by `entry` for typed words only: a click enters as its intent and is never read.
//!
//! Invariant: a turn analyses its message once (/metrics `donna_message_analyses_total` equals
//! the turns of typed words, none for a click: `tests/it/one_reading/analyses.rs`:
//! `a_message_is_analysed_once_per_turn`).

use std::sync::Arc;

use actors::ChildRef;

use crate::replies::analysis::Analysis;
use crate::sentence::Sentence;
use crate::subsystems::fast_path::FastPathMsg;

use super::context::TurnContext;
use super::error::TurnError;
use super::nudge_group;
use super::Inbound;

/// The message's one reading (every room takes it, none reads the text again), with a
/// grouped nudge's number set aside ("2 done" picks task 2), and the keyword layer's
/// analysis of it.
pub(super) async fn read_message(
    fast_path: &ChildRef<FastPathMsg>,
    context: TurnContext,
    inbound: &Inbound,
) -> Result<(TurnContext, Arc<Sentence>, Analysis), TurnError> {
    let read = Sentence::read(&inbound.text);
    let (context, said) = nudge_group::pick(context, &read);
    let said = Arc::new(said);
    let task_title = context
        .task
        .as_ref()
        .or(context.nudged_task.as_ref())
        .map(|task| task.title.clone());
    let sentence = said.clone();
    let analysis = fast_path
        .ask(|reply| FastPathMsg::Analyze {
            sentence,
            task_title,
            reply,
        })
        .await?;
    Ok((context, said, analysis))
}
