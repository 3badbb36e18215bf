//! The chat room's answers: a conversation answer (path `chat`) and a chat answer's actions that
//! run at once (reads, or writes the person plainly asked for); both slide the chat session, or
//! open one when none is live.

use crate::actions::{self, BoundAction};
use crate::conversation::chat_sessions;
use crate::store::StoreError;

use super::super::finish::summarize;
use super::super::result::{PlannerStep, TurnPath};
use super::answered::{Answered, At};

pub fn answer(at: &At<'_>, text: String, session: Option<i64>) -> Result<Answered, StoreError> {
    chat_sessions::record_turn(at.conn, at.thread_id(), session, at.now)?;
    Ok(Answered::new(TurnPath::Chat, text))
}

/// What ran is said after what was read (or the planner's answer).
pub fn actions(
    at: &At<'_>,
    run: Vec<BoundAction>,
    said: String,
    path: TurnPath,
    session: Option<i64>,
    steps: Vec<PlannerStep>,
) -> Result<Answered, StoreError> {
    chat_sessions::record_turn(at.conn, at.thread_id(), session, at.now)?;
    let results = actions::execute_all(at.conn, at.thread_id(), at.env, &run, None)?;
    let done = summarize(&results);
    let text = [said, done]
        .into_iter()
        .filter(|text| !text.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    Ok(Answered::new(path, text).ran(&run, results).after(steps))
}
