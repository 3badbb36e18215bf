//! Actions that run at once, because the person plainly asked for exactly them: a keyword
//! reply's action (path `fast`) and a capture's `create_task` (path `task_created`, or
//! `clarify` when the handler refused a field and nothing was created).

use crate::actions::{self, BoundAction};
use crate::store::StoreError;

use super::super::finish::summarize;
use super::super::result::TurnPath;
use super::answered::{Answered, At};

pub fn keyword_actions(at: &At<'_>, bound: Vec<BoundAction>) -> Result<Answered, StoreError> {
    let results = actions::execute_all(at.conn, at.thread_id(), at.env, &bound, None)?;
    Ok(Answered::new(TurnPath::Fast, summarize(&results)).ran(&bound, results))
}

pub fn capture(at: &At<'_>, action: BoundAction) -> Result<Answered, StoreError> {
    let bound = [action];
    let results = actions::execute_all(at.conn, at.thread_id(), at.env, &bound, None)?;
    let path = if results.iter().all(|result| result.ok) {
        TurnPath::TaskCreated
    } else {
        TurnPath::Clarify
    };
    Ok(Answered::new(path, summarize(&results)).ran(&bound, results))
}
