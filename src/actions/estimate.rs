//! A reply that says how long its task takes ("it takes about an hour": `tasks::estimate_said`)
//! as an action: the keyword layer's intent ([`intent`]) and its binding ([`bind`]) to the
//! `update_task` handler with the task from the thread and the estimate in minutes. It runs at
//! once like any keyword intent, is journaled with the task as it was, and "undo" puts the
//! previous estimate back (none included).
//!
//! Invariant: the action is built here from the minutes the rule read, never from a model's
//! words or an actions file (no file names it); the handler checks the minutes with the one
//! validator every door uses (`tasks::fields::check_estimate`).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::bind::{BindContext, BindError, BoundAction, BoundIntent};
use super::handler_kind::HandlerKind;
use crate::replies::matcher::IntentMatch;

/// The action's name in the journal and the API's results.
pub const ACTION: &str = "set_estimate";
/// The intent's name.
const INTENT: &str = "estimate";
/// The parameter the `update_task` handler reads.
pub const MINUTES: &str = "estimated_duration_minutes";

/// The keyword layer's intent for a reply that says its task takes `minutes`; `words` are the
/// reply's core as written.
pub fn intent(minutes: i64, words: &str) -> IntentMatch {
    IntentMatch {
        intent: INTENT.to_string(),
        action: ACTION.to_string(),
        confirm: false,
        params: BTreeMap::from([(MINUTES.to_string(), Value::from(minutes))]),
        keyword: words.to_string(),
        only_confirm_word: false,
        hedged: false,
    }
}

/// Binds the intent to the thread's task; a thread without one has nothing to set.
pub fn bind(intent: &IntentMatch, context: &BindContext) -> Result<BoundIntent, BindError> {
    let task_id = context
        .task_id
        .clone()
        .ok_or_else(|| BindError::NoContext {
            action: ACTION.to_string(),
            param: "task_id".to_string(),
        })?;
    let minutes = intent
        .params
        .get(MINUTES)
        .cloned()
        .ok_or_else(|| BindError::MissingParam {
            action: ACTION.to_string(),
            param: MINUTES.to_string(),
        })?;
    let mut params = Map::new();
    params.insert("task_id".into(), Value::String(task_id));
    params.insert(MINUTES.into(), minutes);
    Ok(BoundIntent {
        action: BoundAction {
            name: ACTION.to_string(),
            handler: HandlerKind::UpdateTask,
            params,
            times: Default::default(),
        },
        needs_plan: false,
    })
}
