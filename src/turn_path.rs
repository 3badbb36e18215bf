//! The paths a turn can take: the `path` of `POST /api/messages`. A vocabulary shared by the
//! turn (which chooses one), the metrics (which count turns per path) and the API (which shows
//! it), kept below all three so none of them imports another for it.

use serde::{Deserialize, Serialize};

/// Which layer handled a message (the `path` of the API).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnPath {
    /// A keyword reply ran an action (or proposed a plan, for intents marked `confirm`).
    Fast,
    /// The model answered, maybe with a plan.
    Llm,
    PlanConfirmed,
    PlanRejected,
    /// A confirmation came for a plan that has expired or was cancelled.
    PlanExpired,
    /// The model proposed only invalid actions; Donna asks to rephrase.
    Clarify,
    /// The model could not be reached or answered garbage; Donna apologises.
    LlmUnavailable,
    /// No layer could take it; Donna says what she can do.
    Unhandled,
    /// The group-chat gate or the rate cap kept Donna quiet.
    Skipped,
    /// "undo" reverted the last action.
    Undone,
    /// Free text: a task was captured.
    TaskCreated,
    /// Free text: a likely duplicate, proposed rather than created.
    Duplicate,
    /// Free text: a recurring reminder proposed.
    AutomationProposed,
    /// Free text: a question answered (by the rules or the planner).
    Answer,
    /// Free text: conversation (greetings, thanks, chat answers).
    Chat,
    /// Free text: an escalation to the bigger model offered.
    EscalationProposed,
    /// Free text: the bigger model answered.
    Escalated,
}

impl TurnPath {
    pub const ALL: [TurnPath; 17] = [
        TurnPath::Fast,
        TurnPath::Llm,
        TurnPath::PlanConfirmed,
        TurnPath::PlanRejected,
        TurnPath::PlanExpired,
        TurnPath::Clarify,
        TurnPath::LlmUnavailable,
        TurnPath::Unhandled,
        TurnPath::Skipped,
        TurnPath::Undone,
        TurnPath::TaskCreated,
        TurnPath::Duplicate,
        TurnPath::AutomationProposed,
        TurnPath::Answer,
        TurnPath::Chat,
        TurnPath::EscalationProposed,
        TurnPath::Escalated,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TurnPath::Fast => "fast",
            TurnPath::Llm => "llm",
            TurnPath::PlanConfirmed => "plan_confirmed",
            TurnPath::PlanRejected => "plan_rejected",
            TurnPath::PlanExpired => "plan_expired",
            TurnPath::Clarify => "clarify",
            TurnPath::LlmUnavailable => "llm_unavailable",
            TurnPath::Unhandled => "unhandled",
            TurnPath::Skipped => "skipped",
            TurnPath::Undone => "undone",
            TurnPath::TaskCreated => "task_created",
            TurnPath::Duplicate => "duplicate",
            TurnPath::AutomationProposed => "automation_proposed",
            TurnPath::Answer => "answer",
            TurnPath::Chat => "chat",
            TurnPath::EscalationProposed => "escalation_proposed",
            TurnPath::Escalated => "escalated",
        }
    }

    pub fn index(self) -> usize {
        TurnPath::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }
}
