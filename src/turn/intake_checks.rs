//! What a message must be to be accepted, checked before anything is recorded: ids that are
//! short printable text, a text that is not blank, not too long and without control characters,
//! and a click whose intent a task could take and that names what it answers.

use super::incoming::Incoming;
use super::intake_error::IntakeError;
use crate::actions::Intent;

/// Longest message text accepted, in characters.
pub const MAX_TEXT_CHARS: usize = 4_000;

/// Checks an id from outside the process (`ids::check`), naming the field.
pub(super) fn check_id(name: &str, value: &str) -> Result<(), IntakeError> {
    crate::ids::check(value).map_err(|error| IntakeError::Invalid(format!("{name} {error}")))
}

/// Checks a click: its intent is one a task could take, and it names what it answers (a yes or
/// no its proposal, a change its nudge or task), so it can never land on anything else.
pub(super) fn check_intent(intent: &Intent, incoming: &Incoming) -> Result<(), IntakeError> {
    intent
        .check()
        .map_err(|error| IntakeError::Invalid(error.to_string()))?;
    let names_its_target = if intent.answers_proposal().is_some() {
        incoming.answers_plan.is_some()
    } else if intent.changes_a_task() {
        incoming.answers_nudge.is_some() || incoming.about_task.is_some()
    } else {
        true
    };
    if !names_its_target {
        return Err(IntakeError::Invalid(format!(
            "a {} click must name the {} it answers",
            intent.name(),
            if intent.changes_a_task() {
                "nudge or task"
            } else {
                "proposal"
            }
        )));
    }
    Ok(())
}

/// Checks a message text: not blank, not too long, no control characters but newlines and tabs.
pub fn check_text(text: &str) -> Result<(), IntakeError> {
    if text.trim().is_empty() {
        return Err(IntakeError::Invalid("text must not be empty".into()));
    }
    let length = text.chars().count();
    if length > MAX_TEXT_CHARS {
        return Err(IntakeError::Invalid(format!(
            "text is {length} characters; at most {MAX_TEXT_CHARS} are accepted"
        )));
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r')
    {
        return Err(IntakeError::Invalid(
            "text must not contain control characters".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversation::Channel;

    fn click(intent: Intent) -> Incoming {
        Incoming::clicked(Channel::Local, "web", "web", intent)
    }

    fn accepted(incoming: &Incoming) -> bool {
        incoming
            .intent
            .as_ref()
            .is_some_and(|intent| check_intent(intent, incoming).is_ok())
    }

    #[test]
    fn a_click_must_name_what_it_answers() {
        // (the click, whether it is accepted)
        let table = [
            (click(Intent::Yes).answering_plan("pln_1"), true),
            (click(Intent::No).answering_plan("pln_1"), true),
            (click(Intent::Yes), false),
            (click(Intent::Yes).about("tsk_1"), false),
            (click(Intent::Done).about("tsk_1"), true),
            (click(Intent::Snooze).answering_nudge("ndg_1"), true),
            (click(Intent::Tomorrow), false),
            (click(Intent::Cancel).answering_plan("pln_1"), false),
            (click(Intent::Undo), true),
            (
                click(Intent::Rename {
                    title: "Pay the rent".into(),
                })
                .about("tsk_1"),
                true,
            ),
            (
                click(Intent::Rename { title: "  ".into() }).about("tsk_1"),
                false,
            ),
        ];
        for (incoming, expected) in table {
            assert_eq!(accepted(&incoming), expected, "{incoming:?}");
        }
    }

    #[test]
    fn a_click_is_remembered_as_the_words_it_stands_for() {
        let done = click(Intent::Done).about("tsk_1");
        assert_eq!(done.text, "done");
        assert!(check_text(&done.text).is_ok());
        assert_eq!(click(Intent::Snooze).text, "snooze 1h");
    }
}
