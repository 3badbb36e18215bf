//! Consent for a chat answer's actions: what runs at once and what becomes one plan waiting
//! for a yes. Pure.
//!
//! Runs at once only what the person plainly asked for: reads; or writes, all at `write` level,
//! in a turn that ran no planner tools, that
//! - are on ONE task, and that task is the one the person's own words name (the open task
//!   their message names best and alone, `tasks::named::named_by_message`; the task the chat
//!   is pinned to; or the one they picked when Donna asked "which one?"); a task id from the
//!   model never settles it;
//! - and are each asked for by the message, plainly (`replies::grounding`, reading the
//!   message's one reading, the same structure the keyword layer reads: a clause of the
//!   person's own, not a question, not negated, not a wish, a condition, a habit, a suggestion,
//!   sarcasm or a claim a later clause denies; "how is the passport thing going?", "don't mark
//!   it done", "mum called" (for "Call mum"), "Tom paid it", "I wish the taxes were done" ask
//!   for nothing to run now), also in a pinned chat and after a pick;
//! - or are one `create_task` whose title stands in the message and which the message asks for
//!   (or which the message all but is: "call the bank tomorrow").
//!
//! Everything else (two tasks, any `confirm` action, anything after planner tools, a task the
//! message does not name alone, an action it does not ask for) is one plan. A task's words in
//! the model's answer or in tool output never count: only the person's message does.

use super::registry::Safety;
use crate::replies::grounding::{asks_for, message_is_the_title, title_in_message, Ask, Context};
use crate::sentence::Sentence;

/// One write of the answer, as consent sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteTarget {
    pub safety: Safety,
    /// The existing task it changes (id, title); None for a new task.
    pub task: Option<(String, String)>,
    /// The new task's title, for a create.
    pub creates: Option<String>,
    /// What the message must ask for, for this write to run at once (a title and a priority
    /// change ask for two things).
    pub asks: Vec<Ask>,
}

/// What the person's side of the turn holds.
#[derive(Debug, Clone, Default)]
pub struct Asked<'a> {
    /// The person's own message, read (for a pick, the message that asked for the actions;
    /// None when its reading is not at hand: nothing is then plainly asked).
    pub message: Option<&'a Sentence>,
    /// The open task the message names best and alone (`tasks::named::named_by_message`).
    pub named: Option<&'a str>,
    /// The task the chat is pinned to.
    pub pinned: Option<&'a str>,
    /// The tasks the person picked in answer to "which one?".
    pub picked: &'a [String],
    /// Whether the turn ran planner tools.
    pub planner_ran: bool,
    /// Whether the message names a time Donna can read (it asks to move or snooze).
    pub names_a_time: bool,
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
    let Some(message) = asked.message else {
        return Consent::Plan;
    };
    let said: Vec<&str> = message.words().collect();
    let asks = |write: &WriteTarget, title: Option<&str>| {
        !write.asks.is_empty()
            && write.asks.iter().all(|ask| {
                let context = Context {
                    task_title: title,
                    extra: None,
                };
                asks_for(message, *ask, &context, || asked.names_a_time)
            })
    };
    if let [only] = writes {
        if let Some(title) = &only.creates {
            let plainly = title_in_message(&said, title)
                && (asks(only, None) || message_is_the_title(&said, title));
            return if plainly {
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
        || asked.named == Some(id.as_str());
    if named && writes.iter().all(|write| asks(write, Some(title))) {
        Consent::RunNow
    } else {
        Consent::Plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(id: &str, title: &str, safety: Safety, ask: Ask) -> WriteTarget {
        WriteTarget {
            safety,
            task: Some((id.into(), title.into())),
            creates: None,
            asks: vec![ask],
        }
    }

    fn create(title: &str) -> WriteTarget {
        WriteTarget {
            safety: Safety::Write,
            task: None,
            creates: Some(title.into()),
            asks: vec![Ask::Create],
        }
    }

    #[test]
    fn only_what_the_person_plainly_asked_for_runs_at_once() {
        use Consent::*;
        let move_passport = || on("t1", "Renew passport", Safety::Write, Ask::Move);
        let done_passport = || on("t1", "Renew passport", Safety::Write, Ask::Done);
        let done_rent = || on("t2", "Pay rent", Safety::Write, Ask::Done);
        let texts = [
            "what's due?",
            "move the passport thing to friday",
            "passport: friday, priority 1",
            "how is the passport thing going?",
            "don't mark the passport as done",
            "ugh the passport thing is killing me",
            "move it to friday",
            "passport and rent are done",
            "cancel the passport",
            "passport friday",
            "what do I need for this?",
            "mark the renewal done",
            "how's the renewal going?",
            "I need to call the bank tomorrow",
            "ugh, money stuff",
            "call the bank and passport friday",
        ];
        let read: Vec<Sentence> = texts.iter().map(|text| Sentence::read(text)).collect();
        let of = |text: &str| {
            texts
                .iter()
                .position(|known| *known == text)
                .map(|index| &read[index])
        };
        let named = |message| Asked {
            message: of(message),
            named: Some("t1"),
            names_a_time: true,
            ..Asked::default()
        };
        let asked = |message| Asked {
            message: of(message),
            ..Asked::default()
        };
        let picked = ["t1".to_string()];
        let table: Vec<(&str, Vec<WriteTarget>, Asked<'_>, Consent)> = vec![
            ("reads only", vec![], asked("what's due?"), RunNow),
            (
                "named task, asked to move",
                vec![move_passport()],
                named("move the passport thing to friday"),
                RunNow,
            ),
            (
                "two writes, one named task, both asked",
                vec![
                    move_passport(),
                    on("t1", "Renew passport", Safety::Write, Ask::Change),
                ],
                named("passport: friday, priority 1"),
                RunNow,
            ),
            (
                "named but a question",
                vec![done_passport()],
                named("how is the passport thing going?"),
                Plan,
            ),
            (
                "named but negated",
                vec![done_passport()],
                named("don't mark the passport as done"),
                Plan,
            ),
            (
                "named but venting",
                vec![done_passport()],
                named("ugh the passport thing is killing me"),
                Plan,
            ),
            (
                "not named",
                vec![move_passport()],
                Asked {
                    names_a_time: true,
                    ..asked("move it to friday")
                },
                Plan,
            ),
            (
                "two tasks",
                vec![done_passport(), done_rent()],
                named("passport and rent are done"),
                Plan,
            ),
            (
                "confirm level",
                vec![on("t1", "Renew passport", Safety::Confirm, Ask::Cancel)],
                named("cancel the passport"),
                Plan,
            ),
            (
                "after planner tools",
                vec![move_passport()],
                Asked {
                    planner_ran: true,
                    ..named("passport friday")
                },
                Plan,
            ),
            (
                "pinned and asked",
                vec![move_passport()],
                Asked {
                    pinned: Some("t1"),
                    names_a_time: true,
                    ..asked("move it to friday")
                },
                RunNow,
            ),
            (
                "pinned but not asked",
                vec![done_passport()],
                Asked {
                    pinned: Some("t1"),
                    ..asked("what do I need for this?")
                },
                Plan,
            ),
            (
                "pinned to another",
                vec![move_passport()],
                Asked {
                    pinned: Some("t2"),
                    names_a_time: true,
                    ..asked("move it to friday")
                },
                Plan,
            ),
            (
                "picked, the action asked",
                vec![done_passport()],
                Asked {
                    picked: &picked,
                    ..asked("mark the renewal done")
                },
                RunNow,
            ),
            (
                "picked, the action never asked",
                vec![done_passport()],
                Asked {
                    picked: &picked,
                    ..asked("how's the renewal going?")
                },
                Plan,
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
                vec![create("Call the bank"), move_passport()],
                named("call the bank and passport friday"),
                Plan,
            ),
        ];
        for (name, writes, asked, expected) in table {
            assert_eq!(consent(&writes, &asked), expected, "{name}");
        }
    }
}
