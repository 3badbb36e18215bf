//! The settings a turn reads, taken from the config once at startup.

use std::time::Duration;

/// Settings a turn reads.
#[derive(Debug, Clone)]
pub struct TurnSettings {
    /// The zone this turn reads and shows times in: the config's `timezone` in the shared
    /// pipeline, the sender's own once the turn has read who is writing
    /// (`TurnDeps::for_sender`).
    pub timezone: chrono_tz::Tz,
    /// The config's `timezone`: everyone's who set none, and the escalation ledger's day.
    pub default_timezone: chrono_tz::Tz,
    /// The config's `nudges.quiet_hours`: everyone's who set none (no slot is found in them).
    pub quiet_hours: crate::config::QuietHours,
    /// What "later" means (`reschedule.later`).
    pub later: Duration,
    pub undo_window: Duration,
    pub plan_expiry: Duration,
    /// Messages of history given to a model (`memory.window_size`).
    pub window_size: usize,
    /// Drop model-proposed actions the reply gives no ground for (`llm.require_evidence`).
    pub require_evidence: bool,
    /// One INFO line per finished turn (`log.turns`).
    pub log_turns: bool,
    /// Below it, a capture the model read asks first (`capture.min_confidence`).
    pub min_confidence: f64,
    /// Exchanges of history shown to `route` (`planner.history_exchanges`).
    pub history_exchanges: usize,
    /// Most tool calls of one planner turn, hard (`planner.max_tool_calls`).
    pub max_tool_calls: usize,
    /// Longest tool result a prompt quotes, in characters (`planner.tool_result_chars`).
    pub tool_result_chars: usize,
    /// Everyone's working hours who set none (`scheduling.working_hours`): slots lie in them.
    pub working_hours: crate::config::WorkingHours,
    /// The group-chat reply gate; None when `reply_decision.enabled` is false.
    pub gate: Option<GateSettings>,
}

#[derive(Debug, Clone, Copy)]
pub struct GateSettings {
    /// Gate only group chats (a 1:1 chat always gets a reply).
    pub group_only: bool,
}

/// A config duration as chrono's, saturating (a duration too long for chrono is "forever").
pub fn chrono_duration(duration: Duration) -> chrono::Duration {
    chrono::Duration::from_std(duration).unwrap_or(chrono::Duration::MAX)
}
