//! The answer to a nudge that listed several tasks in one message (`nudges::round`:
//! nudges held by quiet hours, or due at once in the same chat).
//!
//! Choice: the person picks a task by its number in the message, "1 done", "#2 tomorrow",
//! "2: later", "done 2", and the rest of the reply then acts on that task exactly as an answer
//! to its own nudge (`TurnContext::nudged_task`, then `decide`'s rule 4): keywords, times, a
//! bare "yes" is "done". Numbers stay usable after the first answer ("1 done", then "2 later"),
//! while that grouped nudge is the latest nudge in the chat. A keyword answer with no number
//! while the grouped nudge is Donna's last word asks which one (`clarify`, nothing changes);
//! once only one of its tasks is still open, a bare answer acts on that one.
//! Not a pick: a number that starts a time or a duration ("2 hours", "2 pm"), a number after a
//! time word ("move it to 2"), two numbers ("1 and 3 done": one at a time, Donna asks).
//!
//! Pure: reads the context and the message's reading only; a pick narrows the reading's core
//! (the number is set aside like a wrapper), nothing is read again.

use std::ops::Range;

use crate::replies::analysis::Analysis;
use crate::replies::matcher::FastPathOutcome;
use crate::sentence::Sentence;

use super::apply::Work;
use super::context::TurnContext;
use super::result::TurnPath;

/// Words after a leading number that make it part of a time or a list, not a pick.
const NOT_A_PICK_AFTER: [&str; 21] = [
    "hour", "hours", "hr", "hrs", "h", "minute", "minutes", "min", "mins", "m", "day", "days",
    "week", "weeks", "month", "months", "am", "pm", "and", "or", "o'clock",
];

/// Words before a trailing number that make it a time ("move it to 2", "at 3").
const TIME_WORDS: [&str; 11] = [
    "at", "to", "by", "in", "until", "till", "for", "around", "before", "after", "on",
];

/// The context with the picked task as the nudged one, and the reading whose core is the reply
/// without its number.
pub(super) fn pick(mut context: TurnContext, sentence: &Sentence) -> (TurnContext, Sentence) {
    if context.nudge_group.is_empty() || context.nudged_task.is_some() {
        return (context, sentence.clone());
    }
    if let Some((number, rest)) = numbered(sentence) {
        let picked = context
            .nudge_group
            .iter()
            .find(|(position, _)| *position == number)
            .map(|(_, task)| task.clone());
        if let Some(task) = picked {
            context.nudged_task = Some(task);
            return (context, sentence.with_core(rest));
        }
    }
    if context.group_unanswered && context.nudge_group.len() == 1 {
        context.nudged_task = context.nudge_group.first().map(|(_, task)| task.clone());
    }
    (context, sentence.clone())
}

/// Whether the reply answers the grouped nudge with a keyword but names no task of it.
pub(super) fn asks_which(context: &TurnContext, analysis: &Analysis) -> bool {
    context.group_unanswered
        && context.nudged_task.is_none()
        && context.nudge_group.len() >= 2
        && !analysis.capture_command
        && matches!(&analysis.outcome, FastPathOutcome::Match(intent) if !intent.only_confirm_word)
}

/// "Which one?" with the open tasks by their numbers.
pub(super) fn which_one(context: &TurnContext) -> Work {
    let listed = context
        .nudge_group
        .iter()
        .map(|(number, task)| format!("{number}) '{}'", task.title))
        .collect::<Vec<_>>()
        .join(", ");
    let example = context.nudge_group.first().map_or(1, |(number, _)| *number);
    Work::Say {
        path: TurnPath::Clarify,
        text: format!(
            "Which one: {listed}? Answer with its number and what to do, like '{example} done' \
             or '{example} tomorrow'."
        ),
    }
}

/// A number that opens or ends the reply's core ("1 done", "#2: tomorrow", "done 2"), and the
/// words of the rest.
fn numbered(sentence: &Sentence) -> Option<(i64, Range<usize>)> {
    let core = sentence.core();
    let words = sentence.core_words();
    let digits = |word: &str| !word.is_empty() && word.chars().all(|c| c.is_ascii_digit());
    let number = |word: &str| -> Option<i64> { digits(word).then(|| word.parse().ok()).flatten() };
    let (first, rest) = words.split_first()?;
    if let Some(n) = number(first) {
        let blocked = rest
            .first()
            .is_some_and(|next| NOT_A_PICK_AFTER.contains(next) || digits(next));
        if !blocked && !rest.is_empty() {
            return Some((n, core.start + 1..core.end));
        }
        return None;
    }
    let (last, before) = words.split_last()?;
    let n = number(last)?;
    let previous = before.last()?;
    let has_other_digits = before
        .iter()
        .any(|word| word.chars().any(|c| c.is_ascii_digit()));
    if TIME_WORDS.contains(previous) || has_other_digits {
        return None;
    }
    Some((n, core.start..core.end - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_picks_a_task_and_a_time_or_a_list_does_not() {
        for (reply, expected) in [
            ("1 done", Some((1, "done"))),
            ("#2 tomorrow", Some((2, "tomorrow"))),
            ("2: later", Some((2, "later"))),
            ("3) busy", Some((3, "busy"))),
            (
                "1 push it to friday 3pm",
                Some((1, "push it to friday 3pm")),
            ),
            ("done 2", Some((2, "done"))),
            ("snooze 1", Some((1, "snooze"))),
            ("2 hours later", None),
            ("2 pm", None),
            ("1 and 3 done", None),
            ("1 & 3 done", None),
            ("move it to 2", None),
            ("at 3", None),
            ("2", None),
            ("done", None),
            ("push it 2 days to 3", None),
        ] {
            let sentence = Sentence::read(reply);
            let read = numbered(&sentence).map(|(n, rest)| (n, sentence.with_core(rest)));
            let read = read
                .as_ref()
                .map(|(n, rest)| (*n, rest.core_text().trim_end_matches(':')));
            assert_eq!(read, expected, "{reply:?}");
        }
    }
}
