//! Consent for a chat answer's actions (DESIGN.md "Consent"): what runs at once and what
//! becomes one plan waiting for a yes. Pure.
//!
//! Runs at once only what the person plainly asked for: reads; or writes, all at `write` level,
//! on ONE task that the person's own message names (a significant word of its title,
//! `tasks::named::mentions`), or that the chat is pinned to, or that the person picked when
//! Donna asked "which one?"; or one `create_task` whose title the message names; in a turn
//! that ran no planner tools. Everything else (two tasks, any `confirm` action, anything after
//! planner tools) is one plan. A task's words in the model's answer or in tool output never
//! count: only the person's message does.

use super::registry::Safety;
use crate::tasks::named::mentions;

/// One write of the answer, as consent sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteTarget {
    pub safety: Safety,
    /// The existing task it changes (id, title); None for a new task.
    pub task: Option<(String, String)>,
    /// The new task's title, for a create.
    pub creates: Option<String>,
}

/// What the person's side of the turn holds.
#[derive(Debug, Clone, Default)]
pub struct Asked<'a> {
    /// The person's own message.
    pub message: &'a str,
    /// The task the chat is pinned to.
    pub pinned: Option<&'a str>,
    /// The tasks the person picked in answer to "which one?".
    pub picked: &'a [String],
    /// Whether the turn ran planner tools.
    pub planner_ran: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consent {
    RunNow,
    Plan,
}

pub fn consent(writes: &[WriteTarget], asked: &Asked<'_>) -> Consent {
    if writes.is_empty() {
        return Consent::RunNow;
    }
    if asked.planner_ran || writes.iter().any(|write| write.safety != Safety::Write) {
        return Consent::Plan;
    }
    if let [only] = writes {
        if let Some(title) = &only.creates {
            return if mentions(asked.message, title) {
                Consent::RunNow
            } else {
                Consent::Plan
            };
        }
    }
    let mut tasks = writes.iter().map(|write| write.task.as_ref());
    let Some(Some((id, title))) = tasks.next() else {
        return Consent::Plan;
    };
    if !tasks.all(|other| other.is_some_and(|(other, _)| other == id)) {
        return Consent::Plan;
    }
    let named = asked.pinned == Some(id.as_str())
        || asked.picked.iter().any(|picked| picked == id)
        || mentions(asked.message, title);
    if named {
        Consent::RunNow
    } else {
        Consent::Plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(id: &str, title: &str, safety: Safety) -> WriteTarget {
        WriteTarget {
            safety,
            task: Some((id.into(), title.into())),
            creates: None,
        }
    }

    fn create(title: &str) -> WriteTarget {
        WriteTarget {
            safety: Safety::Write,
            task: None,
            creates: Some(title.into()),
        }
    }

    #[test]
    fn only_what_the_person_plainly_asked_for_runs_at_once() {
        use Consent::*;
        let passport = || on("t1", "Renew passport", Safety::Write);
        let rent = || on("t2", "Pay rent", Safety::Write);
        let asked = |message| Asked {
            message,
            ..Asked::default()
        };
        let picked = ["t1".to_string()];
        let table: Vec<(&str, Vec<WriteTarget>, Asked<'_>, Consent)> = vec![
            ("reads only", vec![], asked("what's due?"), RunNow),
            (
                "named task",
                vec![passport()],
                asked("move the passport thing to friday"),
                RunNow,
            ),
            (
                "two writes, one named task",
                vec![passport(), passport()],
                asked("passport: friday, priority 1"),
                RunNow,
            ),
            (
                "not named",
                vec![passport()],
                asked("move it to friday"),
                Plan,
            ),
            (
                "two tasks",
                vec![passport(), rent()],
                asked("passport and rent are done"),
                Plan,
            ),
            (
                "confirm level",
                vec![on("t1", "Renew passport", Safety::Confirm)],
                asked("cancel the passport"),
                Plan,
            ),
            (
                "after planner tools",
                vec![passport()],
                Asked {
                    planner_ran: true,
                    ..asked("passport friday")
                },
                Plan,
            ),
            (
                "pinned",
                vec![passport()],
                Asked {
                    pinned: Some("t1"),
                    ..asked("move it to friday")
                },
                RunNow,
            ),
            (
                "pinned to another",
                vec![passport()],
                Asked {
                    pinned: Some("t2"),
                    ..asked("move it to friday")
                },
                Plan,
            ),
            (
                "picked",
                vec![passport()],
                Asked {
                    picked: &picked,
                    ..asked("1")
                },
                RunNow,
            ),
            (
                "create named",
                vec![create("Call the bank")],
                asked("I need to call the bank tomorrow"),
                RunNow,
            ),
            (
                "create not named",
                vec![create("Call the bank")],
                asked("ugh, money stuff"),
                Plan,
            ),
            (
                "create and a change",
                vec![create("Call the bank"), passport()],
                asked("call the bank and passport friday"),
                Plan,
            ),
        ];
        for (name, writes, asked, expected) in table {
            assert_eq!(consent(&writes, &asked), expected, "{name}");
        }
    }
}
