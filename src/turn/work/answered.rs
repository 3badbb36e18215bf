//! What a kind of work answers ([`Answered`], built whole) and where it commits ([`At`]: the
//! turn's transaction and what the turn knows). Shared by every kind's file under
//! `src/turn/work/`, apart from their dispatch in `mod.rs`, so no kind imports its dispatcher.
//!
//! Invariant: an `Answered` always has a path and a text; the ids and the reply's delivery are
//! added by `apply::commit`.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::actions::{ActionEnv, ActionResult, BoundAction};

use super::super::result::{PlannerStep, ShownAction, TurnPath};
use super::super::Inbound;

/// What a kind of work answers: the whole visible result of the turn but its ids and the reply's
/// delivery (which `apply::commit` adds). Built by [`Answered::new`], so the path and the text
/// are never forgotten.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    pub path: TurnPath,
    /// Donna's answer (empty: she says nothing).
    pub text: String,
    /// The plan this answer proposes (or points at): the message is a proposal.
    pub pending_plan_id: Option<String>,
    pub actions: Vec<ShownAction>,
    pub results: Vec<ActionResult>,
    pub steps: Vec<PlannerStep>,
}

impl Answered {
    pub fn new(path: TurnPath, text: impl Into<String>) -> Self {
        Self {
            path,
            text: text.into(),
            pending_plan_id: None,
            actions: Vec::new(),
            results: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// With the actions that ran (or were proposed) and their results.
    pub fn ran(mut self, actions: &[BoundAction], results: Vec<ActionResult>) -> Self {
        self.actions = actions.iter().map(ShownAction::from).collect();
        self.results = results;
        self
    }

    /// With the planner's tool calls.
    pub fn after(mut self, steps: Vec<PlannerStep>) -> Self {
        self.steps = steps;
        self
    }

    /// Proposing (or pointing at) `plan_id`.
    pub fn proposing(mut self, plan_id: impl Into<String>) -> Self {
        self.pending_plan_id = Some(plan_id.into());
        self
    }
}

/// Where a kind of work commits: the turn's transaction and what it knows.
pub struct At<'a> {
    pub conn: &'a Connection,
    pub inbound: &'a Inbound,
    pub env: &'a ActionEnv,
    pub now: DateTime<Utc>,
    pub undo_window: chrono::Duration,
    pub plan_expiry: chrono::Duration,
}

impl At<'_> {
    pub fn thread_id(&self) -> &str {
        &self.inbound.thread_id
    }
}
