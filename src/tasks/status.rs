//! Task states and the transitions between them.
//!
//! The rules (checked by `TaskStatus::can_move_to`):
//! - any state may move to `done`, except `cancelled` (and `done` itself: it is done already);
//! - any state but `done` and `cancelled` may move to `cancelled`;
//! - open work moves freely between `backlog`, `needs_scheduling`, `scheduled`, `in_progress`,
//!   `blocked`, `waiting_input` and `paused`;
//! - `done` may be reopened to `backlog`, `scheduled` or `in_progress` (clears `completed_at`);
//! - `cancelled` may only be restored to `backlog`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Backlog,
    Scheduled,
    NeedsScheduling,
    InProgress,
    Blocked,
    WaitingInput,
    Paused,
    Done,
    Cancelled,
}

pub const ALL_STATUSES: [TaskStatus; 9] = [
    TaskStatus::Backlog,
    TaskStatus::Scheduled,
    TaskStatus::NeedsScheduling,
    TaskStatus::InProgress,
    TaskStatus::Blocked,
    TaskStatus::WaitingInput,
    TaskStatus::Paused,
    TaskStatus::Done,
    TaskStatus::Cancelled,
];

impl TaskStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Backlog => "backlog",
            TaskStatus::Scheduled => "scheduled",
            TaskStatus::NeedsScheduling => "needs_scheduling",
            TaskStatus::InProgress => "in_progress",
            TaskStatus::Blocked => "blocked",
            TaskStatus::WaitingInput => "waiting_input",
            TaskStatus::Paused => "paused",
            TaskStatus::Done => "done",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Neither done nor cancelled.
    pub fn is_open(self) -> bool {
        !matches!(self, TaskStatus::Done | TaskStatus::Cancelled)
    }

    /// Whether the state machine allows `self -> to`; the error says why not.
    pub fn can_move_to(self, to: TaskStatus) -> Result<(), TransitionError> {
        use TaskStatus::*;
        if self == to {
            return Err(TransitionError::Already(self));
        }
        let allowed = match (self, to) {
            (Cancelled, Done) => false,
            (_, Done) => true,
            (Done, Cancelled) => false,
            (_, Cancelled) => true,
            (Done, Backlog | Scheduled | InProgress) => true,
            (Done, _) => false,
            (Cancelled, Backlog) => true,
            (Cancelled, _) => false,
            _ => true,
        };
        if allowed {
            Ok(())
        } else {
            Err(match self {
                Cancelled => TransitionError::FromCancelled(to),
                Done => TransitionError::FromDone(to),
                _ => TransitionError::NotAllowed { from: self, to },
            })
        }
    }
}

/// Why the state machine refuses a move. The text is told to the person as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TransitionError {
    #[error("the task is already {0}")]
    Already(TaskStatus),
    #[error("a cancelled task can only be restored to backlog, not moved to {0}")]
    FromCancelled(TaskStatus),
    #[error("a done task can be reopened to backlog, scheduled or in_progress, not moved to {0}")]
    FromDone(TaskStatus),
    #[error("cannot move from {from} to {to}")]
    NotAllowed { from: TaskStatus, to: TaskStatus },
}

/// A status name that is not one of the nine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown status {0:?}; one of: {list}", list = ALL_STATUSES.map(|s| s.as_str()).join(", "))]
pub struct UnknownStatus(pub String);

impl fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for TaskStatus {
    type Err = UnknownStatus;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ALL_STATUSES
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| UnknownStatus(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::TaskStatus::*;
    use super::*;

    #[test]
    fn any_state_but_cancelled_may_be_done() {
        for from in ALL_STATUSES {
            let verdict = from.can_move_to(Done);
            match from {
                Cancelled | Done => assert!(verdict.is_err(), "{from} -> done"),
                _ => assert!(verdict.is_ok(), "{from} -> done"),
            }
        }
    }

    #[test]
    fn transitions_follow_the_written_rules() {
        let cases = [
            (Backlog, Scheduled, true),
            (InProgress, Paused, true),
            (Done, InProgress, true),
            (Done, Cancelled, false),
            (Done, Blocked, false),
            (Cancelled, Backlog, true),
            (Cancelled, Scheduled, false),
            (Scheduled, Cancelled, true),
            (Paused, Paused, false),
        ];
        for (from, to, allowed) in cases {
            assert_eq!(from.can_move_to(to).is_ok(), allowed, "{from} -> {to}");
        }
    }

    #[test]
    fn statuses_round_trip_through_text() {
        for status in ALL_STATUSES {
            assert_eq!(status.as_str().parse::<TaskStatus>(), Ok(status));
        }
        assert!("finished".parse::<TaskStatus>().is_err());
    }
}
