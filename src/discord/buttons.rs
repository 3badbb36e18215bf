//! The "Yes" / "No" buttons under a proposal: their custom ids (each binds one exact plan),
//! the action row Donna sends (enabled while the plan is live, disabled once it is answered),
//! and what a click is told when it cannot answer.
//!
//! Invariants: a custom id names exactly one plan and one answer (`plan:<plan id>:yes|no`);
//! anything else is not a button of Donna's and is read as nothing.

use twilight_model::channel::message::component::{ActionRow, Button, ButtonStyle};

use crate::actions::Intent;
use twilight_model::channel::message::Component;

/// The answer a button gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
}

impl Answer {
    /// How the custom id spells it.
    pub fn as_text(self) -> &'static str {
        match self {
            Answer::Yes => "yes",
            Answer::No => "no",
        }
    }

    /// What the click stands for: it enters the turn as this intent, never as words.
    pub fn intent(self) -> Intent {
        match self {
            Answer::Yes => Intent::Yes,
            Answer::No => Intent::No,
        }
    }
}

/// A click on one of Donna's buttons: which plan, which answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanButton {
    pub plan_id: String,
    pub answer: Answer,
}

const PREFIX: &str = "plan:";

/// The custom id of the button answering `plan_id` with `answer`.
pub fn custom_id(plan_id: &str, answer: Answer) -> String {
    format!("{PREFIX}{plan_id}:{}", answer.as_text())
}

/// Reads a custom id back; `None` for anything that is not one of Donna's plan buttons.
pub fn parse(custom_id: &str) -> Option<PlanButton> {
    let rest = custom_id.strip_prefix(PREFIX)?;
    let (plan_id, answer) = rest.rsplit_once(':')?;
    let answer = match answer {
        "yes" => Answer::Yes,
        "no" => Answer::No,
        _ => return None,
    };
    let valid_id = !plan_id.is_empty()
        && plan_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    valid_id.then(|| PlanButton {
        plan_id: plan_id.to_string(),
        answer,
    })
}

/// The action row under a proposal of `plan_id`: "Yes" and "No", disabled once answered.
pub fn row(plan_id: &str, disabled: bool) -> Vec<Component> {
    let button = |answer: Answer, label: &str, style: ButtonStyle| {
        Component::Button(Button {
            custom_id: Some(custom_id(plan_id, answer)),
            disabled,
            emoji: None,
            id: None,
            label: Some(label.to_string()),
            sku_id: None,
            style,
            url: None,
        })
    };
    vec![Component::ActionRow(ActionRow {
        components: vec![
            button(Answer::Yes, "Yes", ButtonStyle::Success),
            button(Answer::No, "No", ButtonStyle::Secondary),
        ],
        id: None,
    })]
}

/// Why a click changed nothing (told to the clicking person only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The proposal was made for someone else.
    NotYours,
    /// A newer proposal took its place.
    Replaced,
    Expired,
    /// Answered already (by a click or a typed yes or no).
    Answered,
    Cancelled,
    /// No such proposal (or not in this channel).
    Unknown,
}

impl Refusal {
    pub fn text(self) -> &'static str {
        match self {
            Refusal::NotYours => "This proposal is not yours to answer: only the person it was made for can. Nothing changed.",
            Refusal::Replaced => "That proposal was replaced by a newer one, so nothing changed. Answer the newest proposal instead.",
            Refusal::Expired => "That proposal expired, so nothing changed. Ask me again if you still want it.",
            Refusal::Answered => "That proposal was already answered; nothing changed.",
            Refusal::Cancelled => "That proposal was cancelled by a later message, so nothing changed.",
            Refusal::Unknown => "I don't know that proposal any more; nothing changed.",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_bind_one_plan_and_one_answer() {
        let yes = custom_id("pln_01abc", Answer::Yes);
        assert_eq!(yes, "plan:pln_01abc:yes");
        assert_eq!(
            parse(&yes),
            Some(PlanButton {
                plan_id: "pln_01abc".into(),
                answer: Answer::Yes
            })
        );
        assert_eq!(
            parse(&custom_id("pln_x-1", Answer::No)).map(|b| b.answer),
            Some(Answer::No)
        );
        // Not Donna's buttons, or damaged ones: nothing.
        for other in [
            "",
            "plan:",
            "plan::yes",
            "plan:pln_1:maybe",
            "plan:pln_1",
            "plan:pln 1:yes",
            "plan:pln_1:yes:again",
            "task:pln_1:yes",
            "PLAN:pln_1:yes",
        ] {
            assert_eq!(parse(other), None, "{other:?}");
        }
    }

    #[test]
    fn the_row_has_yes_then_no_and_can_be_disabled() {
        for disabled in [false, true] {
            let rows = row("pln_1", disabled);
            let [Component::ActionRow(row)] = rows.as_slice() else {
                panic!("one action row: {rows:?}");
            };
            let labels: Vec<_> = row
                .components
                .iter()
                .filter_map(|c| match c {
                    Component::Button(b) => {
                        Some((b.label.clone(), b.custom_id.clone(), b.disabled))
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(
                labels,
                vec![
                    (Some("Yes".into()), Some("plan:pln_1:yes".into()), disabled),
                    (Some("No".into()), Some("plan:pln_1:no".into()), disabled),
                ]
            );
        }
    }
}
