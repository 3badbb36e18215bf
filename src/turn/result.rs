//! What a turn produced: the answer `POST /api/messages` returns (and the inbox stores), with
//! the `path` the turn took ([`TurnPath`], defined below the metrics that count it).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::actions::bind::DONNAS_OWN_PARAMS;
use crate::actions::{ActionResult, BoundAction};
pub use crate::turn_path::TurnPath;

/// An action as shown in a result: its name and parameters (Donna's own bookkeeping,
/// `DONNAS_OWN_PARAMS`, left out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShownAction {
    pub name: String,
    pub params: Map<String, Value>,
}

impl From<&BoundAction> for ShownAction {
    fn from(action: &BoundAction) -> Self {
        Self {
            name: action.name.clone(),
            params: action
                .params
                .iter()
                .filter(|(name, _)| !DONNAS_OWN_PARAMS.contains(&name.as_str()))
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect(),
        }
    }
}

/// The result of one turn, exactly as `POST /api/messages` returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnResult {
    pub thread_id: String,
    pub message_id: String,
    pub path: TurnPath,
    /// The text sent, or null when nothing is sent.
    pub reply: Option<String>,
    pub actions: Vec<ShownAction>,
    pub pending_plan_id: Option<String>,
    pub results: Vec<ActionResult>,
    /// The planner's tool calls, in order (empty for every other turn).
    #[serde(default)]
    pub steps: Vec<PlannerStep>,
}

/// One tool call of the planner, as a result shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannerStep {
    pub tool: String,
    pub args: Value,
    pub ok: bool,
}
