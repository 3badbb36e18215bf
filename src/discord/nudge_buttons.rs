//! The "Done" / "Snooze 1h" / "Tomorrow" buttons under a nudge: their custom ids (each binds one
//! task and one nudge of it), the action row Donna sends (enabled until the nudge can no longer
//! be answered), the intent a click stands for, and what a click is told when it changes nothing.
//!
//! Invariants: a custom id is `nudge:<task id>:<nudge id>:done|snooze|tomorrow`, at most
//! Discord's 100 characters (a nudge whose ids would not fit gets no buttons); anything else is
//! not a nudge button and is read as nothing. A click enters the turn as its intent (`intent`:
//! done, snooze for an hour, tomorrow), through the same inbox and turn as typed words.

use twilight_model::channel::message::component::{ActionRow, Button, ButtonStyle};
use twilight_model::channel::message::Component;

use crate::actions::Intent;

/// Discord's longest custom id.
const MAX_CUSTOM_ID: usize = 100;
const PREFIX: &str = "nudge:";

/// The answer a nudge button gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NudgeAnswer {
    Done,
    Snooze,
    Tomorrow,
}

impl NudgeAnswer {
    const ALL: [NudgeAnswer; 3] = [
        NudgeAnswer::Done,
        NudgeAnswer::Snooze,
        NudgeAnswer::Tomorrow,
    ];

    fn as_str(self) -> &'static str {
        match self {
            NudgeAnswer::Done => "done",
            NudgeAnswer::Snooze => "snooze",
            NudgeAnswer::Tomorrow => "tomorrow",
        }
    }

    /// What the click stands for: it enters the turn as this intent, never as words.
    pub fn intent(self) -> Intent {
        match self {
            NudgeAnswer::Done => Intent::Done,
            NudgeAnswer::Snooze => Intent::Snooze,
            NudgeAnswer::Tomorrow => Intent::Tomorrow,
        }
    }

    fn label(self) -> &'static str {
        match self {
            NudgeAnswer::Done => "Done",
            NudgeAnswer::Snooze => "Snooze 1h",
            NudgeAnswer::Tomorrow => "Tomorrow",
        }
    }

    fn style(self) -> ButtonStyle {
        match self {
            NudgeAnswer::Done => ButtonStyle::Success,
            _ => ButtonStyle::Secondary,
        }
    }
}

/// A click on a nudge button: which task, which nudge of it, which answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NudgeButton {
    pub task_id: String,
    pub nudge_id: String,
    pub answer: NudgeAnswer,
}

pub fn custom_id(task_id: &str, nudge_id: &str, answer: NudgeAnswer) -> String {
    format!("{PREFIX}{task_id}:{nudge_id}:{}", answer.as_str())
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Reads a custom id back; `None` for anything that is not one of Donna's nudge buttons.
pub fn parse(custom_id: &str) -> Option<NudgeButton> {
    let rest = custom_id.strip_prefix(PREFIX)?;
    let mut parts = rest.split(':');
    let (task_id, nudge_id, answer) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || !valid_id(task_id) || !valid_id(nudge_id) {
        return None;
    }
    let answer = NudgeAnswer::ALL
        .into_iter()
        .find(|candidate| candidate.as_str() == answer)?;
    Some(NudgeButton {
        task_id: task_id.to_string(),
        nudge_id: nudge_id.to_string(),
        answer,
    })
}

/// The action row under nudge `nudge_id` about `task_id`: Done, Snooze 1h, Tomorrow; None when
/// the ids cannot make buttons (too long, or characters a custom id of Donna's never holds).
pub fn row(task_id: &str, nudge_id: &str, disabled: bool) -> Option<Vec<Component>> {
    let fits = custom_id(task_id, nudge_id, NudgeAnswer::Tomorrow).len() <= MAX_CUSTOM_ID;
    if !fits || !valid_id(task_id) || !valid_id(nudge_id) {
        return None;
    }
    let buttons = NudgeAnswer::ALL
        .into_iter()
        .map(|answer| {
            Component::Button(Button {
                custom_id: Some(custom_id(task_id, nudge_id, answer)),
                disabled,
                emoji: None,
                id: None,
                label: Some(answer.label().to_string()),
                sku_id: None,
                style: answer.style(),
                url: None,
            })
        })
        .collect();
    Some(vec![Component::ActionRow(ActionRow {
        components: buttons,
        id: None,
    })])
}

/// Why a click on a nudge changed nothing (told to the clicking person only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NudgeRefusal {
    /// The clicking person is not one Donna works for.
    NotYours,
    /// The task is done, cancelled or gone.
    Closed { title: String, status: String },
    /// A newer nudge about the task took this one's place.
    Replaced { title: String },
    /// A click answered this nudge already.
    Answered,
    /// No such nudge (or it names another task).
    Unknown,
}

impl NudgeRefusal {
    pub fn text(&self) -> String {
        match self {
            NudgeRefusal::NotYours => {
                "This reminder is not yours to answer: only the people I work for can. Nothing changed.".to_string()
            }
            NudgeRefusal::Closed { title, status } => {
                format!("'{title}' is {status} already, so nothing changed.")
            }
            NudgeRefusal::Replaced { title } => format!(
                "A newer reminder about '{title}' replaced this one, so nothing changed. Use the buttons under the newest one."
            ),
            NudgeRefusal::Answered => {
                "This reminder was already answered with a button; nothing changed.".to_string()
            }
            NudgeRefusal::Unknown => "I don't know that reminder any more; nothing changed.".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_bind_one_task_one_nudge_and_one_answer() {
        let id = custom_id("tsk_0a", "ndg_1b", NudgeAnswer::Snooze);
        assert_eq!(id, "nudge:tsk_0a:ndg_1b:snooze");
        assert_eq!(
            parse(&id),
            Some(NudgeButton {
                task_id: "tsk_0a".into(),
                nudge_id: "ndg_1b".into(),
                answer: NudgeAnswer::Snooze
            })
        );
        for other in [
            "",
            "nudge:",
            "nudge:tsk_0a:ndg_1b",
            "nudge:tsk_0a::done",
            "nudge::ndg_1b:done",
            "nudge:tsk_0a:ndg_1b:later",
            "nudge:tsk_0a:ndg_1b:done:again",
            "nudge:tsk 0a:ndg_1b:done",
            "plan:pln_1:yes",
            "NUDGE:tsk_0a:ndg_1b:done",
        ] {
            assert_eq!(parse(other), None, "{other:?}");
        }
    }

    #[test]
    fn the_row_is_done_snooze_tomorrow_and_ids_too_long_get_none() {
        let Some(rows) = row("tsk_0a", "ndg_1b", true) else {
            panic!("no row");
        };
        let [Component::ActionRow(row)] = rows.as_slice() else {
            panic!("one action row: {rows:?}");
        };
        let buttons: Vec<_> = row
            .components
            .iter()
            .filter_map(|c| match c {
                Component::Button(b) => Some((b.label.clone(), b.custom_id.clone(), b.disabled)),
                _ => None,
            })
            .collect();
        assert_eq!(
            buttons,
            vec![
                (
                    Some("Done".into()),
                    Some("nudge:tsk_0a:ndg_1b:done".into()),
                    true
                ),
                (
                    Some("Snooze 1h".into()),
                    Some("nudge:tsk_0a:ndg_1b:snooze".into()),
                    true
                ),
                (
                    Some("Tomorrow".into()),
                    Some("nudge:tsk_0a:ndg_1b:tomorrow".into()),
                    true
                ),
            ]
        );
        assert!(super::row(&"t".repeat(80), "ndg_1b", false).is_none());
        assert!(super::row("tsk:0a", "ndg_1b", false).is_none());
    }
}
