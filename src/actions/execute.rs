//! Running bound actions inside the turn's transaction and journaling them (undo reads the
//! journal: `undo`).
//!
//! Invariants:
//! - Each action runs in a savepoint of its own: a failing action changes nothing and the
//!   others still run, in order; each gets its own result.
//! - A confirmed plan runs all or none ([`execute_plan`]): one refused step rolls back the
//!   steps before it, and none after it stays applied.
//! - Every applied action is journaled in `action_log` with the task as it was before, which is
//!   what `undo::undo_last` restores. A plan's step is journaled with (plan id, index) at most once, so
//!   re-running a plan after a crash skips the steps already applied.

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::bind::BoundAction;
use super::handlers::{self, ActionEnv, ActionError};
use crate::store::time::to_db;
use crate::store::{execute_cached, StoreError};

/// The outcome of one action, as reported to the person and in the API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionResult {
    pub name: String,
    pub ok: bool,
    pub message: String,
    /// The task the action made or changed, if it ran (a capture's new task id).
    #[serde(default)]
    pub task_id: Option<String>,
}

/// Runs `actions` in order. Store errors other than a refused action abort the whole turn.
pub fn execute_all(
    conn: &Connection,
    thread_id: &str,
    env: &ActionEnv,
    actions: &[BoundAction],
    plan_id: Option<&str>,
) -> Result<Vec<ActionResult>, StoreError> {
    let mut results = Vec::with_capacity(actions.len());
    for (index, action) in actions.iter().enumerate() {
        if let Some(plan_id) = plan_id {
            let done: Option<(String, Option<String>)> = conn
                .prepare_cached(
                    "SELECT summary, task_id FROM action_log WHERE plan_id = ?1 AND plan_index = ?2",
                )?
                .query_row(params![plan_id, index as i64], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })
                .optional()?;
            if let Some((summary, task_id)) = done {
                results.push(ActionResult {
                    name: action.name.clone(),
                    ok: true,
                    message: summary,
                    task_id,
                });
                continue;
            }
        }
        execute_cached(conn, "SAVEPOINT donna_action")?;
        match handlers::run(conn, env, action) {
            Ok(effect) => {
                let before = effect
                    .before
                    .as_ref()
                    .map(serde_json::to_string)
                    .transpose()
                    .map_err(|e| StoreError::json("action_log.before", e))?;
                // The task as the action left it: undo refuses once it has changed since.
                // (read back only when the handler does not hand it over from its own write).
                let after = match (effect.after, &effect.task_id) {
                    (Some(task), _) => Some(task),
                    (None, Some(id)) => crate::tasks::repo::get(conn, id)?,
                    (None, None) => None,
                };
                let after = after
                    .map(|task| serde_json::to_string(&task))
                    .transpose()
                    .map_err(|e| StoreError::json("action_log.after", e))?;
                conn.prepare_cached(
                    "INSERT INTO action_log (thread_id, task_id, action, params_json, plan_id, plan_index, \
                     before_json, created_task_id, summary, created_at, created_automation_id, \
                     stopped_automation_id, after_json, author_id) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                )?
                .execute(params![
                        thread_id,
                        effect.task_id,
                        action.name,
                        serde_json::Value::Object(action.params.clone()).to_string(),
                        plan_id,
                        plan_id.map(|_| index as i64),
                        before,
                        effect.created_task_id,
                        effect.summary,
                        to_db(env.now),
                        effect.created_automation_id,
                        effect.stopped_automation_id,
                        after,
                        env.author_id,
                    ],
                )?;
                execute_cached(conn, "RELEASE donna_action")?;
                results.push(ActionResult {
                    name: action.name.clone(),
                    ok: true,
                    message: effect.summary,
                    task_id: effect.task_id.clone(),
                });
            }
            Err(error) => {
                execute_cached(conn, "ROLLBACK TO donna_action")?;
                execute_cached(conn, "RELEASE donna_action")?;
                match error {
                    ActionError::Refused(message) => results.push(ActionResult {
                        name: action.name.clone(),
                        ok: false,
                        message,
                        task_id: None,
                    }),
                    ActionError::Store(error) => return Err(error),
                }
            }
        }
    }
    Ok(results)
}

/// What confirming a plan did: every step applied, or none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanOutcome {
    pub applied: bool,
    /// One per step, in order. When nothing was applied, the steps that failed say why and the
    /// others say they were not applied.
    pub results: Vec<ActionResult>,
}

/// What a step that would have worked says when another step of its plan failed.
pub const NOT_APPLIED: &str = "not applied: another step of the plan could not be done";

/// Runs a confirmed plan's steps all or none: if any step is refused, every step's change is
/// rolled back (the steps are journaled with the plan id and index, as in [`execute_all`]).
pub fn execute_plan(
    conn: &Connection,
    thread_id: &str,
    env: &ActionEnv,
    actions: &[BoundAction],
    plan_id: &str,
) -> Result<PlanOutcome, StoreError> {
    execute_cached(conn, "SAVEPOINT donna_plan")?;
    let results = match execute_all(conn, thread_id, env, actions, Some(plan_id)) {
        Ok(results) => results,
        Err(error) => {
            execute_cached(conn, "ROLLBACK TO donna_plan")?;
            execute_cached(conn, "RELEASE donna_plan")?;
            return Err(error);
        }
    };
    if results.iter().all(|result| result.ok) {
        execute_cached(conn, "RELEASE donna_plan")?;
        return Ok(PlanOutcome {
            applied: true,
            results,
        });
    }
    execute_cached(conn, "ROLLBACK TO donna_plan")?;
    execute_cached(conn, "RELEASE donna_plan")?;
    let results = results
        .into_iter()
        .map(|result| {
            if result.ok {
                ActionResult {
                    ok: false,
                    message: NOT_APPLIED.to_string(),
                    ..result
                }
            } else {
                result
            }
        })
        .collect();
    Ok(PlanOutcome {
        applied: false,
        results,
    })
}
